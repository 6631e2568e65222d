/**
 * Which of two shares reaching one user at the same target Nextcloud mounts, where its order
 * tells (docs/nextcloud-34.md, "(a) Which share is mounted"). 34.0.1's MountProvider asks the
 * user's user shares first, then group shares, then team shares (then Talk rooms and Deck
 * boards, which the rules never mount), groups the rows by node in the order each node first
 * appears, and keeps the last mount at a mount point. So a node reached only through group
 * shares is mounted over nodes a user share reaches. Among nodes of the same kind the order is
 * the database's, which nothing here can know.
 *
 * A node reached only through team shares would be mounted over both, and was (a user who
 * joins a team after a user share took `/Z` sees the team's `/Z` only, the user share nowhere).
 * But before it mounts, 34.0.1's ShareRecipientUpdater may move the team share apart (`/Z (2)`,
 * a child row): circles announces a new member (UserShareAccessUpdatedEvent) and a user's first
 * set-up refreshes every share not yet in the mount cache, unless the request ran out of its 3 s
 * for that work and left it to a later set-up. Which of the two happens is not in the database
 * (seen both ways on the real server), so where a team share takes part none is let through:
 * the user share is never shown where the team's folder took its place.
 */

import { releaseOf } from './release.js';

/** Releases whose MountProvider was read and keeps the last mount at a mount point (34.0.1). */
function keepsLastMount(hostVersion: string | null): boolean {
  const release = releaseOf(hostVersion);
  return release !== null && release.major === 34 && release.minor === 0 && release.patch === 1;
}

interface Reaching {
  /** The share rows through which the node reaches the user (0 user share, 1 group share, 7 team share). */
  readonly rows: readonly { readonly shareType: number }[];
}

/** The place of a share type in 34.0.1's MountProvider::getSuperSharesForUser: user, group, team. */
const ASKED_AS = new Map([
  [0, 0],
  [1, 1],
  [7, 2],
]);

/** A node first reached through a team share: renamed apart or mounted last, the database cannot tell. */
const TEAM_FIRST = 2;

/** When a node first appears among the user's shares: the earliest kind of its rows. */
const firstAsked = (node: Reaching): number => Math.min(...node.rows.map((row) => ASKED_AS.get(row.shareType) ?? 0));

/**
 * The one of `colliding` (nodes at one target) that the host mounts, or null where the database
 * cannot tell: an unread or unknown release (33.0.1 renames both apart at the user's next
 * listing instead), a node first reached through a team share, or not exactly one node first
 * reached through the latest kind.
 */
export function mountedAmong<T extends Reaching>(colliding: readonly T[], hostVersion: string | null): T | null {
  if (!keepsLastMount(hostVersion)) return null;
  const latest = Math.max(...colliding.map(firstAsked));
  if (latest >= TEAM_FIRST) return null;
  const last = colliding.filter((node) => firstAsked(node) === latest);
  return last.length === 1 && latest > 0 ? (last[0] ?? null) : null;
}
