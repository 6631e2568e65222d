/**
 * Which of two shares reaching one user at the same target Nextcloud mounts there, where its
 * order tells (docs/nextcloud-34.md, "(a) Which share is mounted" and "33.0.1"). Both releases
 * read ask the user's user shares first, then group shares, then team shares (then Talk rooms
 * and Deck boards, which the rules never mount), and group the rows by node in the order each
 * node first appears; they differ in what a second share at a taken mount point meets:
 * - 34.0.1 keeps the last mount at a mount point, and reads the rows without an `ORDER BY`: a
 *   node reached only through group shares is mounted over nodes a user share reaches; among
 *   nodes of the same kind the order is the database's, which nothing here can know.
 * - 33.0.1 reads the rows by share id and, while it sets up the user's files, moves every
 *   share whose mount point is already taken to a free name beside it (written back to the
 *   database then): the first node keeps the target, the others move to a name the database
 *   does not hold yet.
 *
 * Team shares: on 34.0.1 a node reached only through team shares would be mounted over both,
 * and was (a user who joins a team after a user share took `/Z` sees the team's `/Z` only, the
 * user share nowhere). But before it mounts, 34.0.1's ShareRecipientUpdater may move the team
 * share apart (`/Z (2)`, a child row): circles announces a new member and a user's first set-up
 * refreshes every share not yet in the mount cache, unless the request ran out of its time for
 * that work. Which of the two happens is not in the database (seen both ways on the real
 * server), so where a node first reached through a team share takes part none is let through,
 * on either release: the user share is never shown where the team's folder may have taken its
 * place.
 */

import { releaseOf } from './release.js';

/** How a release settles two shares at one target, for the releases whose MountProvider was read. */
export type Settling = 'last mount stays' | 'renamed at setup';

export function settlingOf(hostVersion: string | null): Settling | null {
  const release = releaseOf(hostVersion);
  if (release === null || release.minor !== 0 || release.patch !== 1) return null;
  if (release.major === 34) return 'last mount stays';
  if (release.major === 33) return 'renamed at setup';
  return null;
}

interface Reaching {
  /** The share rows through which the node reaches the user (0 user share, 1 group share, 7 team share), with their ids. */
  readonly rows: readonly { readonly shareType: number; readonly id: number }[];
}

/** The place of a share type in MountProvider::getSuperSharesForUser: user, group, team. */
const ASKED_AS = new Map([
  [0, 0],
  [1, 1],
  [7, 2],
]);

/** A node first reached through a team share: renamed apart or mounted last, the database cannot tell. */
const TEAM_FIRST = 2;

const askedAs = (shareType: number): number => ASKED_AS.get(shareType) ?? 0;

/** When a node first appears among the user's shares: the earliest kind of its rows. */
const firstAsked = (node: Reaching): number => Math.min(...node.rows.map((row) => askedAs(row.shareType)));

/** Where 33.0.1's merged, id-ordered rows first meet the node: its earliest kind, then that kind's lowest share id. */
function firstSeen(node: Reaching): [number, number] {
  const kind = firstAsked(node);
  return [kind, Math.min(...node.rows.filter((row) => askedAs(row.shareType) === kind).map((row) => row.id))];
}

/**
 * The one of `colliding` (nodes at one target) that the host mounts at that target, or null
 * where the database cannot tell: an unread or unknown release (releases below 33 are not
 * supported and read as unknown), a node first reached through a team share, or on 34.0.1 not
 * exactly one node first reached through the latest kind. On 33.0.1 the first node of its order
 * keeps the target; the others are mounted elsewhere after the user's next setup.
 */
export function mountedAmong<T extends Reaching>(colliding: readonly T[], hostVersion: string | null): T | null {
  const settling = settlingOf(hostVersion);
  if (settling === null || colliding.some((node) => firstAsked(node) >= TEAM_FIRST)) return null;
  if (settling === 'renamed at setup') {
    let first: { node: T; at: [number, number] } | null = null;
    for (const node of colliding) {
      const at = firstSeen(node);
      if (first === null || at[0] < first.at[0] || (at[0] === first.at[0] && at[1] < first.at[1])) first = { node, at };
    }
    return first?.node ?? null;
  }
  const latest = Math.max(...colliding.map(firstAsked));
  const last = colliding.filter((node) => firstAsked(node) === latest);
  return last.length === 1 && latest > 0 ? (last[0] ?? null) : null;
}
