/**
 * What `openHost` is given, and what each part of the adapter (questions.ts, explain.ts,
 * reach.ts, marked-files.ts) shares: the statements, where the host is, the options. It changes
 * when an option is added.
 */
import type { Logger } from '../log.js';
import type { DirectoryAccounts, DirectorySeams } from './directory-accounts.js';
import type { HostStatements } from './db/host-statements.js';
import type { LocatedHost } from './db/locate.js';
import type { SqlValue } from './types.js';

export interface OpenHostOptions {
  readonly logger?: Logger;
  /** Clock for share expiry; tests move it. */
  readonly now?: () => Date;
  /** Evaluate config.php with `php` (default: when `php` is installed). */
  readonly usePhp?: boolean;
  readonly env?: NodeJS.ProcessEnv;
  /** Test seam: the batched statement is made to fail on the database, forcing the fallback. */
  readonly breakBatchedQuery?: boolean;
  /**
   * Keep a marker index of the archive account's files in memory (marker-index.ts) so that
   * questions 1 and 2 read their files by id instead of scanning every name: a long-running
   * process (`serve`). One-shot commands keep theirs in a file (`markerIndexFile`): building it
   * at every run would cost more than one scan.
   */
  readonly markerIndex?: boolean;
  /**
   * One-shot commands: keep the marker index in this file between runs (marker-index-file.ts),
   * checked against the host's etags like `serve`'s. Ignored when `markerIndex` is on.
   */
  readonly markerIndexFile?: string;
  /** Bench and test seam: sees every statement the adapter sends, before it is sent (plans are read with EXPLAIN). */
  readonly onStatement?: (statement: string, params: readonly SqlValue[]) => void;
  /** How long a locked SQLite file is waited for (default `SQLITE_BUSY_WAIT_MS`, 3 s); tests shorten it. */
  readonly busyWaitMs?: number;
  /** The directory's time-outs and a seam that sees each search (tests and bench). */
  readonly directory?: DirectorySeams;
}

/** What the parts of the adapter read the host with. */
export interface HostContext {
  readonly statements: HostStatements;
  readonly located: LocatedHost;
  readonly options: OpenHostOptions;
  /** The LDAP accounts as the directory answers for them (nothing asked without an active user_ldap configuration). */
  readonly directory: DirectoryAccounts;
}

/** The adapter's clock as naive UTC `YYYY-MM-DD HH:MM:SS`, the form the host stores share expirations in. */
export function hostNow(options: OpenHostOptions): string {
  return (options.now?.() ?? new Date()).toISOString().slice(0, 19).replace('T', ' ');
}
