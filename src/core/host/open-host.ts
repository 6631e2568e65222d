/**
 * The host adapter: Nextcloud's accounts, files and shares read straight from its database,
 * read-only. Each of the three questions is one statement per call (lookup-sql.ts), judged by
 * the host's rules in TypeScript (visibility.ts).
 */
import { DusError, isDusError, messageOf } from '../errors.js';
import { LOG_MESSAGES, type Logger } from '../log.js';
import { locateHost, type LocatedHost } from './db/locate.js';
import { buildLookup, buildMarkedFiles, buildRootEtags, buildTrashedFiles, rootEtagsOf, TRASH_PREFIX, rowNumber as num, rowText as text, type LookupSpec, type RootEtag } from './rules/lookup-sql.js';
import { cleanIds, markersIn } from './rules/marker.js';
import { MarkerIndex, sameRoots } from './index/marker-index.js';
import { MarkerIndexFile, markerIndexIdentity } from './index/marker-index-file.js';
import { otherAccountLookup, presentBackendTables, type BackendTable } from './account-backends.js';
import { checkSchema } from './db/schema-check.js';
import { buildShareObstacles, nearestObstacles } from './rules/share-obstacles.js';
import { buildShareReach, shareReachOf, type ShareReach } from './rules/share-reach.js';
import { openSqlClient } from './db/sql-client.js';
import { homeStorageIds, isInUserFiles } from './rules/storages.js';
import type { HostAccount, HostAdapter, HostLocation, MarkedFilesPage, MarkerIndexSize, ResolvedArchiveAccount, SearchLookup, ShareObstacle, SqlClient, SqlRow, SqlValue, TrashedFile, VisibleFile } from './types.js';
import { candidates, FOLDER_MIMETYPE, isEnabledAccount, pickPerDocument, shareMounts, type Candidate, type LookupRows, type NodeRow, type ShareRow } from './rules/visibility.js';

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
function naiveUtc(date: Date): string {
  return date.toISOString().slice(0, 19).replace('T', ' ');
}

type Question = 'visible' | 'owned' | 'foreign';

/** Statements of one batch at most: the first, then a re-run after each of two refreshes. */
const INDEXED_ATTEMPTS = 3;
/** Marker indexes kept: serve has one archive account; the cap frees those of replaced ones. */
const INDEXED_ACCOUNTS = 4;

class DatabaseHost implements HostAdapter {
  readonly hostUrl: string | null;
  readonly instanceSecret: string | null;
  readonly sql: SqlClient;
  #batched = true;
  #warned = false;
  #reportedUnsupported = false;
  readonly #located: LocatedHost;
  readonly #nestedGroups: boolean;
  readonly #options: OpenHostOptions;
  /** Marker index per archive account (one in practice), when `markerIndex` or `markerIndexFile` is on. */
  readonly #indexes = new Map<string, MarkerIndex>();
  /** The files of the indexes kept in one (`markerIndexFile`). */
  readonly #indexFiles = new Map<MarkerIndex, MarkerIndexFile>();

  readonly #otherBackends: readonly BackendTable[];

  constructor(sql: SqlClient, located: LocatedHost, nestedGroups: boolean, otherBackends: readonly BackendTable[], options: OpenHostOptions) {
    this.#otherBackends = otherBackends;
    this.sql = sql;
    this.hostUrl = located.hostUrl;
    this.instanceSecret = located.instanceSecret;
    this.#located = located;
    this.#nestedGroups = nestedGroups;
    this.#options = options;
  }

  get batched(): boolean {
    return this.#batched;
  }

  get #prefix(): string {
    return this.sql.prefix;
  }

  /** One statement sent to the host: reported to onStatement, its failure mapped to a coded error. */
  async #asked<T>(statement: string, params: readonly SqlValue[], send: () => Promise<T>): Promise<T> {
    this.#options.onStatement?.(statement, params);
    try {
      return await send();
    } catch (error) {
      throw this.#mapError(error);
    }
  }

  #query(statement: string, params: readonly SqlValue[]): Promise<SqlRow[]> {
    return this.#asked(statement, params, () => this.sql.query(statement, params));
  }

  #each(statement: string, params: readonly SqlValue[], onRows: (rows: readonly SqlRow[]) => void): Promise<void> {
    return this.#asked(statement, params, () => this.sql.each(statement, params, onRows));
  }

  #eachRow(statement: string, params: readonly SqlValue[], onRow: (row: readonly SqlValue[]) => void, rowsPerRead?: number): Promise<void> {
    return this.#asked(statement, params, () => this.sql.eachRow(statement, params, onRow, rowsPerRead));
  }

  #mapError(error: unknown): DusError {
    if (isDusError(error)) return error;
    const message = messageOf(error);
    const code = (error as { code?: unknown }).code;
    if ((typeof code === 'string' && /^(ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|PROTOCOL_CONNECTION_LOST|57P0[123]|08\d\d\d)$/.test(code)) || /Connection terminated|connection is closed|database is not open/i.test(message)) {
      return new DusError('host_unreachable', `The connection to the host database was lost (${code}).`, { cause: error });
    }
    if (/no such (table|column)|does not exist|doesn't exist|Unknown column/i.test(message)) {
      return new DusError('host_schema', `The host database lacks a table or column the adapter reads: ${message}`, { cause: error });
    }
    return new DusError('internal', `A query on the host database failed: ${message}`, { cause: error });
  }

  async findAccount(uid: string): Promise<HostAccount | null> {
    const p = this.#prefix;
    const rows = await this.#query(
      `SELECT u.uid, u.displayname,` +
        ` (SELECT pe.configvalue FROM ${p}preferences pe WHERE pe.userid = u.uid AND pe.appid = 'core' AND pe.configkey = 'enabled') AS enabled,` +
        ` (SELECT pl.configvalue FROM ${p}preferences pl WHERE pl.userid = u.uid AND pl.appid = 'core' AND pl.configkey = 'lang') AS lang,` +
        ` (SELECT pd.configvalue FROM ${p}preferences pd WHERE pd.userid = u.uid AND pd.appid = 'user_ldap' AND pd.configkey = 'isDeleted') AS ldap_deleted` +
        ` FROM ${p}users u WHERE u.uid_lower = ? OR u.uid = ?`,
      // The database backend resolves uids case-insensitively through uid_lower (reference §7).
      [uid.toLowerCase(), uid],
    );
    const row = rows.find((r) => text(r.uid) === uid) ?? rows[0];
    if (row !== undefined) return this.#account(text(row.uid) ?? uid, 'database', text(row.displayname), isEnabledAccount(text(row.enabled), text(row.ldap_deleted)), text(row.lang));
    return this.#otherBackendAccount(uid);
  }

  /** An account of user_ldap, user_saml or guests (reference §7), with its `core` preferences. */
  async #otherBackendAccount(uid: string): Promise<HostAccount | null> {
    const lookup = otherAccountLookup(this.#prefix, this.#otherBackends, uid);
    if (lookup === null) return null;
    const row = (await this.#query(lookup.sql, lookup.params))[0];
    const found = text(row?.uid);
    const backend = this.#otherBackends.find((b) => b.backend === text(row?.b))?.backend;
    if (found === null || backend === undefined) return null;
    const preferences = await this.#query(
      `SELECT appid, configkey, configvalue FROM ${this.#prefix}preferences WHERE userid = ?` +
        ` AND ((appid = 'core' AND configkey IN ('enabled', 'lang')) OR (appid = 'user_ldap' AND configkey = 'isDeleted'))`,
      [found],
    );
    const preference = (app: string, key: string): string | null =>
      text(preferences.find((p) => text(p.appid) === app && text(p.configkey) === key)?.configvalue);
    const enabled = isEnabledAccount(preference('core', 'enabled'), preference('user_ldap', 'isDeleted'));
    return this.#account(found, backend, text(row?.displayname), enabled, preference('core', 'lang'));
  }

  #account(uid: string, backend: HostAccount['backend'], displayName: string | null, enabled: boolean, lang: string | null): HostAccount {
    return { uid, enabled, language: this.#languageOf(lang), displayName, backend };
  }

  /** The language the host shows an account in: forced, else its own, else the default. */
  #languageOf(lang: string | null): string | null {
    return this.#located.forceLanguage ?? (lang !== null && lang !== '' ? lang : this.#located.defaultLanguage);
  }

  async syncAccount(): Promise<string | null> {
    const rows = await this.#query(`SELECT configvalue FROM ${this.#prefix}appconfig WHERE appid = ? AND configkey = ?`, ['docs_sync', 'target_user']);
    return syncAccountOf(text(rows[0]?.configvalue));
  }

  async isAdmin(uid: string): Promise<boolean> {
    const rows = await this.#query(`SELECT uid FROM ${this.#prefix}group_user WHERE gid = ? AND uid = ?`, ['admin', uid]);
    return rows.length > 0;
  }

  async groupsOf(uid: string): Promise<readonly string[]> {
    const p = this.#prefix;
    const statement = this.#nestedGroups
      ? `WITH RECURSIVE ug (gid) AS (SELECT gid FROM ${p}group_user WHERE uid = ? UNION SELECT gg.parent_gid FROM ${p}group_group gg JOIN ug ON gg.child_gid = ug.gid) SELECT gid FROM ug`
      : `SELECT gid FROM ${p}group_user WHERE uid = ?`;
    const rows = await this.#query(statement, [uid]);
    return [...new Set(rows.map((r) => text(r.gid) ?? ''))].filter((g) => g !== '').sort();
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
    if (archiveAccount.hostNamed !== null && probe.named !== archiveAccount.hostNamed) return { files: new Map(), language: probe.language, archiveChanged: true };
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

  async #answer(question: Question, user: string, archive: string, documentIds: readonly number[], probe?: SearchProbe): Promise<ReadonlyMap<number, VisibleFile>> {
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

  async prepareMarkerIndex(archiveAccount: string): Promise<MarkerIndexSize | null> {
    if (this.#options.markerIndex !== true) return null;
    const index = this.#indexFor(archiveAccount);
    await index.ready();
    return index.size();
  }

  /** Whether questions 1 and 2 go through a marker index: in memory (`serve`) or in the file (one-shot commands). */
  get #indexing(): boolean {
    return this.#options.markerIndex === true || this.#options.markerIndexFile !== undefined;
  }

  #indexFor(archive: string): MarkerIndex {
    let index = this.#indexes.get(archive);
    if (index === undefined) {
      const oldest = this.#indexes.keys().next();
      if (this.#indexes.size >= INDEXED_ACCOUNTS && oldest.done !== true) {
        const dropped = this.#indexes.get(oldest.value);
        this.#indexes.delete(oldest.value);
        if (dropped !== undefined) this.#closeIndexFile(dropped);
      }
      const storageIds = homeStorageIds(archive, this.#located.dataDirectory);
      const path = this.#options.markerIndex === true ? undefined : this.#options.markerIndexFile;
      const file = path === undefined ? undefined : new MarkerIndexFile(path, markerIndexIdentity(this.#located.params, archive, storageIds), this.#options.logger);
      const copyLines = this.sql.copyLines?.bind(this.sql);
      index = new MarkerIndex((statement, params) => this.#query(statement, params), this.#prefix, storageIds, {
        stream: (statement, params, onRow, rowsPerRead) => this.#eachRow(statement, params, onRow, rowsPerRead),
        ...(copyLines === undefined ? {} : { copy: (statement: string, onLines: (lines: string) => void) => this.#asked(statement, [], () => copyLines(statement, onLines)) }),
        ...(file === undefined ? {} : { store: file }),
      });
      if (file !== undefined) this.#indexFiles.set(index, file);
      this.#indexes.set(archive, index);
    }
    return index;
  }

  /** Saves a changed index file (never failing: a file that cannot be written is left) and lets it go. */
  #closeIndexFile(index: MarkerIndex): void {
    const file = this.#indexFiles.get(index);
    if (file === undefined) return;
    this.#indexFiles.delete(index);
    file.save(() => index.contents());
    file.close();
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
    let index = fast && this.#indexing && question !== 'foreign' ? this.#indexFor(archive) : null;
    if (index !== null) {
      await index.ready();
      // An index file that can be neither read nor written: scan, as without one.
      if (!index.usable) index = null;
    }
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
      probe.language = this.#languageOf(rows.viewerLanguage);
      probe.named = syncAccountOf(rows.syncAccount);
    }
    // Questions 1 and 3 ask what the user opens: a disabled account opens nothing. Question 2
    // asks what the archive account has in its folders, whether or not it can log in.
    if (question !== 'owned' && !rows.viewerEnabled) return [];
    const mounts =
      recipient === null
        ? []
        : shareMounts(recipient, rows, dataDirectory, this.#located.version).filter((m) => (question === 'visible' ? m.owner === archive : m.owner !== archive));
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
    if (files.length === 0) return { files, reach: { shares: [], members: new Map(), overrideTargets: new Map() } };
    const statement = buildShareReach(this.sql.dialect, this.#prefix, files);
    return { files, reach: shareReachOf(await this.#query(statement.sql, statement.params)) };
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
    if (this.#indexing && this.#batched) {
      const index = this.#indexFor(archiveAccount);
      await index.ready();
      if (index.usable) return this.#indexedDocuments(index);
    }
    const statement = buildMarkedFiles(this.#prefix, homeStorageIds(archiveAccount, this.#located.dataDirectory));
    const documents = new Set<number>();
    await this.#each(statement.sql, statement.params, (rows) => {
      for (const row of rows) {
        if (!isOwnFile(text(row.t1), text(row.t3))) continue;
        for (const id of markersIn(text(row.t2) ?? '')) documents.add(id);
      }
    });
    return [...documents].sort((a, b) => a - b);
  }

  async #indexedDocuments(index: MarkerIndex): Promise<readonly number[]> {
    // The same freshness rule as a lookup's: the `files` etags now, and a refresh when they moved.
    const statement = buildRootEtags(this.#prefix, index.storageIds);
    const seen = rootEtagsOf(await this.#query(statement.sql, statement.params));
    if (!sameRoots(seen, index.snapshot([]).roots)) await index.catchUp(seen);
    return index.documentIds();
  }

  async close(): Promise<void> {
    for (const index of [...this.#indexFiles.keys()]) this.#closeIndexFile(index);
    await this.sql.close();
  }
}

/** What the search's question 1 reads besides the files (searchArchiveFiles). */
interface SearchProbe {
  language: string | null;
  named: string | null;
}

/** The sync add-on's account from its stored value; an encrypted value (reference §8) is not readable here. */
function syncAccountOf(stored: string | null): string | null {
  const value = stored?.trim() ?? '';
  if (value === '' || value.startsWith('$AppConfigEncryption$')) return null;
  return value;
}

function splitRows(rows: readonly SqlRow[], recipient: string): LookupRows & { unsupportedShares: number; rootEtags: RootEtag[]; viewerEnabled: boolean; viewerLanguage: string | null; syncAccount: string | null } {
  const shares: ShareRow[] = [];
  const roots = new Map<number, NodeRow>();
  const files: NodeRow[] = [];
  const sharingConfig = new Map<string, string>();
  const disabledUsers = new Set<string>();
  const goneUsers = new Set<string>();
  let unsupportedShares = 0;
  let syncAccount: string | null = null;
  const viewer = new Map<string, string | null>();
  const node = (row: SqlRow): NodeRow => ({
    fileId: num(row.a),
    storage: num(row.b),
    permissions: num(row.c),
    path: text(row.t1),
    name: text(row.t2) ?? '',
    mimetype: text(row.t3) ?? '',
    storageId: text(row.t4) ?? '',
  });
  for (const row of rows) {
    switch (text(row.k)) {
      case 'S':
        shares.push({
          id: num(row.a),
          shareType: num(row.b),
          // The statement keeps only shares to the recipient or its groups; a group's id is not read.
          shareWith: num(row.b) === 0 ? recipient : '',
          fileSource: num(row.c),
          stime: num(row.d),
          permissions: num(row.e),
          accepted: num(row.g),
          owner: text(row.t1) ?? '',
          initiator: text(row.t2),
          target: text(row.t3) ?? '',
          expired: text(row.t4) === 'expired',
          expiration: null,
        });
        break;
      case 'R': {
        const root = node(row);
        roots.set(root.fileId, root);
        break;
      }
      case 'F':
        files.push(node(row));
        break;
      case 'C':
        sharingConfig.set(text(row.t1) ?? '', text(row.t2) ?? '');
        break;
      case 'X':
        unsupportedShares += num(row.a);
        break;
      case 'D':
        if (text(row.t3) === 'isDeleted') {
          if (!isEnabledAccount(null, text(row.t2))) goneUsers.add(text(row.t1) ?? '');
        } else if (!isEnabledAccount(text(row.t2), null)) {
          disabledUsers.add(text(row.t1) ?? '');
        }
        break;
      case 'U':
        viewer.set(text(row.t3) ?? '', text(row.t2));
        break;
      case 'A':
        syncAccount = text(row.t1);
        break;
      default:
        break;
    }
  }
  const viewerEnabled = isEnabledAccount(viewer.get('enabled') ?? null, viewer.get('isDeleted') ?? null);
  return { shares, roots, files, sharingConfig, disabledUsers, goneUsers, unsupportedShares, rootEtags: rootEtagsOf(rows), viewerEnabled, viewerLanguage: viewer.get('lang') ?? null, syncAccount };
}
