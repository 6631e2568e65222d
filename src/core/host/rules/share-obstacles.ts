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

export function buildShareObstacles(
  dialect: Dialect,
  prefix: string,
  user: string,
  files: readonly VisibleFile[],
  now: string,
  directoryGroups: readonly string[] = [],
): Statement {
  const p = prefix;
  const paths = [...new Set(files.flatMap((f) => pathsUp(f.path)))];
  const asText = dialect === 'mysql' ? 'CHAR' : 'TEXT';
  const params: SqlValue[] = [...files.map((f) => f.fileId), ...paths, user, ...directoryGroups, now, user, user, now, user, user];
  const columns =
    `s.id, s.share_type, s.share_with, s.uid_owner, s.uid_initiator, s.file_source, s.stime, ${OVERRIDDEN},` +
    ` CASE WHEN s.expiration IS NOT NULL AND s.expiration <= ? THEN 1 ELSE 0 END AS expired, CAST(s.expiration AS ${asText}) AS expiration` +
    ` FROM ${p}share s ${overrideJoin(p, '?')}`;
  // The first branch (S) types every column: the others' NULLs stay bare.
  const row = (b: RowBranch): string => branchOf(b, undefined, OBSTACLE_COLUMNS);
  const sql =
    `WITH nodes AS (SELECT n.fileid, n.path FROM ${p}filecache n` +
    ` WHERE n.storage IN (SELECT f.storage FROM ${p}filecache f WHERE f.fileid IN (${placeholders(files.length)})) AND ${pathMatch(dialect, paths.length)}),` +
    ` ${directGroups(p, directoryGroups.length)},` +
    // The shares on these nodes, to the user or to any group ('not member'), and every share
    // addressed to the user, whose targets may collide. The item type is tested in a CASE
    // (share-sql.ts FILE_OR_FOLDER_UNINDEXED), so that shares are reached by file.
    ` sh AS (SELECT ${columns}` +
    ` WHERE s.file_source IN (SELECT fileid FROM nodes) AND ${FILE_OR_FOLDER_UNINDEXED}` +
    ` AND ((s.share_type = 0 AND s.share_with = ?) OR s.share_type = 1)` +
    ` UNION SELECT ${columns}` +
    ` WHERE ${FILE_OR_FOLDER_UNINDEXED} AND ${ADDRESSED_TO_USER})` +
    ` SELECT 'S' AS k, id AS a, share_type AS b, perms AS c, accepted AS d, file_source AS e, stime AS g, expired AS h,` +
    ` share_with AS t1, uid_owner AS t2, uid_initiator AS t3, expiration AS t4, target AS t5 FROM sh` +
    ` UNION ALL ${row({ kind: 'N', fills: { a: 'fileid', t1: 'path' }, rest: 'FROM nodes' })}` +
    ` UNION ALL ${row(sharedNodes(p, 'sh'))}` +
    ` UNION ALL ${row({ kind: 'G', fills: { t1: 'gid' }, rest: 'FROM ug' })}` +
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
): { facts: ShareFacts; nodes: Map<number, string> } {
  const shares: ShareRow[] = [];
  const roots = new Map<number, NodeRow>();
  const nodes = new Map<number, string>();
  const groups = new Set<string>();
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
      default:
        break;
    }
  }
  // Several rows of one share (a UNION of identical rows is one; keep the first of any other).
  const unique = [...new Map(shares.map((s) => [s.id, s])).values()];
  return { facts: { user, groups, shares: unique, roots, ...sharing, dataDirectory, hostVersion }, nodes };
}

/** document id → the nearest cause, for the files given (a document without one is absent). */
export function nearestObstacles(
  rows: readonly SqlRow[],
  files: readonly VisibleFile[],
  user: string,
  hostVersion: string | null,
  dataDirectory: string | null,
): Map<number, ShareObstacle> {
  const { facts, nodes } = factsOf(rows, user, dataDirectory, hostVersion);
  const result = new Map<number, ShareObstacle>();
  const hostRule = SHARE_RULES.find((r) => r.level === 'host' && r.blocks(facts));
  if (hostRule !== undefined) {
    const none = {
      nodePath: null,
      nodeIsFile: false,
      sharer: null,
      group: null,
      expiration: null,
      disabledAccount: null,
      collidesWith: [],
      mountedFrom: null,
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
    for (const { kind, share, account, collidesWith, mountedFrom } of blocked) {
      const nodePath = nodes.get(share.fileSource);
      if (nodePath === undefined || (nodePath !== filePath && !filePath.startsWith(`${nodePath}/`))) continue;
      const obstacle: ShareObstacle = {
        kind,
        nodePath: `/${nodePath.slice('files/'.length)}`,
        nodeIsFile: share.fileSource === file.fileId,
        sharer: share.initiator ?? share.owner,
        group: share.shareType === 1 ? share.shareWith : null,
        expiration: kind === 'expired' ? share.expiration : null,
        disabledAccount: kind === 'disabled sharer' ? account : null,
        collidesWith,
        mountedFrom,
        target: kind === 'colliding target' ? `/${share.target.replace(/^\/+|\/+$/g, '')}` : null,
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
