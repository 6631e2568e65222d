import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createArchiveClient } from '../src/core/archive/archive-client.js';
import type { ArchiveClientOptions, ResolvedAddress } from '../src/core/archive/types.js';
import { isLocalAddress } from '../src/core/net/address-guard.js';
import { failureOf, useArchiveEmulator } from './support/archive-client-helpers.js';
import { startArchiveEmulator } from './support/archive-emulator/index.js';
import type { ArchiveEmulator } from './support/archive-emulator/types.js';

/**
 * Kept-alive connections to the archive server, over real loopback HTTP(S) against the
 * emulator, which counts the TCP connections it accepts: reuse for the same origin and the
 * same checked addresses only, the second-try rule on reused connections, nothing left open.
 */

const TOKEN = 'reuse-test-token-Hq27vm';
const TIMEOUTS = { connectMs: 500, answerMs: 2000, widgetAnswerMs: 2000, retryWindowMs: 3500 };
const ONE: readonly ResolvedAddress[] = [{ address: '127.0.0.1', family: 4 }];
/** Loopback too, but nothing listens there on the emulator's port: a connect is refused. */
const OTHER: readonly ResolvedAddress[] = [{ address: '127.0.0.2', family: 4 }];

/** A resolver whose answer a test changes between requests; it counts lookups (one per try and hop). */
function switchableResolver(first: readonly ResolvedAddress[]): {
  resolver: NonNullable<ArchiveClientOptions['resolver']>;
  answer: (next: readonly ResolvedAddress[]) => void;
  calls: () => number;
} {
  let current = first;
  let calls = 0;
  return {
    resolver: async () => {
      calls += 1;
      return current;
    },
    answer: (next) => {
      current = next;
    },
    calls: () => calls,
  };
}

/** Waits for something another process or socket does in its own time; fails the test if it never happens. */
async function until(condition: () => boolean, what: string, rounds = 500): Promise<void> {
  for (let round = 0; round < rounds && !condition(); round += 1) await new Promise((resolve) => setTimeout(resolve, 10));
  if (!condition()) throw new Error(`never happened: ${what}`);
}

describe('connection reuse over HTTP', () => {
  let emulator: ArchiveEmulator;
  useArchiveEmulator({ version: '2.20', tokens: [TOKEN] }, (started) => (emulator = started));
  const client = (options: ArchiveClientOptions = {}) =>
    createArchiveClient({ url: emulator.url, token: TOKEN, allowLocal: true }, { timeouts: TIMEOUTS, ...options });

  it('two requests one after another share one TCP connection', async () => {
    const archive = client();
    const before = emulator.connections;
    await archive.testConnection();
    await archive.search({ term: 'invoice', page: 1 });
    expect(emulator.requests).toHaveLength(2);
    expect(emulator.connections - before).toBe(1);
    // Every request still carries the token and the version header, as on a fresh connection.
    expect(emulator.requests.map((request) => request.headers.authorization)).toEqual([`Token ${TOKEN}`, `Token ${TOKEN}`]);
    await archive.close();
  });

  it('concurrent requests open as many connections as needed, and the next ones reuse them', async () => {
    const archive = client();
    // Latency keeps the three requests in flight at the same time.
    emulator.latencyMs = 150;
    const before = emulator.connections;
    await Promise.all([archive.testConnection(), archive.names('correspondents', [1]), archive.names('document_types', [1])]);
    expect(emulator.connections - before).toBe(3);
    await Promise.all([archive.testConnection(), archive.names('correspondents', [2]), archive.names('document_types', [2])]);
    await archive.testConnection();
    expect(emulator.requests).toHaveLength(7);
    expect(emulator.connections - before).toBe(3);
    await archive.close();
  });

  it('separate clients never share connections', async () => {
    const before = emulator.connections;
    const first = client();
    const second = client();
    await first.testConnection();
    await second.testConnection();
    expect(emulator.connections - before).toBe(2);
    await Promise.all([first.close(), second.close()]);
  });

  it('a different checked address list for the same origin gets a new connection to the newly checked addresses, never the pooled one', async () => {
    const dns = switchableResolver(ONE);
    const archive = createArchiveClient(
      { url: `http://archive.test:${emulator.port}`, token: TOKEN, allowLocal: true },
      { timeouts: TIMEOUTS, resolver: dns.resolver },
    );
    const before = emulator.connections;
    await archive.testConnection();
    expect(emulator.connections - before).toBe(1);

    // DNS now names an address where nothing listens: the request goes there (refused), not over the idle socket.
    dns.answer(OTHER);
    const failure = await failureOf(archive.testConnection(), TOKEN);
    expect([failure.code, failure.beforeConnection]).toEqual(['unreachable', true]);
    expect(emulator.requests).toHaveLength(1);
    // A refused fresh connection keeps its one second try.
    expect(dns.calls()).toBe(3);

    // Another list that includes the old address is still another list: a new connection, reached after the refusal.
    dns.answer([...OTHER, ...ONE]);
    await archive.testConnection();
    expect(emulator.connections - before).toBe(2);

    // The first list again: its idle connection is still there and is reused.
    dns.answer(ONE);
    await archive.testConnection();
    expect(emulator.connections - before).toBe(2);
    expect(emulator.requests).toHaveLength(3);
    await archive.close();
  });

  it('a failure on a reused connection gets no second try: one request seen, unreachable', async () => {
    const dns = switchableResolver(ONE);
    const archive = createArchiveClient(
      { url: `http://archive.test:${emulator.port}`, token: TOKEN, allowLocal: true },
      { timeouts: TIMEOUTS, resolver: dns.resolver },
    );
    const before = emulator.connections;
    await archive.testConnection();
    emulator.clearRequests();
    emulator.faults = [{ destroySocket: true, times: 1 }];
    const failure = await failureOf(archive.testConnection(), TOKEN);
    expect([failure.code, failure.beforeConnection]).toEqual(['unreachable', false]);
    expect(emulator.requests).toHaveLength(1);
    expect(dns.calls()).toBe(2);
    expect(emulator.connections - before).toBe(1);
    // The broken connection was dropped: the next request opens a new one and succeeds.
    await archive.testConnection();
    expect(emulator.connections - before).toBe(2);
    await archive.close();
  });

  it('an answer cut short by the body cap closes its connection; the next request connects anew', async () => {
    const archive = client({ maxBodyBytes: 100_000 });
    const before = emulator.connections;
    await archive.testConnection();
    emulator.faults = [{ hugeBodyBytes: 300_000, times: 1 }];
    expect((await failureOf(archive.testConnection(), TOKEN)).code).toBe('not_paperless');
    await archive.testConnection();
    expect(emulator.connections - before).toBe(2);
    await archive.close();
  });

  it('error statuses are read to the end and leave the connection reusable', async () => {
    const archive = client();
    const before = emulator.connections;
    emulator.faults = [{ status: 503, contentType: 'text/plain', body: 'busy', times: 1 }];
    expect((await failureOf(archive.testConnection(), TOKEN)).code).toBe('http');
    await archive.testConnection();
    expect(emulator.connections - before).toBe(1);
    await archive.close();
  });

  it('after the idle time the client closes the connection itself; the next request connects anew and succeeds', async () => {
    await until(() => emulator.openConnections === 0, 'earlier connections closed');
    const archive = client();
    const before = emulator.connections;
    await archive.testConnection();
    expect(emulator.openConnections).toBe(1);
    // The emulator (Node's server) would keep it 5 s: closed well before that, the client's own 1 s idle time ended it.
    await until(() => emulator.openConnections === 0, 'the idle connection closed before the server would close it', 300);
    await archive.testConnection();
    expect(emulator.connections - before).toBe(2);
    await archive.close();
  });

  it('a server that closes after its answer (Connection: close): the next request connects anew and succeeds', async () => {
    const archive = client();
    const before = emulator.connections;
    emulator.faults = [{ headers: { Connection: 'close' }, times: 1 }];
    await archive.testConnection();
    await archive.testConnection();
    await archive.testConnection();
    expect(emulator.requests).toHaveLength(3);
    expect(emulator.connections - before).toBe(2);
    await archive.close();
  });

  it('a server announcing an idle timeout of 1 s or less gets no reuse: its connection would close too soon', async () => {
    const archive = client();
    const before = emulator.connections;
    emulator.faults = [{ headers: { 'Keep-Alive': 'timeout=1' } }];
    await archive.testConnection();
    await archive.testConnection();
    expect(emulator.connections - before).toBe(2);
    await archive.close();
  });

  it('close() closes every connection; a request after it still works and leaves nothing open', async () => {
    // Connections of earlier tests, closed on their side, may still be closing on the emulator's.
    await until(() => emulator.openConnections === 0, 'earlier connections closed');
    const archive = client();
    emulator.latencyMs = 100;
    await Promise.all([archive.testConnection(), archive.testConnection()]);
    expect(emulator.openConnections).toBe(2);
    await archive.close();
    await until(() => emulator.openConnections === 0, 'the emulator saw both connections close');
    emulator.latencyMs = 0;
    await archive.testConnection();
    await until(() => emulator.openConnections === 0, 'the connection of a request after close() closed');
  });

  it('a script using a client exits by itself after its last request: idle connections hold no process', async () => {
    const compiled = join(import.meta.dirname, '..', 'dist', 'core', 'archive', 'archive-client.js');
    // `npm test` builds first; run `npm run build` before running this file alone.
    expect(existsSync(compiled)).toBe(true);
    const script = `
      import { createArchiveClient } from ${JSON.stringify(pathToFileURL(compiled).href)};
      const client = createArchiveClient({ url: process.env.ARCHIVE_URL, token: process.env.ARCHIVE_TOKEN, allowLocal: true });
      await client.testConnection();
      await client.testConnection();
      await new Promise((resolve) => setImmediate(resolve));
      console.log(JSON.stringify(process.getActiveResourcesInfo()));
    `;
    const before = emulator.connections;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
      env: { ...process.env, ARCHIVE_URL: emulator.url, ARCHIVE_TOKEN: TOKEN },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    // Only a guard against a hanging test run: the assertion is that the child exits on its own.
    const guard = setTimeout(() => child.kill('SIGKILL'), 120_000);
    const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
      child.on('exit', (exitCode, exitSignal) => resolve([exitCode, exitSignal])),
    );
    clearTimeout(guard);
    expect({ code, signal, stderr }).toEqual({ code: 0, signal: null, stderr: '' });
    // After the last answer nothing keeps the event loop alive: the kept-alive socket is not among its resources.
    const resources = JSON.parse(stdout.trim()) as string[];
    expect(resources).not.toContain('TCPSocketWrap');
    expect(resources).not.toContain('TLSWrap');
    expect(emulator.requests).toHaveLength(2);
    expect(emulator.connections - before).toBe(1);
    expect(stdout).not.toContain(TOKEN);
  });
});

describe('connection reuse over HTTPS', () => {
  let secure: ArchiveEmulator;
  beforeAll(async () => {
    secure = await startArchiveEmulator({ version: '3.0', https: true, tokens: [TOKEN] });
  });
  afterAll(async () => {
    await secure.close();
  });
  beforeEach(() => secure.clearRequests());

  it('requests one after another share one TLS connection', async () => {
    const archive = createArchiveClient({ url: secure.url, token: TOKEN, allowLocal: true }, { timeouts: TIMEOUTS, ca: secure.ca });
    const before = secure.connections;
    for (let run = 0; run < 3; run += 1) await archive.testConnection();
    expect(secure.requests).toHaveLength(3);
    expect(secure.connections - before).toBe(1);
    await archive.close();
  });

  it('a rejected certificate leaves no connection behind to reuse: every request is checked again', async () => {
    const archive = createArchiveClient({ url: secure.url, token: TOKEN, allowLocal: true }, { timeouts: TIMEOUTS });
    const before = secure.connections;
    expect((await failureOf(archive.testConnection(), TOKEN)).code).toBe('tls');
    expect((await failureOf(archive.testConnection(), TOKEN)).code).toBe('tls');
    expect(secure.connections - before).toBe(2);
    expect(secure.requests).toHaveLength(0);
    await archive.close();
  });
});

describe('redirect hops use connections of their own origin', () => {
  let first: ArchiveEmulator;
  let second: ArchiveEmulator;
  beforeAll(async () => {
    first = await startArchiveEmulator({ version: '2.20', tokens: [TOKEN] });
    second = await startArchiveEmulator({ version: '2.20', tokens: [TOKEN] });
  });
  afterAll(async () => {
    await first.close();
    await second.close();
  });

  it('a forward to another origin never gets the token, over its own reused connection', async () => {
    // Loopback plays the public internet for the two names; every other address keeps the real rule.
    const resolver = async (): Promise<readonly ResolvedAddress[]> => ONE;
    const archive = createArchiveClient(
      { url: `http://archive.test:${first.port}`, token: TOKEN, allowLocal: false },
      { timeouts: TIMEOUTS, resolver, isLocalAddress: (address) => address !== '127.0.0.1' && isLocalAddress(address) },
    );
    first.faults = [{ redirectTo: `http://other.test:${second.port}/api/documents/?page_size=1&fields=id` }];
    const [firstBefore, secondBefore] = [first.connections, second.connections];
    for (let run = 0; run < 3; run += 1) {
      const failure = await failureOf(archive.testConnection(), TOKEN);
      expect([failure.code, failure.status]).toEqual(['unauthorized', 401]);
    }
    expect(first.requests.map((request) => request.headers.authorization)).toEqual([`Token ${TOKEN}`, `Token ${TOKEN}`, `Token ${TOKEN}`]);
    expect(second.requests.map((request) => request.headers.authorization)).toEqual([undefined, undefined, undefined]);
    expect([first.connections - firstBefore, second.connections - secondBefore]).toEqual([1, 1]);
    await archive.close();
  });
});
