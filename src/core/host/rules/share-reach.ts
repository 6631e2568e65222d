/**
 * `who`: whom the shares of a file of the archive account reach. One statement reads every user
 * or group share on the files or a folder holding them (whatever its state), the recipients'
 * override rows of the group shares, and the direct members of those groups. Whether each
 * recipient really opens the file is then asked as `why` asks it (question 1), so `who` and
 * `why` cannot disagree; these rows only say whom to ask and through which share.
 */
import type { Dialect, SqlRow, SqlValue } from '../db/types.js';
import { placeholders, rowNumber as num, rowText as text, type Statement } from './lookup-sql.js';
import { pathMatch, pathsUp } from './share-obstacles.js';
import type { VisibleFile } from './types.js';

/** A user or group share on a file of the archive account or a folder holding it. */
export interface ReachShare {
  readonly id: number;
  readonly shareType: 0 | 1;
  /** The user, or the group. */
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
  /** Group → its direct members (the share provider asks direct groups only). */
  readonly members: ReadonlyMap<string, readonly string[]>;
  /** `share id/user` → the target of that user's override row (a group share the user moved). */
  readonly overrideTargets: ReadonlyMap<string, string>;
}

export function buildShareReach(dialect: Dialect, prefix: string, files: readonly VisibleFile[]): Statement {
  const p = prefix;
  const paths = [...new Set(files.flatMap((f) => pathsUp(f.path)))];
  const params: SqlValue[] = [...files.map((f) => f.fileId), ...paths];
  const nulls = (n: number): string => Array.from({ length: n }, () => 'NULL').join(', ');
  const sql =
    `WITH nodes AS (SELECT n.fileid, n.path FROM ${p}filecache n` +
    ` WHERE n.storage IN (SELECT f.storage FROM ${p}filecache f WHERE f.fileid IN (${placeholders(files.length)})) AND ${pathMatch(dialect, paths.length)}),` +
    ` sh AS (SELECT s.id, s.share_type, s.share_with, s.uid_owner, s.uid_initiator, s.file_source, s.stime, s.file_target FROM ${p}share s` +
    ` WHERE s.file_source IN (SELECT fileid FROM nodes) AND CASE WHEN s.item_type IN ('file', 'folder') THEN 1 ELSE 0 END = 1 AND s.share_type IN (0, 1))` +
    ` SELECT 'S' AS k, sh.id AS a, sh.share_type AS b, sh.file_source AS c, sh.stime AS d, sh.share_with AS t1, sh.uid_owner AS t2, sh.uid_initiator AS t3, sh.file_target AS t4, nodes.path AS t5` +
    ` FROM sh JOIN nodes ON nodes.fileid = sh.file_source` +
    ` UNION ALL SELECT 'M', ${nulls(4)}, gid, uid, ${nulls(3)} FROM ${p}group_user WHERE gid IN (SELECT share_with FROM sh WHERE share_type = 1)` +
    ` UNION ALL SELECT 'O', o.parent, ${nulls(3)}, o.share_with, o.file_target, ${nulls(3)} FROM ${p}share o WHERE o.share_type = 2 AND o.parent IN (SELECT id FROM sh WHERE share_type = 1)`;
  return { sql, params };
}

export function shareReachOf(rows: readonly SqlRow[]): ShareReach {
  const shares: ReachShare[] = [];
  const members = new Map<string, string[]>();
  const overrideTargets = new Map<string, string>();
  for (const row of rows) {
    switch (text(row.k)) {
      case 'S': {
        const nodePath = text(row.t5) ?? '';
        shares.push({
          id: num(row.a),
          shareType: num(row.b) === 1 ? 1 : 0,
          nodeId: num(row.c),
          stime: num(row.d),
          shareWith: text(row.t1) ?? '',
          owner: text(row.t2) ?? '',
          initiator: text(row.t3),
          target: text(row.t4) ?? '',
          nodePath: `/${nodePath.slice('files/'.length)}`,
        });
        break;
      }
      case 'M': {
        const gid = text(row.t1) ?? '';
        members.set(gid, [...(members.get(gid) ?? []), text(row.t2) ?? '']);
        break;
      }
      case 'O':
        overrideTargets.set(`${num(row.a)}/${text(row.t1) ?? ''}`, text(row.t2) ?? '');
        break;
      default:
        break;
    }
  }
  return { shares, members, overrideTargets };
}
