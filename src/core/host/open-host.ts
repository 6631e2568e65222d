/**
 * The host adapter: Nextcloud's accounts, files and shares read straight from its database,
 * read-only. `openHost` finds the database, opens it and checks its schema; the adapter then
 * hands each question to the module that answers it: the three questions (questions.ts), the
 * explanations (explain.ts), `who`'s reach (reach.ts), the archive account's marked files
 * (marked-files.ts), the accounts (accounts.ts) and the marker indexes (index/indexes.ts).
 */
import { HostAccounts } from './accounts.js';
import { presentBackendTables, type BackendTable } from './account-backends.js';
import { HostStatements } from './db/host-statements.js';
import { locateHost, type LocatedHost } from './db/locate.js';
import { checkSchema } from './db/schema-check.js';
import { openSqlClient } from './db/sql-client.js';
import { shareObstacles, trashedArchiveFiles } from './explain.js';
import type { HostContext, OpenHostOptions } from './host-context.js';
import { MarkerIndexes } from './index/indexes.js';
import { eachArchiveDocument, markedDocuments, markedFiles, unsupportedShares } from './marked-files.js';
import { HostQuestions } from './questions.js';
import { accessFactsOf, accessRulesSummary, appEnabled, buildAccessControlSwitch, buildAccessFacts, type AccessRulesSummary } from './rules/access-rules.js';
import { rowText } from './rules/lookup-sql.js';
import type { Message } from '../i18n/catalog.js';
import { externalReach, reachedAccounts, reachedMounts, shareReach } from './reach.js';
import { unreadableMounts, type ExternalView, type UnreadableStorage } from './rules/external-storage.js';
import { readExternal } from './external.js';
import type { ShareReach } from './rules/share-reach.js';
import type { Mount, NodeRow } from './rules/share-rules.js';
import type {
  HostAccount,
  HostAdapter,
  HostLocation,
  MarkedFilesPage,
  MarkerIndexSize,
  Pace,
  ResolvedArchiveAccount,
  SearchLookup,
  ShareObstacle,
  SqlClient,
  TrashedFile,
  UnsupportedShares,
  VisibleFile,
} from './types.js';

export type { OpenHostOptions } from './host-context.js';

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

class DatabaseHost implements HostAdapter {
  readonly hostUrl: string | null;
  readonly instanceSecret: string | null;
  readonly sql: SqlClient;
  readonly #host: HostContext;
  readonly #accounts: HostAccounts;
  readonly #indexes: MarkerIndexes;
  readonly #questions: HostQuestions;

  constructor(sql: SqlClient, located: LocatedHost, nestedGroups: boolean, otherBackends: readonly BackendTable[], options: OpenHostOptions) {
    this.sql = sql;
    this.hostUrl = located.hostUrl;
    this.instanceSecret = located.instanceSecret;
    const statements = new HostStatements(sql, options.onStatement);
    this.#host = { statements, located, options };
    this.#accounts = new HostAccounts(statements, located, nestedGroups, otherBackends);
    this.#indexes = new MarkerIndexes(statements, located, options);
    this.#questions = new HostQuestions(this.#host, this.#accounts, this.#indexes);
  }

  get batched(): boolean {
    return this.#questions.batched;
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

  groupMembers(gid: string): Promise<readonly string[]> {
    return this.#accounts.membersOf(gid);
  }

  visibleArchiveFiles(user: string, archiveAccount: string, documentIds: readonly number[]): Promise<ReadonlyMap<number, VisibleFile>> {
    return this.#questions.answer('visible', user, archiveAccount, documentIds);
  }

  searchArchiveFiles(user: string, archiveAccount: ResolvedArchiveAccount, documentIds: readonly number[]): Promise<SearchLookup> {
    return this.#questions.search(user, archiveAccount, documentIds);
  }

  ownedArchiveFiles(archiveAccount: string, documentIds: readonly number[]): Promise<ReadonlyMap<number, VisibleFile>> {
    return this.#questions.answer('owned', archiveAccount, archiveAccount, documentIds);
  }

  visibleForeignFiles(user: string, archiveAccount: string, documentIds: readonly number[]): Promise<ReadonlyMap<number, VisibleFile>> {
    return this.#questions.answer('foreign', user, archiveAccount, documentIds);
  }

  visibleArchiveFile(user: string, archiveAccount: string, fileId: number, documentIds: readonly number[]): Promise<VisibleFile | null> {
    return this.#questions.visibleFile(user, archiveAccount, fileId, documentIds);
  }

  prepareMarkerIndex(archiveAccount: string): Promise<MarkerIndexSize | null> {
    return this.#indexes.prepare(archiveAccount);
  }

  async accessRules(): Promise<AccessRulesSummary | null> {
    if (!(await this.accessControlEnabled())) return null;
    const { statements } = this.#host;
    const statement = buildAccessFacts(statements.sql.dialect, statements.prefix, '', new Map(), () => '');
    return accessRulesSummary(accessFactsOf(await statements.query(statement.sql, statement.params)).rules);
  }

  async accessControlEnabled(): Promise<boolean> {
    const statement = buildAccessControlSwitch(this.#host.statements.prefix);
    const rows = await this.#host.statements.query(statement.sql, statement.params);
    return appEnabled(rows.length === 0 ? null : rowText(rows[0]?.v));
  }

  async accessRuleBlocks(user: string, archiveAccount: string, documentIds: readonly number[]): Promise<ReadonlyMap<number, Message>> {
    // Off (most hosts): one small statement, not question 1 again.
    if (!(await this.accessControlEnabled())) return new Map();
    return this.#questions.accessRuleBlocks('visible', user, archiveAccount, documentIds);
  }

  shareObstacles(user: string, archiveAccount: string, files: readonly VisibleFile[]): Promise<ReadonlyMap<number, ShareObstacle>> {
    return shareObstacles(this.#host, user, archiveAccount, files);
  }

  trashedArchiveFiles(archiveAccount: string, documentIds: readonly number[]): Promise<ReadonlyMap<number, TrashedFile>> {
    return trashedArchiveFiles(this.#host, archiveAccount, documentIds);
  }

  shareReach(archiveAccount: string, documentId: number): Promise<{ files: readonly VisibleFile[]; reach: ShareReach }> {
    return shareReach(this.#host, this.#questions, archiveAccount, documentId);
  }

  reachedAccounts(archiveAccount: string): Promise<readonly string[]> {
    return reachedAccounts(this.#host, archiveAccount);
  }

  reachedMounts(archiveAccount: string, accounts: readonly string[]): Promise<ReadonlyMap<string, readonly Mount[]>> {
    return reachedMounts(this.#host, archiveAccount, accounts);
  }

  async unreadableExternal(archiveAccount: string): Promise<readonly UnreadableStorage[]> {
    return unreadableMounts(await readExternal(this.#host), archiveAccount);
  }

  externalReach(archiveAccount: string): Promise<{ readonly accounts: readonly string[]; readonly views: ReadonlyMap<string, readonly ExternalView[]> }> {
    return externalReach(this.#host, archiveAccount, () => this.#accounts.everyAccount());
  }

  eachArchiveDocument(archiveAccount: string, onDocument: (documentId: number, files: readonly NodeRow[]) => void, pace?: Pace): Promise<void> {
    return eachArchiveDocument(this.#host, archiveAccount, onDocument, pace);
  }

  markedFiles(archiveAccount: string, offset: number, limit: number): Promise<MarkedFilesPage> {
    return markedFiles(this.#host, archiveAccount, offset, limit);
  }

  unsupportedShares(archiveAccount: string): Promise<UnsupportedShares> {
    return unsupportedShares(this.#host, archiveAccount);
  }

  markedDocuments(archiveAccount: string): Promise<readonly number[]> {
    return markedDocuments(this.#host, this.#questions.batched ? this.#indexes : null, archiveAccount);
  }

  async close(): Promise<void> {
    this.#indexes.close();
    await this.sql.close();
  }
}
