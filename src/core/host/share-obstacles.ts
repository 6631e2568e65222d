/**
 * Explain only: why a user cannot open a file the archive account has. Reads, in one statement,
 * every user or group share row on the file or a folder holding it (whatever its state), the
 * user's override rows, groups, the sharers' enabled flags and the files_sharing switches, and
 * names the nearest row that does not mount, as Nextcloud would show it to the user. Never on
 * the search path: `why`, `search --explain` and Try a search ask it after question 2.
 */
import { rowNumber as num, rowText as text, placeholders, type Statement } from './lookup-sql.js';
import type { Dialect, ShareObstacle, SqlRow, SqlValue, VisibleFile } from './types.js';
import { hidesDisabledUserShares, isEnabledAccount } from './visibility.js';

const READ = 1;

/** The storage paths of a file of the archive account and of every folder above it, `files` excluded. */
function pathsUp(visiblePath: string): string[] {
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
function pathMatch(dialect: Dialect, count: number): string {
  return dialect === 'sqlite' ? `n.path IN (${placeholders(count)})` : `n.path_hash IN (${Array.from({ length: count }, () => 'md5(?)').join(', ')})`;
}

export function buildShareObstacles(dialect: Dialect, prefix: string, user: string, files: readonly VisibleFile[], now: string): Statement {
  const p = prefix;
  const paths = [...new Set(files.flatMap((f) => pathsUp(f.path)))];
  const asText = dialect === 'mysql' ? 'CHAR' : 'TEXT';
  const params: SqlValue[] = [...files.map((f) => f.fileId), ...paths, now, user, user, user];
  const nulls = (n: number): string => Array.from({ length: n }, () => 'NULL').join(', ');
  const sql =
    `WITH nodes AS (SELECT n.fileid, n.path FROM ${p}filecache n` +
    ` WHERE n.storage IN (SELECT f.storage FROM ${p}filecache f WHERE f.fileid IN (${placeholders(files.length)})) AND ${pathMatch(dialect, paths.length)}),` +
    ` sh AS (SELECT s.id, s.share_type, s.share_with, s.uid_owner, s.uid_initiator, s.permissions, s.accepted, s.file_source,` +
    ` CASE WHEN s.expiration IS NOT NULL AND s.expiration <= ? THEN 1 ELSE 0 END AS expired, CAST(s.expiration AS ${asText}) AS expiration,` +
    ` o.permissions AS o_permissions, o.accepted AS o_accepted` +
    ` FROM ${p}share s LEFT JOIN ${p}share o ON s.share_type = 1 AND o.share_type = 2 AND o.parent = s.id AND o.share_with = ?` +
    // The item type is tested in a CASE, which no index serves: SQLite otherwise reads every
    // file share through item_share_type_index instead of the few on these nodes through
    // file_source_index (20 ms against 0.5 ms with 100 k shares; test/host-plan-shape).
    ` WHERE s.file_source IN (SELECT fileid FROM nodes) AND CASE WHEN s.item_type IN ('file', 'folder') THEN 1 ELSE 0 END = 1` +
    ` AND ((s.share_type = 0 AND s.share_with = ?) OR s.share_type = 1))` +
    ` SELECT 'S' AS k, id AS a, share_type AS b, permissions AS c, accepted AS d, o_permissions AS e, o_accepted AS g, expired AS h, file_source AS i,` +
    ` share_with AS t1, uid_owner AS t2, uid_initiator AS t3, expiration AS t4 FROM sh` +
    ` UNION ALL SELECT 'N', fileid, ${nulls(7)}, path, ${nulls(3)} FROM nodes` +
    ` UNION ALL SELECT 'G', ${nulls(8)}, gid, ${nulls(3)} FROM ${p}group_user WHERE uid = ?` +
    ` UNION ALL SELECT 'D', ${nulls(8)}, userid, configkey, configvalue, NULL FROM ${p}preferences` +
    ` WHERE ((appid = 'core' AND configkey = 'enabled') OR (appid = 'user_ldap' AND configkey = 'isDeleted'))` +
    ` AND userid IN (SELECT uid_owner FROM sh UNION SELECT uid_initiator FROM sh)` +
    ` UNION ALL SELECT 'C', ${nulls(8)}, configkey, configvalue, ${nulls(2)} FROM ${p}appconfig` +
    ` WHERE appid = 'files_sharing' AND configkey IN ('enabled', 'hide_disabled_user_shares')`;
  return { sql, params };
}

/** The order of the causes, nearest first: what the user did, then the share's state, then membership. */
const RANK: Readonly<Record<ShareObstacle['kind'], number>> = {
  'sharing off': 0,
  left: 1,
  declined: 2,
  pending: 3,
  expired: 4,
  'disabled sharer': 5,
  'no read': 6,
  'not member': 7,
};

interface Row {
  readonly type: number;
  readonly shareWith: string;
  readonly owner: string;
  readonly initiator: string | null;
  readonly permissions: number;
  readonly accepted: number;
  readonly expired: boolean;
  readonly expiration: string | null;
  readonly node: number;
}

/** document id → the nearest cause, for the files given (a document without one is absent). */
export function nearestObstacles(rows: readonly SqlRow[], files: readonly VisibleFile[], user: string, hostVersion: string | null): Map<number, ShareObstacle> {
  const shares: Row[] = [];
  const nodes = new Map<number, string>();
  const groups = new Set<string>();
  const flags = new Map<string, Map<string, string | null>>();
  const config = new Map<string, string>();
  for (const row of rows) {
    switch (text(row.k)) {
      case 'S': {
        const override = row.e !== null && row.e !== undefined;
        shares.push({
          type: num(row.b),
          shareWith: text(row.t1) ?? '',
          owner: text(row.t2) ?? '',
          initiator: text(row.t3),
          permissions: override ? num(row.e) : num(row.c),
          accepted: override ? num(row.g) : num(row.d),
          expired: num(row.h) === 1,
          expiration: text(row.t4),
          node: num(row.i),
        });
        break;
      }
      case 'N':
        nodes.set(num(row.a), text(row.t1) ?? '');
        break;
      case 'G':
        groups.add(text(row.t1) ?? '');
        break;
      case 'D': {
        const uid = text(row.t1) ?? '';
        const own = flags.get(uid) ?? new Map<string, string | null>();
        own.set(text(row.t2) ?? '', text(row.t3));
        flags.set(uid, own);
        break;
      }
      case 'C':
        config.set(text(row.t1) ?? '', text(row.t2) ?? '');
        break;
      default:
        break;
    }
  }
  const result = new Map<number, ShareObstacle>();
  const sharing = config.get('enabled');
  if (sharing === undefined || sharing === 'no') {
    for (const file of files) result.set(file.documentId, { kind: 'sharing off', nodePath: null, nodeIsFile: false, sharer: null, group: null, expiration: null, disabledAccount: null });
    return result;
  }
  const hide = hidesDisabledUserShares(config.get('hide_disabled_user_shares'), hostVersion);
  const enabled = (uid: string): boolean => isEnabledAccount(flags.get(uid)?.get('enabled') ?? null, null);
  const gone = (uid: string): boolean => !isEnabledAccount(null, flags.get(uid)?.get('isDeleted') ?? null);
  for (const file of files) {
    const filePath = `files${file.path}`;
    let best: { obstacle: ShareObstacle; rank: number; depth: number } | null = null;
    for (const share of shares) {
      const nodePath = nodes.get(share.node);
      if (nodePath === undefined || (nodePath !== filePath && !filePath.startsWith(`${nodePath}/`))) continue;
      if (share.owner === user || share.initiator === user) continue;
      const kind = obstacleOf(share, user, groups, (uid) => (hide && !enabled(uid)) || gone(uid));
      if (kind === null) continue;
      const disabled = [share.owner, share.initiator].find((uid): uid is string => uid !== null && ((hide && !enabled(uid)) || gone(uid))) ?? null;
      const obstacle: ShareObstacle = {
        kind,
        nodePath: `/${nodePath.slice('files/'.length)}`,
        nodeIsFile: share.node === file.fileId,
        sharer: share.initiator ?? share.owner,
        group: share.type === 1 ? share.shareWith : null,
        expiration: kind === 'expired' ? share.expiration : null,
        disabledAccount: kind === 'disabled sharer' ? disabled : null,
      };
      const candidate = { obstacle, rank: RANK[kind], depth: nodePath.length };
      if (best === null || candidate.rank < best.rank || (candidate.rank === best.rank && candidate.depth > best.depth)) best = candidate;
    }
    if (best !== null) result.set(file.documentId, best.obstacle);
  }
  return result;
}

/** What keeps one share row from mounting for the user; null when nothing in the row does. */
function obstacleOf(share: Row, user: string, groups: ReadonlySet<string>, hidden: (uid: string) => boolean): ShareObstacle['kind'] | null {
  if (share.type === 1 && !groups.has(share.shareWith)) return 'not member';
  if (share.type === 0 && share.shareWith !== user) return null;
  if (share.type === 1 && share.permissions === 0) return 'left';
  if (share.accepted === 2) return 'declined';
  if (share.accepted === 0) return 'pending';
  if (share.expired) return 'expired';
  if (hidden(share.owner) || (share.initiator !== null && hidden(share.initiator))) return 'disabled sharer';
  if ((share.permissions & READ) === 0) return 'no read';
  return null;
}
