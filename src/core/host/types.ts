/**
 * What the rest of the core needs from the host (Nextcloud): accounts and the three
 * file questions of the verdict table. Implemented read-only over the host database
 * (`open-host.ts`); see reference/nextcloud-db.md §3 and §10 for the rules it follows.
 */
import type { ExternalView, UnreadableStorage } from './rules/external-storage.js';
import type { Message } from '../i18n/catalog.js';
import type { AccountBackend } from './account-backends.js';
import type { AccessRulesSummary } from './rules/access-rules.js';
import type { DirectoryReport } from './directory.js';
import type { DirectoryPresence } from './rules/directory-accounts.js';
import type { Dialect, HostLocation, Pace, SqlClient, SqlRow, SqlValue } from './db/types.js';
import type { MarkerIndexSize } from './index/types.js';
import type { ShareReach } from './rules/share-reach.js';
import type { Mount, NodeRow } from './rules/share-rules.js';
import type { ShareObstacle, VisibleFile } from './rules/types.js';

export type { DirectoryPresence, DirectoryReport };
export type { Dialect, HostLocation, MarkerIndexSize, Mount, NodeRow, Pace, ShareObstacle, SqlClient, SqlRow, SqlValue, VisibleFile };

/** Shares the product cannot resolve: Talk rooms (type 10) and Deck boards (type 12). */
export interface UnsupportedShares {
  readonly talkRooms: number;
  readonly deckBoards: number;
}

export interface HostAccount {
  /** The uid as the host stores it (its own spelling). */
  readonly uid: string;
  readonly enabled: boolean;
  /** `core` `lang` preference, or the host's default language, or null. */
  readonly language: string | null;
  readonly displayName: string | null;
  /** Where the host keeps the account: `oc_users`, or the table of user_ldap, user_saml or guests. */
  readonly backend: AccountBackend;
  /** user_ldap's accounts: what the directory answered now (rules/directory-accounts.ts); null for every other account, or without an active configuration. */
  readonly directory: DirectoryPresence | null;
}

/** A marked file of the archive account that is in its trash (explain only). */
export interface TrashedFile {
  readonly documentId: number;
  readonly fileId: number;
  /** Its path in the trash without the deletion suffix (`Invoices/inv [P8].pdf`). */
  readonly name: string;
}

export interface MarkedFilesPage {
  /** Total marked files of the archive account in its own folders. */
  readonly total: number;
  readonly files: readonly { readonly documentId: number; readonly fileId: number; readonly path: string }[];
}

/**
 * The archive account as the search resolves it once per context. `hostNamed`: the sync
 * add-on's value it was resolved from (question 1 of the search checks it is still the one
 * named); null when the service's own `archive_owner` setting named it.
 */
export interface ResolvedArchiveAccount {
  readonly uid: string;
  readonly hostNamed: string | null;
}

/** Question 1 as the search asks it: the files, and what the search needs besides, from one statement. */
export interface SearchLookup {
  readonly files: ReadonlyMap<number, VisibleFile>;
  /** The user's language (forced, own or default), for the dates of the entries. */
  readonly language: string | null;
  /** The sync add-on names another account now: nothing was admitted; resolve the archive account again. */
  readonly archiveChanged: boolean;
}

export interface HostAdapter {
  /** Base URL of the host for links and previews (config.php `overwrite.cli.url` or the given one). */
  readonly hostUrl: string | null;
  /** config.php `secret`, needed to check app passwords; null when unknown (explicit database URL). */
  readonly instanceSecret: string | null;
  readonly sql: SqlClient;

  /** Account by uid, resolved the way the host resolves it (case-insensitive for the database backend). */
  findAccount(uid: string): Promise<HostAccount | null>;
  /** The sync add-on's account: `oc_appconfig` appid `docs_sync`, key `target_user`. */
  syncAccount(): Promise<string | null>;
  isAdmin(uid: string): Promise<boolean>;
  groupsOf(uid: string): Promise<readonly string[]>;

  /** Question 1: files of the archive account with the marker that the user can open (one query per call). */
  visibleArchiveFiles(user: string, archiveAccount: string, documentIds: readonly number[]): Promise<ReadonlyMap<number, VisibleFile>>;
  /**
   * Question 1 for the search, still one query: with the user's language and a check that the
   * archive account the search cached is still the one the sync add-on names.
   */
  searchArchiveFiles(user: string, archiveAccount: ResolvedArchiveAccount, documentIds: readonly number[]): Promise<SearchLookup>;
  /**
   * Question 1 for one file: whether the user can open this file of the archive account, which
   * carries the markers of `documentIds`, and at which path. Unlike `visibleArchiveFiles`,
   * which picks one file per document, any copy counts (the smart picker's link check).
   */
  visibleArchiveFile(user: string, archiveAccount: string, fileId: number, documentIds: readonly number[]): Promise<VisibleFile | null>;
  /** Question 2: such files the archive account has in its own folders (one query per call). */
  ownedArchiveFiles(archiveAccount: string, documentIds: readonly number[]): Promise<ReadonlyMap<number, VisibleFile>>;
  /** Question 3: files with the marker the user can open that belong to another account (one query per call). */
  visibleForeignFiles(user: string, archiveAccount: string, documentIds: readonly number[]): Promise<ReadonlyMap<number, VisibleFile>>;
  /**
   * Explain only (`why`, `search --explain`, Try a search), never on the search path: for files
   * of the archive account the user cannot open (question 2's answers), the nearest cause among
   * the share rows covering each file. One query per call; documents without a known cause are absent.
   */
  shareObstacles(user: string, archiveAccount: string, files: readonly VisibleFile[]): Promise<ReadonlyMap<number, ShareObstacle>>;
  /**
   * Explain only: documents whose files reach the user (question 1's shares and own files) but
   * which File access control blocks, each with the rule's sentence (rules/access-rules.ts);
   * empty when the app is off. Two statements per call when it is on, one when it is off.
   */
  accessRuleBlocks(user: string, archiveAccount: string, documentIds: readonly number[]): Promise<ReadonlyMap<number, Message>>;
  /** `check` and the overview: File access control's rules by name, and those the request decides; null when it is off or has none. */
  accessRules(): Promise<AccessRulesSummary | null>;
  /** Whether File access control is enabled (its rules may then block what the shares let through): one statement. */
  accessControlEnabled(): Promise<boolean>;
  /**
   * `who`: every file of the archive account carrying the document's marker, and the user and
   * group shares on them or a folder holding them (whatever their state), with the groups'
   * direct members. Whether a recipient opens the file is asked with question 1, as `why` asks.
   */
  shareReach(archiveAccount: string, documentId: number): Promise<{ files: readonly VisibleFile[]; reach: ShareReach }>;
  /**
   * `who`: question 1's mounts for many accounts, a statement per 1 000 accounts: each account
   * that can log in, with the mounts of the archive account's folders the share rules give it
   * (none for the archive account itself, which opens its own folders). Accounts that cannot
   * log in are absent.
   */
  reachedMounts(archiveAccount: string, accounts: readonly string[]): Promise<ReadonlyMap<string, readonly Mount[]>>;
  /** `who --all`: every account a user or group share of the archive account's reaches, sorted. */
  reachedAccounts(archiveAccount: string): Promise<readonly string[]>;
  /**
   * `who`: the accounts the archive account's external storages are mounted for, and where each
   * sees them (rules/external-storage.ts); none without files_external.
   */
  /** `check`: the external storages mounted for the archive account whose files the database cannot answer for (never shown; rules/external-storage.ts). */
  unreadableExternal(archiveAccount: string): Promise<readonly UnreadableStorage[]>;
  externalReach(archiveAccount: string): Promise<{ readonly accounts: readonly string[]; readonly views: ReadonlyMap<string, readonly ExternalView[]> }>;
  /**
   * `who --all`: the archive account's marked files in its own folders, streamed from one
   * statement in document order, handed over one document at a time (a file carrying two
   * markers comes with both). Holds one document's files, never the archive; `pace` holds the
   * reading back while the consumer's output is full.
   */
  eachArchiveDocument(archiveAccount: string, onDocument: (documentId: number, files: readonly NodeRow[]) => void, pace?: Pace): Promise<void>;
  /** The members `groupsOf` names the group for (direct, and nested when the host nests groups), sorted. */
  groupMembers(gid: string): Promise<readonly string[]>;
  /** Explain only: marked files of the archive account in its trash, for documents without a file (one query per call). */
  trashedArchiveFiles(archiveAccount: string, documentIds: readonly number[]): Promise<ReadonlyMap<number, TrashedFile>>;
  /** Marked files of the archive account, ordered by document id, one page (a scan per call). */
  markedFiles(archiveAccount: string, offset: number, limit: number): Promise<MarkedFilesPage>;
  /**
   * `check`'s coverage: the documents that have a marked file in the archive account's own
   * folders, sorted, each once. From the marker index, brought to the host's current etags,
   * when the adapter keeps one (in memory or in its file); else from one scan.
   */
  markedDocuments(archiveAccount: string): Promise<readonly number[]>;
  /** `check`: the archive account's shares of files and folders with Talk rooms and Deck boards, which no rule mounts (one query). */
  unsupportedShares(archiveAccount: string): Promise<UnsupportedShares>;
  /**
   * Builds the marker index of the archive account now, when the adapter keeps one (a no-op
   * otherwise), so that the first search after start does not pay for it.
   */
  prepareMarkerIndex(archiveAccount: string): Promise<MarkerIndexSize | null>;
  /**
   * `check` and `setup`: each active user_ldap configuration, whether its directory answers and
   * binds, and (with `count`) how many accounts and groups its filters find; empty without one.
   */
  directoryReport(count: boolean): Promise<readonly DirectoryReport[]>;
  /** Whether the batched query form is in use (false after the spec's fallback to one query per document). */
  readonly batched: boolean;

  close(): Promise<void>;
}
