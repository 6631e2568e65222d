import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import type * as Pino from 'pino';
import { DusError } from './errors.js';
import { APP_ID } from './version.js';

/** Fields of a log line beside its message (never a term, a token or a URL query). */
export type LogFields = Readonly<Record<string, unknown>>;

export interface LogMethod {
  (message: string): void;
  (fields: LogFields, message: string): void;
}

/**
 * The host log as the suite uses it: a line at a level, and `flush` when the context closes.
 * A pino logger is one (tests hand theirs in); `createLogger`'s writes through pino.
 */
export interface Logger {
  readonly debug: LogMethod;
  readonly info: LogMethod;
  readonly warn: LogMethod;
  readonly error: LogMethod;
  flush(): void;
}

/**
 * The host log: JSON lines with `app: docs_unified_search`. The spec's messages are built
 * here once so that every caller logs them the same way; none takes a term, a token or a URL.
 */
export interface LogOptions {
  /** A file path, `-` for stderr, or `null` to discard. */
  readonly destination: string | null;
  readonly level?: string;
}

/** pino's levels by name, the ones `DUS_LOG_LEVEL` may name. */
const LEVELS: Readonly<Record<string, number>> = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60, silent: Number.POSITIVE_INFINITY };

/** The logger a service context owns: it closes the log file when the context closes. */
export interface OwnedLogger extends Logger {
  /** Flushes and closes the log file; lines logged after it are dropped (its descriptor may be another file's by then). */
  close(): void;
}

export function createLogger(options: LogOptions): OwnedLogger {
  const level = options.level ?? process.env.DUS_LOG_LEVEL ?? 'info';
  const threshold = Object.hasOwn(LEVELS, level) ? LEVELS[level] : undefined;
  // Refused when the context opens, before anything runs (pino would throw a bare error later).
  if (threshold === undefined) {
    throw new DusError('usage', `The log level ${JSON.stringify(level.slice(0, 40))} (DUS_LOG_LEVEL) is not one of ${Object.keys(LEVELS).join(', ')}.`);
  }
  if (options.destination === null) return new LazyLogger(Number.POSITIVE_INFINITY, () => null, null);
  // The file is opened (created 0600, or its warning given) now, whether or not a line follows.
  const file = options.destination === '-' ? null : openLogFile(options.destination);
  const fd = file ?? 2;
  return new LazyLogger(
    threshold,
    () => {
      const { pino } = createRequire(import.meta.url)('pino') as typeof Pino;
      return pino({ level, base: { app: APP_ID } }, pino.destination({ fd, sync: true }));
    },
    file,
  );
}

/** In Unicode mode a surrogate pair is one code point: this matches only a lone half, which pino and JSON.stringify write differently. */
const LONE_SURROGATE = /\p{Cs}/u;

function wellFormed(text: string): boolean {
  return !LONE_SURROGATE.test(text);
}

/** The value as JSON, when it is plain data: strings well formed, numbers, booleans, null, and arrays and plain objects of them. */
function plainJson(value: unknown, depth: number): string | undefined {
  if (typeof value === 'string') return wellFormed(value) ? JSON.stringify(value) : undefined;
  if (typeof value === 'number') return Number.isFinite(value) ? JSON.stringify(value) : 'null';
  if (typeof value === 'boolean' || value === null) return JSON.stringify(value);
  if (typeof value !== 'object' || depth > 8) return undefined;
  if (Array.isArray(value)) {
    const items: string[] = [];
    for (const item of value as unknown[]) {
      const json = item === undefined ? 'null' : plainJson(item, depth + 1);
      if (json === undefined) return undefined;
      items.push(json);
    }
    return `[${items.join(',')}]`;
  }
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return undefined;
  const members: string[] = [];
  for (const [key, item] of Object.entries(value)) {
    if (item === undefined) continue;
    const json = plainJson(item, depth + 1);
    if (json === undefined || !wellFormed(key)) return undefined;
    members.push(`${JSON.stringify(key)}:${json}`);
  }
  return `{${members.join(',')}}`;
}

/**
 * The line pino writes for this call (`{"level":…,"time":…,"app":…,<fields>,"msg":…}`), made
 * here when every field is plain data (the log's lines are: codes, names, counts); undefined
 * otherwise (an Error, a Date, an `err` or `msg` field, a string that is not well formed), and
 * pino writes that one. test/host-log.test.ts holds the two to the same bytes.
 */
export function plainLogLine(level: number, time: number, fields: LogFields | undefined, message: string): string | undefined {
  if (!wellFormed(message)) return undefined;
  let line = `{"level":${level},"time":${time},"app":${JSON.stringify(APP_ID)}`;
  for (const key in fields) {
    if (!Object.hasOwn(fields, key)) continue;
    const value = fields[key];
    if (value === undefined) continue;
    if (key === 'err' || key === 'msg' || typeof value === 'function') return undefined;
    const json = plainJson(value, 0);
    if (json === undefined || !wellFormed(key)) return undefined;
    line += `,${JSON.stringify(key)}:${json}`;
  }
  return `${line},"msg":${JSON.stringify(message)}}\n`;
}

/**
 * pino (with its serializers, redaction and worker-thread transport support: some 30 modules,
 * about 15 ms of a one-shot search's CPU) is loaded at the first line that passes the level and
 * is not plain data (`plainLogLine`), which the log file gets from here as pino would write it:
 * a command that logs plain lines, or nothing, never loads it. Standard error (`-`) always goes
 * through pino, whose writer waits out a full pipe. Lines are written synchronously, so nothing
 * waits in between, and in order whichever writes them.
 */
class LazyLogger implements OwnedLogger {
  #threshold: number;
  readonly #make: () => Pino.Logger | null;
  #pino: Pino.Logger | null | undefined;
  /** The log file this logger opened (not standard error), until closed. */
  #file: number | null;

  constructor(threshold: number, make: () => Pino.Logger | null, file: number | null) {
    this.#threshold = threshold;
    this.#make = make;
    this.#file = file;
  }

  readonly debug: LogMethod = (first: LogFields | string, message?: string) => this.#write(20, 'debug', first, message);
  readonly info: LogMethod = (first: LogFields | string, message?: string) => this.#write(30, 'info', first, message);
  readonly warn: LogMethod = (first: LogFields | string, message?: string) => this.#write(40, 'warn', first, message);
  readonly error: LogMethod = (first: LogFields | string, message?: string) => this.#write(50, 'error', first, message);

  flush(): void {
    this.#pino?.flush();
  }

  close(): void {
    this.flush();
    this.#threshold = Number.POSITIVE_INFINITY;
    this.#pino = null;
    if (this.#file !== null) closeSync(this.#file);
    this.#file = null;
  }

  #write(level: number, name: 'debug' | 'info' | 'warn' | 'error', first: LogFields | string, message: string | undefined): void {
    if (level < this.#threshold) return;
    if (this.#file !== null) {
      const line =
        typeof first === 'string'
          ? plainLogLine(level, Date.now(), undefined, first)
          : message === undefined
            ? undefined
            : plainLogLine(level, Date.now(), first, message);
      if (line !== undefined) {
        writeSync(this.#file, line);
        return;
      }
    }
    if (this.#pino === undefined) this.#pino = this.#make();
    if (this.#pino === null) return;
    if (typeof first === 'string') this.#pino[name](first);
    else this.#pino[name](first, message);
  }
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
  connectionTestFailed: (code: string, error: string) => `The test of the connection to the archive server failed: ${code} (${error})`,
  saveFailed: (code: string) => `The settings of the app could not be saved (${code})`,
  searchFailed: (code: string) => `Unified search failed (${code})`,
  resultsLeftOut: (n: number, code: string) => `Unified search left out ${n} result(s) it could not show (${code})`,
  perDocumentLookup: () => 'Unified search looks for the files of each document on its own',
  tokenUnreadable: () => "The stored API token can't be decrypted",
  queryRejected: (status: number) => `The archive server rejected the query of a search with HTTP status ${status}`,
} as const;
