/**
 * Nextcloud's sharing rules, each written once: what it lets through (the lookup keeps a share
 * only when no rule blocks it) and what it explains when it blocks (`why`, `--explain` and Try
 * a search name the rule that blocked the nearest share). `mountsOf` is the one place both
 * sides ask, so a rule cannot be changed on one side only. docs/host-adapter.md has the rule
 * table, with the Nextcloud source each rule follows.
 *
 * The rules run at the levels Nextcloud's MountProvider works at: the host, each share row (is
 * it for this user, still valid), each shared node (its rows merged into one "super share"),
 * and the user's mounts together (two mounts at one path).
 */
import { homeStorageIds, isInUserFiles, trimSlashes } from './storages.js';
import { mountedAmong, settlingOf } from './collision-order.js';
import { hidesDisabledUserShares } from './disabled-sharers.js';
import { msg, type Message } from '../../i18n/catalog.js';
import { UNSUPPORTED_SHARE_TYPES } from './team-rules.js';

const READ = 1;
const SHARE = 16;

/**
 * One share row as the rules read it: a user, group or team share, the recipient's override row
 * (group) or child row (team, team-rules.ts) applied; Talk room and Deck board shares only where
 * `why` names them as the reason.
 */
export interface ShareRow {
  readonly id: number;
  readonly shareType: number;
  /** The user, group or team (its single id) it is shared with. */
  readonly shareWith: string;
  readonly fileSource: number;
  readonly stime: number;
  /** After the recipient's override row (group shares). */
  readonly permissions: number;
  readonly accepted: number;
  readonly target: string;
  readonly owner: string;
  readonly initiator: string | null;
  /** Its expiry has passed (compared in the statement with the adapter's clock). */
  readonly expired: boolean;
  /** Naive UTC `YYYY-MM-DD HH:MM:SS`, or null (the lookup does not read it). */
  readonly expiration: string | null;
}

export interface NodeRow {
  readonly fileId: number;
  readonly storage: number;
  readonly storageId: string;
  readonly path: string | null;
  readonly name: string;
  readonly mimetype: string;
  readonly permissions: number;
}

/** What the rules know beside the share rows. */
export interface ShareFacts {
  readonly user: string;
  /** The user's direct groups; null when the statement already kept only shares addressed to the user. */
  readonly groups: ReadonlySet<string> | null;
  /** The teams the user is in (team-rules.ts); absent or null when the statement already kept only the user's teams' shares. */
  readonly teams?: ReadonlySet<string> | null;
  readonly shares: readonly ShareRow[];
  readonly roots: ReadonlyMap<number, NodeRow>;
  /** files_sharing app config: `enabled`, `hide_disabled_user_shares`; circles' `enabled` as `circles.enabled`. */
  readonly sharingConfig: ReadonlyMap<string, string>;
  /** Owners and initiators whose `core` `enabled` preference is set to anything but 'true'. */
  readonly disabledUsers: ReadonlySet<string>;
  /** Owners and initiators user_ldap marked `isDeleted` = '1': their LDAP entry is gone. */
  readonly goneUsers: ReadonlySet<string>;
  readonly dataDirectory: string | null;
  /** config.php `version`; null when unknown (`--host-db`). */
  readonly hostVersion: string | null;
  /** The external storages (stored ids) mounted for an account that the product answers for (external-storage.ts); none when absent. */
  readonly externalOf?: (uid: string) => ReadonlySet<string>;
  /**
   * The user's share targets (slashes trimmed) that a file or folder of the user's own holds,
   * where the release checks targets only at the user's setup (taken-targets.ts); null where it
   * does not, or they were not read.
   */
  readonly takenTargets: ReadonlySet<string> | null;
}

export type ObstacleKind =
  | 'sharing off'
  | 'teams off'
  | 'taken target'
  | 'colliding target'
  | 'left'
  | 'declined'
  | 'pending'
  | 'expired'
  | 'disabled sharer'
  | 'no read'
  | 'broken share'
  | 'not member'
  | 'not in team'
  | 'unsupported share';

export interface Mount {
  readonly root: NodeRow;
  readonly owner: string;
  readonly target: string;
  /** The rows of the super share, earliest (stime, id) first: the first gives owner and target (`who` names it). */
  readonly rows: readonly ShareRow[];
}

/** A share the rules keep from mounting, and the rule that did. */
export interface Blocked {
  readonly kind: ObstacleKind;
  readonly share: ShareRow;
  /** `disabled sharer`: the disabled or vanished owner or resharer. */
  readonly account: string | null;
  /** `colliding target`: the other sharers whose shares reach the user at the same path. */
  readonly collidesWith: readonly string[];
  /** `colliding target`: the sharer whose share the host mounts there instead, where its order tells (collision-order.ts). */
  readonly mountedFrom: string | null;
  /** `colliding target`: the release moves the others to a free name at the user's next setup (33.0.1) instead of hiding them. */
  readonly renamedAtSetup: boolean;
}

/**
 * What an explanation says of the share a rule blocked (verdicts.ts words the sentence around
 * it). The pieces are messages, so that each language places them in its own sentence.
 */
export interface ObstacleWords {
  readonly user: string;
  /** The shared node: its path, `the file` or `a folder holding it` (`why.node.*`). */
  readonly node: Message;
  /** The share of the node, with its sharer when known (`why.share.*`). */
  readonly share: Message;
  /** Whom it is shared with: the user or the group (`why.to.*`). */
  readonly to: Message;
  readonly group: string | null;
  /** The team of a team share (its display name). */
  readonly team: string | null;
  /** `unsupported share`: what it goes through (a Talk room, a Deck board). */
  readonly unsupported: Message | null;
  readonly expiration: string | null;
  readonly account: string | null;
  readonly collidesWith: readonly string[];
  /** `colliding target`: the sharer whose share is mounted there instead, when known. */
  readonly mountedFrom: string | null;
  /** `colliding target`: the release moves the others to a free name at the user's next setup (collision-order.ts). */
  readonly renamedAtSetup: boolean;
  /** The path the share has in the user's files. */
  readonly target: string | null;
  /** What the rule assumed for want of a fact (the release), or null (`why.assumed.*`). */
  readonly assumed: Message | null;
}

interface RowContext {
  readonly facts: ShareFacts;
  readonly hideDisabled: boolean;
}

/** A mount the node rules let through, with the rows it merges. */
interface Candidate {
  readonly mount: Mount;
  readonly rows: readonly ShareRow[];
}

interface RuleText {
  readonly kind: ObstacleKind;
  /** Which cause an explanation names when several shares could explain one file: the lowest (the host, what the user did, the share's state, membership last). */
  readonly rank: number;
  /** What the administrator reads: the cause, then what to do (a `why.obstacle.*` message). */
  readonly explain: (w: ObstacleWords) => Message;
}

/** A rule on the host as a whole. */
interface HostRule extends RuleText {
  readonly level: 'host';
  readonly blocks: (facts: ShareFacts) => boolean;
}

/** A rule on one share row: the account it names when it blocks (`''` for none), or null when it lets the row through. */
interface RowRule extends RuleText {
  readonly level: 'row';
  readonly blocks: (share: ShareRow, context: RowContext) => string | null;
}

/** A rule on one shared node, its rows merged as Nextcloud's buildSuperShares merges them. */
interface NodeRule extends RuleText {
  readonly level: 'node';
  readonly blocks: (rows: readonly ShareRow[], root: NodeRow | undefined, facts: ShareFacts) => boolean;
}

/** A rule on the user's mounts together: the groups of mounts it concerns, and the one of a group it lets through (else none). */
interface MountsRule extends RuleText {
  readonly level: 'mounts';
  readonly blocks: (mounts: readonly Candidate[], facts: ShareFacts) => Candidate[][];
  readonly letsThrough: (group: readonly Candidate[], facts: ShareFacts) => Candidate | null;
}

export type ShareRule = HostRule | RowRule | NodeRule | MountsRule;

const statusOf = (rows: readonly ShareRow[]): number => Math.max(...rows.map((s) => s.accepted));

/** A naive UTC expiry as a day, with the time when it is not midnight. */
function dayOfExpiry(expiration: string): string {
  const [day = expiration, time = ''] = expiration.split(/[ T]/);
  return time === '' || time.startsWith('00:00:00') ? day : `${day} ${time.slice(0, 5)} UTC`;
}

const noRead = (w: ObstacleWords): Message => msg('why.obstacle.no_read', { share: w.share, to: w.to });
const TEAM = 7;

/**
 * Every rule. The lookup applies them level by level (host, row, node, mounts), in this order
 * within a level: the first that blocks a share names it.
 */
export const SHARE_RULES: readonly ShareRule[] = [
  {
    // The host loads an app only when its `enabled` row exists and is not 'no' (§3.4 8).
    kind: 'sharing off',
    rank: 0,
    level: 'host',
    blocks: (facts) => {
      const sharing = facts.sharingConfig.get('enabled');
      return sharing === undefined || sharing === 'no';
    },
    explain: () => msg('why.obstacle.sharing_off'),
  },
  {
    // Team shares come from circles' share provider, registered only while circles is
    // loaded (ProviderFactory::getProviderForType throws for type 7 otherwise). Enabled for some
    // groups only is taken as off: the side that cannot leak.
    kind: 'teams off',
    rank: 0,
    level: 'row',
    blocks: (s, c) => (s.shareType === TEAM && c.facts.sharingConfig.get('circles.enabled') !== 'yes' ? '' : null),
    explain: (w) => msg('why.obstacle.teams_off', { node: w.node, team: w.team ?? '?', user: w.user }),
  },
  {
    // Talk rooms and Deck boards: their members live in those apps' tables, which the product
    // does not read, so such a share never shows a file (docs/host-adapter.md, "Teams").
    kind: 'unsupported share',
    rank: 10,
    level: 'row',
    blocks: (s) => (UNSUPPORTED_SHARE_TYPES.includes(s.shareType) ? '' : null),
    explain: (w) => msg('why.obstacle.unsupported', { node: w.node, what: w.unsupported ?? msg('why.unsupported.deck'), user: w.user }),
  },
  {
    // 33.0.1 checks a received share's target only while it sets up the user's files, and moves
    // a share whose target one of the user's own files or folders holds to a free name beside it
    // (taken-targets.ts): until then the database holds a path where the share will not be, and
    // not yet the one where it will. None is let through, the side that cannot leak.
    kind: 'taken target',
    rank: 1,
    level: 'mounts',
    blocks: (mounts, facts) => {
      const taken = facts.takenTargets;
      return taken === null ? [] : mounts.filter((m) => taken.has(trimSlashes(m.mount.target))).map((m) => [m]);
    },
    letsThrough: () => null,
    explain: (w) =>
      w.target === null
        ? msg('why.obstacle.taken_target_no_path', { share: w.share, user: w.user })
        : msg('why.obstacle.taken_target', { share: w.share, user: w.user, target: w.target }),
  },
  {
    // Nextcloud mounts one share per mount point (MountProvider::getMountsFromSuperShares): 34.0.1
    // the last of the shares its queries return (user shares first, then group, then team
    // shares), 33.0.1 the first, moving the others to a free name at the user's next setup.
    // Where that order is known (collision-order.ts: a lone group-only node among user-shared
    // ones on 34.0.1, the first in id order on 33.0.1, never where a team share may be moved
    // apart first) that one is let through; else none, the side that cannot leak. The others'
    // new names are not in the database yet: omitted.
    kind: 'colliding target',
    rank: 1,
    level: 'mounts',
    blocks: (mounts) => {
      const byTarget = new Map<string, Candidate[]>();
      for (const m of mounts) {
        const key = trimSlashes(m.mount.target);
        byTarget.set(key, [...(byTarget.get(key) ?? []), m]);
      }
      return [...byTarget.values()].filter((group) => group.length > 1);
    },
    letsThrough: (group, facts) => mountedAmong(group, facts.hostVersion),
    explain: (w) => {
      const others = msg(w.collidesWith.length === 1 ? 'why.others.one' : 'why.others.many', { sharers: w.collidesWith.join(', ') });
      const words = { share: w.share, others, user: w.user };
      // 33.0.1 without a known first node (a team share takes part): the general sentences.
      if (w.renamedAtSetup && w.mountedFrom !== null) {
        return w.target === null
          ? msg('why.obstacle.colliding_renamed_no_path', { ...words, mountedFrom: w.mountedFrom })
          : msg('why.obstacle.colliding_renamed', { ...words, target: w.target, mountedFrom: w.mountedFrom });
      }
      if (w.target === null) {
        return w.mountedFrom === null
          ? msg('why.obstacle.colliding_no_path', words)
          : msg('why.obstacle.colliding_known_no_path', { ...words, mountedFrom: w.mountedFrom });
      }
      return w.mountedFrom === null
        ? msg('why.obstacle.colliding', { ...words, target: w.target })
        : msg('why.obstacle.colliding_known', { ...words, target: w.target, mountedFrom: w.mountedFrom });
    },
  },
  {
    // A group share reaches direct members only (the share provider asks getUserGroupIds).
    kind: 'not member',
    rank: 9,
    level: 'row',
    blocks: (s, c) => (s.shareType === 1 && c.facts.groups !== null && !c.facts.groups.has(s.shareWith) ? '' : null),
    explain: (w) => msg('why.obstacle.not_member', { node: w.node, group: w.group ?? '?', user: w.user }),
  },
  {
    // A team share reaches the members circles' flattened membership lists (team-rules.ts).
    kind: 'not in team',
    rank: 9,
    level: 'row',
    blocks: (s, c) => (s.shareType === TEAM && c.facts.teams !== undefined && c.facts.teams !== null && !c.facts.teams.has(s.shareWith) ? '' : null),
    explain: (w) => msg('why.obstacle.not_in_team', { node: w.node, team: w.team ?? '?', user: w.user }),
  },
  {
    // The user removed a group or team share from their files: the override row (group) or
    // the child row (team, ShareByCircleProvider::deleteFromSelf) has permissions 0.
    kind: 'left',
    rank: 2,
    level: 'row',
    blocks: (s) => ((s.shareType === 1 || s.shareType === TEAM) && s.permissions <= 0 ? '' : null),
    explain: (w) =>
      w.team === null
        ? msg('why.obstacle.left', { user: w.user, node: w.node, group: w.group ?? '?' })
        : msg('why.obstacle.left_team', { user: w.user, node: w.node, team: w.team }),
  },
  {
    // The super share's status is the highest of its rows: 1 accepted, 2 declined, 0 pending.
    kind: 'declined',
    rank: 3,
    level: 'node',
    blocks: (rows) => statusOf(rows) === 2,
    explain: (w) => msg('why.obstacle.declined', { user: w.user, share: w.share }),
  },
  {
    kind: 'pending',
    rank: 4,
    level: 'node',
    blocks: (rows) => statusOf(rows) === 0,
    explain: (w) => msg('why.obstacle.pending', { user: w.user, share: w.share }),
  },
  {
    // Manager::checkShare deletes an expired share the first time it is read.
    kind: 'expired',
    rank: 5,
    level: 'row',
    blocks: (s) => (s.expired ? '' : null),
    explain: (w) =>
      w.expiration === null
        ? msg('why.obstacle.expired_undated', { share: w.share, to: w.to })
        : msg('why.obstacle.expired', { share: w.share, to: w.to, day: dayOfExpiry(w.expiration) }),
  },
  {
    // Hidden while its owner or resharer is disabled (hide_disabled_user_shares, by version:
    // disabled-sharers.ts); a vanished LDAP owner's folder cannot be opened at all, and a
    // vanished resharer is dropped too, the side that cannot leak.
    kind: 'disabled sharer',
    rank: 6,
    level: 'row',
    blocks: (s, c) => {
      const hidden = (uid: string): boolean => c.facts.goneUsers.has(uid) || (c.hideDisabled && c.facts.disabledUsers.has(uid));
      return [s.owner, s.initiator].find((uid): uid is string => uid !== null && hidden(uid)) ?? null;
    },
    explain: (w) => msg('why.obstacle.disabled_sharer', { share: w.share, account: w.account ?? '?', assumed: w.assumed ?? '' }),
  },
  {
    // A user share without any permission never mounts (filterShares drops it before merging).
    kind: 'no read',
    rank: 7,
    level: 'row',
    blocks: (s) => (s.shareType === 0 && s.permissions <= 0 ? '' : null),
    explain: noRead,
  },
  {
    // The super share's permissions are the OR of its rows, and must include reading.
    kind: 'no read',
    rank: 7,
    level: 'node',
    blocks: (rows) => (rows.reduce((p, s) => p | s.permissions, 0) & READ) === 0,
    explain: noRead,
  },
  {
    // The node must exist under the owner's `files/` (not be `files` itself), carry the share
    // bit and lie in a home storage of the owner: else Nextcloud mounts a failed storage. A
    // node on an external storage mounted for the owner counts too (files_sharing's
    // SharedStorage::init looks the node up in the owner's folders, mounts included;
    // external-storage.ts).
    kind: 'broken share',
    rank: 8,
    level: 'node',
    blocks: (rows, root, facts) => {
      if (root === undefined) return true;
      const owner = rows[0]?.owner ?? '';
      if (facts.externalOf?.(owner).has(root.storageId) === true) return false;
      return (
        !isInUserFiles(root.path) ||
        root.path === 'files' ||
        (root.permissions & SHARE) === 0 ||
        !homeStorageIds(owner, facts.dataDirectory).includes(root.storageId)
      );
    },
    explain: (w) => msg('why.obstacle.broken', { share: w.share }),
  },
];

/** The share types the rules read: user, group, team, and the unsupported ones `why` names. */
const READ_TYPES = new Set([0, 1, TEAM, ...UNSUPPORTED_SHARE_TYPES]);

const rulesAt = <L extends ShareRule['level']>(level: L): Extract<ShareRule, { level: L }>[] =>
  SHARE_RULES.filter((r): r is Extract<ShareRule, { level: L }> => r.level === level);
/** Each level's rules, in SHARE_RULES' order, sorted once: `who` applies them for 10 000 accounts. */
const LEVELS = { host: rulesAt('host'), row: rulesAt('row'), node: rulesAt('node'), mounts: rulesAt('mounts') };

/** The explanation of an obstacle, worded by the first rule of its kind. */
export function explainObstacle(kind: ObstacleKind, words: ObstacleWords): Message {
  const rule = SHARE_RULES.find((r) => r.kind === kind);
  return rule === undefined ? msg('why.obstacle.unknown', { share: words.share, user: words.user }) : rule.explain(words);
}

/** The rank of a cause (`RuleText.rank`). */
export function obstacleRank(kind: ObstacleKind): number {
  return SHARE_RULES.find((r) => r.kind === kind)?.rank ?? SHARE_RULES.length;
}

/** Whose shares never mount for the user: other users' shares, and the user's own (Nextcloud's filterShares). */
function notForUser(share: ShareRow, user: string): boolean {
  if (share.shareType === 0 && share.shareWith !== user) return true;
  return share.owner === user || (share.initiator ?? '') === user;
}

/** Who shared a node: the earliest row's initiator, else its owner. */
function sharerOf(rows: readonly ShareRow[]): string {
  const first = rows[0];
  return first === undefined ? '' : (first.initiator ?? first.owner);
}

/**
 * What the rules let through for `facts.user`: the mounts, one per shared node, and every
 * share they keep from mounting with the rule that did. A share no rule concerns (another
 * user's, or the user's own) is in neither list.
 */
export function mountsOf(facts: ShareFacts): { mounts: Mount[]; blocked: Blocked[] } {
  const blocked: Blocked[] = [];
  const renamedAtSetup = settlingOf(facts.hostVersion) === 'renamed at setup';
  const block = (
    kind: ObstacleKind,
    share: ShareRow,
    account: string | null = null,
    collidesWith: readonly string[] = [],
    mountedFrom: string | null = null,
  ): void => {
    blocked.push({ kind, share, account, collidesWith, mountedFrom, renamedAtSetup: kind === 'colliding target' && renamedAtSetup });
  };
  // Users, groups, teams; Talk rooms and Deck boards only to be named (the rule above blocks them).
  const addressed = facts.shares.filter((s) => READ_TYPES.has(s.shareType) && !notForUser(s, facts.user));
  const hostRule = LEVELS.host.find((r) => r.blocks(facts));
  if (hostRule !== undefined) {
    for (const share of addressed) block(hostRule.kind, share);
    return { mounts: [], blocked };
  }
  const context: RowContext = { facts, hideDisabled: hidesDisabledUserShares(facts.sharingConfig.get('hide_disabled_user_shares'), facts.hostVersion) };
  const byNode = new Map<number, ShareRow[]>();
  for (const share of addressed) {
    const rule = LEVELS.row.map((r) => ({ kind: r.kind, account: r.blocks(share, context) })).find((r) => r.account !== null);
    if (rule !== undefined) {
      block(rule.kind, share, rule.account === '' ? null : rule.account);
      continue;
    }
    byNode.set(share.fileSource, [...(byNode.get(share.fileSource) ?? []), share]);
  }
  let candidates: Candidate[] = [];
  for (const [node, rows] of byNode) {
    // The super share takes its owner and target from the earliest row by (stime, id).
    rows.sort((a, b) => a.stime - b.stime || a.id - b.id);
    const first = rows[0];
    const root = facts.roots.get(node);
    const rule = LEVELS.node.find((r) => r.blocks(rows, root, facts));
    if (rule !== undefined || root === undefined || first === undefined) {
      for (const share of rows) block(rule?.kind ?? 'broken share', share);
      continue;
    }
    candidates.push({ mount: { root, owner: first.owner, target: first.target, rows }, rows });
  }
  for (const rule of LEVELS.mounts) {
    const kept = new Set<Candidate>(candidates);
    for (const group of rule.blocks(candidates, facts)) {
      const through = rule.letsThrough(group, facts);
      for (const candidate of group) {
        if (candidate === through) continue;
        kept.delete(candidate);
        const others = [...new Set(group.filter((c) => c !== candidate).map((c) => sharerOf(c.rows)))];
        for (const share of candidate.rows) block(rule.kind, share, null, others, through === null ? null : sharerOf(through.rows));
      }
    }
    candidates = candidates.filter((c) => kept.has(c));
  }
  return { mounts: candidates.map((c) => c.mount), blocked };
}
