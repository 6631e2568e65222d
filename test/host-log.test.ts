import { describe, expect, test } from '@jest/globals';
import { closeSync, existsSync, mkdtempSync, openSync, readdirSync, readFileSync, readlinkSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openContext } from '../src/core/context.js';
import { DusError } from '../src/core/errors.js';
import fc from 'fast-check';
import { pino } from 'pino';
import { createLogger, LOG_MESSAGES, plainLogLine, type LogFields } from '../src/core/log.js';
import { APP_ID } from '../src/core/version.js';
import { runCliProcess } from './support/cli-process.js';

/**
 * The host log as the spec writes it: JSON lines with `app: docs_unified_search`, pino's level
 * numbers and `msg`. pino is loaded at the first line that passes the level, so these lines are
 * what a command writes whether it logged before or not.
 */
function withDir<T>(work: (dir: string) => T): T {
  const dir = mkdtempSync(join(tmpdir(), 'dus-log-'));
  try {
    return work(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function withDirAsync(work: (dir: string) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'dus-log-'));
  try {
    await work(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function linesOf(file: string): Record<string, unknown>[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** The files this process has open, by path. */
function openFiles(): string[] {
  return readdirSync('/proc/self/fd').flatMap((fd) => {
    try {
      return [readlinkSync(`/proc/self/fd/${fd}`)];
    } catch {
      return [];
    }
  });
}

describe('the host log', () => {
  test('a closed service context closes its log file; a line logged after it is dropped, never written into whatever file took the descriptor', async () => {
    await withDirAsync(async (dir) => {
      const file = join(dir, 'host.log');
      const ctx = openContext({ configDir: dir, env: { DUS_LOG_LEVEL: 'debug' }, logFile: file });
      ctx.logger.info('before');
      expect(openFiles()).toContain(file);
      await ctx.close();
      expect(openFiles()).not.toContain(file);
      const other = openSync(join(dir, 'other.txt'), 'w'); // may take the descriptor the log had
      try {
        ctx.logger.error('after');
      } finally {
        closeSync(other);
      }
      expect(linesOf(file).map((line) => line.msg)).toEqual(['before']);
      expect(readFileSync(join(dir, 'other.txt'), 'utf8')).toBe('');
    });
  });

  test('writes a JSON line per call at or above its level, with the app name, level number, time, fields and message', () => {
    withDir((dir) => {
      const file = join(dir, 'host.log');
      const logger = createLogger({ destination: file, level: 'info' });
      logger.debug('not written: below info');
      logger.info({ admin: 'cli:root', user: 'anna' }, 'Administrator cli:root tried a search as anna');
      logger.warn(LOG_MESSAGES.searchFailed('timeout'));
      logger.error({ detail: 'disk full' }, LOG_MESSAGES.saveFailed('internal'));
      logger.flush();
      const lines = linesOf(file);
      expect(lines.map((line) => [line.level, line.msg])).toEqual([
        [30, 'Administrator cli:root tried a search as anna'],
        [40, 'Unified search failed (timeout)'],
        [50, 'The settings of the app could not be saved (internal)'],
      ]);
      expect(Object.keys(lines[0] ?? {}).sort()).toEqual(['admin', 'app', 'level', 'msg', 'time', 'user']);
      expect(lines.every((line) => line.app === 'docs_unified_search' && typeof line.time === 'number')).toBe(true);
      expect(lines[2]?.detail).toBe('disk full');
    });
  });

  test('debug writes the debug lines too; silent writes none', () => {
    withDir((dir) => {
      const debugFile = join(dir, 'debug.log');
      const debug = createLogger({ destination: debugFile, level: 'debug' });
      debug.debug({ code: 'http' }, LOG_MESSAGES.queryRejected(400));
      expect(linesOf(debugFile).map((line) => [line.level, line.msg, line.code])).toEqual([
        [20, 'The archive server rejected the query of a search with HTTP status 400', 'http'],
      ]);
      const silentFile = join(dir, 'silent.log');
      const silent = createLogger({ destination: silentFile, level: 'silent' });
      silent.error('never written');
      silent.flush();
      expect(readFileSync(silentFile, 'utf8')).toBe('');
    });
  });

  test('the file is created private at once, before any line (a read-only directory is warned about when the context opens)', () => {
    withDir((dir) => {
      const file = join(dir, 'logs', 'host.log');
      createLogger({ destination: file });
      expect(existsSync(file)).toBe(true);
      expect(statSync(file).mode & 0o777).toBe(0o600);
    });
  });

  test('an unknown level is refused when the logger is made: a usage error naming DUS_LOG_LEVEL and the levels', () => {
    withDir((dir) => {
      for (const level of ['loud', 'constructor', 'INFO']) {
        let refusal: unknown;
        try {
          createLogger({ destination: join(dir, 'host.log'), level });
        } catch (error) {
          refusal = error;
        }
        expect(refusal).toBeInstanceOf(DusError);
        expect((refusal as DusError).code).toBe('usage');
        expect((refusal as DusError).message).toBe(`The log level "${level}" (DUS_LOG_LEVEL) is not one of trace, debug, info, warn, error, fatal, silent.`);
      }
    });
  });

  test('DUS_LOG_LEVEL set wrong: the command says so on one line, exit 2, no stack', async () => {
    await withDirAsync(async (dir) => {
      const run = await runCliProcess(['--config-dir', dir, 'config:app:get', 'docs_unified_search', 'docs_url'], { env: { DUS_LOG_LEVEL: 'loud' } });
      expect(run.code).toBe(2);
      expect(run.err).toContain('Error [usage]: The log level "loud" (DUS_LOG_LEVEL) is not one of trace, debug, info, warn, error, fatal, silent.');
      expect(run.err).not.toMatch(/\n\s+at /);
    });
  });

  test('no destination discards every line', () => {
    const logger = createLogger({ destination: null, level: 'trace' });
    expect(() => {
      logger.error('discarded');
      logger.flush();
    }).not.toThrow();
  });
});

describe('plain lines are written without pino, as pino writes them', () => {
  /** What pino itself writes for the call, at a fixed time. */
  function pinoLine(level: 'debug' | 'info' | 'warn' | 'error', time: number, fields: LogFields | undefined, message: string): string {
    const lines: string[] = [];
    const logger = pino({ level: 'debug', base: { app: APP_ID }, timestamp: () => `,"time":${time}` }, { write: (line: string) => void lines.push(line) });
    if (fields === undefined) logger[level](message);
    else logger[level](fields, message);
    return lines.join('');
  }
  const LEVEL_NUMBERS = { debug: 20, info: 30, warn: 40, error: 50 } as const;
  const text = fc.oneof(fc.string(), fc.string({ unit: 'grapheme' }), fc.string({ unit: 'binary' }), fc.string({ minLength: 40, maxLength: 80 }));
  const value = fc.letrec((tie) => ({
    value: fc.oneof(
      { depthSize: 'small' },
      text,
      fc.double(),
      fc.integer(),
      fc.boolean(),
      fc.constant(null),
      fc.constant(undefined),
      fc.array(tie('value'), { maxLength: 3 }),
      fc.dictionary(text, tie('value'), { maxKeys: 3 }),
    ),
  })).value;

  test('the same bytes for any fields and message; anything else is left to pino', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('debug', 'info', 'warn', 'error'),
        fc.option(fc.dictionary(fc.oneof(text, fc.constantFrom('code', 'detail', 'err', 'msg', 'time')), value, { maxKeys: 4 }), { nil: undefined }),
        text,
        fc.nat(),
        (level, fields, message, time) => {
          const mine = plainLogLine(LEVEL_NUMBERS[level], time, fields, message);
          if (mine !== undefined) expect(mine).toBe(pinoLine(level, time, fields, message));
        },
      ),
      { numRuns: 2000 },
    );
    // The lines the suite writes are plain; an Error is not, and goes to pino.
    expect(plainLogLine(30, 1, { admin: 'cli:root', user: 'bob' }, 'Administrator cli:root tried a search as bob')).toBe(
      pinoLine('info', 1, { admin: 'cli:root', user: 'bob' }, 'Administrator cli:root tried a search as bob'),
    );
    expect(plainLogLine(50, 1, { err: new Error('x') }, 'm')).toBeUndefined();
    expect(plainLogLine(50, 1, { when: new Date(0) }, 'm')).toBeUndefined();
  });

  test('a plain line reaches the log file, one JSON line', () => {
    const line = withDir((dir) => {
      const logger = createLogger({ destination: join(dir, 'host.log'), level: 'info' });
      logger.info({ admin: 'cli:root', user: 'bob' }, 'Administrator cli:root tried a search as bob');
      logger.close();
      return readFileSync(join(dir, 'host.log'), 'utf8');
    });
    expect(JSON.parse(line)).toMatchObject({ level: 30, app: APP_ID, admin: 'cli:root', user: 'bob', msg: 'Administrator cli:root tried a search as bob' });
  });
});
