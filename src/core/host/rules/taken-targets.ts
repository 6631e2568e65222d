/**
 * The facts of the `taken target` rule (share-rules.ts): which received shares' targets a file or
 * folder of the recipient's own already holds. 33.0.1 checks a received share's target only
 * while it sets up the recipient's files (files_sharing `MountProvider::getMountsFromSuperShares`
 * → `ShareTargetValidator::verifyMountPoint`, which looks the path up in the recipient's home
 * cache) and then moves the share to a free name beside that entry, writing the new target back;
 * until the recipient's next setup the database holds a target where the share will not be.
 * 34.0.1 makes the target unique when the share is created, so its stored targets need no such
 * check (docs/nextcloud-34.md, "33.0.1").
 */
import type { SqlRow, SqlValue } from '../db/types.js';
import { nodeCrypto } from '../../node-crypto.js';
import { settlingOf } from './collision-order.js';
import { rowText } from './lookup-sql.js';
import { homeStorageIds, trimSlashes } from './storages.js';

/** A received share's target, as the recipient holds it. */
export interface TargetAsked {
  readonly account: string;
  readonly target: string;
}

const homePath = (target: string): string => `files/${trimSlashes(target)}`;

/** Whether the release checks a share's target only at the recipient's setup (the releases read: 33.0.1). */
export function checksTargetsAtSetup(hostVersion: string | null): boolean {
  return settlingOf(hostVersion) === 'renamed at setup';
}

/**
 * account → the targets (slashes trimmed) that its own home already holds, read through the
 * host's unique (storage, path_hash) index; null where the release does not check targets at
 * setup (nothing to read). One statement for every account asked.
 */
export async function readTakenTargets(
  query: (sql: string, params: readonly SqlValue[]) => Promise<SqlRow[]>,
  prefix: string,
  asked: readonly TargetAsked[],
  dataDirectory: string | null,
  hostVersion: string | null,
): Promise<ReadonlyMap<string, ReadonlySet<string>> | null> {
  if (!checksTargetsAtSetup(hostVersion)) return null;
  const found = new Map<string, Set<string>>();
  const wanted = asked.filter((a) => trimSlashes(a.target) !== '');
  if (wanted.length === 0) return found;
  const storagesOf = new Map<string, readonly string[]>();
  for (const { account } of wanted) if (!storagesOf.has(account)) storagesOf.set(account, homeStorageIds(account, dataDirectory));
  const storageIds = [...new Set([...storagesOf.values()].flat())];
  const paths = [...new Set(wanted.map((a) => homePath(a.target)))];
  const md5 = (s: string): string => nodeCrypto().createHash('md5').update(s).digest('hex');
  const marks = (n: number): string => Array.from({ length: n }, () => '?').join(', ');
  const rows = await query(
    `SELECT st.id AS sid, f.path AS path FROM ${prefix}filecache f JOIN ${prefix}storages st ON st.numeric_id = f.storage` +
      ` WHERE st.id IN (${marks(storageIds.length)}) AND f.path_hash IN (${marks(paths.length)})`,
    [...storageIds, ...paths.map(md5)],
  );
  const held = new Set(rows.map((row) => `${rowText(row.sid) ?? ''}\u0000${rowText(row.path) ?? ''}`));
  for (const { account, target } of wanted) {
    const path = homePath(target);
    if ((storagesOf.get(account) ?? []).some((sid) => held.has(`${sid}\u0000${path}`))) {
      found.set(account, (found.get(account) ?? new Set<string>()).add(trimSlashes(target)));
    }
  }
  return found;
}
