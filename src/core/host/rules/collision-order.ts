/**
 * Which of two shares reaching one user at the same target Nextcloud mounts there, where its
 * order tells (docs/nextcloud-34.md, "(a) Which share is mounted" and "33.0.1"). Both releases
 * read merge the user's user shares first and group shares after them, and group the rows by
 * node in the order each node first appears; they differ in what a second share at a taken
 * mount point meets:
 * - 34.0.1 keeps the last mount at a mount point, and reads the rows without an `ORDER BY`: a
 *   node reached only through a group share is mounted over every node a user share reaches;
 *   among nodes of the same kind the order is the database's, which nothing here can know.
 * - 33.0.1 reads the rows by share id and, while it sets up the user's files, moves every
 *   share whose mount point is already taken to a free name beside it (written back to the
 *   database then): the first node keeps the target, the others move to a name the database
 *   does not hold yet.
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
  /** The share rows through which the node reaches the user (0 user share, 1 group share), with their ids. */
  readonly rows: readonly { readonly shareType: number; readonly id: number }[];
}

/** Where 33.0.1's merged, id-ordered rows first meet the node: its lowest user-share id, else after every user share its lowest group-share id. */
function firstSeen(node: Reaching): [number, number] {
  const ids = (type: number): number[] => node.rows.filter((row) => row.shareType === type).map((row) => row.id);
  const user = ids(0);
  return user.length > 0 ? [0, Math.min(...user)] : [1, Math.min(...ids(1))];
}

/**
 * The one of `colliding` (nodes at one target) that the host mounts at that target, or null
 * where the database cannot tell: an unread or unknown release (releases below 33 are not
 * supported and read as unknown), or on 34.0.1 not exactly one node reached through group
 * shares alone. On 33.0.1 the first node of its order keeps the target; the others are mounted
 * elsewhere after the user's next setup.
 */
export function mountedAmong<T extends Reaching>(colliding: readonly T[], hostVersion: string | null): T | null {
  const settling = settlingOf(hostVersion);
  if (settling === 'renamed at setup') {
    let first: { node: T; at: [number, number] } | null = null;
    for (const node of colliding) {
      const at = firstSeen(node);
      if (first === null || at[0] < first.at[0] || (at[0] === first.at[0] && at[1] < first.at[1])) first = { node, at };
    }
    return first?.node ?? null;
  }
  if (settling !== 'last mount stays') return null;
  const groupOnly = colliding.filter((c) => c.rows.every((row) => row.shareType === 1));
  return groupOnly.length === 1 ? (groupOnly[0] ?? null) : null;
}
