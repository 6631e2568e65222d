import { PassThrough, Readable } from 'node:stream';
import type { CommandIO } from '../../src/cli/types.js';

/** A CommandIO whose output is collected, for running `main()` in-process. */
export interface CapturedIO extends CommandIO {
  out(): string;
  err(): string;
}

export function captureIO(options: { stdin?: string; env?: NodeJS.ProcessEnv; tty?: boolean; columns?: number } = {}): CapturedIO {
  const stdout = new PassThrough() as PassThrough & { isTTY?: boolean; columns?: number };
  const stderr = new PassThrough() as PassThrough & { isTTY?: boolean; columns?: number };
  stdout.isTTY = options.tty ?? false;
  stderr.isTTY = options.tty ?? false;
  if (options.columns !== undefined) {
    stdout.columns = options.columns;
    stderr.columns = options.columns;
  }
  const outChunks: Buffer[] = [];
  const errChunks: Buffer[] = [];
  stdout.on('data', (c: Buffer) => outChunks.push(c));
  stderr.on('data', (c: Buffer) => errChunks.push(c));
  const stdin = Readable.from(options.stdin === undefined ? [] : [options.stdin]) as Readable & { isTTY?: boolean };
  stdin.isTTY = false;
  return {
    stdout,
    stderr,
    stdin,
    env: options.env ?? {},
    out: () => Buffer.concat(outChunks).toString('utf8'),
    err: () => Buffer.concat(errChunks).toString('utf8'),
  };
}
