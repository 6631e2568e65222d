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
import { DirectoryAccounts } from './directory-accounts.js';
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
import { directoryLetsIn } from './rules/directory-accounts.js';
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
  DirectoryReport,
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
  readonly #directory: DirectoryAccounts;

  constructor(sql: SqlClient, located: LocatedHost, nestedGroups: boolean, otherBackends: readonly BackendTable[], options: OpenHostOptions) {
    this.sql = sql;
    this.hostUrl = located.hostUrl;
    this.instanceSecret = located.instanceSecret;
    const statements = new HostStatements(sql, options.onStatement);
    const hasLdap = otherBackends.some((b) => b.backend === 'ldap');
    this.#directory = new DirectoryAccounts(statements, located, hasLdap, options.directory);
    this.#host = { statements, located, options, directory: this.#directory };
    this.#accounts = new HostAccounts(statements, located, nestedGroups, otherBackends, this.#directory);
    this.#indexes = new MarkerIndexes(statements, located, options);
    this.#questions = new HostQuestions(this.#host, this.#accounts, this.#indexes, this.#directory);
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

  async groupMembers(gid: string): Promise<readonly string[]> {
    const fromDirectory = (await this.#directory.membersOf([gid])).get(gid) ?? [];
    const members = await this.#accounts.membersOf(gid);
    return fromDirectory.length === 0 ? members : [...new Set([...members, ...fromDirectory])].sort();
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

  async reachedAccounts(archiveAccount: string): Promise<readonly string[]> {
    const accounts = await reachedAccounts(this.#host, archiveAccount);
    // Members of the LDAP groups shared with are in the directory, not in group_user.
    const ldapGroups = await this.#directory.groupsSharedBy(archiveAccount);
    if (ldapGroups.length === 0) return accounts;
    const members = [...(await this.#directory.membersOf(ldapGroups)).values()].flat();
    return [...new Set([...accounts, ...members])].sort();
  }

  async reachedMounts(archiveAccount: string, accounts: readonly string[]): Promise<ReadonlyMap<string, readonly Mount[]>> {
    const mounts = new Map(await reachedMounts(this.#host, archiveAccount, accounts));
    // Accounts the directory keeps out log in nowhere (rules/directory-accounts.ts), as question 1 answers for one.
    for (const [uid, presence] of await this.#directory.presenceOf([...mounts.keys()])) if (!directoryLetsIn(presence)) mounts.delete(uid);
    return mounts;
  }

  directoryReport(count: boolean): Promise<readonly DirectoryReport[]> {
    return this.#directory.report(count);
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
    await this.#directory.close();
    await this.sql.close();
  }
}
