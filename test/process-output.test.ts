/**
 * The executable's stdout and stderr (src/cli/process-output.ts): pipes, sockets and files are
 * written directly, whole and in order; a reader gone early ends the output quietly; a
 * descriptor left non-blocking hands what does not fit to Node's stream, still in order.
 */
import { afterAll, describe, expect, test } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { closeSync, constants, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { descriptorOutput } from '../src/cli/process-output.js';

const dir = mkdtempSync(join(tmpdir(), 'dus-output-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Numbered lines, `count` of them: any loss, repeat or reordering shows. */
function lines(from: number, count: number): string {
  return Array.from({ length: count }, (_, i) => `line ${String(from + i).padStart(7, '0')}\n`).join('');
}

function fifo(name: string): string {
  const path = join(dir, name);
  expect(spawnSync('mkfifo', [path]).status).toBe(0);
  return path;
}

describe('descriptorOutput', () => {
  test('a file gets every write whole and in order, without a stream', () => {
    const path = join(dir, 'out.txt');
    const fd = openSync(path, 'w');
    let streams = 0;
    const output = descriptorOutput(fd, () => {
      streams += 1;
      throw new Error('no stream is needed for a file');
    });
    for (let i = 0; i < 50; i += 1) expect(output.write(lines(i * 100, 100))).toBe(true);
    output.write(Buffer.from('bytes too\n'));
    closeSync(fd);
    expect(readFileSync(path, 'utf8')).toBe(lines(0, 5000) + 'bytes too\n');
    expect(streams).toBe(0);
    expect(output.isTTY).toBe(false);
  });

  test('a pipe whose reader has gone takes the rest quietly (EPIPE), and the run goes on', () => {
    const path = fifo('gone');
    const reader = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
    const writer = openSync(path, constants.O_WRONLY);
    closeSync(reader);
    const output = descriptorOutput(writer, () => {
      throw new Error('no stream is needed');
    });
    expect(output.write('nobody reads this\n')).toBe(true);
    expect(output.write('nor this\n')).toBe(true);
    closeSync(writer);
  });

  test('a pipe left non-blocking: what does not fit goes through the stream, and the reader gets it all in order', async () => {
    const path = fifo('nonblocking');
    const readFd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
    const writeFd = openSync(path, constants.O_WRONLY | constants.O_NONBLOCK);
    let stream: Socket | undefined;
    const output = descriptorOutput(writeFd, () => {
      stream = new Socket({ fd: writeFd, readable: false, writable: true });
      return stream;
    });
    const reader = new Socket({ fd: readFd, readable: true, writable: false });
    const chunks: Buffer[] = [];
    const received = new Promise<string>((resolve) => {
      reader.on('data', (chunk: Buffer) => chunks.push(chunk));
      reader.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    });
    // 16 writes of 64 kB: the pipe (64 kB) is full long before the reader runs.
    const results = Array.from({ length: 16 }, (_, i) => output.write(lines(i * 4096, 4096)));
    expect(stream).toBeDefined();
    expect(results.includes(false)).toBe(true);
    await new Promise<void>((resolve) => output.once('drain', resolve));
    stream?.end();
    expect(await received).toBe(lines(0, 16 * 4096));
  });
});
