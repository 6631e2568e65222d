/**
 * The archive emulator as a process of its own, driven over stdin/stdout by
 * emulator-process.ts: one JSON line per command, one JSON line per answer. Its own process
 * keeps the emulator's CPU out of the measured process and out of the bench's client, as a
 * real archive server on another machine would be. It ends when its stdin closes, so it
 * never outlives the bench that started it.
 */
import { createInterface } from 'node:readline';
import { startArchiveEmulator, type ArchiveEmulator } from '../../test/support/archive-emulator/index.js';
import type { ChildCommand, ChildAnswer, ChildRequest } from './emulator-protocol.js';

let emulator: ArchiveEmulator | null = null;

function answer(message: ChildAnswer): void {
  process.stdout.write(`${JSON.stringify(message)}\n`);
}

async function run(command: ChildCommand): Promise<unknown> {
  if (command.op === 'start') {
    emulator = await startArchiveEmulator(command.options);
    return emulator.url;
  }
  if (emulator === null) throw new Error('emulator not started');
  if (command.op === 'latency') {
    emulator.latencyMs = command.ms;
    return null;
  }
  if (command.op === 'clear') {
    emulator.clearRequests();
    return null;
  }
  // Method, path and query only: the recorded headers carry the API token.
  const seen: ChildRequest[] = emulator.requests.map((r) => ({ method: r.method, path: r.path, query: r.query }));
  return seen;
}

const lines = createInterface({ input: process.stdin });
lines.on('line', (line) => {
  const command = JSON.parse(line) as ChildCommand;
  run(command).then(
    (result) => answer({ id: command.id, ok: true, result }),
    (error: unknown) => answer({ id: command.id, ok: false, result: error instanceof Error ? error.message : String(error) }),
  );
});
lines.on('close', () => {
  const open = emulator;
  emulator = null;
  void (open === null ? Promise.resolve() : open.close()).finally(() => process.exit(0));
});
