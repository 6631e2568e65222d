import { fstatSync, writeSync } from 'node:fs';
import type { CommandIO, Output } from './types.js';

/**
 * What the program writes to descriptor `fd` with (1: stdout, 2: stderr) when it runs as the
 * executable. A pipe, a socket (what a process spawned by Node or systemd gets) or a file is
 * written with fs.writeSync: Node's own stream for a pipe or socket loads node:net and
 * node:stream and makes a socket (some 6 ms of every start, most of what `why` spends on its
 * output), and sets the descriptor non-blocking for every process that shares it. A write that
 * finds the reader slow blocks until it read, so `who --all` keeps no queue in memory. A
 * descriptor some other process left non-blocking answers a full pipe with EAGAIN: from then on
 * the rest goes through Node's stream (`stream()`), which queues it. Anything else (a terminal,
 * a device, a closed descriptor) gets Node's stream from the start.
 *
 * A reader that stops early (`dus search --help | head -1`) closes the pipe: the rest of the
 * output is dropped and the command ends as it would have, without a stack trace. git and gh
 * are ended by SIGPIPE instead (status 141 under `set -o pipefail`); exit 0 keeps such pipelines green.
 */
export function descriptorOutput(fd: number, stream: () => Output & NodeJS.EventEmitter): Output {
  let made: Output | undefined;
  const nodeStream = (): Output => {
    if (made === undefined) {
      const created = stream();
      created.on('error', (error: NodeJS.ErrnoException) => {
        if (error.code !== 'EPIPE') throw error;
      });
      made = created;
    }
    return made;
  };
  if (!writtenDirectly(fd)) return nodeStream();
  let closed = false;
  const output: Output = {
    isTTY: false,
    write(chunk: string | Uint8Array): boolean {
      if (made !== undefined) return made.write(chunk);
      if (closed) return true;
      const data = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
      let at = 0;
      try {
        while (at < data.length) at += writeSync(fd, data, at, data.length - at);
      } catch (error: unknown) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'EAGAIN') return nodeStream().write(data.subarray(at));
        if (code !== 'EPIPE') throw error;
        closed = true;
      }
      return true;
    },
    // Until a write met EAGAIN nothing is queued, so 'drain' never comes: write() said true.
    once(event: 'drain', listener: () => void): Output {
      made?.once(event, listener);
      return output;
    },
  };
  return output;
}

function writtenDirectly(fd: number): boolean {
  if (process.platform === 'win32') return false;
  try {
    const stat = fstatSync(fd);
    return stat.isFIFO() || stat.isSocket() || stat.isFile();
  } catch {
    return false;
  }
}

/** The executable's own IO: stdout and stderr as above, each made when first used, stdin (a stream of its kind, some 2 ms) too. */
export function processIO(): CommandIO {
  let stdout: Output | undefined;
  let stderr: Output | undefined;
  return {
    get stdout(): Output {
      stdout ??= descriptorOutput(1, () => process.stdout);
      return stdout;
    },
    get stderr(): Output {
      stderr ??= descriptorOutput(2, () => process.stderr);
      return stderr;
    },
    get stdin(): CommandIO['stdin'] {
      return process.stdin;
    },
    env: process.env,
  };
}
