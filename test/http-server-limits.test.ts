import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { connect } from 'node:net';
import { limitedServer, SERVER_LIMITS } from '../src/http/server-limits.js';
import { startHarness, type Harness } from './support/http-harness.js';

/**
 * Clients that dribble their headers, send a body a byte at a time, or keep a connection idle
 * are cut off by the server's own timeouts, and connections beyond the cap are closed as they
 * arrive. The limits are shortened here (the defaults are checked on their own); every client
 * loop is bounded and stops by itself, on loopback only.
 */

const LIMITS = { headersMs: 1_000, requestMs: 2_000, idleMs: 1_000, inactivityMs: 5_000, maxConnections: 20, checkEveryMs: 100 };
/** How long a client keeps dribbling at most: far past every limit above, so only the server can end it sooner. */
const STEP_MS = 100;
const MAX_STEPS = 60;

let h: Harness;

beforeAll(async () => {
  h = await startHarness({ configured: false, limits: LIMITS });
});

afterAll(async () => {
  await h.close();
});

interface Ended {
  /** How long the connection lived, from connect to close. */
  readonly ms: number;
  readonly answer: string;
}

/**
 * A client that writes `head`, then `drip` every STEP_MS, at most MAX_STEPS times, and gives up
 * (closes) after that: the result says when the connection closed and what the server sent.
 */
function client(head: string, drip: string | null): Promise<Ended> {
  const { port } = new URL(h.base);
  return new Promise((resolve) => {
    let answer = '';
    let steps = 0;
    let started = Date.now();
    const socket = connect(Number(port), '127.0.0.1', () => {
      started = Date.now();
      socket.write(head);
    });
    const timer = setInterval(() => {
      steps += 1;
      if (steps > MAX_STEPS || socket.destroyed) {
        socket.destroy();
        return;
      }
      if (drip !== null && socket.writable) socket.write(drip);
    }, STEP_MS);
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString('latin1')));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearInterval(timer);
      resolve({ ms: Date.now() - started, answer });
    });
  });
}

const givenUp = MAX_STEPS * STEP_MS;

function expectTimeoutAnswer(ended: Ended): void {
  expect(ended.answer.split('\r\n')[0]).toBe('HTTP/1.1 408 Request Timeout');
  expect(ended.answer).toContain('{"message":"The request was not complete in time.","code":"timeout"}');
}

describe('connection limits of serve', () => {
  test('headers dribbled a line at a time: the connection ends at the headers timeout; connections over the cap are closed at once', async () => {
    const ended = await Promise.all(Array.from({ length: 30 }, () => client('GET /healthz HTTP/1.1\r\nHost: x\r\n', 'X-Dribble: 1\r\n')));
    // Closed before any timeout could end it: the bound leaves a loaded machine room to be slow.
    const refused = ended.filter((e) => e.answer === '' && e.ms < LIMITS.headersMs - 50);
    const cutOff = ended.filter((e) => e.answer !== '');
    expect([refused.length, cutOff.length]).toEqual([30 - LIMITS.maxConnections, LIMITS.maxConnections]);
    for (const e of cutOff) {
      expectTimeoutAnswer(e);
      expect(e.ms).toBeGreaterThanOrEqual(LIMITS.headersMs - 50);
      expect(e.ms).toBeLessThan(givenUp / 2);
    }
  }, 180_000);

  test('a body sent a byte at a time: the connection ends at the request timeout', async () => {
    const head = 'POST /login HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 1000\r\n\r\nuser=';
    const ended = await client(head, 'a');
    expectTimeoutAnswer(ended);
    expect(ended.ms).toBeGreaterThanOrEqual(LIMITS.requestMs - 50);
    expect(ended.ms).toBeLessThan(givenUp / 2 + LIMITS.requestMs);
  }, 180_000);

  test('a kept-alive connection with no next request is closed after the idle timeout', async () => {
    const ended = await client('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n', null);
    expect(ended.answer).toMatch(/^HTTP\/1\.1 (200|503) /);
    expect(ended.ms).toBeGreaterThanOrEqual(LIMITS.idleMs - 50);
    expect(ended.ms).toBeLessThan(givenUp / 2);
  }, 180_000);

  test('the server still answers after all that', async () => {
    const ended = await client('GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n', null);
    expect(ended.answer).toMatch(/^HTTP\/1\.1 (200|503) /);
  });

  test('the defaults are what a reverse proxy expects', () => {
    const server = limitedServer()(() => undefined);
    expect({
      headers: server.headersTimeout,
      request: server.requestTimeout,
      idle: server.keepAliveTimeout,
      inactivity: server.timeout,
      max: server.maxConnections,
    }).toEqual({
      headers: SERVER_LIMITS.headersMs,
      request: SERVER_LIMITS.requestMs,
      idle: SERVER_LIMITS.idleMs,
      inactivity: SERVER_LIMITS.inactivityMs,
      max: SERVER_LIMITS.maxConnections,
    });
    expect(SERVER_LIMITS).toMatchObject({ headersMs: 10_000, requestMs: 30_000, idleMs: 65_000, maxConnections: 1024 });
    server.close();
  });
});
