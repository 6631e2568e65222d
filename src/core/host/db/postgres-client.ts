/**
 * The PostgreSQL dialect: pg, loaded when a PostgreSQL host is opened, in read-only sessions
 * that keep their statements prepared and stream through a cursor or COPY.
 */
import { createRequire } from 'node:module';
import { CountingClient, errorText, unreachable, type RowSink } from './client-base.js';
import type { ConnectionParams } from './connection-params.js';
import { PreparedStatements, preparedFailure } from './pg-statements.js';
import { toNumberedPlaceholders } from './placeholders.js';
import { Reconnecting } from './reconnecting.js';
import type { Pace, SqlClient, SqlRow, SqlValue } from './types.js';

/**
 * Statements kept prepared per PostgreSQL session: each kept question 1 holds about 0.4 MB of
 * the server's memory (its query tree and generic plan, read in pg_backend_memory_contexts),
 * so at most about 13 MB a session. A search mostly asks full pages of 25.
 */
const PG_PREPARED_STATEMENTS = 32;

const NEWLINE = 0x0a;

export async function openPostgres(params: ConnectionParams): Promise<SqlClient> {
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
    protected async stream(sql: string, values: readonly SqlValue[], onRow: RowSink, rowsPerRead: number, pace?: Pace): Promise<void> {
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
            await pace?.();
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
