/**
 * The host adapter: Nextcloud's accounts, files and shares read straight from its database,
 * read-only. Each of the three questions is one statement per call (rules/lookup-sql.ts),
 * judged by the host's rules in TypeScript (rules/visibility.ts); the accounts (accounts.ts)
 * and the marker indexes (index/indexes.ts) are kept by modules of their own.
 */
import { DusError, isDusError } from '../errors.js';
import { LOG_MESSAGES, type Logger } from '../log.js';
import { HostAccounts } from './accounts.js';
import { presentBackendTables, type BackendTable } from './account-backends.js';
import { HostStatements } from './db/host-statements.js';
import { locateHost, type LocatedHost } from './db/locate.js';
import { checkSchema } from './db/schema-check.js';
import { openSqlClient } from './db/sql-client.js';
import { MarkerIndexes } from './index/indexes.js';
import { sameRoots } from './index/marker-index.js';
import { nodeRowOf, shareRowOf, splitRows, syncAccountOf, viewerEnabledOf, type SearchProbe } from './rules/lookup-rows.js';
import { buildLookup, buildMarkedFiles, buildTrashedFiles, TRASH_PREFIX, rowNumber as num, rowText as text, type LookupSpec } from './rules/lookup-sql.js';
import { cleanIds, markersIn } from './rules/marker.js';
import { buildShareObstacles, nearestObstacles } from './rules/share-obstacles.js';
import {
  ACCOUNTS_PER_STATEMENT,
  buildAccountShares,
  buildFilesByMarker,
  buildReachedAccounts,
  buildShareReach,
  shareReachOf,
  type ShareReach,
} from './rules/share-reach.js';
import { homeStorageIds, isInUserFiles } from './rules/storages.js';
import type { Mount, NodeRow } from './rules/share-rules.js';
import { candidates, FOLDER_MIMETYPE, pickPerDocument, questionMounts, type Candidate } from './rules/visibility.js';
import type {
  HostAccount,
  HostAdapter,
  HostLocation,
  MarkedFilesPage,
  Pace,
  MarkerIndexSize,
  ResolvedArchiveAccount,
  SearchLookup,
  ShareObstacle,
  SqlClient,
  SqlRow,
  SqlValue,
  TrashedFile,
  VisibleFile,
} from './types.js';

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
}

export async function openHost(location: HostLocation, options: OpenHostOptions = {}): Promise<HostAdapter> {
  const located = await locateHost(location, options);
  const sql = await openSqlClient(located.params, options.busyWaitMs === undefined ? {} : { busyWaitMs: options.busyWaitMs });
  try {
    const schema = await checkSchema(sql);
    return new DatabaseHost(sql, located, schema.nestedGroups, await presentBackendTables(sql), options);
  } catch (error) {
    await sql.close();
    throw error;
  }
}

/** A row of `buildMarkedFiles` that stands for documents: a file (not a folder) under the account's `files/`. */
function isOwnFile(path: string | null, mimetype: string | null): path is string {
  return isInUserFiles(path) && path.startsWith('files/') && mimetype !== FOLDER_MIMETYPE;
}

/** Naive UTC `YYYY-MM-DD HH:MM:SS`, the form the host stores share expirations in. */
/** An `S` row's values but the recipient: two accounts with the same keys have the same share rows. A user share's id is the recipient's own. */
function rowKey(row: SqlRow): string {
  const v = (x: unknown): string => text(x) ?? '\u0002';
  return `${v(row.a)}\u0000${v(row.b)}\u0000${v(row.c)}\u0000${v(row.d)}\u0000${v(row.e)}\u0000${v(row.g)}\u0000${v(row.t1)}\u0000${v(row.t2)}\u0000${v(row.t3)}\u0000${v(row.t4)}\u0000${v(row.gid)}\u0001`;
}

function naiveUtc(date: Date): string {
  return date.toISOString().slice(0, 19).replace('T', ' ');
}

type Question = 'visible' | 'owned' | 'foreign';

/** Statements of one batch at most: the first, then a re-run after each of two refreshes. */
const INDEXED_ATTEMPTS = 3;

class DatabaseHost implements HostAdapter {
  readonly hostUrl: string | null;
  readonly instanceSecret: string | null;
  readonly sql: SqlClient;
  #batched = true;
  #warned = false;
  #reportedUnsupported = false;
  readonly #located: LocatedHost;
  readonly #options: OpenHostOptions;
  readonly #statements: HostStatements;
  readonly #accounts: HostAccounts;
  /** When `markerIndex` or `markerIndexFile` is on: the archive accounts' marker indexes. */
  readonly #indexes: MarkerIndexes;

  constructor(sql: SqlClient, located: LocatedHost, nestedGroups: boolean, otherBackends: readonly BackendTable[], options: OpenHostOptions) {
    this.sql = sql;
    this.hostUrl = located.hostUrl;
    this.instanceSecret = located.instanceSecret;
    this.#located = located;
    this.#options = options;
    this.#statements = new HostStatements(sql, options.onStatement);
    this.#accounts = new HostAccounts(this.#statements, located, nestedGroups, otherBackends);
    this.#indexes = new MarkerIndexes(this.#statements, located, options);
  }

  get batched(): boolean {
    return this.#batched;
  }

  get #prefix(): string {
    return this.sql.prefix;
  }

  #query(statement: string, params: readonly SqlValue[]): Promise<SqlRow[]> {
    return this.#statements.query(statement, params);
  }

  findAccount(uid: string): Promise<HostAccount | null> {
    return this.#accounts.findAccount(uid);
  }

  syncAccount(): Promise<string | null> {
    return this.#accounts.syncAccount();
  }

  isAdmin(uid: string): Promise<boolean> {
    return this.#accounts.isAdmin(uid);
  }

  groupsOf(uid: string): Promise<readonly string[]> {
    return this.#accounts.groupsOf(uid);
  }

  visibleArchiveFiles(user: string, archiveAccount: string, documentIds: readonly number[]): Promise<ReadonlyMap<number, VisibleFile>> {
    return this.#answer('visible', user, archiveAccount, documentIds);
  }

  async searchArchiveFiles(user: string, archiveAccount: ResolvedArchiveAccount, documentIds: readonly number[]): Promise<SearchLookup> {
    // No id to ask about: no statement, and nothing that could say the account changed.
    if (cleanIds(documentIds).length === 0) return { files: new Map(), language: null, archiveChanged: false };
    const probe: SearchProbe = { language: null, named: null };
    const files = await this.#answer('visible', user, archiveAccount.uid, documentIds, probe);
    // A stale cached archive account can only cost results: its files are not admitted.
    if (archiveAccount.hostNamed !== null && probe.named !== archiveAccount.hostNamed)
      return { files: new Map(), language: probe.language, archiveChanged: true };
    return { files, language: probe.language, archiveChanged: false };
  }

  ownedArchiveFiles(archiveAccount: string, documentIds: readonly number[]): Promise<ReadonlyMap<number, VisibleFile>> {
    return this.#answer('owned', archiveAccount, archiveAccount, documentIds);
  }

  visibleForeignFiles(user: string, archiveAccount: string, documentIds: readonly number[]): Promise<ReadonlyMap<number, VisibleFile>> {
    return this.#answer('foreign', user, archiveAccount, documentIds);
  }

  async visibleArchiveFile(user: string, archiveAccount: string, fileId: number, documentIds: readonly number[]): Promise<VisibleFile | null> {
    const ids = cleanIds(documentIds);
    if (ids.length === 0) return null;
    // The same file can be reachable through several mounts: the path of the earliest one, as for the search.
    const paths = (await this.#candidates('visible', user, archiveAccount, ids)).filter((c) => c.fileId === fileId);
    return paths.reduce<Candidate | null>((best, c) => (best === null || c.path < best.path ? c : best), null);
  }

  async #answer(
    question: Question,
    user: string,
    archive: string,
    documentIds: readonly number[],
    probe?: SearchProbe,
  ): Promise<ReadonlyMap<number, VisibleFile>> {
    const ids = cleanIds(documentIds);
    if (ids.length === 0) return new Map();
    const picked = pickPerDocument(await this.#candidates(question, user, archive, ids, probe));
    // In the order asked, so that callers keep the archive server's order.
    const result = new Map<number, VisibleFile>();
    for (const id of ids) {
      const c = picked.get(id);
      if (c !== undefined) result.set(id, c);
    }
    return result;
  }

  /** Every (document, file, path) the rules admit, in one batch, or per document after the spec's fallback. */
  async #candidates(question: Question, user: string, archive: string, ids: readonly number[], probe?: SearchProbe): Promise<Candidate[]> {
    if (this.#batched) {
      try {
        return await this.#lookup(question, user, archive, ids, true, probe);
      } catch (error) {
        if (isDusError(error) && error.code === 'host_unreachable') throw error;
        // The spec's fallback: this database does not run the batched form; ask per document.
        this.#batched = false;
      }
    }
    return this.#perDocument(question, user, archive, ids, probe);
  }

  async #perDocument(question: Question, user: string, archive: string, ids: readonly number[], probe?: SearchProbe): Promise<Candidate[]> {
    if (!this.#warned) {
      this.#warned = true;
      this.#options.logger?.warn(LOG_MESSAGES.perDocumentLookup());
    }
    const all: Candidate[] = [];
    for (const id of ids) all.push(...(await this.#lookup(question, user, archive, [id], false, probe)));
    return all;
  }

  prepareMarkerIndex(archiveAccount: string): Promise<MarkerIndexSize | null> {
    return this.#indexes.prepare(archiveAccount);
  }

  async #lookup(question: Question, user: string, archive: string, ids: readonly number[], fast: boolean, probe?: SearchProbe): Promise<Candidate[]> {
    const dataDirectory = this.#located.dataDirectory;
    const sameUser = user === archive;
    // Who counts as "own files", and whose shares to whom are candidates (see visibility.ts).
    const ownOf = question === 'owned' ? archive : question === 'visible' ? (sameUser ? archive : null) : sameUser ? null : user;
    const recipient = question === 'owned' || (question === 'visible' && sameUser) ? null : user;
    // Questions 1 and 2 only ever admit files of the archive account's home storages (own
    // files, or files under a mount whose owner and node are the archive account's), which is
    // what the index covers.
    const index = fast && question !== 'foreign' ? await this.#indexes.usableFor(archive) : null;
    let rows: ReturnType<typeof splitRows>;
    for (let attempt = 1; ; attempt += 1) {
      const snapshot = index?.snapshot(ids);
      const spec: LookupSpec = {
        dialect: this.sql.dialect,
        prefix: this.#prefix,
        documentIds: ids,
        ownStorageIds: ownOf === null ? [] : homeStorageIds(ownOf, dataDirectory),
        shareRecipient: recipient,
        ...(question === 'owned' ? {} : { viewer: user }),
        ...(probe === undefined ? {} : { forSearch: true }),
        now: naiveUtc(this.#options.now?.() ?? new Date()),
        fast,
        breakStatement: fast && this.#options.breakBatchedQuery === true,
        ...(recipient !== null && !this.#reportedUnsupported ? { unsupportedSharesOf: archive } : {}),
        ...(index !== null && snapshot !== undefined ? { indexed: { fileIds: snapshot.fileIds, storageIds: index.storageIds } } : {}),
      };
      const statement = buildLookup(spec);
      rows = splitRows(await this.#query(statement.sql, statement.params), recipient ?? '');
      if (spec.unsupportedSharesOf !== undefined) {
        this.#reportedUnsupported = true;
        if (rows.unsupportedShares > 0) {
          this.#options.logger?.info(
            { count: rows.unsupportedShares },
            'The archive account shares files with Teams, Talk rooms or Deck boards; such shares are not supported and those files are not shown through them',
          );
        }
      }
      // Unchanged etags: the index was current. Changed: refresh and ask again; after the
      // last attempt the rows are still judged fresh, so a host changing all the time can
      // only cost omissions.
      if (index === null || snapshot === undefined || sameRoots(rows.rootEtags, snapshot.roots) || attempt >= INDEXED_ATTEMPTS) break;
      await index.catchUp(rows.rootEtags);
    }
    if (probe !== undefined) {
      probe.language = this.#accounts.languageOf(rows.viewerLanguage);
      probe.named = syncAccountOf(rows.syncAccount);
    }
    // Questions 1 and 3 ask what the user opens: a disabled account opens nothing. Question 2
    // asks what the archive account has in its folders, whether or not it can log in.
    if (question !== 'owned' && !rows.viewerEnabled) return [];
    const mounts =
      recipient === null ? [] : questionMounts(question === 'visible' ? 'visible' : 'foreign', recipient, archive, rows, dataDirectory, this.#located.version);
    return candidates({ documentIds: new Set(ids), ownFilesOf: ownOf, mounts, dataDirectory }, rows.files);
  }

  async shareObstacles(user: string, archiveAccount: string, files: readonly VisibleFile[]): Promise<ReadonlyMap<number, ShareObstacle>> {
    // Only the archive account's own files (question 2's answers) have share rows to explain.
    const own = files.filter((f) => f.owner === archiveAccount && f.path.startsWith('/'));
    if (own.length === 0) return new Map();
    const statement = buildShareObstacles(this.sql.dialect, this.#prefix, user, own, naiveUtc(this.#options.now?.() ?? new Date()));
    return nearestObstacles(await this.#query(statement.sql, statement.params), own, user, this.#located.version, this.#located.dataDirectory);
  }

  async shareReach(archiveAccount: string, documentId: number): Promise<{ files: readonly VisibleFile[]; reach: ShareReach }> {
    // Every file of the archive account carrying the marker, not only the one question 2 picks: a user may open another copy.
    const files = (await this.#candidates('owned', archiveAccount, archiveAccount, cleanIds([documentId]))).filter((f) => f.path.startsWith('/'));
    if (files.length === 0) return { files, reach: { shares: [], members: new Map(), overrideTargets: new Map(), files: [] } };
    const statement = buildShareReach(this.#prefix, files);
    return { files, reach: shareReachOf(await this.#query(statement.sql, statement.params)) };
  }

  async reachedAccounts(archiveAccount: string): Promise<readonly string[]> {
    const statement = buildReachedAccounts(this.#prefix, archiveAccount);
    const rows = await this.#query(statement.sql, statement.params);
    return [...new Set(rows.map((r) => text(r.uid) ?? ''))].filter((uid) => uid !== '').sort();
  }

  async reachedMounts(archiveAccount: string, accounts: readonly string[]): Promise<ReadonlyMap<string, readonly Mount[]>> {
    const result = new Map<string, readonly Mount[]>();
    const now = naiveUtc(this.#options.now?.() ?? new Date());
    const unique = [...new Set(accounts)];
    for (let from = 0; from < unique.length; from += ACCOUNTS_PER_STATEMENT) {
      const chunk = unique.slice(from, from + ACCOUNTS_PER_STATEMENT);
      const statement = buildAccountShares(this.sql.dialect, this.#prefix, chunk, now);
      const common: SqlRow[] = [];
      const own = new Map<string, { readonly rows: SqlRow[]; key: string; ownsOne: boolean }>();
      for (const row of await this.#query(statement.sql, statement.params)) {
        const kind = text(row.k);
        if (kind !== 'S' && kind !== 'U') {
          common.push(row);
          continue;
        }
        const account = text(row.u) ?? '';
        let entry = own.get(account);
        if (entry === undefined) {
          entry = { rows: [], key: '', ownsOne: false };
          own.set(account, entry);
        }
        entry.rows.push(row);
        if (kind === 'S') {
          entry.key += rowKey(row);
          if (text(row.t1) === account || text(row.t2) === account) entry.ownsOne = true;
        }
      }
      // The nodes, switches and sharers' flags once; each account's shares and flags its own: the rows question 1 reads for it.
      const shared = splitRows(common, '');
      // The rules see the account only in its rows and in whether it owns or re-shared one of
      // them (share-rules.ts notForUser): the members of a group with the same rows (no override
      // of their own) get one answer, worked out once, not 10 000 times.
      const same = new Map<string, readonly Mount[]>();
      for (const account of chunk) {
        const entry = own.get(account);
        const mine = entry?.rows ?? [];
        if (!viewerEnabledOf(mine)) continue;
        if (account === archiveAccount) {
          result.set(account, []);
          continue;
        }
        const key = entry === undefined || entry.ownsOne ? null : entry.key;
        const known = key === null ? undefined : same.get(key);
        if (known !== undefined) {
          result.set(account, known);
          continue;
        }
        const rows = { ...shared, shares: mine.filter((row) => text(row.k) === 'S').map((row) => shareRowOf(row, account)) };
        const mounts = questionMounts('visible', account, archiveAccount, rows, this.#located.dataDirectory, this.#located.version);
        if (key !== null) same.set(key, mounts);
        result.set(account, mounts);
      }
    }
    return result;
  }

  async eachArchiveDocument(archiveAccount: string, onDocument: (documentId: number, files: readonly NodeRow[]) => void, pace?: Pace): Promise<void> {
    const statement = buildFilesByMarker(this.sql.dialect, this.#prefix, homeStorageIds(archiveAccount, this.#located.dataDirectory));
    // Names with several markers come first and are few: kept, sorted, and merged into the stream.
    const several: { documentId: number; file: NodeRow }[] = [];
    let sorted = false;
    let next = 0;
    let current = -1;
    let group: NodeRow[] = [];
    const flush = (): void => {
      if (current >= 0) onDocument(current, group);
      group = [];
    };
    /** Opens document `id`'s group, first handing over the documents of several-marker names before it. */
    const open = (id: number): void => {
      if (!sorted) {
        several.sort((a, b) => a.documentId - b.documentId || a.file.fileId - b.file.fileId);
        sorted = true;
      }
      while (next < several.length) {
        const entry = several[next];
        if (entry === undefined || entry.documentId > id) break;
        if (entry.documentId !== current) {
          flush();
          current = entry.documentId;
        }
        group.push(entry.file);
        next += 1;
      }
      if (id !== current) {
        flush();
        current = id;
      }
    };
    await this.#statements.each(
      statement.sql,
      statement.params,
      (rows) => {
        for (const row of rows) {
          const file = nodeRowOf(row);
          if (!isOwnFile(file.path, file.mimetype)) continue;
          const ids = markersIn(file.name);
          if (num(row.m) === 0) {
            for (const documentId of new Set(ids)) several.push({ documentId, file });
            continue;
          }
          const [id] = ids;
          if (id === undefined) continue;
          if (id < current) throw new DusError('internal', `The host returned the marked files out of document order (${id} after ${current}).`);
          open(id);
          group.push(file);
        }
      },
      pace,
    );
    open(Number.MAX_SAFE_INTEGER);
    flush();
  }

  groupMembers(gid: string): Promise<readonly string[]> {
    return this.#accounts.membersOf(gid);
  }

  async trashedArchiveFiles(archiveAccount: string, documentIds: readonly number[]): Promise<ReadonlyMap<number, TrashedFile>> {
    const ids = cleanIds(documentIds);
    if (ids.length === 0) return new Map();
    const statement = buildTrashedFiles(this.#prefix, homeStorageIds(archiveAccount, this.#located.dataDirectory), ids);
    const wanted = new Set(ids);
    const found = new Map<number, TrashedFile>();
    for (const row of await this.#query(statement.sql, statement.params)) {
      const path = text(row.t1) ?? '';
      if (!path.startsWith(TRASH_PREFIX) || text(row.t3) === FOLDER_MIMETYPE) continue;
      // The trash appends `.d<deletion time>` to the item it holds: the first segment of the path.
      const [top = '', ...rest] = path.slice(TRASH_PREFIX.length).split('/');
      const name = [top.replace(/\.d\d+$/, ''), ...rest].join('/');
      const fileId = num(row.a);
      for (const id of markersIn(text(row.t2) ?? '')) {
        const known = found.get(id);
        if (wanted.has(id) && (known === undefined || fileId < known.fileId)) found.set(id, { documentId: id, fileId, name });
      }
    }
    return found;
  }

  async markedFiles(archiveAccount: string, offset: number, limit: number): Promise<MarkedFilesPage> {
    const statement = buildMarkedFiles(this.#prefix, homeStorageIds(archiveAccount, this.#located.dataDirectory));
    const rows = await this.#query(statement.sql, statement.params);
    const list: Candidate[] = [];
    for (const row of rows) {
      const path = text(row.t1);
      const name = text(row.t2) ?? '';
      const mimetype = text(row.t3) ?? '';
      if (!isOwnFile(path, mimetype)) continue;
      for (const documentId of markersIn(name)) {
        list.push({ documentId, fileId: num(row.a), path: `/${path.slice('files/'.length)}`, name, mimetype, owner: archiveAccount });
      }
    }
    const picked = [...pickPerDocument(list).values()].sort((a, b) => a.documentId - b.documentId);
    const start = Math.max(0, Math.floor(offset));
    return {
      total: picked.length,
      files: picked.slice(start, start + Math.max(0, Math.floor(limit))).map((c) => ({ documentId: c.documentId, fileId: c.fileId, path: c.path })),
    };
  }

  async markedDocuments(archiveAccount: string): Promise<readonly number[]> {
    const indexed = this.#batched ? await this.#indexes.markedDocuments(archiveAccount) : null;
    if (indexed !== null) return indexed;
    const statement = buildMarkedFiles(this.#prefix, homeStorageIds(archiveAccount, this.#located.dataDirectory));
    const documents = new Set<number>();
    await this.#statements.each(statement.sql, statement.params, (rows) => {
      for (const row of rows) {
        if (!isOwnFile(text(row.t1), text(row.t3))) continue;
        for (const id of markersIn(text(row.t2) ?? '')) documents.add(id);
      }
    });
    return [...documents].sort((a, b) => a - b);
  }

  async close(): Promise<void> {
    this.#indexes.close();
    await this.sql.close();
  }
}
