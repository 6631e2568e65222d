import { safeText, shortenMiddle } from './terminal-text.js';
import type { CommandIO, GlobalOptions } from './types.js';

/** A line on stderr saying what a command waits for, redrawn in place and cleared before the result. */
export interface StatusLine {
  show(text: string): void;
  clear(): void;
}

const ERASE = '\r\u001b[K';

/** Only on a terminal, and not with `--quiet`: piped or logged stderr gets nothing extra. */
export function statusLine(io: CommandIO, globals?: GlobalOptions): StatusLine {
  if (io.stderr.isTTY !== true || globals?.quiet === true) return { show: () => undefined, clear: () => undefined };
  // One terminal row at most: a wrapped line could not be erased by returning to its start.
  const width = Math.max(1, (io.stderr.columns ?? 80) - 1);
  let shown = false;
  return {
    show: (text) => {
      io.stderr.write(`${ERASE}${shortenMiddle(safeText(text), width)}`);
      shown = true;
    },
    clear: () => {
      if (shown) io.stderr.write(ERASE);
      shown = false;
    },
  };
}

/** `work` with `text` on the status line until it settles: what a command waits for is never a blank screen. */
export async function waitingFor<T>(io: CommandIO, text: string, work: Promise<T>, globals?: GlobalOptions): Promise<T> {
  const status = statusLine(io, globals);
  status.show(text);
  try {
    return await work;
  } finally {
    status.clear();
  }
}
