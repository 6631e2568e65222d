/**
 * The MySQL/MariaDB dialect: mysql2, loaded when such a host is opened, in read-only sessions
 * whose streamed reads hand each row over as the driver parses it.
 */
import { createRequire } from 'node:module';
import { messageOf } from '../../errors.js';
import { CountingClient, errorText, unreachable, type RowSink } from './client-base.js';
import type { ConnectionParams } from './connection-params.js';
import { Reconnecting } from './reconnecting.js';
import type { Pace, SqlClient, SqlRow, SqlValue } from './types.js';

/** What `each` needs of mysql2's callback connection. */
interface StreamingConnection {
  query(options: { sql: string; values: SqlValue[]; rowsAsArray: boolean }): StreamingQuery;
  /** Stops reading from the socket (mysql2), until resume(). */
  pause(): void;
  resume(): void;
}
interface StreamingQuery {
  on(event: 'fields', listener: (fields: readonly { readonly name: string }[] | undefined) => void): StreamingQuery;
  on(event: 'result', listener: (row: readonly SqlValue[]) => void): StreamingQuery;
  on(event: 'error', listener: (error: unknown) => void): StreamingQuery;
  on(event: 'end', listener: () => void): StreamingQuery;
}

export async function openMysql(params: ConnectionParams): Promise<SqlClient> {
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
    protected async stream(sql: string, values: readonly SqlValue[], onRow: RowSink, _rowsPerRead: number, pace?: Pace): Promise<void> {
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
          let failed: { readonly error: Error } | null = null;
          let columns: readonly string[] = [];
          let paused = false;
          core
            .query({ sql, values: values as SqlValue[], rowsAsArray: true })
            .on('fields', (fields) => {
              columns = (fields ?? []).map((field) => field.name);
            })
            .on('result', (row) => {
              if (failed !== null) return;
              try {
                onRow(row, columns);
                const wait = paused ? undefined : pace?.();
                if (wait !== undefined) {
                  // Once: rows already parsed still come while the socket rests.
                  paused = true;
                  core.pause();
                  void wait.then(() => {
                    paused = false;
                    core.resume();
                  });
                }
              } catch (error) {
                // The rest of the result is read and dropped: the connection stays usable.
                failed = { error: error instanceof Error ? error : new Error(messageOf(error), { cause: error }) };
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
