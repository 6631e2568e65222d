/**
 * `who`: whom the archive account's shares reach (rules/share-reach.ts), and question 1's
 * mounts for many accounts at once, judged with the rules `why` applies to one. It changes with
 * how `who` gathers its accounts.
 */
import { hostNow, type HostContext } from './host-context.js';
import type { HostQuestions } from './questions.js';
import { shareRowOf, splitRows, viewerEnabledOf } from './rules/lookup-rows.js';
import { rowText as text } from './rules/lookup-sql.js';
import { cleanIds } from './rules/marker.js';
import { ACCOUNTS_PER_STATEMENT, buildAccountShares, buildReachedAccounts, buildShareReach, shareReachOf, type ShareReach } from './rules/share-reach.js';
import type { Mount } from './rules/share-rules.js';
import { readTakenTargets } from './rules/taken-targets.js';
import { questionMounts } from './rules/visibility.js';
import { readExternal } from './external.js';
import { externalViews, mountedFor, NO_EXTERNAL, type ExternalFacts, type ExternalView } from './rules/external-storage.js';
import type { SqlRow, VisibleFile } from './types.js';

/** An `S` row's values but the recipient: two accounts with the same keys have the same share rows. A user share's id is the recipient's own. */
function rowKey(row: SqlRow): string {
  const v = (x: unknown): string => text(x) ?? '\u0002';
  return `${v(row.a)}\u0000${v(row.b)}\u0000${v(row.c)}\u0000${v(row.d)}\u0000${v(row.e)}\u0000${v(row.g)}\u0000${v(row.t1)}\u0000${v(row.t2)}\u0000${v(row.t3)}\u0000${v(row.t4)}\u0000${v(row.gid)}\u0001`;
}

export async function shareReach(
  host: HostContext,
  questions: HostQuestions,
  archiveAccount: string,
  documentId: number,
): Promise<{ files: readonly VisibleFile[]; reach: ShareReach }> {
  // Every file of the archive account carrying the marker, not only the one question 2 picks: a user may open another copy.
  const files = (await questions.candidates('owned', archiveAccount, archiveAccount, cleanIds([documentId]))).filter((f) => f.path.startsWith('/'));
  if (files.length === 0) return { files, reach: { shares: [], members: new Map(), teamRoutes: new Map(), overrideTargets: new Map(), files: [] } };
  const statement = buildShareReach(host.statements.prefix, files);
  const reach = shareReachOf(await host.statements.query(statement.sql, statement.params));
  // Members of LDAP groups are the directory's (group_user holds none of them).
  const groups = reach.shares.filter((s) => s.shareType === 1).map((s) => s.shareWith);
  const fromDirectory = await host.directory.membersOf(groups);
  if (fromDirectory.size === 0) return { files, reach };
  const members = new Map(reach.members);
  for (const [gid, uids] of fromDirectory) members.set(gid, [...new Set([...(members.get(gid) ?? []), ...uids])]);
  return { files, reach: { ...reach, members } };
}

export async function reachedAccounts(host: HostContext, archiveAccount: string): Promise<readonly string[]> {
  const statement = buildReachedAccounts(host.statements.prefix, archiveAccount);
  const rows = await host.statements.query(statement.sql, statement.params);
  return [...new Set(rows.map((r) => text(r.uid) ?? ''))].filter((uid) => uid !== '').sort();
}

export async function reachedMounts(host: HostContext, archiveAccount: string, accounts: readonly string[]): Promise<ReadonlyMap<string, readonly Mount[]>> {
  const { statements, located } = host;
  const result = new Map<string, readonly Mount[]>();
  const now = hostNow(host.options);
  const unique = [...new Set(accounts)];
  const external = unique.length === 0 ? NO_EXTERNAL : await readExternal(host);
  for (let from = 0; from < unique.length; from += ACCOUNTS_PER_STATEMENT) {
    const chunk = unique.slice(from, from + ACCOUNTS_PER_STATEMENT);
    const directoryGroups = [...(await host.directory.accountsOf(chunk))].flatMap(([uid, a]) => a.groups.map((gid): [string, string] => [uid, gid]));
    const statement = buildAccountShares(statements.sql.dialect, statements.prefix, chunk, now, directoryGroups);
    const common: SqlRow[] = [];
    const own = new Map<string, { readonly rows: SqlRow[]; key: string; ownsOne: boolean }>();
    for (const row of await statements.query(statement.sql, statement.params)) {
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
    const sharesOf = (account: string) => (own.get(account)?.rows ?? []).filter((row) => text(row.k) === 'S').map((row) => shareRowOf(row, account));
    const asked = chunk.flatMap((account) => sharesOf(account).map((share) => ({ account, target: share.target })));
    const taken = await readTakenTargets((sql, params) => statements.query(sql, params), statements.prefix, asked, located.dataDirectory, located.version);
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
      const takenOfAccount = taken === null ? null : (taken.get(account) ?? new Set<string>());
      // Own files at a share's target (taken-targets.ts) make an account's answer its own too.
      const key = entry === undefined || entry.ownsOne || (takenOfAccount !== null && takenOfAccount.size > 0) ? null : entry.key;
      const known = key === null ? undefined : same.get(key);
      if (known !== undefined) {
        result.set(account, known);
        continue;
      }
      const rows = { ...shared, shares: sharesOf(account) };
      const mounts = questionMounts('visible', account, archiveAccount, rows, located.dataDirectory, located.version, takenOfAccount, external);
      if (key !== null) same.set(key, mounts);
      result.set(account, mounts);
    }
  }
  return result;
}

/**
 * `who`: the accounts the archive account's external storages are mounted for (applicable users,
 * members of applicable groups, every account for a storage mounted for every user), and where
 * each of them sees those storages (external-storage.ts).
 */
export async function externalReach(
  host: HostContext,
  archiveAccount: string,
  everyAccount: () => Promise<readonly string[]>,
): Promise<{ readonly accounts: readonly string[]; readonly views: ReadonlyMap<string, readonly ExternalView[]> }> {
  const external: ExternalFacts = await readExternal(host);
  const archiveIds = new Set(externalViews(external, archiveAccount).map((v) => v.storageId));
  if (archiveIds.size === 0) return { accounts: [], views: new Map() };
  const accounts = new Set<string>([archiveAccount]);
  for (const mount of external.mounts) {
    if (mount.storageId === null || !archiveIds.has(mount.storageId)) continue;
    // Mounted for every user: every account is asked (a statement more, only then).
    if (mount.everyone) for (const uid of await everyAccount()) accounts.add(uid);
    for (const uid of mount.users) accounts.add(uid);
    for (const [uid, groups] of external.groupsOf) if (mount.groups.some((g) => groups.has(g))) accounts.add(uid);
  }
  const views = new Map<string, readonly ExternalView[]>();
  for (const uid of accounts) {
    const mine = externalViews(external, uid).filter((v) => archiveIds.has(v.storageId) && mountedFor(external, v.mount, uid));
    if (mine.length > 0) views.set(uid, mine);
  }
  return { accounts: [...views.keys()].sort(), views };
}
