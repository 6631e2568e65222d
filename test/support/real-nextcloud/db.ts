/**
 * Reading the real Nextcloud's own database (never writing it): what Nextcloud recorded after an
 * operation (share targets in oc_share, mounts in oc_mounts), for scenarios that report it and for
 * comparing the host fixture's schema with a real install. SQLite is opened read-only and waits
 * for Nextcloud's write lock (its busy timeout) instead of failing on it.
 */
import type { NextcloudDb } from './source.js';

export type Row = Record<string, unknown>;

/** A bound on waiting for Nextcloud's SQLite write lock: a request's transaction, not a fixed pause. */
const SQLITE_BUSY_MS = 60_000;

/** Runs one read-only statement (`?` placeholders) against the database of an install. */
export async function readRows(db: NextcloudDb, location: { file?: string; name: string }, sql: string, params: readonly unknown[] = []): Promise<Row[]> {
  if (db === 'sqlite') {
    const { DatabaseSync } = await import('node:sqlite');
    if (location.file === undefined) throw new Error('an SQLite install has a database file');
    const conn = new DatabaseSync(location.file, { readOnly: true, timeout: SQLITE_BUSY_MS });
    try {
      return conn.prepare(sql).all(...(params as never[]));
    } finally {
      conn.close();
    }
  }
  if (db === 'pgsql') {
    const pg = (await import('pg')).default;
    const client = new pg.Client({ host: '127.0.0.1', port: 5432, user: 'postgres', database: location.name, connectionTimeoutMillis: 10_000 });
    client.on('error', () => undefined);
    await client.connect();
    try {
      let n = 0;
      return (
        await client.query(
          sql.replace(/\?/g, () => `$${++n}`),
          [...params],
        )
      ).rows as Row[];
    } finally {
      await client.end().catch(() => undefined);
    }
  }
  const mysql = await import('mysql2/promise');
  const conn = await mysql.createConnection({
    host: '127.0.0.1',
    port: 3306,
    user: 'root',
    database: location.name,
    connectTimeout: 10_000,
    charset: 'utf8mb4',
  });
  conn.on('error', () => undefined);
  try {
    const [rows] = await conn.query(sql, [...params]);
    return rows as Row[];
  } finally {
    await conn.end().catch(() => undefined);
  }
}
