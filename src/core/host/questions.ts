/**
 * The three questions of the verdict table: one statement per call (rules/lookup-sql.ts),
 * judged by the host's rules in TypeScript (rules/visibility.ts), read through the marker index
 * when one is kept, and asked per document after the spec's fallback. It changes when the way a
 * question is asked does.
 */
import { isDusError } from '../errors.js';
import { LOG_MESSAGES } from '../log.js';
import type { HostAccounts } from './accounts.js';
import type { DirectoryAccounts } from './directory-accounts.js';
import type { HostContext } from './host-context.js';
import { directoryLetsIn } from './rules/directory-accounts.js';
import { hostNow } from './host-context.js';
import type { MarkerIndexes } from './index/indexes.js';
import { sameRoots } from './index/marker-index.js';
import { splitRows, syncAccountOf, type SearchProbe } from './rules/lookup-rows.js';
import { buildLookup, type LookupSpec } from './rules/lookup-sql.js';
import { cleanIds } from './rules/marker.js';
import { homeStorageIds } from './rules/storages.js';
import { externalFactsOf, externalViews, mountedFor, NO_EXTERNAL, type ExternalView } from './rules/external-storage.js';
import {
  accessFactsOf,
  accessOutcome,
  accessRuleMessage,
  appEnabled,
  buildAccessFacts,
  storagePaths,
  viewsOf,
  type AccessOutcome,
} from './rules/access-rules.js';
import { candidates, mountCovers, mountPath, pickPerDocument, questionMounts, type Candidate, type Mount, type NodeRow } from './rules/visibility.js';
import type { Message } from '../i18n/catalog.js';
import { readTakenTargets } from './rules/taken-targets.js';
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
  readonly #directory: DirectoryAccounts;

  constructor(host: HostContext, accounts: HostAccounts, indexes: MarkerIndexes, directory: DirectoryAccounts) {
    this.#host = host;
    this.#directory = directory;
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
    return (await this.#judged(question, user, archive, ids, probe)).open;
  }

  /**
   * Question 1 (or 3) before and after File access control: for each document none of whose
   * files the user can open because a rule blocks them, the sentence `why` says (rules/access-rules.ts).
   */
  async accessRuleBlocks(
    question: 'visible' | 'foreign',
    user: string,
    archive: string,
    documentIds: readonly number[],
  ): Promise<ReadonlyMap<number, Message>> {
    const ids = cleanIds(documentIds);
    const out = new Map<number, Message>();
    if (ids.length === 0) return out;
    const { open, blocked } = await this.#judged(question, user, archive, ids);
    const opened = new Set(open.map((c) => c.documentId));
    for (const { candidate, message } of blocked)
      if (!opened.has(candidate.documentId) && !out.has(candidate.documentId)) out.set(candidate.documentId, message);
    return out;
  }

  async #judged(question: Question, user: string, archive: string, ids: readonly number[], probe?: SearchProbe): Promise<Judged> {
    if (this.#batched) {
      let looked: Looked | null = null;
      try {
        looked = await this.#lookup(question, user, archive, ids, true, probe);
      } catch (error) {
        if (isDusError(error) && error.code === 'host_unreachable') throw error;
        // The spec's fallback: this database does not run the batched form; ask per document.
        this.#batched = false;
      }
      // Outside the fallback: a failure of the access-rule statement is its own, not the lookup's form.
      if (looked !== null) return this.#access(user, looked);
    }
    return this.#perDocument(question, user, archive, ids, probe);
  }

  async #perDocument(question: Question, user: string, archive: string, ids: readonly number[], probe?: SearchProbe): Promise<Judged> {
    if (!this.#warned) {
      this.#warned = true;
      this.#host.options.logger?.warn(LOG_MESSAGES.perDocumentLookup());
    }
    const all: Judged = { open: [], blocked: [] };
    for (const id of ids) {
      const one = await this.#access(user, await this.#lookup(question, user, archive, [id], false, probe));
      all.open.push(...one.open);
      all.blocked.push(...one.blocked);
    }
    return all;
  }

  /**
   * File access control, when the lookup saw it enabled: one statement more (its rules, the
   * user's groups, each candidate's folders with their tags), then each candidate judged as
   * the app judges the access (rules/access-rules.ts). Off: nothing read, nothing blocked.
   */
  async #access(user: string, looked: Looked): Promise<Judged> {
    if (looked.access === null || looked.list.length === 0) return { open: looked.list, blocked: [] };
    const { files, mounts, externalStorages } = looked.access;
    const byId = new Map<number, NodeRow>(files.map((f) => [f.fileId, f]));
    const nodes = new Map<number, Set<string>>();
    const subjects = looked.list.map((candidate) => {
      const file = byId.get(candidate.fileId);
      const mount = file === undefined ? undefined : mounts.find((m) => mountCovers(m, file) && mountPath(m, file.path ?? '') === candidate.path);
      if (file !== undefined) {
        const paths = nodes.get(file.storage) ?? new Set<string>();
        for (const path of storagePaths(file.path ?? '', externalStorages.has(file.storageId))) paths.add(path);
        nodes.set(file.storage, paths);
      }
      return { candidate, file, mount };
    });
    // Loaded here, when the app is on: a run without it never loads node:crypto for this.
    const { createHash } = process.getBuiltinModule('node:crypto');
    const md5 = (s: string): string => createHash('md5').update(s).digest('hex');
    const { statements } = this.#host;
    const asked = new Map([...nodes].map(([storage, paths]) => [storage, [...paths]] as const));
    const statement = buildAccessFacts(statements.sql.dialect, statements.prefix, user, asked, md5);
    const facts = accessFactsOf(await statements.query(statement.sql, statement.params));
    const judged: Judged = { open: [], blocked: [] };
    for (const { candidate, file, mount } of subjects) {
      let outcome: AccessOutcome = { kind: 'open' };
      if (facts.rules !== null) {
        // A file row the statement did not give back cannot be judged: not shown.
        const views = file === undefined ? [] : viewsOf(facts, file.storage, file.path ?? '', sharedRootOf(mount), externalStorages.has(file.storageId));
        outcome =
          views.length === 0 && facts.rules.rules.length > 0
            ? { kind: 'blocked', rule: facts.rules.rules[0] ?? unknownRule, certain: false }
            : accessOutcome(facts.rules, { groups: facts.groups, knownGroups: facts.knownGroups, views });
      }
      if (outcome.kind === 'open') judged.open.push(candidate);
      else judged.blocked.push({ candidate, message: accessRuleMessage(outcome, facts.rules, user) });
    }
    return judged;
  }

  async #lookup(question: Question, user: string, archive: string, ids: readonly number[], fast: boolean, probe?: SearchProbe): Promise<Looked> {
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
    // Questions 1 and 3 ask what the user opens: an LDAP account's presence and groups are the directory's.
    const ldap = question === 'owned' ? null : await this.#directory.accountOf(user);
    let rows: ReturnType<typeof splitRows>;
    for (let attempt = 1; ; attempt += 1) {
      const snapshot = index?.snapshot(ids);
      const spec: LookupSpec = {
        dialect: statements.sql.dialect,
        prefix: statements.prefix,
        documentIds: ids,
        ownStorageIds: ownOf === null ? [] : homeStorageIds(ownOf, dataDirectory),
        shareRecipient: recipient,
        ...(ldap !== null && recipient !== null ? { directoryGroups: ldap.groups } : {}),
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
            'The archive account shares files with Talk rooms or Deck boards; such shares are not supported and those files are not shown through them',
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
    if (question !== 'owned' && !rows.viewerEnabled) return { list: [], access: null };
    if (ldap !== null && !directoryLetsIn(ldap.presence)) return { list: [], access: null };
    const external = this.#externalTables ? externalFactsOf(rows.external) : NO_EXTERNAL;
    let mounts: Mount[] = [];
    if (recipient !== null) {
      const asked = rows.shares.map((share) => ({ account: recipient, target: share.target }));
      const taken = await readTakenTargets((sql, params) => statements.query(sql, params), statements.prefix, asked, dataDirectory, located.version);
      const takenOfRecipient = taken === null ? null : (taken.get(recipient) ?? new Set<string>());
      mounts = questionMounts(
        question === 'visible' ? 'visible' : 'foreign',
        recipient,
        archive,
        rows,
        dataDirectory,
        located.version,
        takenOfRecipient,
        external,
      );
    }
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
    const list = candidates(
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
    // Question 2 asks what the archive account holds, not what it may open (docs/host-adapter.md).
    const externalStorages = new Set(external.mounts.flatMap((m) => (m.storageId === null ? [] : [m.storageId])));
    const access = question !== 'owned' && appEnabled(rows.accessControl) ? { files: rows.files, mounts, externalStorages } : null;
    return { list, access };
  }
}

/** A lookup's candidates, and what File access control needs to judge them when it is on. */
interface Looked {
  readonly list: Candidate[];
  readonly access: {
    readonly files: readonly NodeRow[];
    readonly mounts: readonly Mount[];
    /** The external storages' ids (rules/external-storage.ts): their roots' tags count (access-rules.ts `viewsOf`). */
    readonly externalStorages: ReadonlySet<string>;
  } | null;
}

/** Candidates the access rules let through, and those they block with the sentence `why` says. */
interface Judged {
  readonly open: Candidate[];
  readonly blocked: { readonly candidate: Candidate; readonly message: Message }[];
}

const unknownRule = { id: 0, name: '', operation: 'deny', checks: null };

function sharedRootOf(mount: Mount | undefined): string | null {
  return mount === undefined ? null : (mount.root.path ?? null);
}
