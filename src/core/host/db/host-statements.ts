/**
 * The one way the adapter sends a statement, so that the accounts, the lookup and the marker
 * index are all seen by the bench and test hook (`onStatement`) before a statement is sent,
 * and all fail with the same coded errors (`host_unreachable`, `host_schema`, `internal`)
 * rather than a driver's own.
 */
import { DusError, isDusError, messageOf } from '../../errors.js';
import { msg } from '../../i18n/catalog.js';
import type { Pace, SqlClient, SqlRow, SqlValue } from './types.js';

export type StatementHook = (statement: string, params: readonly SqlValue[]) => void;

export class HostStatements {
  readonly sql: SqlClient;
  readonly #onStatement: StatementHook | undefined;

  constructor(sql: SqlClient, onStatement: StatementHook | undefined) {
    this.sql = sql;
    this.#onStatement = onStatement;
  }

  get prefix(): string {
    return this.sql.prefix;
  }

  query(statement: string, params: readonly SqlValue[]): Promise<SqlRow[]> {
    return this.#asked(statement, params, () => this.sql.query(statement, params));
  }

  each(statement: string, params: readonly SqlValue[], onRows: (rows: readonly SqlRow[]) => void, pace?: Pace): Promise<void> {
    return this.#asked(statement, params, () => this.sql.each(statement, params, onRows, pace));
  }

  eachRow(statement: string, params: readonly SqlValue[], onRow: (row: readonly SqlValue[]) => void, rowsPerRead?: number): Promise<void> {
    return this.#asked(statement, params, () => this.sql.eachRow(statement, params, onRow, rowsPerRead));
  }

  /** `copyLines` through the same seam, on the dialects that have it (PostgreSQL). */
  copier(): ((statement: string, onLines: (lines: string) => void) => Promise<void>) | undefined {
    const copyLines = this.sql.copyLines?.bind(this.sql);
    if (copyLines === undefined) return undefined;
    return (statement, onLines) => this.#asked(statement, [], () => copyLines(statement, onLines));
  }

  async #asked<T>(statement: string, params: readonly SqlValue[], send: () => Promise<T>): Promise<T> {
    this.#onStatement?.(statement, params);
    try {
      return await send();
    } catch (error) {
      throw statementError(error);
    }
  }
}

function statementError(error: unknown): DusError {
  if (isDusError(error)) return error;
  const message = messageOf(error);
  const code = (error as { code?: unknown }).code;
  if (
    (typeof code === 'string' && /^(ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|PROTOCOL_CONNECTION_LOST|57P0[123]|08\d\d\d)$/.test(code)) ||
    /Connection terminated|connection is closed|database is not open/i.test(message)
  ) {
    return new DusError('host_unreachable', msg('host_unreachable.lost', { detail: typeof code === 'string' ? code : message }), { cause: error });
  }
  if (/no such (table|column)|does not exist|doesn't exist|Unknown column/i.test(message)) {
    return new DusError('host_schema', msg('host_schema.missing', { detail: message }), { cause: error });
  }
  return new DusError('internal', `A query on the host database failed: ${message}`, { cause: error });
}
