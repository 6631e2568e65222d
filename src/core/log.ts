import { mkdirSync, openSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { pino, type Logger } from 'pino';
import { APP_ID } from './version.js';

export type { Logger };

/**
 * The host log: JSON lines with `app: docs_unified_search`. The spec's messages are built
 * here once so that every caller logs them the same way; none takes a term, a token or a URL.
 */
export interface LogOptions {
  /** A file path, `-` for stderr, or `null` to discard. */
  readonly destination: string | null;
  readonly level?: string;
}

export function createLogger(options: LogOptions): Logger {
  const level = options.level ?? process.env.DUS_LOG_LEVEL ?? 'info';
  if (options.destination === null) {
    return pino({ level: 'silent' });
  }
  const base = { app: APP_ID };
  if (options.destination === '-') {
    return pino({ level, base }, pino.destination({ fd: 2, sync: true }));
  }
  const fd = openLogFile(options.destination);
  return pino({ level, base }, pino.destination({ fd: fd ?? 2, sync: true }));
}

/**
 * The log file opened for appending, created private (0600 whatever the umask: the mode given
 * at creation is only ever narrowed by it). A log that cannot be opened (a read-only or foreign
 * config directory) must not stop the commands that only read: its lines go to standard error
 * after one warning line, and null is returned.
 */
function openLogFile(path: string): number | null {
  try {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    return openSync(path, 'a', 0o600);
  } catch (error: unknown) {
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    writeSync(2, `Warning: the host log ${path} cannot be written (${code}); its lines go to standard error instead.\n`);
    return null;
  }
}

export const LOG_MESSAGES = {
  connectionTestFailed: (code: string) => `The test of the connection to the archive server failed: reason (${code})`,
  saveFailed: (code: string) => `The settings of the app could not be saved (${code})`,
  searchFailed: (code: string) => `Unified search failed (${code})`,
  resultsLeftOut: (n: number, code: string) => `Unified search left out ${n} result(s) it could not show (${code})`,
  filesSkipped: (n: number, code: string) => `Unified search skipped ${n} file(s) it could not read (${code})`,
  perDocumentLookup: () => 'Unified search looks for the files of each document on its own',
  tokenUnreadable: () => "The stored API token can't be decrypted",
  queryRejected: (status: number) => `The archive server rejected the query of a search with HTTP status ${status}`,
} as const;
