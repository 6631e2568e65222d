/**
 * The SQLite dialect: node:sqlite, read-only, with a wait of its own for a file that Nextcloud
 * holds locked while it writes.
 */
import type { StatementSync } from 'node:sqlite';
import { DusError } from '../../errors.js';
import { CountingClient, errorText, unreachable, type RowSink } from './client-base.js';
import type { ConnectionParams } from './connection-params.js';
import { sqliteFileProblem, sqliteOpenProblem } from './sqlite-access.js';
import type { Pace, SqlClient, SqlRow, SqlValue } from './types.js';

/** Distinct statement texts kept compiled per SQLite connection (batch sizes 1…25 times the questions, plus accounts). */
const PREPARED_STATEMENTS = 128;

/** A SQLite file in use answers "database is locked" while Nextcloud writes: waited for, up to the budget. */
export const SQLITE_BUSY_WAIT_MS = 3_000;

/** SQLITE_BUSY (5) or SQLITE_LOCKED (6), extended codes included: another connection holds the lock. */
function isSqliteBusy(error: unknown): boolean {
  const code = (error as { errcode?: unknown } | null)?.errcode;
  if (typeof code === 'number') return (code & 0xff) === 5 || (code & 0xff) === 6;
  return /database is locked|database table is locked|database is busy/i.test(errorText(error));
}

/**
 * Runs a SQLite call, and while another connection holds the lock, runs it again after a short
 * pause, up to `budgetMs`. The pauses are timers, not SQLite's own busy handler: node:sqlite is
 * synchronous, and its handler would stop `serve` answering anyone while it waits.
 */
async function whileBusy<T>(params: ConnectionParams, budgetMs: number, call: () => T): Promise<T> {
  const started = Date.now();
  for (let pause = 5; ; pause = Math.min(pause * 2, 100)) {
    try {
      return call();
    } catch (error) {
      if (!isSqliteBusy(error)) throw error;
      const left = budgetMs - (Date.now() - started);
      if (left <= 0) {
        throw unreachable(
          params,
          `another connection (Nextcloud writing) kept it locked for ${(budgetMs / 1000).toFixed(1)} s; try again when the host is less busy (${errorText(error)})`,
          error,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, Math.min(pause, left)));
    }
  }
}

export async function openSqlite(params: ConnectionParams, busyWaitMs: number): Promise<SqlClient> {
  const file = params.file ?? '';
  const problem = sqliteFileProblem(file);
  if (problem !== null) throw unreachable(params, problem, undefined);
  const refused = (error: unknown): DusError => unreachable(params, sqliteOpenProblem(file, errorText(error)) ?? errorText(error), error);
  const { DatabaseSync } = process.getBuiltinModule('node:sqlite');
  let db: InstanceType<typeof DatabaseSync>;
  try {
    db = new DatabaseSync(file, { readOnly: true });
    // Reference §5: the host runs every SQLite connection with case-sensitive LIKE.
    db.exec('PRAGMA case_sensitive_like = ON');
  } catch (error) {
    throw refused(error);
  }
  const checking = db;
  try {
    await whileBusy(params, busyWaitMs, () => checking.prepare('SELECT count(*) AS n FROM sqlite_master').get());
  } catch (error) {
    checking.close();
    throw error instanceof DusError ? error : refused(error);
  }
  const opened = db;
  const statements = new Map<string, StatementSync>();
  /** Compiling a statement costs more than running a 25-marker batch on a small database: kept per text, the oldest dropped. */
  const prepared = (sql: string): StatementSync => {
    const known = statements.get(sql);
    if (known !== undefined) return known;
    const statement = opened.prepare(sql);
    statements.set(sql, statement);
    const oldest = statements.keys().next();
    if (statements.size > PREPARED_STATEMENTS && oldest.done !== true) statements.delete(oldest.value);
    return statement;
  };
  class SqliteClient extends CountingClient {
    readonly dialect = 'sqlite' as const;
    protected async run(sql: string, values: readonly SqlValue[]): Promise<SqlRow[]> {
      return whileBusy(params, busyWaitMs, () => prepared(sql).all(...values) as SqlRow[]);
    }
    protected async stream(sql: string, values: readonly SqlValue[], onRow: RowSink, rowsPerRead: number, pace?: Pace): Promise<void> {
      // A statement of its own: a kept one could be reset by a query run while this one pauses.
      // Only the first step can meet a lock (a reader keeps its snapshot or lock until the end).
      const started = await whileBusy(params, busyWaitMs, () => {
        const statement = opened.prepare(sql);
        const columns = statement.columns().map((column) => column.name);
        // Rows as arrays: node:sqlite's row objects outlive their batch in V8's old space until
        // a full collection (a build of 1 M markers grew the heap by tens of MiB for nothing).
        // (Node 22.13–22.15 have no setReturnArrays: their rows are objects, turned into arrays.)
        const arrays = typeof statement.setReturnArrays === 'function';
        if (arrays) statement.setReturnArrays(true);
        const rows = statement.iterate(...values);
        return { rows, columns, arrays, first: rows.next() };
      });
      const { rows, columns, arrays } = started;
      let step = started.first;
      while (step.done !== true) {
        for (let n = 0; step.done !== true && n < rowsPerRead; n += 1, step = rows.next()) {
          const row = step.value as unknown;
          onRow(arrays ? (row as readonly SqlValue[]) : columns.map((name) => (row as Record<string, SqlValue>)[name] ?? null), columns);
        }
        // serve keeps answering while a big index is read: node:sqlite blocks while it steps.
        if (step.done !== true) await (pace?.() ?? new Promise((resolve) => setImmediate(resolve)));
      }
    }
    async close(): Promise<void> {
      if (opened.isOpen) opened.close();
    }
  }
  return new SqliteClient(params.prefix);
}
