/**
 * What the three dialects' clients share, so that a read counts, batches and fails alike on
 * each of them: the statement count, `each` and `eachRow` over a dialect's own streamed read,
 * and the wording of a database that cannot be opened.
 */
import { DusError } from '../../errors.js';
import type { ConnectionParams } from './connection-params.js';
import type { Dialect, Pace, SqlClient, SqlRow, SqlValue } from './types.js';

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
export type RowSink = (row: readonly SqlValue[], columns: readonly string[]) => void;

/** A row given as an array (in the statement's column order) as the object the callers read. */
function rowObject(columns: readonly string[], values: readonly SqlValue[]): SqlRow {
  const row: Record<string, SqlValue> = {};
  for (let i = 0; i < columns.length; i += 1) row[columns[i] ?? String(i)] = values[i] ?? null;
  return row;
}

export abstract class CountingClient implements SqlClient {
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
  async each(sql: string, params: readonly SqlValue[], onRows: (rows: readonly SqlRow[]) => void, pace?: Pace): Promise<void> {
    this.counted();
    let batch: SqlRow[] = [];
    await this.stream(
      sql,
      params,
      (row, columns) => {
        batch.push(rowObject(columns, row));
        if (batch.length < STREAM_BATCH) return;
        onRows(batch);
        batch = [];
      },
      ROW_BATCH,
      pace,
    );
    if (batch.length > 0) onRows(batch);
  }
  async eachRow(sql: string, params: readonly SqlValue[], onRow: (row: readonly SqlValue[]) => void, rowsPerRead = ROW_BATCH): Promise<void> {
    this.counted();
    await this.stream(sql, params, onRow, Math.max(1, Math.floor(rowsPerRead)));
  }
  protected abstract run(sql: string, params: readonly SqlValue[]): Promise<SqlRow[]>;
  /** The rows of a read, one by one as arrays, as they arrive. */
  protected abstract stream(sql: string, params: readonly SqlValue[], onRow: RowSink, rowsPerRead: number, pace?: Pace): Promise<void>;
  abstract close(): Promise<void>;
}

export function unreachable(params: ConnectionParams, detail: string, cause: unknown): DusError {
  const where =
    params.dialect === 'sqlite'
      ? `the SQLite file ${params.file ?? '?'}`
      : `${params.dialect === 'pgsql' ? 'PostgreSQL' : 'MySQL/MariaDB'} at ${params.socket ?? `${params.host ?? 'localhost'}:${params.port ?? ''}`} database ${params.database ?? '?'}`;
  return new DusError('host_unreachable', `The host database (${where}, from ${params.source}) cannot be opened: ${detail}`, { cause });
}

export function errorText(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) return errorText(error.errors[0]);
  if (error instanceof Error) return error.message === '' ? error.name : error.message;
  return String(error);
}
