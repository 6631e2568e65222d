/**
 * Explain only: why a user cannot open a file the archive account has. Reads, in one statement,
 * every user or group share row on the file or a folder holding it (whatever its state), every
 * share addressed to the user (two of them can collide), their nodes, the user's groups, the
 * sharers' enabled flags and the files_sharing switches; the sharing rules
 * (rules/share-rules.ts, the same the lookup applies) then name the nearest share they block.
 * Never on the search path: `why`, `search --explain` and Try a search ask it after question 2.
 */
import { nodeRowOf } from './lookup-rows.js';
import { rowNumber as num, rowText as text, placeholders, type Statement } from './lookup-sql.js';
import { hidingAssumed } from './disabled-sharers.js';
import { mountsOf, obstacleRank, SHARE_RULES, type NodeRow, type ShareFacts, type ShareRow } from './share-rules.js';
import type { Dialect, SqlRow, SqlValue } from '../db/types.js';
import type { ShareObstacle, VisibleFile } from './types.js';
import { isEnabledAccount } from './visibility.js';

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

export function buildShareObstacles(dialect: Dialect, prefix: string, user: string, files: readonly VisibleFile[], now: string): Statement {
  const p = prefix;
  const paths = [...new Set(files.flatMap((f) => pathsUp(f.path)))];
  const asText = dialect === 'mysql' ? 'CHAR' : 'TEXT';
  const params: SqlValue[] = [...files.map((f) => f.fileId), ...paths, user, now, user, user, now, user, user];
  const nulls = (n: number): string => Array.from({ length: n }, () => 'NULL').join(', ');
  const columns =
    `s.id, s.share_type, s.share_with, s.uid_owner, s.uid_initiator, s.file_source, s.stime,` +
    ` COALESCE(o.permissions, s.permissions) AS perms, COALESCE(o.accepted, s.accepted) AS accepted, COALESCE(o.file_target, s.file_target) AS target,` +
    ` CASE WHEN s.expiration IS NOT NULL AND s.expiration <= ? THEN 1 ELSE 0 END AS expired, CAST(s.expiration AS ${asText}) AS expiration` +
    ` FROM ${p}share s LEFT JOIN ${p}share o ON s.share_type = 1 AND o.share_type = 2 AND o.parent = s.id AND o.share_with = ?`;
  const sql =
    `WITH nodes AS (SELECT n.fileid, n.path FROM ${p}filecache n` +
    ` WHERE n.storage IN (SELECT f.storage FROM ${p}filecache f WHERE f.fileid IN (${placeholders(files.length)})) AND ${pathMatch(dialect, paths.length)}),` +
    ` ug AS (SELECT gid FROM ${p}group_user WHERE uid = ?),` +
    // The shares on these nodes, to the user or to any group ('not member'), and every share
    // addressed to the user, whose targets may collide. The item type is tested in a CASE,
    // which no index serves: SQLite otherwise reads every file share through
    // item_share_type_index instead of the few on these nodes through file_source_index
    // (20 ms against 0.5 ms with 100 k shares; test/host-plan-shape).
    ` sh AS (SELECT ${columns}` +
    ` WHERE s.file_source IN (SELECT fileid FROM nodes) AND CASE WHEN s.item_type IN ('file', 'folder') THEN 1 ELSE 0 END = 1` +
    ` AND ((s.share_type = 0 AND s.share_with = ?) OR s.share_type = 1)` +
    ` UNION SELECT ${columns}` +
    ` WHERE CASE WHEN s.item_type IN ('file', 'folder') THEN 1 ELSE 0 END = 1` +
    ` AND ((s.share_type = 0 AND s.share_with = ?) OR (s.share_type = 1 AND s.share_with IN (SELECT gid FROM ug))))` +
    ` SELECT 'S' AS k, id AS a, share_type AS b, perms AS c, accepted AS d, file_source AS e, stime AS g, expired AS h,` +
    ` share_with AS t1, uid_owner AS t2, uid_initiator AS t3, expiration AS t4, target AS t5 FROM sh` +
    ` UNION ALL SELECT 'N', fileid, ${nulls(6)}, path, ${nulls(4)} FROM nodes` +
    ` UNION ALL SELECT 'R', r.fileid, r.storage, r.permissions, ${nulls(4)}, r.path, r.name, rm.mimetype, rs.id, NULL` +
    ` FROM ${p}filecache r JOIN ${p}storages rs ON rs.numeric_id = r.storage JOIN ${p}mimetypes rm ON rm.id = r.mimetype WHERE r.fileid IN (SELECT file_source FROM sh)` +
    ` UNION ALL SELECT 'G', ${nulls(7)}, gid, ${nulls(4)} FROM ug` +
    ` UNION ALL SELECT 'D', ${nulls(7)}, userid, configkey, configvalue, ${nulls(2)} FROM ${p}preferences` +
    ` WHERE ((appid = 'core' AND configkey = 'enabled') OR (appid = 'user_ldap' AND configkey = 'isDeleted'))` +
    ` AND userid IN (SELECT uid_owner FROM sh UNION SELECT uid_initiator FROM sh)` +
    ` UNION ALL SELECT 'C', ${nulls(7)}, configkey, configvalue, ${nulls(3)} FROM ${p}appconfig` +
    ` WHERE appid = 'files_sharing' AND configkey IN ('enabled', 'hide_disabled_user_shares')`;
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
  const sharingConfig = new Map<string, string>();
  const disabledUsers = new Set<string>();
  const goneUsers = new Set<string>();
  for (const row of rows) {
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
      case 'D': {
        const uid = text(row.t1) ?? '';
        if (text(row.t2) === 'isDeleted') {
          if (!isEnabledAccount(null, text(row.t3))) goneUsers.add(uid);
        } else if (!isEnabledAccount(text(row.t3), null)) {
          disabledUsers.add(uid);
        }
        break;
      }
      case 'C':
        sharingConfig.set(text(row.t1) ?? '', text(row.t2) ?? '');
        break;
      default:
        break;
    }
  }
  // Several rows of one share (a UNION of identical rows is one; keep the first of any other).
  const unique = [...new Map(shares.map((s) => [s.id, s])).values()];
  return { facts: { user, groups, shares: unique, roots, sharingConfig, disabledUsers, goneUsers, dataDirectory, hostVersion }, nodes };
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
