/**
 * The one statement behind each question. It returns, in one round trip, rows of several
 * kinds (column `k`): `S` candidate shares of the user (override row applied, expired ones
 * flagged), `R` their
 * shared nodes, `F` files of the storages involved whose names may carry a marker, `C`/`D`
 * the files_sharing switches and the sharers' enabled and LDAP-deleted flags, `U` the same
 * flags of the account whose view is asked (and, for the search, its language), `A` (search) the
 * sync add-on's account, `X` the count of Talk room and Deck board shares (unsupported),
 * `E` (marker index on) the etag of each indexed storage's `files` folder, `W` (questions 1
 * and 3) File access control's `enabled` value.
 * visibility.ts then applies the host's rules to them.
 *
 * Speed (bench/host-batch.ts): a name pattern cannot use an index, so the file part reaches
 * the files through the host's `fs_parent_name_hash (parent, name)` index from the folders of
 * the storages involved (`fs_storage_mimetype`), and tests the name with one cheap extraction
 * of the text after the first `[P` instead of 25 LIKEs per row; only names carrying a second
 * `[P` go through the 25 escaped LIKE patterns.
 */
import { LIKE_ESCAPE, markerLikePattern } from './marker.js';
import type { Dialect, SqlRow, SqlValue } from '../db/types.js';
import { branch, branchOf, COLUMNS } from './row-branch.js';
import {
  ADDRESSED_TO_USER,
  candidateColumns,
  directGroups,
  fileOrFolder,
  overrideJoin,
  ownFlags,
  sharedNodes,
  sharerFlags,
  sharingSwitches,
} from './share-sql.js';
import { teamCandidateColumns, teamShareJoin, UNSUPPORTED_SHARE_TYPES, userTeams } from './team-rules.js';
import { FOLDER_MIMETYPE } from './visibility.js';
import { externalBranches, externalProbe, externalStorageSet } from './external-storage.js';

export interface LookupSpec {
  readonly dialect: Dialect;
  readonly prefix: string;
  readonly documentIds: readonly number[];
  /** Stored storage ids whose files are candidates as own files (may be empty). */
  readonly ownStorageIds: readonly string[];
  /** Recipient whose shares are candidates; null for none. */
  readonly shareRecipient: string | null;
  /** The recipient's LDAP groups as the directory answered (Nextcloud gids), besides its rows in group_user. */
  readonly directoryGroups?: readonly string[];
  /** The account whose view is asked (questions 1 and 3): its enabled and LDAP-deleted flags come back as `U` rows. */
  readonly viewer?: string;
  /** The search: the viewer's `core` `lang` comes back as a `U` row too, and the sync add-on's account as an `A` row. */
  readonly forSearch?: boolean;
  /** Naive UTC `YYYY-MM-DD HH:MM:SS`. */
  readonly now: string;
  /** false: the plain form (one LIKE per document), used for the per-document fallback. */
  readonly fast: boolean;
  /** Count this owner's shares of types the adapter cannot resolve (reported once). */
  readonly unsupportedSharesOf?: string;
  /** Test seam: make the database reject the batched statement. */
  readonly breakStatement?: boolean;
  /**
   * Marker index on (marker-index.ts): the file part fetches exactly these file ids by primary
   * key instead of scanning the storages' names, and an `E` branch returns the etags the index
   * is checked against. `ownStorageIds`' scan and the share folders' scan are not built.
   */
  readonly indexed?: { readonly fileIds: readonly number[]; readonly storageIds: readonly string[] };
  /**
   * External storage (external-storage.ts): `xy` rows tell whether files_external is installed;
   * with `read` (its tables exist) the mounts come back as `x*` rows, with the memberships of
   * `accounts` (and the candidate shares' owners) in applicable groups, and the marked files of
   * the Local storages mounted for one of `accounts` join the file rows (scanned also when
   * `indexed`: the marker index covers home storages only).
   */
  readonly external?: { readonly accounts: readonly string[]; readonly read: boolean };
}

export interface Statement {
  readonly sql: string;
  readonly params: SqlValue[];
}

/** A numeric column of a result row: drivers return numbers, bigints or strings. */
export function rowNumber(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'string' && value !== '') return Number(value);
  return 0;
}

/** A text column of a result row, or null. */
export function rowText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value;
  if (Buffer.isBuffer(value)) return value.toString('utf8');
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean' || value instanceof Date) return String(value);
  // The drivers hand a column back as one of the above; anything else (a JSON column parsed to an object) stays readable.
  return JSON.stringify(value);
}

/** `path_hash` of the `files` folder: the host stores md5(path) (reference §1.1); md5('files'), written out so that no run loads node:crypto for it. */
const FILES_PATH_HASH = '45b963397aa40d4a0063e0d85e4fe7a1';

/**
 * The etag of the `files` folder of each of these storages (kind `E`): one row per stored
 * storage, through `storages_id_index` and the unique `fs_storage_path_hash`. The host's
 * Propagator changes this etag whenever anything under `files/` is added, renamed, moved,
 * deleted or changed, so an unchanged etag means an unchanged tree.
 */
function rootEtagBranch(prefix: string, storageIds: readonly string[], params: SqlValue[], broken: boolean, dialect?: Dialect): string {
  params.push(FILES_PATH_HASH, ...storageIds);
  const p = prefix;
  return (
    branch(["'E'", 'st.numeric_id', 'ef.fileid', 'NULL', 'NULL', 'NULL', 'NULL', 'ef.etag', 'NULL', 'NULL', 'NULL'], '', dialect) +
    `FROM ${p}storages st LEFT JOIN ${p}filecache ef ON ef.storage = st.numeric_id AND ef.path_hash = ?` +
    ` WHERE ${broken ? 'dus_no_such_function(st.id) = 1 AND ' : ''}st.id IN (${placeholders(storageIds.length)})`
  );
}

export interface RootEtag {
  readonly storage: number;
  /** fileid of the storage's `files` folder; null when it has none. */
  readonly filesId: number | null;
  readonly etag: string | null;
}

/** The `E` rows of a result, ordered by storage. */
export function rootEtagsOf(rows: readonly SqlRow[]): RootEtag[] {
  return rows
    .filter((row) => rowText(row.k) === 'E')
    .map((row) => ({ storage: rowNumber(row.a), filesId: row.b === null || row.b === undefined ? null : rowNumber(row.b), etag: rowText(row.t1) }))
    .sort((x, y) => x.storage - y.storage);
}

/** The `E` rows alone, as the marker index reads them before a refresh; with `probeExternal`, files_external's `xy` rows too (coverage asks whether to read its storages). */
export function buildRootEtags(prefix: string, storageIds: readonly string[], probeExternal = false): Statement {
  const params: SqlValue[] = [];
  const probe = probeExternal ? ` UNION ALL ${branchOf(externalProbe(prefix))}` : '';
  return { sql: rootEtagBranch(prefix, storageIds, params, false) + probe, params };
}

export const placeholders = (n: number): string => Array.from({ length: n }, () => '?').join(', ');

/**
 * The name filter: true for every name that may carry one of the markers (visibility.ts
 * confirms). The cheap part reads the id after the first `[P` once per row and looks it up in
 * the id list; only names with a second `[P` pay for the 25 LIKEs.
 */
function nameFilter(spec: LookupSpec, params: SqlValue[], column: string): string {
  const likes = spec.documentIds.map(() => `${column} LIKE ? ESCAPE '${LIKE_ESCAPE}'`).join(' OR ');
  const likeParams = spec.documentIds.map(markerLikePattern);
  if (!spec.fast) {
    params.push(...likeParams);
    return `(${likes})`;
  }
  let firstMarker: string;
  let ids: SqlValue[];
  if (spec.dialect === 'pgsql') {
    firstMarker = `split_part(split_part(${column}, '[P', 2), ']', 1)`;
    ids = spec.documentIds.map(String);
  } else if (spec.dialect === 'mysql') {
    firstMarker = `SUBSTRING_INDEX(SUBSTRING(${column}, LOCATE('[P', ${column}) + 2), ']', 1)`;
    ids = spec.documentIds.map(String);
  } else {
    // SQLite has neither split_part nor SUBSTRING_INDEX, but its CAST reads the leading digits
    // of '123].pdf' as 123 (and never fails): one position, one cut, one integer lookup. A
    // misread (`[P0123]`, `[P12x]`) only lets a name through; visibility.ts decides.
    firstMarker = `CAST(substr(${column}, instr(${column}, '[P') + 2) AS INTEGER)`;
    ids = [...spec.documentIds];
  }
  params.push(...ids, ...likeParams);
  const broken = spec.breakStatement === true ? `dus_no_such_function(${column}) = 1 AND ` : '';
  return `(${broken}(${firstMarker} IN (${placeholders(ids.length)}) OR (${column} LIKE '%[P%[P%' AND (${likes}))))`;
}

export function buildLookup(spec: LookupSpec): Statement {
  const p = spec.prefix;
  const params: SqlValue[] = [];
  const ctes: string[] = [];
  const recipient = spec.shareRecipient;
  if (recipient !== null) {
    const fromDirectory = spec.directoryGroups ?? [];
    ctes.push(directGroups(p, fromDirectory.length));
    params.push(recipient, ...fromDirectory);
    ctes.push(userTeams(p));
    params.push(recipient, recipient);
    ctes.push(
      `cand AS (SELECT ${candidateColumns(true)} FROM ${p}share s ${overrideJoin(p, '?')} WHERE ${fileOrFolder()} AND ${ADDRESSED_TO_USER}` +
        ` UNION ALL SELECT ${teamCandidateColumns()} ${teamShareJoin(p, 'ut')} WHERE ${fileOrFolder()})`,
    );
    params.push(spec.now, recipient, recipient, spec.now);
  }
  // One folder set per source of storages, each a plain IN: MariaDB turned an IN over a
  // UNION into a subquery run for every file-cache row (seconds on 1 M rows).
  const folder = `d.mimetype = (SELECT mt.id FROM ${p}mimetypes mt WHERE mt.mimetype = '${FOLDER_MIMETYPE}')`;
  const dirSets: string[] = [];
  const indexed = spec.indexed;
  if (indexed === undefined && spec.ownStorageIds.length > 0) {
    ctes.push(
      `odirs (fileid) AS (SELECT d.fileid FROM ${p}filecache d WHERE d.storage IN (SELECT st.numeric_id FROM ${p}storages st WHERE st.id IN (${placeholders(spec.ownStorageIds.length)})) AND ${folder})`,
    );
    params.push(...spec.ownStorageIds);
    dirSets.push('odirs');
  }
  if (indexed === undefined && recipient !== null) {
    // Only the folders a shared node can cover: the node itself, its parent (a shared file is
    // reached through it), and the folders under it. The exact prefix test stays in TypeScript.
    const under =
      spec.dialect === 'mysql' ? `LEFT(d.path, CHAR_LENGTH(r.path) + 1) = CONCAT(r.path, '/')` : `substr(d.path, 1, length(r.path) + 1) = r.path || '/'`;
    ctes.push(
      `sdirs (fileid) AS (SELECT DISTINCT d.fileid FROM ${p}filecache r JOIN ${p}filecache d ON d.storage = r.storage AND ${folder}` +
        ` AND (d.fileid = r.fileid OR d.fileid = r.parent OR ${under}) WHERE r.fileid IN (SELECT file_source FROM cand))`,
    );
    dirSets.push('sdirs');
  }
  const external = spec.external;
  if (external !== undefined && external.read && external.accounts.length > 0) {
    ctes.push(
      `xdirs (fileid) AS (SELECT d.fileid FROM ${p}filecache d WHERE d.storage IN (${externalStorageSet(p, spec.dialect, external.accounts.length)}) AND ${folder})`,
    );
    params.push(...external.accounts, ...external.accounts);
    dirSets.push('xdirs');
  }
  const selects: string[] = [];
  if (external !== undefined) {
    selects.push(branchOf(externalProbe(p), spec.dialect));
    if (external.read) {
      const list = placeholders(external.accounts.length);
      const owners = recipient === null ? '' : ' OR gu.uid IN (SELECT uid_owner FROM cand)';
      for (const b of externalBranches(p, spec.dialect, `(gu.uid IN (${list})${owners})`)) selects.push(branchOf(b, spec.dialect));
      params.push(...external.accounts);
    }
  }
  if (recipient !== null) {
    selects.push(
      branch(
        ["'S'", 'id', 'share_type', 'file_source', 'stime', 'perms', 'accepted', 'uid_owner', 'uid_initiator', 'target', 'expired'],
        'FROM cand',
        spec.dialect,
      ),
    );
    selects.push(branchOf(sharedNodes(p, 'cand'), spec.dialect));
    selects.push(branchOf(sharingSwitches(p), spec.dialect));
    selects.push(branchOf(sharerFlags(p, 'cand'), spec.dialect));
  }
  if (spec.viewer !== undefined) {
    // A disabled account opens nothing (it cannot log in): read with the files, no round trip more.
    selects.push(branchOf(ownFlags(p, '= ?', spec.forSearch === true), spec.dialect));
    params.push(spec.viewer);
    // Whether File access control is on (rules/access-rules.ts reads its rules only then).
    selects.push(
      branch(["'W'", 'NULL', 'NULL', 'NULL', 'NULL', 'NULL', 'NULL', 'configvalue', 'NULL', 'NULL', 'NULL'], `FROM ${p}appconfig`, spec.dialect) +
        ` WHERE appid = 'files_accesscontrol' AND configkey = 'enabled'`,
    );
  }
  if (spec.forSearch === true) {
    // The search resolves the archive account once per context; this row tells whether the
    // sync add-on still names the same one (questions.ts, `search`).
    selects.push(
      branch(["'A'", 'NULL', 'NULL', 'NULL', 'NULL', 'NULL', 'NULL', 'configvalue', 'NULL', 'NULL', 'NULL'], `FROM ${p}appconfig`, spec.dialect) +
        ` WHERE appid = 'docs_sync' AND configkey = 'target_user'`,
    );
  }
  if (recipient !== null && spec.unsupportedSharesOf !== undefined) {
    // Talk rooms (10), Deck (12): membership lives in apps the product does not read.
    selects.push(
      branch(
        ["'X'", 'COUNT(*)', 'NULL', 'NULL', 'NULL', 'NULL', 'NULL', 'NULL', 'NULL', 'NULL', 'NULL'],
        `FROM ${p}share WHERE uid_owner = ? AND share_type IN (${UNSUPPORTED_SHARE_TYPES.join(', ')})`,
        spec.dialect,
      ),
    );
    params.push(spec.unsupportedSharesOf);
  }
  const columns = ["'F'", 'f.fileid', 'f.storage', 'f.permissions', 'NULL', 'NULL', 'NULL', 'f.path', 'f.name', 'fm.mimetype', 'fs.id'];
  const joins = `JOIN ${p}storages fs ON fs.numeric_id = f.storage JOIN ${p}mimetypes fm ON fm.id = f.mimetype`;
  // A file in both folder sets comes twice; visibility.ts keeps each (file, path) once.
  for (const dirs of dirSets) {
    if (spec.dialect === 'pgsql') {
      // PostgreSQL misjudges the name filter and would scan the whole table; the lateral
      // subquery (kept apart by OFFSET 0) walks fs_parent_name_hash folder by folder, testing
      // names in the index alone, and fetches only the matching rows.
      selects.push(
        branch(columns, '', spec.dialect) +
          `FROM ${dirs} CROSS JOIN LATERAL (SELECT x.parent, x.name FROM ${p}filecache x WHERE x.parent = ${dirs}.fileid AND ${nameFilter(spec, params, 'x.name')} OFFSET 0) m` +
          ` JOIN ${p}filecache f ON f.parent = m.parent AND f.name = m.name ${joins}`,
      );
    } else if (spec.dialect === 'mysql') {
      // MariaDB's plan hung on sampled statistics: after some ANALYZE TABLE runs it walked every
      // storage's rows (storages_id_index, fs_storage_mimepart) and probed the folder set for
      // each, 100 to 400 times slower. STRAIGHT_JOIN keeps the order written: the folder set
      // (a DISTINCT derived table, never merged) first, then the files under each folder
      // through fs_parent_name_hash (bench/host-plans.ts).
      selects.push(
        `SELECT STRAIGHT_JOIN ${columns.map((v, i) => `${v} AS ${COLUMNS[i] ?? 'x'}`).join(', ')}` +
          ` FROM (SELECT DISTINCT fileid FROM ${dirs}) dd JOIN ${p}filecache f ON f.parent = dd.fileid ${joins} WHERE ${nameFilter(spec, params, 'f.name')}`,
      );
    } else {
      selects.push(
        branch(columns, '', spec.dialect) +
          `FROM ${p}filecache f ${joins} WHERE f.parent IN (SELECT fileid FROM ${dirs}) AND ${nameFilter(spec, params, 'f.name')}`,
      );
    }
  }
  if (indexed !== undefined) {
    // The rows are read fresh by primary key and judged like scanned ones: a stale index can
    // only leave a file out, never let one through (docs/host-adapter.md, "Marker index").
    if (indexed.fileIds.length > 0) {
      selects.push(branch(columns, '', spec.dialect) + `FROM ${p}filecache f ${joins} WHERE f.fileid IN (${placeholders(indexed.fileIds.length)})`);
      params.push(...indexed.fileIds);
    }
    selects.push(rootEtagBranch(p, indexed.storageIds, params, spec.breakStatement === true, spec.dialect));
  }
  if (selects.length === 0) selects.push(branch(columns, '', spec.dialect) + `FROM ${p}filecache f ${joins} WHERE 1 = 0`);
  const withClause = ctes.length > 0 ? `WITH ${ctes.join(', ')} ` : '';
  return { sql: `${withClause}${selects.join(' UNION ALL ')}`, params };
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

/** The path prefix of the files in a home storage's trash (reference §2). */
export const TRASH_PREFIX = 'files_trashbin/files/';

/** Explain only: files of the given storages in the trash whose names may carry one of the markers. */
export function buildTrashedFiles(prefix: string, storageIds: readonly string[], documentIds: readonly number[]): Statement {
  const p = prefix;
  const likes = documentIds.map(() => `f.name LIKE ? ESCAPE '${LIKE_ESCAPE}'`).join(' OR ');
  return {
    sql:
      `SELECT f.fileid AS a, f.path AS t1, f.name AS t2, fm.mimetype AS t3 FROM ${p}filecache f JOIN ${p}storages fs ON fs.numeric_id = f.storage JOIN ${p}mimetypes fm ON fm.id = f.mimetype` +
      ` WHERE fs.id IN (${placeholders(storageIds.length)}) AND substr(f.path, 1, ${TRASH_PREFIX.length}) = ? AND (${likes})`,
    params: [...storageIds, TRASH_PREFIX, ...documentIds.map(markerLikePattern)],
  };
}
