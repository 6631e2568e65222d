import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { StatementSync } from 'node:sqlite';
import { DusError } from '../../errors.js';
import type { ConnectionParams } from './connection-params.js';
import { PreparedStatements, preparedFailure } from './pg-statements.js';
import { toNumberedPlaceholders } from './placeholders.js';
import type { Dialect, SqlClient, SqlRow, SqlValue } from './types.js';

/** Rows per batch handed over by `each`: big enough to amortise a round trip, small next to the result. */
export const STREAM_BATCH = 5_000;

/**
 * Rows a streamed read takes at a time from PostgreSQL (one FETCH), and SQLite steps between
 * two pauses: these are alive together while the rows are handed over one by one, and a
 * smaller set lives shorter and is collected young (bench/serve-start.ts measures the index
 * build's peak memory). MariaDB's rows are handed over as they are parsed.
 */
const ROW_BATCH = 500;

/** What a dialect's streamed read calls for each row: its values in column order, and the columns' names (one array for the whole read). */
type RowSink = (row: readonly SqlValue[], columns: readonly string[]) => void;

/** A row given as an array (in the statement's column order) as the object the callers read. */
function rowObject(columns: readonly string[], values: readonly SqlValue[]): SqlRow {
  const row: Record<string, SqlValue> = {};
  for (let i = 0; i < columns.length; i += 1) row[columns[i] ?? String(i)] = values[i] ?? null;
  return row;
}

/** Distinct statement texts kept compiled per SQLite connection (batch sizes 1…25 times the questions, plus accounts). */
const PREPARED_STATEMENTS = 128;

/**
 * Statements kept prepared per PostgreSQL session: each kept question 1 holds about 0.4 MB of
 * the server's memory (its query tree and generic plan, read in pg_backend_memory_contexts),
 * so at most about 13 MB a session. A search mostly asks full pages of 25.
 */
const PG_PREPARED_STATEMENTS = 32;

const NEWLINE = 0x0a;

/**
 * Read-only connections to the host database on the three dialects the host supports.
 * Nothing here ever writes: SQLite is opened read-only, PostgreSQL and MariaDB sessions are
 * switched to read-only transactions before the first statement.
 */
export interface SqlClientOptions {
  /**
   * How long a SQLite statement waits for a lock another connection holds (Nextcloud writing)
   * before it fails; default the spec's 3-second search budget.
   */
  readonly busyWaitMs?: number;
}

/** A SQLite file in use answers "database is locked" while Nextcloud writes: waited for, up to the budget. */
export const SQLITE_BUSY_WAIT_MS = 3_000;

export async function openSqlClient(params: ConnectionParams, options: SqlClientOptions = {}): Promise<SqlClient> {
  switch (params.dialect) {
    case 'sqlite':
      return openSqlite(params, options.busyWaitMs ?? SQLITE_BUSY_WAIT_MS);
    case 'pgsql':
      return openPostgres(params);
    case 'mysql':
      return openMysql(params);
  }
}

abstract class CountingClient implements SqlClient {
  abstract readonly dialect: Dialect;
  readonly prefix: string;
  #count = 0;
  constructor(prefix: string) {
    this.prefix = prefix;
  }
  get queryCount(): number {
    return this.#count;
  }
  /** One more statement sent: every read counts here, those a dialect runs its own way too. */
  protected counted(): void {
    this.#count += 1;
  }
  async query<T extends SqlRow = SqlRow>(sql: string, params: readonly SqlValue[] = []): Promise<T[]> {
    this.counted();
    return (await this.run(sql, params)) as T[];
  }
  async each(sql: string, params: readonly SqlValue[], onRows: (rows: readonly SqlRow[]) => void): Promise<void> {
    this.counted();
    let batch: SqlRow[] = [];
    await this.stream(sql, params, (row, columns) => {
      batch.push(rowObject(columns, row));
      if (batch.length < STREAM_BATCH) return;
      onRows(batch);
      batch = [];
    }, ROW_BATCH);
    if (batch.length > 0) onRows(batch);
  }
  async eachRow(sql: string, params: readonly SqlValue[], onRow: (row: readonly SqlValue[]) => void, rowsPerRead = ROW_BATCH): Promise<void> {
    this.counted();
    await this.stream(sql, params, onRow, Math.max(1, Math.floor(rowsPerRead)));
  }
  protected abstract run(sql: string, params: readonly SqlValue[]): Promise<SqlRow[]>;
  /** The rows of a read, one by one as arrays, as they arrive. */
  protected abstract stream(sql: string, params: readonly SqlValue[], onRow: RowSink, rowsPerRead: number): Promise<void>;
  abstract close(): Promise<void>;
}

function unreachable(params: ConnectionParams, detail: string, cause: unknown): DusError {
  const where =
    params.dialect === 'sqlite'
      ? `the SQLite file ${params.file ?? '?'}`
      : `${params.dialect === 'pgsql' ? 'PostgreSQL' : 'MySQL/MariaDB'} at ${params.socket ?? `${params.host ?? 'localhost'}:${params.port ?? ''}`} database ${params.database ?? '?'}`;
  return new DusError('host_unreachable', `The host database (${where}, from ${params.source}) cannot be opened: ${detail}`, { cause });
}

function errorText(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) return errorText(error.errors[0]);
  if (error instanceof Error) return error.message === '' ? error.name : error.message;
  return String(error);
}

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
        throw unreachable(params, `another connection (Nextcloud writing) kept it locked for ${(budgetMs / 1000).toFixed(1)} s; try again when the host is less busy (${errorText(error)})`, error);
      }
      await new Promise((resolve) => setTimeout(resolve, Math.min(pause, left)));
    }
  }
}

async function openSqlite(params: ConnectionParams, busyWaitMs: number): Promise<SqlClient> {
  const file = params.file ?? '';
  if (file === '' || !existsSync(file)) {
    throw unreachable(params, 'the file does not exist (check datadirectory and dbname in config.php, or the sqlite:// URL)', undefined);
  }
  const { DatabaseSync } = process.getBuiltinModule('node:sqlite');
  let db: InstanceType<typeof DatabaseSync>;
  try {
    db = new DatabaseSync(file, { readOnly: true });
    // Reference §5: the host runs every SQLite connection with case-sensitive LIKE.
    db.exec('PRAGMA case_sensitive_like = ON');
  } catch (error) {
    throw unreachable(params, errorText(error), error);
  }
  const checking = db;
  try {
    await whileBusy(params, busyWaitMs, () => checking.prepare('SELECT count(*) AS n FROM sqlite_master').get());
  } catch (error) {
    checking.close();
    throw error instanceof DusError ? error : unreachable(params, errorText(error), error);
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
    protected async stream(sql: string, values: readonly SqlValue[], onRow: RowSink, rowsPerRead: number): Promise<void> {
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
        if (step.done !== true) await new Promise((resolve) => setImmediate(resolve));
      }
    }
    async close(): Promise<void> {
      if (opened.isOpen) opened.close();
    }
  }
  return new SqliteClient(params.prefix);
}

/**
 * A connection that is dropped (the database restarted, an administrator ended the session, a
 * network cut) must not leave a long-running `serve` failing until it is restarted: such a
 * connection is replaced at the next statement, and a statement that failed because its
 * connection went away is run once more on a new one (every statement here only reads).
 */
class Reconnecting<C> {
  #current: Promise<C> | null = null;
  #dead = false;
  constructor(
    private readonly connect: () => Promise<C>,
    private readonly end: (connection: C) => Promise<void>,
  ) {}

  /** The first connection, opened at once so that a wrong address fails at open time. */
  async open(): Promise<void> {
    await this.#connection();
  }

  /** Called by the driver's 'error' and 'end' events. */
  markDead(): void {
    this.#dead = true;
  }

  async run<T>(work: (connection: C) => Promise<T>): Promise<T> {
    const connection = await this.#connection();
    try {
      return await work(connection);
    } catch (error) {
      if (!this.#dead && !isConnectionLoss(error)) throw error;
      this.#dead = true;
      return work(await this.#connection());
    }
  }

  /** Work that must not run twice (a stream whose rows were partly handed over): a lost connection fails it. */
  async runOnce<T>(work: (connection: C) => Promise<T>): Promise<T> {
    const connection = await this.#connection();
    try {
      return await work(connection);
    } catch (error) {
      if (this.#dead || isConnectionLoss(error)) this.#dead = true;
      throw error;
    }
  }

  async close(): Promise<void> {
    const current = this.#current;
    this.#current = null;
    if (current !== null) await this.end(await current).catch(() => undefined);
  }

  #connection(): Promise<C> {
    if (this.#dead && this.#current !== null) {
      const old = this.#current;
      this.#current = null;
      void old.then((c) => this.end(c)).catch(() => undefined);
    }
    this.#dead = false;
    this.#current ??= this.connect().catch((error: unknown) => {
      this.#current = null;
      throw error;
    });
    return this.#current;
  }
}

/** Errors that say the connection is gone, not that the statement was wrong. */
const CONNECTION_LOSS_CODES: ReadonlySet<string> = new Set([
  'ECONNRESET', 'EPIPE', 'ECONNREFUSED', 'ETIMEDOUT', 'PROTOCOL_CONNECTION_LOST', 'ER_SERVER_SHUTDOWN', 'ER_CONNECTION_KILLED',
  // PostgreSQL: admin_shutdown, crash_shutdown, cannot_connect_now, connection_failure.
  '57P01', '57P02', '57P03', '08006', '08003', '08000',
]);

function isConnectionLoss(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const code = 'code' in error && typeof error.code === 'string' ? error.code : '';
  if (CONNECTION_LOSS_CODES.has(code)) return true;
  const message = error instanceof Error ? error.message : '';
  return /Connection terminated|not queryable|closed state|connection is in closed/i.test(message);
}

async function openPostgres(params: ConnectionParams): Promise<SqlClient> {
  const pg = createRequire(import.meta.url)('pg') as (typeof import('pg'))['default'];
  const connections: Reconnecting<InstanceType<typeof pg.Client>> = new Reconnecting(
    async () => {
      const client = new pg.Client({
        host: params.socket ?? params.host ?? 'localhost',
        port: params.port ?? 5432,
        database: params.database,
        user: params.user,
        password: params.password,
        connectionTimeoutMillis: 5000,
        // Named in pg_stat_activity, so a database administrator sees who holds the session.
        application_name: 'docs-unified-search',
        // Read-only for the whole session: every transaction, implicit or not. No JIT: the
        // planner cannot estimate the marker filter, and compiling for a misjudged cost takes
        // far longer than the 25-marker lookup itself (bench/host-batch.ts).
        options: '-c default_transaction_read_only=on -c jit=off',
      });
      // A broken connection must not crash the process through an unhandled 'error' event.
      client.on('error', () => connections.markDead());
      client.on('end', () => connections.markDead());
      try {
        await client.connect();
      } catch (error) {
        await client.end().catch(() => undefined);
        throw unreachable(params, errorText(error), error);
      }
      return client;
    },
    (client) => client.end(),
  );
  await connections.open();
  type PgSession = InstanceType<typeof pg.Client>;
  const prepared = new WeakMap<PgSession, PreparedStatements>();
  const statementsOf = (client: PgSession): PreparedStatements => {
    let kept = prepared.get(client);
    if (kept === undefined) {
      kept = new PreparedStatements(PG_PREPARED_STATEMENTS);
      prepared.set(client, kept);
    }
    return kept;
  };
  /** Frees a given-up statement on the server and in the driver, which keeps every name it parsed with no public way to drop one. */
  const deallocate = (client: PgSession, name: string): void => {
    client.query(`DEALLOCATE ${name}`).catch(() => undefined);
    const parsed = (client as unknown as { connection?: { parsedStatements?: Record<string, string> } }).connection?.parsedStatements;
    if (parsed !== undefined) delete parsed[name];
  };
  const runNamed = async (client: PgSession, text: string, args: unknown[]): Promise<SqlRow[]> => {
    const kept = statementsOf(client);
    const { name, evicted } = kept.nameOf(text);
    if (name === undefined) return (await client.query(text, args)).rows as SqlRow[];
    const running = client.query({ name, text, values: args });
    // Queued behind the statement, so that freeing the old one does not delay this answer.
    if (evicted !== undefined) deallocate(client, evicted);
    try {
      return (await running).rows as SqlRow[];
    } catch (error) {
      const failure = preparedFailure(error);
      if (failure === null) throw error;
      if (failure === 'not-kept') kept.turnOff();
      else {
        const stale = kept.forget(text);
        if (stale !== undefined) deallocate(client, stale);
      }
      // Once more, unnamed: the answer does not depend on how the statement was sent.
      return (await client.query(text, args)).rows as SqlRow[];
    }
  };
  class PgClient extends CountingClient {
    readonly dialect = 'pgsql' as const;
    protected async run(sql: string, values: readonly SqlValue[]): Promise<SqlRow[]> {
      const text = toNumberedPlaceholders(sql);
      const args = values.map((v) => (typeof v === 'bigint' ? v.toString() : v));
      return connections.run((client) => runNamed(client, text, args));
    }
    protected async stream(sql: string, values: readonly SqlValue[], onRow: RowSink, rowsPerRead: number): Promise<void> {
      const text = toNumberedPlaceholders(sql);
      const args = values.map((v) => (typeof v === 'bigint' ? v.toString() : v));
      // A cursor in a transaction of its own (read-only, as the session is): plain SQL, no driver add-on.
      await connections.runOnce(async (client) => {
        await client.query('BEGIN');
        try {
          await client.query(`DECLARE dus_rows NO SCROLL CURSOR FOR ${text}`, args);
          for (;;) {
            // Rows as arrays: no object per row, and the batch is dropped before the next FETCH.
            const result = await client.query<SqlValue[]>({ text: `FETCH ${rowsPerRead} FROM dus_rows`, rowMode: 'array' });
            const columns = result.fields.map((field) => field.name);
            for (const row of result.rows) onRow(row, columns);
            if (result.rows.length < rowsPerRead) break;
          }
        } finally {
          // Ends the cursor too; a failed statement has aborted the transaction, which this clears.
          await client.query('ROLLBACK').catch(() => undefined);
        }
      });
    }
    /**
     * COPY sends rows as bare text, without the driver's row objects: the index build reads a
     * million names 4–5× faster than from a cursor, where the server also had to find the
     * markers' digits and pack the rows (docs/host-adapter.md, "The marker index").
     */
    async copyLines(sql: string, onLines: (lines: string) => void): Promise<void> {
      this.counted();
      const { to } = createRequire(import.meta.url)('pg-copy-streams') as typeof import('pg-copy-streams');
      await connections.runOnce(async (client) => {
        let rest: Buffer | undefined;
        let failed: { readonly error: unknown } | undefined;
        for await (const chunk of client.query(to(`COPY (${sql}) TO STDOUT`)) as AsyncIterable<Buffer>) {
          // After the caller failed, the rest is read and dropped: a COPY left unread leaves
          // the session waiting for it, and every later statement with it.
          if (failed !== undefined) continue;
          const data = rest === undefined ? chunk : Buffer.concat([rest, chunk]);
          // A row may be cut between two chunks: whole lines now, the rest with the next chunk.
          const whole = data.lastIndexOf(NEWLINE) + 1;
          rest = whole < data.length ? data.subarray(whole) : undefined;
          try {
            if (whole > 0) onLines(data.toString('latin1', 0, whole));
          } catch (error) {
            failed = { error };
          }
        }
        if (failed !== undefined) throw failed.error;
        if (rest !== undefined) throw new Error('the COPY data ended inside a row');
      });
    }
    async close(): Promise<void> {
      await connections.close();
    }
  }
  return new PgClient(params.prefix);
}

/** What `each` needs of mysql2's callback connection. */
interface StreamingConnection {
  query(options: { sql: string; values: SqlValue[]; rowsAsArray: boolean }): StreamingQuery;
}
interface StreamingQuery {
  on(event: 'fields', listener: (fields: readonly { readonly name: string }[] | undefined) => void): StreamingQuery;
  on(event: 'result', listener: (row: readonly SqlValue[]) => void): StreamingQuery;
  on(event: 'error', listener: (error: unknown) => void): StreamingQuery;
  on(event: 'end', listener: () => void): StreamingQuery;
}

async function openMysql(params: ConnectionParams): Promise<SqlClient> {
  const mysql = createRequire(import.meta.url)('mysql2/promise') as typeof import('mysql2/promise');
  type Connection = Awaited<ReturnType<typeof mysql.createConnection>>;
  const connections: Reconnecting<Connection> = new Reconnecting(
    async () => {
      let connection: Connection;
      try {
        const base = {
          database: params.database,
          user: params.user,
          password: params.password,
          connectTimeout: 5000,
          charset: 'utf8mb4',
          // BIGINT columns (file ids, sizes) as JS numbers; file ids stay far below 2^53.
          supportBigNumbers: true,
          bigNumberStrings: false,
        };
        connection = await mysql.createConnection(
          params.socket !== undefined ? { ...base, socketPath: params.socket } : { ...base, host: params.host ?? 'localhost', port: params.port ?? 3306 },
        );
      } catch (error) {
        throw unreachable(params, errorText(error), error);
      }
      connection.on('error', () => connections.markDead());
      connection.on('end', () => connections.markDead());
      try {
        await connection.query('SET SESSION TRANSACTION READ ONLY');
      } catch (error) {
        await connection.end().catch(() => undefined);
        throw unreachable(params, errorText(error), error);
      }
      return connection;
    },
    (connection) => connection.end(),
  );
  await connections.open();
  class MysqlClient extends CountingClient {
    readonly dialect = 'mysql' as const;
    protected async run(sql: string, values: readonly SqlValue[]): Promise<SqlRow[]> {
      return connections.run(async (connection) => {
        const [rows] = await connection.query(sql, values as SqlValue[]);
        return Array.isArray(rows) ? (rows as SqlRow[]) : [];
      });
    }
    protected async stream(sql: string, values: readonly SqlValue[], onRow: RowSink, rowsPerRead: number): Promise<void> {
      await connections.runOnce(async (connection) => {
        // The promise wrapper keeps the callback connection, whose queries emit rows as they arrive.
        const core = (connection as unknown as { connection?: StreamingConnection }).connection;
        if (core === undefined) {
          const [rows, fields] = await connection.query({ sql, values: values as SqlValue[], rowsAsArray: true });
          const columns = (fields ?? []).map((field) => field.name);
          if (Array.isArray(rows)) for (const row of rows) onRow(row as unknown as readonly SqlValue[], columns);
          return;
        }
        // Rows as arrays, each handed over as the driver parses it: `onRow` is synchronous, so
        // nothing is buffered (a stream's buffer held up to rowsPerRead rows in a linked list,
        // which a young collection found alive and promoted: the heap grew for them).
        await new Promise<void>((resolve, reject) => {
          let failed: { readonly error: unknown } | null = null;
          let columns: readonly string[] = [];
          core
            .query({ sql, values: values as SqlValue[], rowsAsArray: true })
            .on('fields', (fields) => {
              columns = (fields ?? []).map((field) => field.name);
            })
            .on('result', (row) => {
              if (failed !== null) return;
              try {
                onRow(row, columns);
              } catch (error) {
                // The rest of the result is read and dropped: the connection stays usable.
                failed = { error };
              }
            })
            .on('error', reject)
            .on('end', () => (failed === null ? resolve() : reject(failed.error)));
        });
      });
    }
    async close(): Promise<void> {
      await connections.close();
    }
  }
  return new MysqlClient(params.prefix);
}
