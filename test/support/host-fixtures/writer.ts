/** Read-write connections for building fixtures (the adapter itself never writes). */
import { toNumberedPlaceholders } from '../../../src/core/host/db/placeholders.js';
import type { FixtureDialect } from './index.js';

export interface Writer {
  exec(sql: string, params?: readonly unknown[]): Promise<void>;
  /** Runs an INSERT and returns the generated key of `idColumn`. */
  insert(sql: string, params: readonly unknown[], idColumn: string): Promise<number>;
  all(sql: string, params?: readonly unknown[]): Promise<Record<string, unknown>[]>;
  close(): Promise<void>;
}

export async function sqliteWriter(file: string): Promise<Writer> {
  const { DatabaseSync } = await import('node:sqlite');
  const db = new DatabaseSync(file);
  db.exec('PRAGMA journal_mode = WAL');
  type P = Parameters<ReturnType<typeof db.prepare>['run']>;
  const args = (params: readonly unknown[]): P => params.map((p) => (typeof p === 'boolean' ? (p ? 1 : 0) : p)) as P;
  return {
    exec: async (sql, params = []) => {
      if (params.length === 0 && !sql.includes('?')) db.exec(sql);
      else db.prepare(sql).run(...args(params));
    },
    insert: async (sql, params) => Number(db.prepare(sql).run(...args(params)).lastInsertRowid),
    all: async (sql, params = []) => db.prepare(sql).all(...args(params)),
    close: async () => {
      if (db.isOpen) db.close();
    },
  };
}

export async function pgWriter(database: string): Promise<Writer> {
  const pg = (await import('pg')).default;
  const client = new pg.Client({ host: '127.0.0.1', port: 5432, user: 'postgres', database, connectionTimeoutMillis: 3000 });
  client.on('error', () => undefined);
  await client.connect();
  return {
    exec: async (sql, params = []) => {
      await client.query(toNumberedPlaceholders(sql), [...params]);
    },
    insert: async (sql, params, idColumn) => {
      const result = await client.query(`${toNumberedPlaceholders(sql)} RETURNING "${idColumn}"`, [...params]);
      return Number((result.rows[0] as Record<string, unknown>)[idColumn]);
    },
    all: async (sql, params = []) => (await client.query(toNumberedPlaceholders(sql), [...params])).rows as Record<string, unknown>[],
    close: async () => {
      await client.end().catch(() => undefined);
    },
  };
}

export async function mysqlWriter(database: string | undefined): Promise<Writer> {
  const mysql = await import('mysql2/promise');
  const conn = await mysql.createConnection({ host: '127.0.0.1', port: 3306, user: 'root', database, connectTimeout: 3000, charset: 'utf8mb4' });
  conn.on('error', () => undefined);
  return {
    exec: async (sql, params = []) => {
      await conn.query(sql, [...params]);
    },
    insert: async (sql, params) => {
      const [result] = await conn.query(sql, [...params]);
      return Number((result as { insertId: number }).insertId);
    },
    all: async (sql, params = []) => {
      const [rows] = await conn.query(sql, [...params]);
      return rows as Record<string, unknown>[];
    },
    close: async () => {
      await conn.end().catch(() => undefined);
    },
  };
}

export type { FixtureDialect };
