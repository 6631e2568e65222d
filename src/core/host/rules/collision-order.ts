/**
 * Which of two shares reaching one user at the same target Nextcloud mounts, where its order
 * tells (docs/nextcloud-34.md, "(a) Which share is mounted"). 34.0.1's MountProvider merges the
 * user's user shares first and group shares after them, groups the rows by node in the order
 * each node first appears, and keeps the last mount at a mount point. So a node reached only
 * through a group share is mounted over every node that a user share reaches; among nodes of
 * the same kind the order is the database's, which nothing here can know.
 */

import { releaseOf } from './release.js';

/** Releases whose MountProvider was read and keeps the last mount at a mount point (34.0.1). */
function keepsLastMount(hostVersion: string | null): boolean {
  const release = releaseOf(hostVersion);
  return release !== null && release.major === 34 && release.minor === 0 && release.patch === 1;
}

interface Reaching {
  /** The share rows through which the node reaches the user (0 user share, 1 group share). */
  readonly rows: readonly { readonly shareType: number }[];
}

/**
 * The one of `colliding` (nodes at one target) that the host mounts, or null where the database
 * cannot tell: an unread or unknown release (31.0.2 renames both apart at the user's next
 * listing instead), or not exactly one node reached through group shares alone.
 */
export function mountedAmong<T extends Reaching>(colliding: readonly T[], hostVersion: string | null): T | null {
  if (!keepsLastMount(hostVersion)) return null;
  const groupOnly = colliding.filter((c) => c.rows.every((row) => row.shareType === 1));
  return groupOnly.length === 1 ? (groupOnly[0] ?? null) : null;
}
