/**
 * Explain only: why a user cannot open a file the archive account has. Reads, in one statement,
 * every user or group share row on the file or a folder holding it (whatever its state), every
 * share addressed to the user (two of them can collide), their nodes, the user's groups, the
 * sharers' enabled flags and the files_sharing switches; the sharing rules
 * (rules/share-rules.ts, the same the lookup applies) then name the nearest share they block.
 * Never on the search path: `why`, `search --explain` and Try a search ask it after question 2.
 */
import { addSharingRow, nodeRowOf, sharingFacts } from './lookup-rows.js';
import { rowNumber as num, rowText as text, placeholders, type Statement } from './lookup-sql.js';
import { hidingAssumed } from './disabled-sharers.js';
import { branchOf, type RowBranch } from './row-branch.js';
import { ADDRESSED_TO_USER, directGroups, FILE_OR_FOLDER_UNINDEXED, OVERRIDDEN, overrideJoin, sharedNodes, sharerFlags, sharingSwitches } from './share-sql.js';
import { routeJoins, TEAM_SHARE_ROW, teamRouteOf, UNSUPPORTED_SHARE_TYPES, userTeams, type TeamRoute } from './team-rules.js';
import { mountsOf, obstacleRank, SHARE_RULES, type NodeRow, type ShareFacts, type ShareRow } from './share-rules.js';
import type { Dialect, SqlRow, SqlValue } from '../db/types.js';
import type { ShareObstacle, VisibleFile } from './types.js';

/** The storage paths of a file of the archive account and of every folder above it, `files` excluded. */
export function pathsUp(visiblePath: string): string[] {
  const paths: string[] = [];
  let path = `files${visiblePath}`;
  while (path !== 'files' && path.includes('/')) {
    paths.push(path);
    path = path.slice(0, path.lastIndexOf('/'));
  }
  return paths;
}

/**
 * The rows of those paths in the file's storage. The host keys them by `path_hash`, md5(path):
 * PostgreSQL and MySQL hash the paths themselves; SQLite, which has no md5, matches the path
 * through `fs_storage_path_prefix` (storage, path), which Nextcloud makes on every database but
 * PostgreSQL. SQLite compares text byte by byte, as md5 would; MySQL's column collation may
 * not, hence the hash there. No run loads node:crypto for it.
 */
export function pathMatch(dialect: Dialect, count: number): string {
  return dialect === 'sqlite' ? `n.path IN (${placeholders(count)})` : `n.path_hash IN (${Array.from({ length: count }, () => 'md5(?)').join(', ')})`;
}

/** The columns of this statement: the `S` rows carry a share's expiry, its flag in `h`. */
const OBSTACLE_COLUMNS = ['k', 'a', 'b', 'c', 'd', 'e', 'g', 'h', 't1', 't2', 't3', 't4', 't5'] as const;

export function buildShareObstacles(dialect: Dialect, prefix: string, user: string, files: readonly VisibleFile[], now: string): Statement {
  const p = prefix;
  const paths = [...new Set(files.flatMap((f) => pathsUp(f.path)))];
  const asText = dialect === 'mysql' ? 'CHAR' : 'TEXT';
  const params: SqlValue[] = [...files.map((f) => f.fileId), ...paths, user, user, user, now, user, user, now, user, user, now, now];
  const columns =
    `s.id, s.share_type, s.share_with, s.uid_owner, s.uid_initiator, s.file_source, s.stime, ${OVERRIDDEN},` +
    ` CASE WHEN s.expiration IS NOT NULL AND s.expiration <= ? THEN 1 ELSE 0 END AS expired, CAST(s.expiration AS ${asText}) AS expiration` +
    ` FROM ${p}share s ${overrideJoin(p, '?')}`;
  // A team share: on these nodes to any team ('not in team'), or to one of the user's teams
  // (targets may collide); the user's child row applied (team-rules.ts).
  const teamColumns =
    `s.id, s.share_type, s.share_with, s.uid_owner, s.uid_initiator, s.file_source, s.stime,` +
    ` CASE WHEN o.permissions IS NOT NULL AND o.permissions < s.permissions THEN o.permissions ELSE s.permissions END AS perms, 1 AS accepted,` +
    ` COALESCE(o.file_target, s.file_target) AS target,` +
    ` CASE WHEN s.expiration IS NOT NULL AND s.expiration <= ? THEN 1 ELSE 0 END AS expired, CAST(s.expiration AS ${asText}) AS expiration` +
    ` FROM ${p}share s LEFT JOIN ${p}share o ON o.share_type = 7 AND o.parent = s.id AND o.share_with = (SELECT MIN(single_id) FROM ut)`;
  // The first branch (S) types every column: the others' NULLs stay bare.
  const row = (b: RowBranch): string => branchOf(b, undefined, OBSTACLE_COLUMNS);
  const sql =
    `WITH nodes AS (SELECT n.fileid, n.path FROM ${p}filecache n` +
    ` WHERE n.storage IN (SELECT f.storage FROM ${p}filecache f WHERE f.fileid IN (${placeholders(files.length)})) AND ${pathMatch(dialect, paths.length)}),` +
    ` ${directGroups(p)}, ${userTeams(p)},` +
    // The shares on these nodes, to the user or to any group ('not member'), and every share
    // addressed to the user, whose targets may collide. The item type is tested in a CASE
    // (share-sql.ts FILE_OR_FOLDER_UNINDEXED), so that shares are reached by file.
    ` sh AS (SELECT ${columns}` +
    ` WHERE s.file_source IN (SELECT fileid FROM nodes) AND ${FILE_OR_FOLDER_UNINDEXED}` +
    ` AND ((s.share_type = 0 AND s.share_with = ?) OR s.share_type IN (1, ${UNSUPPORTED_SHARE_TYPES.join(', ')}))` +
    ` UNION SELECT ${columns}` +
    ` WHERE ${FILE_OR_FOLDER_UNINDEXED} AND ${ADDRESSED_TO_USER}` +
    ` UNION SELECT ${teamColumns} WHERE s.file_source IN (SELECT fileid FROM nodes) AND s.share_type = 7 AND ${TEAM_SHARE_ROW} AND ${FILE_OR_FOLDER_UNINDEXED}` +
    ` UNION SELECT ${teamColumns} WHERE s.share_with IN (SELECT circle_id FROM ut) AND s.share_type = 7 AND ${TEAM_SHARE_ROW} AND ${FILE_OR_FOLDER_UNINDEXED})` +
    ` SELECT 'S' AS k, id AS a, share_type AS b, perms AS c, accepted AS d, file_source AS e, stime AS g, expired AS h,` +
    ` share_with AS t1, uid_owner AS t2, uid_initiator AS t3, expiration AS t4, target AS t5 FROM sh` +
    ` UNION ALL ${row({ kind: 'N', fills: { a: 'fileid', t1: 'path' }, rest: 'FROM nodes' })}` +
    ` UNION ALL ${row(sharedNodes(p, 'sh'))}` +
    ` UNION ALL ${row({ kind: 'G', fills: { t1: 'gid' }, rest: 'FROM ug' })}` +
    ` UNION ALL ${row({ kind: 'M', fills: { t1: 'circle_id' }, rest: 'FROM ut' })}` +
    // The teams of the team shares: their names, and how the user is in each (team-rules.ts).
    ` UNION ALL ${row({
      kind: 'T',
      fills: { a: 'ms.inheritance_depth', b: 'via.source', t1: 'tc.unique_id', t2: 'tc.display_name', t3: 'via.display_name' },
      rest:
        `FROM ${p}circles_circle tc LEFT JOIN ${p}circles_membership ms ON ms.circle_id = tc.unique_id AND ms.single_id IN (SELECT single_id FROM ut)` +
        ` ${routeJoins(p)} WHERE tc.unique_id IN (SELECT share_with FROM sh WHERE share_type = 7)`,
    })}` +
    ` UNION ALL ${row(sharerFlags(p, 'sh'))}` +
    ` UNION ALL ${row(sharingSwitches(p))}`;
  return { sql, params };
}

/** The statement's rows as the sharing rules read them, and the paths of the nodes on the files' ancestors. */
function factsOf(
  rows: readonly SqlRow[],
  user: string,
  dataDirectory: string | null,
  hostVersion: string | null,
  takenTargets: ReadonlySet<string> | null,
): { facts: ShareFacts; nodes: Map<number, string>; teamNames: Map<string, { readonly name: string; readonly route: TeamRoute | null }> } {
  const shares: ShareRow[] = [];
  const roots = new Map<number, NodeRow>();
  const nodes = new Map<number, string>();
  const groups = new Set<string>();
  const teams = new Set<string>();
  const teamNames = new Map<string, { readonly name: string; readonly route: TeamRoute | null }>();
  const sharing = sharingFacts();
  for (const row of rows) {
    if (addSharingRow(row, sharing)) continue;
    switch (text(row.k)) {
      case 'S':
        shares.push({
          id: num(row.a),
          shareType: num(row.b),
          shareWith: text(row.t1) ?? '',
          owner: text(row.t2) ?? '',
          initiator: text(row.t3),
          permissions: num(row.c),
          accepted: num(row.d),
          fileSource: num(row.e),
          stime: num(row.g),
          expired: num(row.h) === 1,
          expiration: text(row.t4),
          target: text(row.t5) ?? '',
        });
        break;
      case 'N':
        nodes.set(num(row.a), text(row.t1) ?? '');
        break;
      case 'R':
        roots.set(num(row.a), nodeRowOf(row));
        break;
      case 'G':
        groups.add(text(row.t1) ?? '');
        break;
      case 'M':
        teams.add(text(row.t1) ?? '');
        break;
      case 'T': {
        const depth = row.a === null || row.a === undefined ? null : num(row.a);
        const via = row.b === null || row.b === undefined ? null : num(row.b);
        teamNames.set(text(row.t1) ?? '', { name: text(row.t2) ?? '', route: depth === null ? null : teamRouteOf(depth, via, text(row.t3)) });
        break;
      }
      default:
        break;
    }
  }
  // Several rows of one share (a UNION of identical rows is one; keep the first of any other).
  const unique = [...new Map(shares.map((s) => [s.id, s])).values()];
  return { facts: { user, groups, teams, shares: unique, roots, ...sharing, dataDirectory, hostVersion, takenTargets }, nodes, teamNames };
}

/** The targets of the statement's share rows, as `readTakenTargets` asks them for `user`. */
export function obstacleTargets(rows: readonly SqlRow[], user: string): { account: string; target: string }[] {
  return rows.filter((row) => text(row.k) === 'S').map((row) => ({ account: user, target: text(row.t5) ?? '' }));
}

/** document id → the nearest cause, for the files given (a document without one is absent). */
export function nearestObstacles(
  rows: readonly SqlRow[],
  files: readonly VisibleFile[],
  user: string,
  hostVersion: string | null,
  dataDirectory: string | null,
  takenTargets: ReadonlySet<string> | null,
): Map<number, ShareObstacle> {
  const { facts, nodes, teamNames } = factsOf(rows, user, dataDirectory, hostVersion, takenTargets);
  const result = new Map<number, ShareObstacle>();
  const hostRule = SHARE_RULES.find((r) => r.level === 'host' && r.blocks(facts));
  if (hostRule !== undefined) {
    const none = {
      nodePath: null,
      nodeIsFile: false,
      sharer: null,
      shareType: null,
      group: null,
      team: null,
      teamRoute: null,
      expiration: null,
      disabledAccount: null,
      collidesWith: [],
      mountedFrom: null,
      renamedAtSetup: false,
      target: null,
      assumed: null,
    };
    for (const file of files) result.set(file.documentId, { kind: hostRule.kind, ...none });
    return result;
  }
  const { blocked } = mountsOf(facts);
  for (const file of files) {
    const filePath = `files${file.path}`;
    let best: { obstacle: ShareObstacle; rank: number; depth: number } | null = null;
    for (const { kind, share, account, collidesWith, mountedFrom, renamedAtSetup } of blocked) {
      const nodePath = nodes.get(share.fileSource);
      if (nodePath === undefined || (nodePath !== filePath && !filePath.startsWith(`${nodePath}/`))) continue;
      const obstacle: ShareObstacle = {
        kind,
        nodePath: `/${nodePath.slice('files/'.length)}`,
        nodeIsFile: share.fileSource === file.fileId,
        sharer: share.initiator ?? share.owner,
        shareType: share.shareType,
        group: share.shareType === 1 ? share.shareWith : null,
        team: share.shareType === 7 ? (teamNames.get(share.shareWith)?.name ?? share.shareWith) : null,
        teamRoute: share.shareType === 7 ? (teamNames.get(share.shareWith)?.route ?? null) : null,
        expiration: kind === 'expired' ? share.expiration : null,
        disabledAccount: kind === 'disabled sharer' ? account : null,
        collidesWith,
        mountedFrom,
        renamedAtSetup,
        target: kind === 'colliding target' || kind === 'taken target' ? `/${share.target.replace(/^\/+|\/+$/g, '')}` : null,
        assumed:
          kind === 'disabled sharer' && account !== null && !facts.goneUsers.has(account)
            ? hidingAssumed(facts.sharingConfig.get('hide_disabled_user_shares'), hostVersion)
            : null,
      };
      const candidate = { obstacle, rank: obstacleRank(kind), depth: nodePath.length };
      if (best === null || candidate.rank < best.rank || (candidate.rank === best.rank && candidate.depth > best.depth)) best = candidate;
    }
    if (best !== null) result.set(file.documentId, best.obstacle);
  }
  return result;
}
