/**
 * "Who can open document 412, and through what?": the reverse of `why`. The accounts the shares
 * of the document's files reach are each asked question 1, exactly as `why <account> 412` asks
 * it, so `who` lists an account if and only if `why` says `shown` for it, at the same path. The
 * chain names the share that gives access; with `includeBlocked`, the accounts a share reaches
 * but that cannot open the file are listed with the cause `why` would name.
 */
import type { ServiceContext } from '../context-types.js';
import { DusError } from '../errors.js';
import type { ReachShare, ShareReach } from '../host/rules/share-reach.js';
import type { HostAdapter, VisibleFile } from '../host/types.js';
import { explanationOf, requiredArchiveAccount, type VerdictCause } from './verdicts.js';

export interface WhoOptions {
  /** Also list the accounts a share reaches that cannot open the file, with the cause. */
  readonly includeBlocked?: boolean;
  /** Only this account (as the host spells it or not: it is looked up). */
  readonly user?: string;
  /** Only the direct or nested members of this group. */
  readonly group?: string;
}

/** How an account reaches the file: its own folders, or a share (the earliest row of the mount that shows it). */
export type WhoChain =
  | { readonly kind: 'owner' }
  | {
      readonly kind: 'user share' | 'group share';
      /** The shared node as its owner sees it. */
      readonly node: string;
      readonly owner: string;
      /** Who shared it with the account or group: the owner, or a resharer. */
      readonly sharer: string;
      readonly group: string | null;
    };

export interface WhoEntry {
  readonly account: string;
  /** Where the account sees the file; null for a blocked account. */
  readonly path: string | null;
  /** null for a blocked account. */
  readonly chain: WhoChain | null;
  /** What keeps a blocked account from it, worded as `why` words it; null for an account that opens it. */
  readonly blocked: string | null;
}

export interface WhoAnswer {
  readonly documentId: number;
  readonly archiveAccount: string;
  /** The archive account's files carrying the marker, as its owner sees them. */
  readonly files: readonly string[];
  /** The accounts, those that open the file first, each group sorted by account. */
  readonly accounts: readonly WhoEntry[];
  /** Why no account is listed when the document has no file (`why`'s `no file` sentence); null otherwise. */
  readonly noFile: string | null;
}

/** The words of a chain, as a terminal line or a table cell shows it. */
export function chainText(chain: WhoChain): string {
  if (chain.kind === 'owner') return "owner (the archive account's own folders)";
  const reshare = chain.sharer === chain.owner ? '' : ` (a re-share by ${chain.sharer} of ${chain.owner}'s share)`;
  const from = chain.sharer === chain.owner ? ` from ${chain.owner}` : '';
  return chain.kind === 'group share' ? `group ${chain.group ?? '?'}: share of ${chain.node}${from}${reshare}` : `user share of ${chain.node}${from}${reshare}`;
}

const trim = (s: string): string => s.replace(/^\/+|\/+$/g, '');

/** Whom a share reaches: its user, or its group's direct members. */
function recipientsOf(share: ReachShare, reach: ShareReach): readonly string[] {
  return share.shareType === 0 ? [share.shareWith] : (reach.members.get(share.shareWith) ?? []);
}

/** The share behind the path an account sees: the earliest (stime, id) of those whose mount gives exactly that path. */
function chainOf(account: string, seen: VisibleFile, files: readonly VisibleFile[], reach: ShareReach, archiveAccount: string): WhoChain {
  const own = files.find((f) => f.fileId === seen.fileId);
  if (account === archiveAccount || own === undefined) return { kind: 'owner' };
  const matching = reach.shares
    .filter((s) => recipientsOf(s, reach).includes(account))
    .filter((s) => {
      if (own.path !== s.nodePath && !own.path.startsWith(`${s.nodePath}/`)) return false;
      const target = s.shareType === 1 ? (reach.overrideTargets.get(`${s.id}/${account}`) ?? s.target) : s.target;
      return `/${trim(target)}${own.path.slice(s.nodePath.length)}` === seen.path;
    })
    .sort((a, b) => a.stime - b.stime || a.id - b.id);
  const [first] = matching;
  if (first === undefined) return { kind: 'owner' };
  return {
    kind: first.shareType === 1 ? 'group share' : 'user share',
    node: first.nodePath,
    owner: first.owner,
    sharer: first.initiator ?? first.owner,
    group: first.shareType === 1 ? first.shareWith : null,
  };
}

async function blockedCause(host: HostAdapter, account: string, archiveAccount: string, documentId: number, files: readonly VisibleFile[]): Promise<string> {
  const found = await host.findAccount(account);
  let cause: VerdictCause | null = null;
  if (found !== null && !found.enabled) cause = { kind: 'account disabled' };
  else {
    const obstacle = (await host.shareObstacles(account, archiveAccount, files)).get(documentId);
    if (obstacle !== undefined) cause = { kind: 'share', obstacle };
  }
  return explanationOf('not shared', documentId, account, archiveAccount, files[0], cause) ?? '';
}

export async function whoCanOpen(ctx: ServiceContext, documentId: number, options: WhoOptions = {}, admin?: string): Promise<WhoAnswer> {
  if (!Number.isSafeInteger(documentId) || documentId < 1) throw new DusError('usage', 'The document id must be a whole number from 1.');
  const host = await ctx.host();
  const archiveAccount = await requiredArchiveAccount(ctx);
  let only: string | null = null;
  if (options.user !== undefined) {
    const account = await host.findAccount(options.user);
    if (account === null) throw new DusError('unknown_user', `The user ${options.user} does not exist in the host.`);
    only = account.uid;
  }
  if (admin !== undefined) ctx.audit.record({ action: 'who_can_open', admin, detail: { document: documentId } });
  const { files, reach } = await host.shareReach(archiveAccount, documentId);
  if (files.length === 0) {
    return { documentId, archiveAccount, files: [], accounts: [], noFile: explanationOf('no file', documentId, '', archiveAccount, undefined) };
  }
  const reached = new Set<string>([archiveAccount, ...reach.shares.flatMap((s) => recipientsOf(s, reach))]);
  let candidates = [...reached].sort();
  if (only !== null) candidates = candidates.filter((uid) => uid === only);
  if (options.group !== undefined) {
    const group = options.group;
    const inGroup = await Promise.all(candidates.map(async (uid) => (await host.groupsOf(uid)).includes(group)));
    candidates = candidates.filter((_, index) => inGroup[index] === true);
  }
  const open: WhoEntry[] = [];
  const blocked: WhoEntry[] = [];
  for (const account of candidates) {
    const seen = (await host.visibleArchiveFiles(account, archiveAccount, [documentId])).get(documentId);
    if (seen !== undefined) open.push({ account, path: seen.path, chain: chainOf(account, seen, files, reach, archiveAccount), blocked: null });
    else if (options.includeBlocked === true)
      blocked.push({ account, path: null, chain: null, blocked: await blockedCause(host, account, archiveAccount, documentId, files) });
  }
  return { documentId, archiveAccount, files: files.map((f) => f.path), accounts: [...open, ...blocked], noFile: null };
}
