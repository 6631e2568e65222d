/**
 * The one statement behind each question. It returns, in one round trip, rows of four kinds
 * (column `k`): `S` candidate shares of the user (override row applied), `R` their shared
 * nodes, `F` marked files of the storages involved, `C`/`D` the files_sharing switches and
 * disabled sharers. visibility.ts then applies the host's rules to them.
 *
 * Speed (bench/host-batch.ts): a name pattern cannot use an index, so the file part reaches
 * the files through the host's `fs_parent_name_hash (parent, name)` index from the folders of
 * the storages involved (`fs_storage_mimetype`), and tests the name with one cheap extraction
 * of the text after the first `[P` instead of 25 LIKEs per row; only names carrying a second
 * `[P` go through the 25 escaped LIKE patterns.
 */
import { LIKE_ESCAPE, markerLikePattern } from './marker.js';
import type { Dialect, SqlValue } from './types.js';
import { FOLDER_MIMETYPE } from './visibility.js';

export interface LookupSpec {
  readonly dialect: Dialect;
  readonly prefix: string;
  readonly documentIds: readonly number[];
  /** Stored storage ids whose files are candidates as own files (may be empty). */
  readonly ownStorageIds: readonly string[];
  /** Recipient whose shares are candidates; null for none. */
  readonly shareRecipient: string | null;
  readonly nestedGroups: boolean;
  /** Naive UTC `YYYY-MM-DD HH:MM:SS`. */
  readonly now: string;
  /** false: the plain form (one LIKE per document), used for the per-document fallback. */
  readonly fast: boolean;
  /** Test seam: make the database reject the batched statement. */
  readonly breakStatement?: boolean;
}

export interface Statement {
  readonly sql: string;
  readonly params: SqlValue[];
}

/** Every branch names its columns: the first branch names the result's columns, and it varies. */
const COLUMNS = ['k', 'a', 'b', 'c', 'd', 'e', 'g', 't1', 't2', 't3', 't4'] as const;
function branch(values: readonly string[], rest: string): string {
  return `SELECT ${values.map((v, i) => `${v} AS ${COLUMNS[i] ?? 'x'}`).join(', ')} ${rest}`;
}

const placeholders = (n: number): string => Array.from({ length: n }, () => '?').join(', ');

function position(dialect: Dialect, needle: string, haystack: string): string {
  if (dialect === 'pgsql') return `strpos(${haystack}, ${needle})`;
  if (dialect === 'mysql') return `LOCATE(${needle}, ${haystack})`;
  return `instr(${haystack}, ${needle})`;
}

/** The name filter: true for names that may carry one of the markers (visibility.ts confirms). */
function nameFilter(spec: LookupSpec, params: SqlValue[]): string {
  const likes = spec.documentIds.map(() => `f.name LIKE ? ESCAPE '${LIKE_ESCAPE}'`).join(' OR ');
  const likeParams = spec.documentIds.map(markerLikePattern);
  if (!spec.fast) {
    params.push(...likeParams);
    return `(${likes})`;
  }
  const d = spec.dialect;
  const first = position(d, "'[P'", 'f.name');
  const after = `substr(f.name, ${first} + 2)`;
  // The text from after `[P` up to and including the next `]`: `123]` for `[P123]`.
  const inner = `substr(${after}, 1, ${position(d, "']'", after)})`;
  params.push(...spec.documentIds.map((id) => `${id}]`));
  params.push(...likeParams);
  const broken = spec.breakStatement === true ? 'dus_no_such_function(f.name) = 1 AND ' : '';
  return `(${broken}${first} > 0 AND (${inner} IN (${placeholders(spec.documentIds.length)}) OR (${position(d, "'[P'", after)} > 0 AND (${likes}))))`;
}

export function buildLookup(spec: LookupSpec): Statement {
  const p = spec.prefix;
  const params: SqlValue[] = [];
  const ctes: string[] = [];
  const recipient = spec.shareRecipient;
  const storageSources: string[] = [];
  if (recipient !== null) {
    ctes.push(
      spec.nestedGroups
        ? `ug (gid) AS (SELECT gid FROM ${p}group_user WHERE uid = ? UNION SELECT gg.parent_gid FROM ${p}group_group gg JOIN ug ON gg.child_gid = ug.gid)`
        : `ug (gid) AS (SELECT gid FROM ${p}group_user WHERE uid = ?)`,
    );
    params.push(recipient);
    ctes.push(
      `cand AS (SELECT s.id, s.share_type, s.uid_owner, s.uid_initiator, s.file_source, s.stime,` +
        ` COALESCE(o.permissions, s.permissions) AS perms, COALESCE(o.accepted, s.accepted) AS accepted, COALESCE(o.file_target, s.file_target) AS target` +
        ` FROM ${p}share s LEFT JOIN ${p}share o ON s.share_type = 1 AND o.share_type = 2 AND o.parent = s.id AND o.share_with = ?` +
        ` WHERE s.item_type IN ('file', 'folder') AND ((s.share_type = 0 AND s.share_with = ?) OR (s.share_type = 1 AND s.share_with IN (SELECT gid FROM ug)))` +
        ` AND (s.expiration IS NULL OR s.expiration > ?))`,
    );
    params.push(recipient, recipient, spec.now);
    storageSources.push(`SELECT r.storage FROM ${p}filecache r WHERE r.fileid IN (SELECT file_source FROM cand)`);
  }
  if (spec.ownStorageIds.length > 0) {
    storageSources.unshift(`SELECT numeric_id FROM ${p}storages WHERE id IN (${placeholders(spec.ownStorageIds.length)})`);
    params.push(...spec.ownStorageIds);
  }
  if (storageSources.length === 0) storageSources.push(`SELECT numeric_id FROM ${p}storages WHERE 1 = 0`);
  ctes.push(`stor (sid) AS (${storageSources.join(' UNION ')})`);
  ctes.push(
    `dirs (fileid) AS (SELECT d.fileid FROM ${p}filecache d WHERE d.storage IN (SELECT sid FROM stor)` +
      ` AND d.mimetype = (SELECT mt.id FROM ${p}mimetypes mt WHERE mt.mimetype = '${FOLDER_MIMETYPE}'))`,
  );
  const selects: string[] = [];
  if (recipient !== null) {
    selects.push(
      branch(["'S'", 'id', 'share_type', 'file_source', 'stime', 'perms', 'accepted', 'uid_owner', 'uid_initiator', 'target', 'NULL'], 'FROM cand'),
    );
    selects.push(
      branch(["'R'", 'r.fileid', 'r.storage', 'r.permissions', 'NULL', 'NULL', 'NULL', 'r.path', 'r.name', 'rm.mimetype', 'rs.id'], '') +
        `FROM ${p}filecache r JOIN ${p}storages rs ON rs.numeric_id = r.storage JOIN ${p}mimetypes rm ON rm.id = r.mimetype` +
        ` WHERE r.fileid IN (SELECT file_source FROM cand)`,
    );
    selects.push(
      branch(["'C'", 'NULL', 'NULL', 'NULL', 'NULL', 'NULL', 'NULL', 'configkey', 'configvalue', 'NULL', 'NULL'], `FROM ${p}appconfig`) +
        ` WHERE appid = 'files_sharing' AND configkey IN ('enabled', 'hide_disabled_user_shares')`,
    );
    selects.push(
      branch(["'D'", 'NULL', 'NULL', 'NULL', 'NULL', 'NULL', 'NULL', 'userid', 'configvalue', 'NULL', 'NULL'], `FROM ${p}preferences`) +
        ` WHERE appid = 'core' AND configkey = 'enabled' AND userid IN (SELECT uid_owner FROM cand UNION SELECT uid_initiator FROM cand)`,
    );
  }
  const fileParams: SqlValue[] = [];
  const filter = nameFilter(spec, fileParams);
  selects.push(
    branch(["'F'", 'f.fileid', 'f.storage', 'f.permissions', 'NULL', 'NULL', 'NULL', 'f.path', 'f.name', 'fm.mimetype', 'fs.id'], '') +
      `FROM ${p}filecache f JOIN ${p}storages fs ON fs.numeric_id = f.storage JOIN ${p}mimetypes fm ON fm.id = f.mimetype` +
      ` WHERE f.parent IN (SELECT fileid FROM dirs) AND ${filter}`,
  );
  params.push(...fileParams);
  const withKeyword = recipient !== null && spec.nestedGroups ? 'WITH RECURSIVE' : 'WITH';
  return { sql: `${withKeyword} ${ctes.join(', ')} ${selects.join(' UNION ALL ')}`, params };
}

/** Marked files of the given storages (any marker), for coverage. */
export function buildMarkedFiles(prefix: string, storageIds: readonly string[]): Statement {
  const p = prefix;
  return {
    sql:
      `SELECT f.fileid AS a, f.storage AS b, f.path AS t1, f.name AS t2, fm.mimetype AS t3, fs.id AS t4` +
      ` FROM ${p}filecache f JOIN ${p}storages fs ON fs.numeric_id = f.storage JOIN ${p}mimetypes fm ON fm.id = f.mimetype` +
      ` WHERE fs.id IN (${placeholders(storageIds.length)}) AND f.name LIKE ? ESCAPE '${LIKE_ESCAPE}'`,
    params: [...storageIds, '%[P%]%'],
  };
}
