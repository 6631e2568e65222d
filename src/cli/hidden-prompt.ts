/**
 * A password-style prompt: when standard input is a terminal, `--token-stdin` asks on stderr and
 * reads one line with the terminal's echo off (raw mode), so the typed token is never shown, never
 * kept in the terminal's scroll-back and never reaches stdout, stderr or the log.
 */
import { DusError } from '../core/errors.js';
import type { CommandIO } from './types.js';

interface RawTerminal {
  setRawMode(mode: boolean): unknown;
}

function isRawTerminal(stream: unknown): stream is NodeJS.ReadableStream & RawTerminal {
  return typeof (stream as Partial<RawTerminal>).setRawMode === 'function';
}

const CTRL_C = '\u0003';
const CTRL_D = '\u0004';
const CTRL_U = '\u0015';
const BACKSPACES = new Set(['\u007f', '\b']);

/**
 * Reads one line from the terminal on `io.stdin` without echo, after writing `prompt` to stderr.
 * Refuses (usage) when no prompt can be shown: stdin is a terminal but stderr is not one, or the
 * terminal cannot turn its echo off; `advice` then says how to give the value without a terminal.
 */
export async function readHiddenLine(io: CommandIO, prompt: string, advice: string): Promise<string> {
  const stdin = io.stdin;
  if (io.stderr.isTTY !== true || !isRawTerminal(stdin)) {
    throw new DusError('usage', `standard input is a terminal but no hidden prompt can be shown here: ${advice}`);
  }
  // Echo off before the prompt shows: whatever is typed after seeing it is never echoed.
  stdin.setRawMode(true);
  io.stderr.write(prompt);
  stdin.resume();
  return new Promise<string>((resolve, reject) => {
    let value = '';
    const finish = (): void => {
      stdin.removeListener('data', onData);
      stdin.removeListener('end', onEnd);
      stdin.setRawMode(false);
      stdin.pause();
      io.stderr.write('\n');
    };
    const onEnd = (): void => {
      finish();
      resolve(value);
    };
    const onData = (chunk: string | Buffer): void => {
      for (const char of typeof chunk === 'string' ? chunk : chunk.toString('utf8')) {
        if (char === '\r' || char === '\n' || char === CTRL_D) {
          finish();
          resolve(value);
          return;
        }
        if (char === CTRL_C) {
          finish();
          reject(new DusError('usage', 'the prompt was interrupted (Ctrl-C): nothing was saved.'));
          return;
        }
        if (BACKSPACES.has(char)) value = value.slice(0, -1);
        else if (char === CTRL_U) value = '';
        else if (char >= ' ') value += char;
      }
    };
    stdin.on('data', onData);
    stdin.on('end', onEnd);
  });
}
