/**
 * `who`: whom the shares of a file of the archive account reach. One statement reads every user
 * or group share on the files or a folder holding them (whatever its state), the recipients'
 * override rows of the group shares, and the direct members of those groups: whom to ask.
 * Whether each recipient really opens the file is then asked as `why` asks it, question 1's
 * rows and rules (`accountSharesOf` reads the rows question 1 reads, for many accounts in one
 * statement; visibility.ts `questionMounts` judges them per account), so `who` and `why` cannot
 * disagree. `ReachIndex` turns those mounts into who opens which file, as `candidates` and
 * `pickPerDocument` do for one account.
 */
import type { Dialect, SqlRow, SqlValue } from '../db/types.js';
import { nodeRowOf } from './lookup-rows.js';
import { placeholders, rowNumber as num, rowText as text, type Statement } from './lookup-sql.js';
import { LIKE_ESCAPE } from './marker.js';
import { ACCOUNT_COLUMNS, branch, branchOf, type RowBranch } from './row-branch.js';
import { candidateColumns, fileOrFolder, FILE_OR_FOLDER_UNINDEXED, overrideJoin, ownFlags, sharedNodes, sharerFlags, sharingSwitches } from './share-sql.js';
import type { Mount, NodeRow } from './share-rules.js';
import { LOCAL_USER_SINGLE, routeJoins, TEAM_SHARE_ROW, teamCandidateColumns, teamRouteOf, teamShareJoin, type TeamRoute } from './team-rules.js';
import type { VisibleFile } from './types.js';
import { mountCovers, mountPath, preferred } from './visibility.js';
import { externalPath, type ExternalView } from './external-storage.js';
import { ownerNodePath } from './storages.js';

/** A user, group or team share on a file of the archive account or a folder holding it. */
export interface ReachShare {
  readonly id: number;
  readonly shareType: 0 | 1 | 7;
  /** The user, the group, or the team's single id. */
  readonly shareWith: string;
  readonly owner: string;
  readonly initiator: string | null;
  readonly stime: number;
  readonly target: string;
  /** The shared node as its owner sees it (`/Paperless/Invoices`). */
  readonly nodePath: string;
  readonly nodeId: number;
}

export interface ShareReach {
  readonly shares: readonly ReachShare[];
  /** Group → its direct members (the share provider asks direct groups only); team → its members by every route (team-rules.ts). */
  readonly members: ReadonlyMap<string, readonly string[]>;
  /** `team/user` → the team's name and how the user is in it (`who`'s chain). */
  readonly teamRoutes: ReadonlyMap<string, { readonly team: string; readonly route: TeamRoute }>;
  /** `share id/user` → the target of that user's override row (a group share the user moved). */
  readonly overrideTargets: ReadonlyMap<string, string>;
  /** The files themselves, as the rules read nodes. */
  readonly files: readonly NodeRow[];
}

export function buildShareReach(prefix: string, files: readonly VisibleFile[]): Statement {
  const p = prefix;
  const params: SqlValue[] = [...files.map((f) => f.fileId)];
  const nulls = (n: number): string => Array.from({ length: n }, () => 'NULL').join(', ');
  // The files and the folders above them, by parent id (primary key lookups): matching their
  // paths read every row of the storage on SQLite, which has no md5 for path_hash (800 ms at
  // 20 k files). Only nodes under `files/` can be shared (the rules call the rest broken).
  const sql =
    `WITH RECURSIVE up (fileid, parent) AS (SELECT fileid, parent FROM ${p}filecache WHERE fileid IN (${placeholders(files.length)})` +
    ` UNION SELECT f.fileid, f.parent FROM ${p}filecache f JOIN up ON f.fileid = up.parent),` +
    ` nodes AS (SELECT n.fileid, n.path FROM ${p}filecache n WHERE n.fileid IN (SELECT fileid FROM up) AND (substr(n.path, 1, 6) = 'files/'` +
    // A folder on a Local external storage (external-storage.ts) can be shared wherever it lies.
    ` OR n.storage IN (SELECT xs.numeric_id FROM ${p}storages xs WHERE xs.id LIKE 'local::%'))),` +
    ` sh AS (SELECT s.id, s.share_type, s.share_with, s.uid_owner, s.uid_initiator, s.file_source, s.stime, s.file_target FROM ${p}share s` +
    ` WHERE s.file_source IN (SELECT fileid FROM nodes) AND ${FILE_OR_FOLDER_UNINDEXED} AND (s.share_type IN (0, 1) OR (s.share_type = 7 AND ${TEAM_SHARE_ROW})))` +
    ` SELECT 'S' AS k, sh.id AS a, sh.share_type AS b, sh.file_source AS c, sh.stime AS d, sh.share_with AS t1, sh.uid_owner AS t2, sh.uid_initiator AS t3, sh.file_target AS t4, nodes.path AS t5` +
    ` FROM sh JOIN nodes ON nodes.fileid = sh.file_source` +
    ` UNION ALL SELECT 'M', ${nulls(4)}, gid, uid, ${nulls(3)} FROM ${p}group_user WHERE gid IN (SELECT share_with FROM sh WHERE share_type = 1)` +
    // The local users circles lists in each team, with the route (kind N).
    ` UNION ALL SELECT 'N', ms.inheritance_depth, via.source, ${nulls(2)}, ms.circle_id, m.user_id, tc.display_name, via.display_name, NULL` +
    ` FROM ${p}circles_membership ms JOIN ${p}circles_member m ON m.single_id = ms.single_id AND ${LOCAL_USER_SINGLE('m')}` +
    ` JOIN ${p}circles_circle tc ON tc.unique_id = ms.circle_id ${routeJoins(p)} WHERE ms.circle_id IN (SELECT share_with FROM sh WHERE share_type = 7)` +
    ` UNION ALL SELECT 'O', o.parent, ${nulls(3)}, o.share_with, o.file_target, ${nulls(3)} FROM ${p}share o WHERE o.share_type = 2 AND o.parent IN (SELECT id FROM sh WHERE share_type = 1)` +
    // The files again, in the columns of a node row (kind F), for ReachIndex.
    ` UNION ALL SELECT 'F', f.fileid, f.storage, f.permissions, NULL, f.path, f.name, fm.mimetype, fs.id, NULL FROM ${p}filecache f` +
    ` JOIN ${p}storages fs ON fs.numeric_id = f.storage JOIN ${p}mimetypes fm ON fm.id = f.mimetype WHERE f.fileid IN (${placeholders(files.length)})`;
  params.push(...files.map((f) => f.fileId));
  return { sql, params };
}

export function shareReachOf(rows: readonly SqlRow[]): ShareReach {
  const shares: ReachShare[] = [];
  const members = new Map<string, string[]>();
  const overrideTargets = new Map<string, string>();
  const teamRoutes = new Map<string, { readonly team: string; readonly route: TeamRoute }>();
  const files: NodeRow[] = [];
  for (const row of rows) {
    switch (text(row.k)) {
      case 'S': {
        const nodePath = text(row.t5) ?? '';
        shares.push({
          id: num(row.a),
          shareType: num(row.b) === 1 ? 1 : num(row.b) === 7 ? 7 : 0,
          nodeId: num(row.c),
          stime: num(row.d),
          shareWith: text(row.t1) ?? '',
          owner: text(row.t2) ?? '',
          initiator: text(row.t3),
          target: text(row.t4) ?? '',
          nodePath: ownerNodePath(nodePath),
        });
        break;
      }
      case 'M': {
        const gid = text(row.t1) ?? '';
        const list = members.get(gid);
        if (list === undefined) members.set(gid, [text(row.t2) ?? '']);
        else list.push(text(row.t2) ?? '');
        break;
      }
      case 'N': {
        const team = text(row.t1) ?? '';
        const uid = text(row.t2) ?? '';
        const list = members.get(team);
        if (list === undefined) members.set(team, [uid]);
        else list.push(uid);
        const via = row.b === null || row.b === undefined ? null : num(row.b);
        teamRoutes.set(`${team}/${uid}`, { team: text(row.t3) ?? team, route: teamRouteOf(num(row.a), via, text(row.t4)) });
        break;
      }
      case 'O':
        overrideTargets.set(`${num(row.a)}/${text(row.t1) ?? ''}`, text(row.t2) ?? '');
        break;
      case 'F':
        files.push(nodeRowOf(row));
        break;
      default:
        break;
    }
  }
  return { shares, members, teamRoutes, overrideTargets, files };
}

/** Accounts asked per statement: three parameters each, far below every dialect's limit, and a few statements for 10 000 members. */
export const ACCOUNTS_PER_STATEMENT = 1000;

/**
 * Question 1's share rows for many accounts in one statement: what `buildLookup` reads for one
 * recipient (`S` shares to the account or its direct groups, the account's override row
 * applied, expired ones flagged; `R` their nodes; `C` the sharing switches; `D` the sharers'
 * flags; `U` the account's own flags), with the recipient in column `u` (S, U) and a group
 * share's group in `gid` (who names it). No file rows: the caller has the files.
 */
export function buildAccountShares(
  dialect: Dialect,
  prefix: string,
  accounts: readonly string[],
  now: string,
  directoryGroups: readonly (readonly [string, string])[] = [],
): Statement {
  const p = prefix;
  const list = placeholders(accounts.length);
  // LDAP accounts' groups as the directory answered (uid, gid), where user_ldap maps both.
  const fromDirectory =
    directoryGroups.length === 0
      ? ''
      : ` UNION SELECT um.owncloud_name, gm.owncloud_name FROM ${p}ldap_user_mapping um JOIN ${p}ldap_group_mapping gm ON ${directoryGroups.map(() => '(um.owncloud_name = ? AND gm.owncloud_name = ?)').join(' OR ')}`;
  const row = (b: RowBranch): string => branchOf(b, dialect, ACCOUNT_COLUMNS);
  const own = ownFlags(p, `IN (${list})`);
  const sql =
    `WITH ug (uid, gid) AS (SELECT uid, gid FROM ${p}group_user WHERE uid IN (${list})${fromDirectory}),` +
    ` ut (uid, single_id, circle_id) AS (SELECT m.user_id, m.single_id, ms.circle_id FROM ${p}circles_member m` +
    ` JOIN ${p}circles_membership ms ON ms.single_id = m.single_id JOIN ${p}circles_circle tc ON tc.unique_id = ms.circle_id` +
    ` WHERE m.user_id IN (${list}) AND ${LOCAL_USER_SINGLE('m')}),` +
    ` cand AS (SELECT ug.uid AS rcp, s.share_with AS gid, ${candidateColumns(true)}` +
    ` FROM ug JOIN ${p}share s ON s.share_type = 1 AND s.share_with = ug.gid ${overrideJoin(p, 'ug.uid')} WHERE ${fileOrFolder()}` +
    ` UNION ALL SELECT s.share_with, NULL, ${candidateColumns(false)}` +
    ` FROM ${p}share s WHERE s.share_type = 0 AND s.share_with IN (${list}) AND ${fileOrFolder()}` +
    ` UNION ALL SELECT ut.uid, s.share_with, ${teamCandidateColumns()} ${teamShareJoin(p, 'ut')} WHERE ${fileOrFolder()})` +
    ` ${branch(["'S'", 'id', 'share_type', 'file_source', 'stime', 'perms', 'accepted', 'uid_owner', 'uid_initiator', 'target', 'expired', 'rcp', 'gid'], 'FROM cand', dialect, ACCOUNT_COLUMNS)}` +
    ` UNION ALL ${row(sharedNodes(p, 'cand'))}` +
    ` UNION ALL ${row(sharingSwitches(p))}` +
    ` UNION ALL ${row(sharerFlags(p, 'cand'))}` +
    ` UNION ALL ${row({ ...own, fills: { ...own.fills, u: 'userid' } })}`;
  return { sql, params: [...accounts, ...directoryGroups.flat(), ...accounts, now, now, ...accounts, now, ...accounts] };
}

/** Every account a user, group or team share of the archive account's reaches: the users, the direct members of the groups, the teams' members. */
export function buildReachedAccounts(prefix: string, archiveAccount: string): Statement {
  const p = prefix;
  return {
    sql:
      `SELECT share_with AS uid FROM ${p}share WHERE uid_owner = ? AND share_type = 0 AND ${fileOrFolder('item_type')}` +
      ` UNION SELECT gu.uid FROM ${p}group_user gu WHERE gu.gid IN (SELECT share_with FROM ${p}share WHERE uid_owner = ? AND share_type = 1 AND ${fileOrFolder('item_type')})` +
      ` UNION SELECT m.user_id FROM ${p}circles_membership ms JOIN ${p}circles_member m ON m.single_id = ms.single_id AND ${LOCAL_USER_SINGLE('m')}` +
      ` WHERE ms.circle_id IN (SELECT share_with FROM ${p}share WHERE uid_owner = ? AND share_type = 7 AND COALESCE(parent, 0) = 0 AND ${fileOrFolder('item_type')})`,
    params: [archiveAccount, archiveAccount, archiveAccount],
  };
}

/**
 * The marked files of the given storages, streamed in document order: the text between the
 * first `[P` and the next `]`, as a number, then the file id. Names with a second `[P` come
 * first (`m` = 0): they may belong to several documents, and the caller sorts those few
 * itself. For the others the first marker is the only one, so the order is the documents'.
 */
export function buildFilesByMarker(dialect: Dialect, prefix: string, storageIds: readonly string[]): Statement {
  const p = prefix;
  const multi = `CASE WHEN f.name LIKE '%[P%[P%' THEN 0 ELSE 1 END`;
  let order: string;
  if (dialect === 'pgsql') {
    const key = `split_part(split_part(f.name, '[P', 2), ']', 1)`;
    order = `length(${key}), ${key} COLLATE "C"`;
  } else if (dialect === 'mysql') {
    const key = `SUBSTRING_INDEX(SUBSTRING(f.name, LOCATE('[P', f.name) + 2), ']', 1)`;
    order = `CHAR_LENGTH(${key}), ${key}`;
  } else {
    // SQLite's CAST reads the leading digits of '123].pdf' (lookup-sql.ts).
    order = `CAST(substr(f.name, instr(f.name, '[P') + 2) AS INTEGER)`;
  }
  return {
    sql:
      `SELECT f.fileid AS a, f.storage AS b, f.permissions AS c, f.path AS t1, f.name AS t2, fm.mimetype AS t3, fs.id AS t4, ${multi} AS m` +
      ` FROM ${p}filecache f JOIN ${p}storages fs ON fs.numeric_id = f.storage JOIN ${p}mimetypes fm ON fm.id = f.mimetype` +
      ` WHERE fs.id IN (${placeholders(storageIds.length)}) AND f.name LIKE ? ESCAPE '${LIKE_ESCAPE}' ORDER BY ${multi}, ${order}, f.fileid`,
    params: [...storageIds, '%[P%]%'],
  };
}

/** An account that opens a file of the document: where, and through which mount (null: its own folders). */
export interface Opener {
  readonly account: string;
  readonly fileId: number;
  readonly path: string;
  readonly mount: Mount | null;
  /** The external storage it sees the file on (no share), else null. */
  readonly external: ExternalView | null;
}

/**
 * Who opens which file, from each account's mounts of the archive account's folders (question
 * 1's, visibility.ts `questionMounts`) and the files of one document: per account the file
 * `candidates` and `pickPerDocument` would give it, found from the file's folders upwards
 * instead of account by account, so a share to 10 000 members costs one lookup per folder.
 */
export class ReachIndex {
  readonly #byRoot = new Map<string, { readonly account: string; readonly mount: Mount }[]>();
  readonly #archiveAccount: string;
  readonly #archiveOpens: boolean;
  /** Stored storage id → the accounts that see that external storage of the archive account, and where. */
  readonly #byStorage = new Map<string, { readonly account: string; readonly view: ExternalView }[]>();

  /**
   * `mounts`: the accounts that can log in, each with its mounts whose owner is the archive
   * account; `external`: where accounts see the archive account's external storages (only
   * those that can log in count).
   */
  constructor(archiveAccount: string, mounts: ReadonlyMap<string, readonly Mount[]>, external: ReadonlyMap<string, readonly ExternalView[]> = new Map()) {
    this.#archiveAccount = archiveAccount;
    for (const [account, views] of external) {
      if (!mounts.has(account)) continue;
      for (const view of views) this.#byStorage.set(view.storageId, [...(this.#byStorage.get(view.storageId) ?? []), { account, view }]);
    }
    // Question 1 for the archive account itself asks its own folders only, when it can log in.
    this.#archiveOpens = mounts.has(archiveAccount);
    for (const [account, list] of mounts) {
      if (account === archiveAccount) continue;
      for (const mount of list) {
        const key = `${mount.root.storage}/${mount.root.path ?? ''}`;
        const entries = this.#byRoot.get(key);
        if (entries === undefined) this.#byRoot.set(key, [{ account, mount }]);
        else entries.push({ account, mount });
      }
    }
  }

  /** The accounts that open one of `files` (the archive account's files of one document, in its own folders), sorted by account. */
  openers(files: readonly NodeRow[]): Opener[] {
    const best = new Map<string, Opener>();
    const offer = (o: Opener): void => {
      const known = best.get(o.account);
      // Equal file and path through two mounts: the earliest share names it.
      if (known === undefined || preferred(o, known) || (o.fileId === known.fileId && o.path === known.path && earlier(o.mount, known.mount)))
        best.set(o.account, o);
    };
    for (const file of files) {
      const path = file.path ?? '';
      const onExternal = this.#byStorage.get(file.storageId);
      if (this.#archiveOpens && onExternal === undefined && path.startsWith('files/'))
        offer({ account: this.#archiveAccount, fileId: file.fileId, path: `/${path.slice('files/'.length)}`, mount: null, external: null });
      for (const { account, view } of onExternal ?? []) offer({ account, fileId: file.fileId, path: externalPath(view, path), mount: null, external: view });
      // Down to the storage's root (''), which a share of an external storage's root has.
      for (let at = path.length; at >= 0; at = at === 0 ? -1 : Math.max(path.lastIndexOf('/', at - 1), 0)) {
        const entries = this.#byRoot.get(`${file.storage}/${path.slice(0, at)}`);
        if (entries === undefined) continue;
        for (const { account, mount } of entries)
          if (mountCovers(mount, file)) offer({ account, fileId: file.fileId, path: mountPath(mount, path), mount, external: null });
      }
    }
    return [...best.values()].sort((a, b) => (a.account < b.account ? -1 : a.account > b.account ? 1 : 0));
  }
}

function earlier(a: Mount | null, b: Mount | null): boolean {
  const x = a?.rows[0];
  const y = b?.rows[0];
  return x !== undefined && y !== undefined && (x.stime < y.stime || (x.stime === y.stime && x.id < y.id));
}
