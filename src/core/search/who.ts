/**
 * "Who can open document 412, and through what?": the reverse of `why`. The accounts the shares
 * of the document's files reach are asked question 1 with the rows and rules `why <account> 412`
 * uses (for all of them at once: host `reachedMounts`, rules/share-reach.ts `ReachIndex`), so
 * `who` lists an account if and only if `why` says `shown` for it, at the same path. The chain
 * names the share that gives access; with `includeBlocked`, the accounts a share reaches but
 * that cannot open the file are listed with the cause `why` would name.
 */
import type { ServiceContext } from '../context-types.js';
import { DusError } from '../errors.js';
import { ReachIndex, type Opener, type ShareReach } from '../host/rules/share-reach.js';
import type { HostAdapter, Mount, Pace, VisibleFile } from '../host/types.js';
import { routeMessage, type TeamRoute } from '../host/rules/team-rules.js';
import { ownerNodePath } from '../host/rules/storages.js';
import { msg, render, type Message } from '../i18n/catalog.js';
import { accountCause, explanationMessage, requiredArchiveAccount, type VerdictCause } from './verdicts.js';

export interface WhoOptions {
  /** Also list the accounts a share reaches that cannot open the file, with the cause. */
  readonly includeBlocked?: boolean;
  /** Only this account (as the host spells it or not: it is looked up). */
  readonly user?: string;
  /** Only the direct or nested members of this group. */
  readonly group?: string;
}

/** How an account reaches the file: its own folders, or a share (the earliest row, by (stime, id), of the mount that shows it). */
export type WhoChain =
  | { readonly kind: 'owner' }
  /** An external storage mounted for the account (rules/external-storage.ts), at its mount point. */
  | { readonly kind: 'external storage'; readonly mountPoint: string }
  | {
      readonly kind: 'user share' | 'group share';
      /** The shared node as its owner sees it. */
      readonly node: string;
      readonly owner: string;
      /** Who shared it with the account or group: the owner, or a resharer. */
      readonly sharer: string;
      readonly group: string | null;
    }
  | {
      readonly kind: 'team share';
      readonly node: string;
      readonly owner: string;
      readonly sharer: string;
      /** The team's display name. */
      readonly team: string;
      /** How the account is in the team (team-rules.ts); null where circles lists no route. */
      readonly route: TeamRoute | null;
    };

export interface WhoEntry {
  readonly account: string;
  /** Where the account sees the file; null for a blocked account. */
  readonly path: string | null;
  /** null for a blocked account. */
  readonly chain: WhoChain | null;
  /** What keeps a blocked account from it, worded as `why` words it (in English); null for an account that opens it. */
  readonly blocked: string | null;
  /** The same as a message, for a surface that writes it in its reader's language. */
  readonly blockedMessage: Message | null;
}

export interface WhoAnswer {
  readonly documentId: number;
  readonly archiveAccount: string;
  /** The archive account's files carrying the marker, as its owner sees them. */
  readonly files: readonly string[];
  /** The accounts, those that open the file first, each group sorted by account. */
  readonly accounts: readonly WhoEntry[];
  /** Why no account is listed when the document has no file (`why`'s `no file` sentence, in English); null otherwise. */
  readonly noFile: string | null;
  /** The same as a message, for a surface that writes it in its reader's language. */
  readonly noFileMessage: Message | null;
}

/** The words of a chain, as a message: a share of the owner, or a re-share. */
export function chainMessage(chain: WhoChain): Message {
  if (chain.kind === 'owner') return msg('who.owner');
  if (chain.kind === 'external storage') return msg('who.external', { mountPoint: chain.mountPoint });
  const { node, owner, sharer } = chain;
  const direct = sharer === owner;
  if (chain.kind === 'team share') {
    const team = chain.team;
    if (chain.route === null) return direct ? msg('who.team_share', { team, node, owner }) : msg('who.team_reshare', { team, node, sharer, owner });
    const via = routeMessage(chain.route);
    return direct ? msg('who.team_share_via', { team, via, node, owner }) : msg('who.team_reshare_via', { team, via, node, sharer, owner });
  }
  if (chain.kind === 'group share') {
    const group = chain.group ?? '?';
    return direct ? msg('who.group_share', { group, node, owner }) : msg('who.group_reshare', { group, node, sharer, owner });
  }
  return direct ? msg('who.user_share', { node, owner }) : msg('who.user_reshare', { node, sharer, owner });
}

/** The words of a chain, as a terminal line or a table cell shows it, in `language` (English by default). */
export function chainText(chain: WhoChain, language: string | null = null): string {
  return render(chainMessage(chain), language);
}

/** The chain of a mount: its earliest share row (whose target and owner the mount has); the owner for the account's own folders. */
/** `reach` names the account's route into a team; `who --all` shares one chain among a mount's accounts, so it names none. */
function chainOf(opener: Opener, reach: ShareReach | null): WhoChain {
  if (opener.external !== null) return { kind: 'external storage', mountPoint: opener.external.mountPoint };
  const first = opener.mount?.rows[0];
  if (opener.mount === null || first === undefined) return { kind: 'owner' };
  const node = ownerNodePath(opener.mount.root.path);
  if (first.shareType === 7) {
    const known = reach?.teamRoutes.get(`${first.shareWith}/${opener.account}`);
    return {
      kind: 'team share',
      node,
      owner: first.owner,
      sharer: first.initiator ?? first.owner,
      team: known?.team ?? first.shareWith,
      route: known?.route ?? null,
    };
  }
  const group = first.shareType === 1;
  return {
    kind: group ? 'group share' : 'user share',
    node,
    owner: first.owner,
    sharer: first.initiator ?? first.owner,
    group: group ? first.shareWith : null,
  };
}

/** Whom the shares reach: their users, the direct members of their groups, the members of their teams. */
function recipientsOf(reach: ShareReach): Set<string> {
  const reached = new Set<string>();
  for (const share of reach.shares) {
    if (share.shareType === 0) reached.add(share.shareWith);
    else for (const uid of reach.members.get(share.shareWith) ?? []) reached.add(uid);
  }
  return reached;
}

/** The accounts to ask, narrowed by `--user` (already resolved) and `--group`. */
async function narrowed(host: HostAdapter, accounts: Iterable<string>, only: string | null, group: string | undefined): Promise<string[]> {
  let list = [...new Set(accounts)].sort();
  if (only !== null) list = list.filter((uid) => uid === only);
  if (group !== undefined) {
    const members = new Set(await host.groupMembers(group));
    list = list.filter((uid) => members.has(uid));
  }
  return list;
}

async function resolvedUser(host: HostAdapter, user: string | undefined): Promise<string | null> {
  if (user === undefined) return null;
  const account = await host.findAccount(user);
  if (account === null) throw new DusError('unknown_user', `The user ${user} does not exist in the host.`);
  return account.uid;
}

async function blockedCause(
  host: HostAdapter,
  account: string,
  archiveAccount: string,
  documentId: number,
  files: readonly VisibleFile[],
): Promise<Message | null> {
  const found = await host.findAccount(account);
  let cause: VerdictCause | null = null;
  if (found !== null) cause = accountCause(found);
  if (cause === null) {
    const obstacle = (await host.shareObstacles(account, archiveAccount, files)).get(documentId);
    if (obstacle !== undefined) cause = { kind: 'share', obstacle };
  }
  return explanationMessage('not shared', documentId, account, archiveAccount, files[0], cause);
}

export async function whoCanOpen(ctx: ServiceContext, documentId: number, options: WhoOptions = {}, admin?: string): Promise<WhoAnswer> {
  if (!Number.isSafeInteger(documentId) || documentId < 1) throw new DusError('usage', 'The document id must be a whole number from 1.');
  const host = await ctx.host();
  const archiveAccount = await requiredArchiveAccount(ctx);
  const only = await resolvedUser(host, options.user);
  if (admin !== undefined) ctx.audit.record({ action: 'who_can_open', admin, detail: { document: documentId } });
  const { files, reach } = await host.shareReach(archiveAccount, documentId);
  if (files.length === 0) {
    const noFile = explanationMessage('no file', documentId, '', archiveAccount, undefined);
    return { documentId, archiveAccount, files: [], accounts: [], noFile: noFile === null ? null : render(noFile), noFileMessage: noFile };
  }
  const external = await host.externalReach(archiveAccount);
  const candidates = await narrowed(host, [archiveAccount, ...recipientsOf(reach), ...external.accounts], only, options.group);
  // Question 1 for every candidate at once: its rows and rules, a statement per 1 000 accounts.
  const index = new ReachIndex(archiveAccount, await host.reachedMounts(archiveAccount, candidates), external.views);
  const opened = new Map(index.openers(reach.files).map((o) => [o.account, o]));
  // File access control blocks after the shares: each account they let through is asked as `why` asks it.
  const ruled = new Map<string, Message>();
  if (opened.size > 0 && (await host.accessControlEnabled())) {
    for (const account of opened.keys()) {
      const message = (await host.accessRuleBlocks(account, archiveAccount, [documentId])).get(documentId);
      if (message !== undefined) ruled.set(account, message);
    }
  }
  const open: WhoEntry[] = [];
  const blocked: WhoEntry[] = [];
  for (const account of candidates) {
    const seen = opened.get(account);
    const rule = ruled.get(account);
    if (seen !== undefined && rule === undefined) open.push({ account, path: seen.path, chain: chainOf(seen, reach), blocked: null, blockedMessage: null });
    else if (rule !== undefined) {
      if (options.includeBlocked === true) {
        const cause = explanationMessage('not shared', documentId, account, archiveAccount, files[0], { kind: 'access rule', message: rule });
        blocked.push({ account, path: null, chain: null, blocked: cause === null ? '' : render(cause), blockedMessage: cause });
      }
    } else if (options.includeBlocked === true) {
      const cause = await blockedCause(host, account, archiveAccount, documentId, files);
      // `not shared` always has an explanation; '' keeps a blocked account apart from one that opens it.
      blocked.push({ account, path: null, chain: null, blocked: cause === null ? '' : render(cause), blockedMessage: cause });
    }
  }
  return { documentId, archiveAccount, files: files.map((f) => f.path), accounts: [...open, ...blocked], noFile: null, noFileMessage: null };
}

/** One row of `who --all`: an account that opens a document's file. */
export interface WhoRow {
  readonly documentId: number;
  readonly account: string;
  readonly path: string;
  readonly chain: WhoChain;
}

export interface WhoAllSummary {
  readonly documents: number;
  readonly rows: number;
}

/**
 * `who --all`: every document's `who` at once, handed to `onRow` as the host streams the
 * archive account's files in document order (each document's accounts sorted, as `who <id>`
 * lists them). Memory holds the accounts' mounts and one document's files, not the archive.
 * `--include-blocked` is refused (docs: a cause is a statement per account and document).
 */
export interface WhoAllHooks {
  /** After each document: for a progress line. */
  readonly onDocument?: (summary: WhoAllSummary) => void;
  /** Asked between reads of the host: a promise holds the reading back (the output is full). */
  readonly pace?: Pace;
}

/** Documents per access-rule question of `who --all` (a page of the search's size). */
const ACCESS_BATCH = 25;

export async function whoAll(
  ctx: ServiceContext,
  options: Omit<WhoOptions, 'includeBlocked'>,
  onRow: (row: WhoRow) => void,
  admin?: string,
  hooks: WhoAllHooks = {},
): Promise<WhoAllSummary> {
  const host = await ctx.host();
  const archiveAccount = await requiredArchiveAccount(ctx);
  const only = await resolvedUser(host, options.user);
  if (admin !== undefined) ctx.audit.record({ action: 'who_can_open', admin, detail: { document: 'all' } });
  const external = await host.externalReach(archiveAccount);
  const accounts = await narrowed(host, [archiveAccount, ...(await host.reachedAccounts(archiveAccount)), ...external.accounts], only, options.group);
  const index = new ReachIndex(archiveAccount, await host.reachedMounts(archiveAccount, accounts), external.views);
  let documents = 0;
  let rows = 0;
  // One chain per mount, however many files and accounts it serves.
  const chains = new WeakMap<Mount, WhoChain>();
  const owner: WhoChain = { kind: 'owner' };
  const chainFor = (opener: Opener): WhoChain => {
    if (opener.external !== null) return chainOf(opener, null);
    if (opener.mount === null) return owner;
    const known = chains.get(opener.mount);
    if (known !== undefined) return known;
    const chain = chainOf(opener, null);
    chains.set(opener.mount, chain);
    return chain;
  };
  // File access control on: its rules are asked per account for the documents the shares let
  // through, so the rows are held until the archive is read (docs/host-adapter.md).
  const ruled = await host.accessControlEnabled();
  const held: WhoRow[] = [];
  await host.eachArchiveDocument(
    archiveAccount,
    (documentId, files) => {
      documents += 1;
      for (const opener of index.openers(files)) {
        const row = { documentId, account: opener.account, path: opener.path, chain: chainFor(opener) };
        if (ruled) held.push(row);
        else {
          rows += 1;
          onRow(row);
        }
      }
      if (!ruled) hooks.onDocument?.({ documents, rows });
    },
    hooks.pace,
  );
  if (ruled) {
    const byAccount = new Map<string, number[]>();
    for (const row of held) byAccount.set(row.account, [...(byAccount.get(row.account) ?? []), row.documentId]);
    const blocked = new Set<string>();
    for (const [account, ids] of byAccount) {
      for (let from = 0; from < ids.length; from += ACCESS_BATCH) {
        for (const id of (await host.accessRuleBlocks(account, archiveAccount, ids.slice(from, from + ACCESS_BATCH))).keys())
          blocked.add(`${account}\u0000${id}`);
      }
    }
    for (const row of held) {
      if (blocked.has(`${row.account}\u0000${row.documentId}`)) continue;
      rows += 1;
      onRow(row);
    }
    hooks.onDocument?.({ documents, rows });
  }
  return { documents, rows };
}
