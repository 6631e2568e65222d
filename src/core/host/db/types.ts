/** The host database as the adapter's rooms see it: one read-only connection, its dialect and values, and where it is. */

export type Dialect = 'sqlite' | 'pgsql' | 'mysql';
export type SqlValue = string | number | bigint | null;
export type SqlRow = Record<string, unknown>;
/** Asked between reads of a stream: a promise to wait for before reading on, or undefined to go on. */
export type Pace = () => Promise<void> | undefined;

/** One read-only connection to the host database. Placeholders are `?` on every dialect. */
export interface SqlClient {
  readonly dialect: Dialect;
  /** Table prefix, `oc_` by default. */
  readonly prefix: string;
  query<T extends SqlRow = SqlRow>(sql: string, params?: readonly SqlValue[]): Promise<T[]>;
  /**
   * The same read for results too large to hold at once (the marker index's build): rows are
   * handed to `onRows` in batches as the database sends them (SQLite steps a statement,
   * PostgreSQL fetches from a cursor, MariaDB streams the result), so memory holds one batch.
   * Counts as one statement. A lost connection fails the read instead of running it again: the
   * caller has already seen part of the rows.
   */
  /**
   * `pace` (optional), asked between reads: a promise holds the next read back until it settles
   * (a consumer whose output is full: `who --all` writing to a slow pipe), so rows do not pile up.
   */
  each(sql: string, params: readonly SqlValue[], onRows: (rows: readonly SqlRow[]) => void, pace?: Pace): Promise<void>;
  /**
   * The same streamed read row by row, each row an array of its values in the statement's
   * column order, for a caller that keeps no row (the marker index's build): no batch of rows
   * is held while the caller works, so the rows die young and reading a million of them does
   * not grow the JS heap. Counts as one statement; a lost connection fails it, as for `each`.
   * `rowsPerRead` (default 500): rows fetched at a time (PostgreSQL) or stepped between two
   * pauses (SQLite); fewer for large rows. MariaDB hands each row over as it is parsed.
   */
  eachRow(sql: string, params: readonly SqlValue[], onRow: (row: readonly SqlValue[]) => void, rowsPerRead?: number): Promise<void>;
  /**
   * PostgreSQL only: the rows of `sql` in COPY's text format, streamed (one line a row, a tab
   * between values, `\N` for NULL, backslashes and control characters escaped), handed to
   * `onLines` as runs of whole lines, each ending in a newline. The bytes come as latin1
   * characters: ASCII is itself, any other byte stands for itself alone (a caller that looks
   * for ASCII, such as markers and digits, reads them exactly; it does not decode names). COPY
   * binds no parameters, so `sql` carries its values: callers put in only numbers they checked
   * and constants of their own. Counts as one statement; a lost connection fails it, as `each`.
   */
  copyLines?(sql: string, onLines: (lines: string) => void): Promise<void>;
  /** Round trips made so far (tests count queries per batch with it). */
  readonly queryCount: number;
  close(): Promise<void>;
}

/** Where the host is: an explicit database URL, or the Nextcloud directory holding config/config.php. */
export interface HostLocation {
  readonly dbUrl?: string;
  /** Where `dbUrl` came from, as errors name it; `the --host-db URL` when not said. */
  readonly dbUrlSource?: string;
  readonly tablePrefix?: string;
  readonly nextcloudDir?: string;
  /** Host URL for links when config.php's `overwrite.cli.url` is absent or overridden. */
  readonly hostUrl?: string;
  /** Where `hostUrl` came from, as a refusal names it; `--host-url/DUS_HOST_URL` when not said. */
  readonly hostUrlSource?: string;
}
