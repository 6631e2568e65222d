/**
 * What Nextcloud itself recorded for a scenario's users, read from its database: each user's
 * received shares with the target Nextcloud gave them (oc_share, a group member's own row
 * overriding the group share's), and the share mounts it registered (oc_mounts). The judge uses
 * it to know where two shares of different nodes reach one user at the same target (a target
 * collision: Nextcloud 34 mounts only one of them), and collision scenarios print it so what
 * Nextcloud did is on record.
 */
import { rowText } from '../../src/core/host/rules/lookup-sql.js';
import type { RealNextcloud } from '../support/real-nextcloud/index.js';

export interface ReceivedShare {
  readonly id: number;
  readonly recipient: string;
  readonly type: 'user' | 'group' | 'team';
  readonly owner: string;
  readonly sharer: string;
  /** The shared node (oc_share.file_source). */
  readonly node: number;
  /** The user's target (her own row for a group share when she has one). */
  readonly target: string;
  /** 0 pending, 1 accepted, 2 rejected (oc_share.accepted). */
  readonly accepted: number;
  readonly permissions: number;
  readonly expired: boolean;
}

export interface ShareMount {
  readonly user: string;
  readonly mountPoint: string;
  readonly rootId: number;
}

const num = (v: unknown): number => Number(v);
const str = (v: unknown): string => rowText(v) ?? '';

/**
 * Received user, group and team shares of `users` (logins), as oc_share holds them now; a team's
 * recipients as the circles app lists them (circles_membership of each user's single id), a
 * member's child row (type 7 with a parent) giving her target.
 */
export async function receivedShares(nc: RealNextcloud, users: readonly string[]): Promise<ReceivedShare[]> {
  if (users.length === 0) return [];
  const marks = users.map(() => '?').join(', ');
  const rows = await nc.rows(
    `SELECT id, share_type, share_with, uid_owner, uid_initiator, parent, file_source, file_target, accepted, permissions, expiration FROM oc_share WHERE share_type IN (0, 1, 2, 7) AND item_type IN ('file', 'folder') ORDER BY id`,
  );
  const memberships = await nc.rows(`SELECT gid, uid FROM oc_group_user WHERE uid IN (${marks})`, users);
  const teams = await nc.rows(
    `SELECT ms.circle_id, m.user_id, m.single_id FROM oc_circles_membership ms JOIN oc_circles_member m ON m.single_id = ms.single_id` +
      ` AND m.user_type = 1 AND m.instance = '' AND m.circle_id = m.single_id WHERE m.user_id IN (${marks})`,
    users,
  );
  const singleOf = new Map(teams.map((t) => [str(t.user_id), str(t.single_id)]));
  const now = Date.now();
  // Nextcloud writes expiration in UTC; pg and mysql2 hand back a Date, SQLite the text.
  const expiredAt = (v: unknown): boolean =>
    v !== null && v !== undefined && (v instanceof Date ? v : new Date(`${str(v).replace(' ', 'T')}Z`)).getTime() <= now;
  const own = new Map<string, Record<string, unknown>>();
  for (const row of rows) {
    const type = num(row.share_type);
    if (type === 2 || (type === 7 && row.parent !== null && row.parent !== undefined)) own.set(`${num(row.parent)}/${str(row.share_with)}`, row);
  }
  const out: ReceivedShare[] = [];
  for (const row of rows) {
    const type = num(row.share_type);
    if (type === 7 && row.parent !== null && row.parent !== undefined) continue;
    const recipients =
      type === 0
        ? [str(row.share_with)].filter((u) => users.includes(u))
        : type === 1
          ? memberships.filter((m) => str(m.gid) === str(row.share_with)).map((m) => str(m.uid))
          : type === 7
            ? teams.filter((t) => str(t.circle_id) === str(row.share_with)).map((t) => str(t.user_id))
            : [];
    for (const recipient of recipients) {
      const child = type === 1 ? `${num(row.id)}/${recipient}` : `${num(row.id)}/${singleOf.get(recipient) ?? ''}`;
      const mine = type === 0 ? row : (own.get(child) ?? row);
      out.push({
        id: num(row.id),
        recipient,
        type: type === 0 ? 'user' : type === 1 ? 'group' : 'team',
        owner: str(row.uid_owner),
        sharer: str(row.uid_initiator) || str(row.uid_owner),
        node: num(row.file_source),
        target: str(mine.file_target),
        accepted: type === 7 ? 1 : num(mine.accepted),
        permissions: type === 7 ? Math.min(num(mine.permissions), num(row.permissions)) : num(mine.permissions),
        expired: expiredAt(row.expiration),
      });
    }
  }
  return out;
}

/**
 * The users who, by oc_share, reach two different nodes at one target through shares Nextcloud
 * would mount (accepted, not left, not expired, not their own or re-shared by them).
 */
export function usersWithCollidingTargets(shares: readonly ReceivedShare[]): Map<string, string[]> {
  const nodesAt = new Map<string, Set<number>>();
  for (const share of shares) {
    if (share.accepted !== 1 || share.permissions <= 0 || share.expired || share.owner === share.recipient || share.sharer === share.recipient) continue;
    const key = `${share.recipient}\u0000${share.target}`;
    const nodes = nodesAt.get(key) ?? new Set<number>();
    nodes.add(share.node);
    nodesAt.set(key, nodes);
  }
  const out = new Map<string, string[]>();
  for (const [key, nodes] of nodesAt) {
    if (nodes.size < 2) continue;
    const [user = '', target = ''] = key.split('\u0000');
    out.set(user, [...(out.get(user) ?? []), target]);
  }
  return out;
}

/**
 * The users whose received share (one Nextcloud would mount) has a target where their own home
 * holds a file or folder: Nextcloud 33 moves such a share to a free name at the user's next
 * setup, a name oc_share does not hold yet. Read from oc_filecache by path, each user's
 * `home::` storage.
 */
export async function targetsOnOwnEntries(nc: RealNextcloud, shares: readonly ReceivedShare[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  for (const share of shares) {
    if (share.accepted !== 1 || share.permissions <= 0 || share.expired || share.owner === share.recipient || share.sharer === share.recipient) continue;
    const path = `files/${share.target.replace(/^\/+|\/+$/g, '')}`;
    const rows = await nc.rows(`SELECT f.fileid FROM oc_filecache f JOIN oc_storages s ON s.numeric_id = f.storage WHERE s.id = ? AND f.path = ?`, [
      `home::${share.recipient}`,
      path,
    ]);
    if (rows.length > 0 && !(out.get(share.recipient) ?? []).includes(share.target))
      out.set(share.recipient, [...(out.get(share.recipient) ?? []), share.target]);
  }
  return out;
}

/** Both kinds of target the database cannot place yet, by user (usersWithCollidingTargets, targetsOnOwnEntries). */
export async function unsettledTargets(nc: RealNextcloud, shares: readonly ReceivedShare[]): Promise<Map<string, string[]>> {
  const out = usersWithCollidingTargets(shares);
  for (const [user, targets] of await targetsOnOwnEntries(nc, shares)) out.set(user, [...new Set([...(out.get(user) ?? []), ...targets])]);
  return out;
}

/** Share mounts of `users` in oc_mounts. */
export async function shareMounts(nc: RealNextcloud, users: readonly string[]): Promise<ShareMount[]> {
  if (users.length === 0) return [];
  const rows = await nc.rows(
    `SELECT user_id, mount_point, root_id FROM oc_mounts WHERE user_id IN (${users.map(() => '?').join(', ')}) AND mount_provider_class = ? ORDER BY user_id, mount_point`,
    [...users, 'OCA\\Files_Sharing\\MountProvider'],
  );
  return rows.map((row) => ({ user: str(row.user_id), mountPoint: str(row.mount_point), rootId: num(row.root_id) }));
}

/**
 * One line per recipient: each received share (`#id owner→ target [node n]`, pending/rejected
 * marked) and each share mount (`mount point ← node n (owner)`), logins without `prefix`.
 */
export function describeRecord(shares: readonly ReceivedShare[], mounts: readonly ShareMount[], prefix: string): string[] {
  const bare = (login: string): string => (login.startsWith(prefix) ? login.slice(prefix.length) : login);
  const ownerOf = new Map<number, string>(shares.map((s) => [s.node, bare(s.owner)]));
  const recipients = [...new Set([...shares.map((s) => s.recipient), ...mounts.map((m) => m.user)])].sort();
  return recipients.map((user) => {
    const received = shares
      .filter((s) => s.recipient === user)
      .map(
        (s) =>
          `#${s.id} ${bare(s.sharer)}${s.type === 'user' ? '' : ` (${s.type})`} → '${s.target}' [node ${s.node}]${s.accepted === 1 ? '' : s.accepted === 0 ? ' pending' : ' rejected'}${s.permissions === 0 ? ' left' : ''}`,
      );
    const mounted = mounts
      .filter((m) => m.user === user)
      .map((m) => `${m.mountPoint.replace(`/${user}/files`, '')} ← node ${m.rootId}${ownerOf.has(m.rootId) ? ` (${ownerOf.get(m.rootId)})` : ''}`);
    return `${bare(user)}: shares ${received.join('; ') || 'none'} | oc_mounts ${mounted.join('; ') || 'none'}`;
  });
}
