/**
 * The parts the statements of the rules share (lookup-sql.ts, share-reach.ts,
 * share-obstacles.ts), each written once: which shares count, how a recipient's override row
 * applies, and the rows the rules read besides the shares (their nodes `R`, the sharing
 * switches `C`, the sharers' flags `D`, an account's own flags `U`). A change of one of them
 * lands here. The conditions only narrow; the rules decide (share-rules.ts).
 */
import type { RowBranch } from './row-branch.js';

/** Only shares of files and folders are mounted in Files. */
export function fileOrFolder(column = 's.item_type'): string {
  return `${column} IN ('file', 'folder')`;
}

/**
 * The same test in a CASE, which no index serves: SQLite otherwise reads every file share
 * through item_share_type_index instead of the few on the nodes asked through
 * file_source_index (20 ms against 0.5 ms with 100 k shares; test/host-plan-shape).
 */
export const FILE_OR_FOLDER_UNINDEXED = `CASE WHEN ${fileOrFolder()} THEN 1 ELSE 0 END = 1`;

/**
 * Direct groups only, as the host's share provider asks (`getUserGroupIds`): a member of a
 * nested child group does not receive the parent group's shares (docs/host-adapter.md). One `?`: the user.
 */
export function directGroups(prefix: string): string {
  return `ug (gid) AS (SELECT gid FROM ${prefix}group_user WHERE uid = ?)`;
}

/** A share to the user (first `?`) or to one of its direct groups (`ug`). */
export const ADDRESSED_TO_USER = `((s.share_type = 0 AND s.share_with = ?) OR (s.share_type = 1 AND s.share_with IN (SELECT gid FROM ug)))`;

/** The recipient's override row `o` of a group share `s` (moved, left, accepted or declined by that member); `recipient` is `?` or a column. */
export function overrideJoin(prefix: string, recipient: string): string {
  return `LEFT JOIN ${prefix}share o ON s.share_type = 1 AND o.share_type = 2 AND o.parent = s.id AND o.share_with = ${recipient}`;
}

/** A share's permissions, status and target as its recipient has them: its override row's where it has one. */
export const OVERRIDDEN = `COALESCE(o.permissions, s.permissions) AS perms, COALESCE(o.accepted, s.accepted) AS accepted, COALESCE(o.file_target, s.file_target) AS target`;

/**
 * The columns of a candidate share, `overrideJoin`'s row applied when `override`; one `?`: now
 * (naive UTC). Expired shares come too: the expiry rule is decided with the others.
 */
export function candidateColumns(override: boolean): string {
  const asHeld = override ? OVERRIDDEN : `s.permissions AS perms, s.accepted AS accepted, s.file_target AS target`;
  return (
    `s.id, s.share_type, s.uid_owner, s.uid_initiator, s.file_source, s.stime, ${asHeld},` +
    ` CASE WHEN s.expiration IS NOT NULL AND s.expiration <= ? THEN 'expired' END AS expired`
  );
}

/** An account's enabled flag and LDAP-deleted flag (and, for the search, its language). */
export function accountFlags(withLanguage = false): string {
  return `((appid = 'core' AND configkey ${withLanguage ? "IN ('enabled', 'lang')" : "= 'enabled'"}) OR (appid = 'user_ldap' AND configkey = 'isDeleted'))`;
}

/** `R`: the nodes the shares of `shares` (a CTE) are on, in the columns of a node row (lookup-rows.ts `nodeRowOf`). */
export function sharedNodes(prefix: string, shares: string): RowBranch {
  const p = prefix;
  return {
    kind: 'R',
    fills: { a: 'r.fileid', b: 'r.storage', c: 'r.permissions', t1: 'r.path', t2: 'r.name', t3: 'rm.mimetype', t4: 'rs.id' },
    rest:
      `FROM ${p}filecache r JOIN ${p}storages rs ON rs.numeric_id = r.storage JOIN ${p}mimetypes rm ON rm.id = r.mimetype` +
      ` WHERE r.fileid IN (SELECT file_source FROM ${shares})`,
  };
}

/** `C`: the files_sharing switches (key in t1, value in t2; lookup-rows.ts `addSharingRow`). */
export function sharingSwitches(prefix: string): RowBranch {
  return {
    kind: 'C',
    // circles' `enabled` comes as `circles.enabled`: team shares mount only while it is on.
    fills: { t1: `CASE WHEN appid = 'circles' THEN 'circles.enabled' ELSE configkey END`, t2: 'configvalue' },
    rest:
      `FROM ${prefix}appconfig WHERE (appid = 'files_sharing' AND configkey IN ('enabled', 'hide_disabled_user_shares'))` +
      ` OR (appid = 'circles' AND configkey = 'enabled')`,
  };
}

/** `D`: the flags of the owners and resharers of `shares` (a CTE): user in t1, value in t2, key in t3. */
export function sharerFlags(prefix: string, shares: string): RowBranch {
  return {
    kind: 'D',
    fills: { t1: 'userid', t2: 'configvalue', t3: 'configkey' },
    rest: `FROM ${prefix}preferences WHERE ${accountFlags()} AND userid IN (SELECT uid_owner FROM ${shares} UNION SELECT uid_initiator FROM ${shares})`,
  };
}

/** `U`: the flags of the accounts `who` selects (`= ?`, `IN (…)`), in `D`'s columns. */
export function ownFlags(prefix: string, who: string, withLanguage = false): RowBranch {
  return {
    kind: 'U',
    fills: { t1: 'userid', t2: 'configvalue', t3: 'configkey' },
    rest: `FROM ${prefix}preferences WHERE userid ${who} AND ${accountFlags(withLanguage)}`,
  };
}
