/**
 * Read-only connections to the host database on the three dialects the host supports.
 * Nothing here ever writes: SQLite is opened read-only, PostgreSQL and MariaDB sessions are
 * switched to read-only transactions before the first statement. Each dialect has its module;
 * a driver package is loaded only when its dialect is opened (one-shot commands on SQLite
 * never load pg or mysql2).
 */
import type { ConnectionParams } from './connection-params.js';
import { openMysql } from './mysql-client.js';
import { openPostgres } from './postgres-client.js';
import { openSqlite, SQLITE_BUSY_WAIT_MS } from './sqlite-client.js';
import type { SqlClient } from './types.js';

export interface SqlClientOptions {
  /**
   * How long a SQLite statement waits for a lock another connection holds (Nextcloud writing)
   * before it fails; default the spec's 3-second search budget.
   */
  readonly busyWaitMs?: number;
}

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
