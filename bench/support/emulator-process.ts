/**
 * Starts the archive emulator in a process of its own (emulator-child.ts) and drives it: the
 * benches measure `serve` and their own client without the emulator's work in either.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { EmulatorOptions } from '../../test/support/archive-emulator/index.js';
import type { ChildAnswer, ChildCommand, ChildRequest } from './emulator-protocol.js';

const CHILD = join(dirname(fileURLToPath(import.meta.url)), 'emulator-child.js');

/** Distributes the omission of `id` over the union, so each command is written without it. */
type WithoutId<T> = T extends unknown ? Omit<T, 'id'> : never;

export interface EmulatorProcess {
  readonly url: string;
  readonly pid: number | undefined;
  setLatency(ms: number): Promise<void>;
  clearRequests(): Promise<void>;
  /** Method, path and query of every request since the last clear. */
  requests(): Promise<ChildRequest[]>;
  close(): Promise<void>;
}

export async function startEmulatorProcess(options: EmulatorOptions): Promise<EmulatorProcess> {
  const child: ChildProcess = spawn(process.execPath, [CHILD], { stdio: ['pipe', 'pipe', 'inherit'] });
  const pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  let nextId = 1;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.once('exit', (code) => {
    for (const waiter of pending.values()) waiter.reject(new Error(`the emulator process exited (${code})`));
    pending.clear();
  });
  if (child.stdout === null || child.stdin === null) throw new Error('the emulator process has no pipes');
  const input = child.stdin;
  createInterface({ input: child.stdout }).on('line', (line) => {
    const message = JSON.parse(line) as ChildAnswer;
    const waiter = pending.get(message.id);
    pending.delete(message.id);
    if (message.ok) waiter?.resolve(message.result);
    else waiter?.reject(new Error(String(message.result)));
  });
  const send = (command: WithoutId<ChildCommand>): Promise<unknown> =>
    new Promise((resolve, reject) => {
      const id = nextId;
      nextId += 1;
      pending.set(id, { resolve, reject });
      input.write(`${JSON.stringify({ ...command, id })}\n`);
    });
  const url = await send({ op: 'start', options });
  if (typeof url !== 'string') throw new Error('the emulator process did not say where it listens');
  return {
    url,
    pid: child.pid,
    setLatency: async (ms) => {
      await send({ op: 'latency', ms });
    },
    clearRequests: async () => {
      await send({ op: 'clear' });
    },
    requests: async () => (await send({ op: 'requests' })) as ChildRequest[],
    close: async () => {
      input.end();
      await exited;
    },
  };
}
