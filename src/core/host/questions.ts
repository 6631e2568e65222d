/**
 * The three questions of the verdict table: one statement per call (rules/lookup-sql.ts),
 * judged by the host's rules in TypeScript (rules/visibility.ts), read through the marker index
 * when one is kept, and asked per document after the spec's fallback. It changes when the way a
 * question is asked does.
 */
import { isDusError } from '../errors.js';
import { LOG_MESSAGES } from '../log.js';
import type { HostAccounts } from './accounts.js';
import type { HostContext } from './host-context.js';
import { hostNow } from './host-context.js';
import type { MarkerIndexes } from './index/indexes.js';
import { sameRoots } from './index/marker-index.js';
import { splitRows, syncAccountOf, type SearchProbe } from './rules/lookup-rows.js';
import { buildLookup, type LookupSpec } from './rules/lookup-sql.js';
import { cleanIds } from './rules/marker.js';
import { homeStorageIds } from './rules/storages.js';
import { candidates, pickPerDocument, questionMounts, type Candidate } from './rules/visibility.js';
import { externalFactsOf, externalViews, mountedFor, NO_EXTERNAL, type ExternalView } from './rules/external-storage.js';
import type { ResolvedArchiveAccount, SearchLookup, VisibleFile } from './types.js';

export type Question = 'visible' | 'owned' | 'foreign';

/** Statements of one batch at most: the first, then a re-run after each of two refreshes. */
const INDEXED_ATTEMPTS = 3;

export class HostQuestions {
  #batched = true;
  #warned = false;
  #reportedUnsupported = false;
  /** files_external was seen installed: its tables exist and every statement reads them (external-storage.ts). */
  #externalTables = false;
  readonly #host: HostContext;
  readonly #accounts: HostAccounts;
  /** When `markerIndex` or `markerIndexFile` is on: the archive accounts' marker indexes. */
  readonly #indexes: MarkerIndexes;

  constructor(host: HostContext, accounts: HostAccounts, indexes: MarkerIndexes) {
    this.#host = host;
    this.#accounts = accounts;
    this.#indexes = indexes;
  }

  /** false after the spec's fallback: this database does not run the batched form. */
  get batched(): boolean {
    return this.#batched;
  }

  async search(user: string, archiveAccount: ResolvedArchiveAccount, documentIds: readonly number[]): Promise<SearchLookup> {
    // No id to ask about: no statement, and nothing that could say the account changed.
    if (cleanIds(documentIds).length === 0) return { files: new Map(), language: null, archiveChanged: false };
    const probe: SearchProbe = { language: null, named: null };
    const files = await this.answer('visible', user, archiveAccount.uid, documentIds, probe);
    // A stale cached archive account can only cost results: its files are not admitted.
    if (archiveAccount.hostNamed !== null && probe.named !== archiveAccount.hostNamed)
      return { files: new Map(), language: probe.language, archiveChanged: true };
    return { files, language: probe.language, archiveChanged: false };
  }

  async visibleFile(user: string, archiveAccount: string, fileId: number, documentIds: readonly number[]): Promise<VisibleFile | null> {
    const ids = cleanIds(documentIds);
    if (ids.length === 0) return null;
    // The same file can be reachable through several mounts: the path of the earliest one, as for the search.
    const paths = (await this.candidates('visible', user, archiveAccount, ids)).filter((c) => c.fileId === fileId);
    return paths.reduce<Candidate | null>((best, c) => (best === null || c.path < best.path ? c : best), null);
  }

  async answer(
    question: Question,
    user: string,
    archive: string,
    documentIds: readonly number[],
    probe?: SearchProbe,
  ): Promise<ReadonlyMap<number, VisibleFile>> {
    const ids = cleanIds(documentIds);
    if (ids.length === 0) return new Map();
    const picked = pickPerDocument(await this.candidates(question, user, archive, ids, probe));
    // In the order asked, so that callers keep the archive server's order.
    const result = new Map<number, VisibleFile>();
    for (const id of ids) {
      const c = picked.get(id);
      if (c !== undefined) result.set(id, c);
    }
    return result;
  }

  /** Every (document, file, path) the rules admit, in one batch, or per document after the spec's fallback. */
  async candidates(question: Question, user: string, archive: string, ids: readonly number[], probe?: SearchProbe): Promise<Candidate[]> {
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
      this.#host.options.logger?.warn(LOG_MESSAGES.perDocumentLookup());
    }
    const all: Candidate[] = [];
    for (const id of ids) all.push(...(await this.#lookup(question, user, archive, [id], false, probe)));
    return all;
  }

  async #lookup(question: Question, user: string, archive: string, ids: readonly number[], fast: boolean, probe?: SearchProbe): Promise<Candidate[]> {
    const { statements, located, options } = this.#host;
    const dataDirectory = located.dataDirectory;
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
        dialect: statements.sql.dialect,
        prefix: statements.prefix,
        documentIds: ids,
        ownStorageIds: ownOf === null ? [] : homeStorageIds(ownOf, dataDirectory),
        shareRecipient: recipient,
        ...(question === 'owned' ? {} : { viewer: user }),
        ...(probe === undefined ? {} : { forSearch: true }),
        now: hostNow(options),
        fast,
        breakStatement: fast && options.breakBatchedQuery === true,
        ...(recipient !== null && !this.#reportedUnsupported ? { unsupportedSharesOf: archive } : {}),
        ...(index !== null && snapshot !== undefined ? { indexed: { fileIds: snapshot.fileIds, storageIds: index.storageIds } } : {}),
        external: { accounts: [...new Set([user, archive])], read: this.#externalTables },
      };
      const statement = buildLookup(spec);
      rows = splitRows(await statements.query(statement.sql, statement.params), recipient ?? '');
      if (!this.#externalTables && rows.external.installed) {
        // Once per host: files_external's tables exist, so the statement can read them; asked again with them.
        this.#externalTables = true;
        attempt -= 1;
        continue;
      }
      if (spec.unsupportedSharesOf !== undefined) {
        this.#reportedUnsupported = true;
        if (rows.unsupportedShares > 0) {
          options.logger?.info(
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
    const external = this.#externalTables ? externalFactsOf(rows.external) : NO_EXTERNAL;
    const mounts =
      recipient === null
        ? []
        : questionMounts(question === 'visible' ? 'visible' : 'foreign', recipient, archive, rows, dataDirectory, located.version, external);
    // External storages: the archive account's are those mounted for it; the user sees them at her own mount points.
    const archiveViews = externalViews(external, archive);
    const archiveIds = new Set(archiveViews.map((v) => v.storageId));
    let views: ExternalView[];
    if (question === 'owned' || sameUser) views = question === 'foreign' ? [] : archiveViews;
    else {
      const mine = externalViews(external, user);
      views = mine.filter((v) => archiveIds.has(v.storageId) === (question === 'visible'));
    }
    const hiddenUnder = ownOf === null ? [] : external.mounts.filter((m) => mountedFor(external, m, ownOf)).map((m) => m.mountPoint);
    return candidates(
      {
        documentIds: new Set(ids),
        ownFilesOf: ownOf,
        mounts,
        dataDirectory,
        external: views,
        externalOwner: question === 'foreign' ? user : archive,
        hiddenUnder,
      },
      rows.files,
    );
  }
}
