/**
 * Several checked addresses for one name, over real loopback: an address that stays silent
 * (a filtered route, often IPv6) must not use up the connect timeout while the next one would
 * answer. The silent address is a listening socket whose queue is full and that never accepts:
 * the kernel then drops further connection attempts, exactly like a filtered route.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { createArchiveClient } from '../src/core/archive/archive-client.js';
import type { ResolvedAddress } from '../src/core/archive/types.js';
import { failureOf } from './support/archive-client-helpers.js';
import { startArchiveEmulator } from './support/archive-emulator/index.js';
import type { ArchiveEmulator } from './support/archive-emulator/types.js';

const TOKEN = 'addresses-test-token-Hq72';
const SILENT = '127.0.0.3';
const TIMEOUTS = { connectMs: 2_000, answerMs: 8_000, widgetAnswerMs: 8_000, retryWindowMs: 3_500 };

const python = spawnSync('python3', ['--version']).status === 0;
if (!python) console.log('SKIP silent-address tests: python3 is not installed (it holds a socket that never accepts)');
const describePython = python ? describe : describe.skip;

/** A socket on SILENT:port that listens, never accepts, and has its one-slot queue filled. */
async function silentListener(port: number): Promise<{ close(): void }> {
  const child: ChildProcess = spawn(
    'python3',
    [
      '-c',
      'import socket, sys, time\ns = socket.socket()\ns.bind((sys.argv[1], int(sys.argv[2])))\ns.listen(0)\nprint("ready", flush=True)\ntime.sleep(120)',
      SILENT,
      String(port),
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  await new Promise((resolve, reject) => {
    child.stdout?.once('data', resolve);
    child.once('exit', reject);
  });
  // The queue's one slot, taken: every later attempt is dropped and waits.
  const filler = net.connect({ host: SILENT, port });
  await new Promise<void>((resolve, reject) => {
    filler.once('connect', resolve);
    filler.once('error', reject);
  });
  return {
    close() {
      filler.destroy();
      child.kill();
    },
  };
}

describePython('a silent address beside one that answers', () => {
  let emulator: ArchiveEmulator;
  let silent: { close(): void };

  beforeAll(async () => {
    emulator = await startArchiveEmulator({ tokens: [TOKEN] });
    silent = await silentListener(emulator.port);
  });

  afterAll(async () => {
    silent.close();
    await emulator.close();
  });

  const clientFor = (addresses: readonly ResolvedAddress[]) =>
    createArchiveClient(
      { url: `http://archive.test:${emulator.port}`, token: TOKEN, allowLocal: true },
      { timeouts: TIMEOUTS, resolver: async () => addresses },
    );

  it('the silent address first: the next one is tried beside it and answers, in one try', async () => {
    const before = emulator.requests.length;
    const client = clientFor([
      { address: SILENT, family: 4 },
      { address: '127.0.0.1', family: 4 },
    ]);
    const result = await client.testConnection();
    expect(result.count).toBeGreaterThanOrEqual(0);
    expect(emulator.requests.length - before).toBe(1);
    await client.close();
  });

  it('only silent addresses: the connect timeout, before a connection (so the second try follows)', async () => {
    const client = clientFor([{ address: SILENT, family: 4 }]);
    const failure = await failureOf(client.testConnection(), TOKEN);
    expect([failure.code, failure.beforeConnection]).toEqual(['timeout', true]);
    await client.close();
  });
});
