/**
 * A Nextcloud-shaped host database of any size for the benches: ROWS file-cache rows, every
 * 10th the archive account's (1000 folders, then marked invoices), the rest 900 other
 * accounts' files, 2 k shares. File ids: 1..rows the generated rows, rows + 1..3 the archive
 * account's root, `files` and `files/Archive`, 2·rows + 2·storage the other accounts' `files`,
 * 3·rows + n files added later: distinct at every size.
 */
import { createHash } from 'node:crypto';
import { rmSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { createHostFixture, FixtureUnavailable, type FixtureDialect, type HostFixture } from '../../test/support/host-fixtures/index.js';
import { mysqlWriter, pgWriter, sqliteWriter } from '../../test/support/host-fixtures/writer.js';

/** What the big host's functions use of a fixture: a fresh one, or a kept one attached again. */
export type BigHostDb = Pick<HostFixture, 'dialect' | 'dbUrl' | 'prefix' | 'exec' | 'all' | 'release' | 'drop'>;

export const ARCHIVE_EVERY = 10;
export const OTHER_USERS = 900;
export const FOLDERS = 1000;
const SHARES = 2000;
/** Generated file-cache rows per statement. */
const CHUNK = 1_000_000;

export interface BigHostIds {
  readonly rows: number;
  readonly root: number;
  readonly files: number;
  readonly archiveFolder: number;
}

/** An empty fixture database without the listener indexes, or null (printed) when the database is not reachable. */
export async function bigHostFixture(dialect: FixtureDialect): Promise<HostFixture | null> {
  try {
    return await createHostFixture(dialect, { listenerIndexes: false });
  } catch (error) {
    if (error instanceof FixtureUnavailable) {
      console.log(`${dialect}: skipped (${error.reason})`);
      return null;
    }
    throw error;
  }
}

/**
 * A big host kept by an earlier run (BENCH_KEEP=1 prints its URL), attached again so a bench
 * skips the load: sqlite://<file>, postgres://postgres@127.0.0.1:5432/<db>, mysql://root@127.0.0.1:3306/<db>.
 * Checks that it holds `rows` generated rows (the same BENCH_ROWS as when it was loaded).
 */
export async function attachBigHost(dbUrl: string, rows: number, prefix = 'oc_'): Promise<BigHostDb> {
  const url = new URL(dbUrl);
  const name = decodeURIComponent(url.pathname.replace(/^\//, ''));
  const dialect: FixtureDialect | null =
    url.protocol === 'sqlite:'
      ? 'sqlite'
      : url.protocol.startsWith('postgres')
        ? 'pgsql'
        : url.protocol === 'mysql:' || url.protocol === 'mariadb:'
          ? 'mysql'
          : null;
  if (dialect === null) throw new Error(`BENCH_DB_URL ${dbUrl}: not a sqlite://, postgres:// or mysql:// URL`);
  const file = dbUrl.slice('sqlite://'.length);
  const writer = dialect === 'sqlite' ? await sqliteWriter(file) : dialect === 'pgsql' ? await pgWriter(name) : await mysqlWriter(name);
  const db: BigHostDb = {
    dialect,
    dbUrl,
    prefix,
    exec: (sql, params = []) => writer.exec(sql, params),
    all: (sql, params = []) => writer.all(sql, params),
    release: () => writer.close(),
    drop: async () => {
      await writer.close();
      if (dialect === 'sqlite') {
        for (const suffix of ['', '-wal', '-shm']) rmSync(file + suffix, { force: true });
        // The fixture's own temporary directory goes with it; any other directory stays.
        if (basename(dirname(file)).startsWith('dus-host-')) rmSync(dirname(file), { recursive: true, force: true });
      } else {
        const admin = dialect === 'pgsql' ? await pgWriter('test') : await mysqlWriter(undefined);
        await admin.exec(dialect === 'pgsql' ? `DROP DATABASE IF EXISTS ${name} WITH (FORCE)` : `DROP DATABASE IF EXISTS ${name}`);
        await admin.close();
      }
    },
  };
  const ids = bigHostIds(rows);
  const [archive] = await db.all(`SELECT path FROM ${prefix}filecache WHERE fileid = ?`, [ids.archiveFolder]);
  const [last] = await db.all(`SELECT storage FROM ${prefix}filecache WHERE fileid = ?`, [rows - (rows % ARCHIVE_EVERY)]);
  if (archive?.path !== 'files/Archive' || Number(last?.storage) !== 1) {
    await db.release();
    throw new Error(`BENCH_DB_URL ${dbUrl} is not a big host of ${rows} rows (set BENCH_ROWS to the count it was loaded with)`);
  }
  return db;
}

export function bigHostIds(rows: number): BigHostIds {
  return { rows, root: rows + 1, files: rows + 2, archiveFolder: rows + 3 };
}

/** Row numbers from..to as a derived table, per dialect; MariaDB's cross join gets one digit table per decimal digit of the count. */
function series(dialect: FixtureDialect, to: number, from = 1): string {
  if (dialect === 'pgsql') return `(SELECT g AS i FROM generate_series(${from}, ${to}) AS g) s`;
  if (dialect === 'mysql') {
    // d digit tables number 0..10^d − 1: the fewest that cover the count, so 10 M rows cross 7 tables, not 8.
    const count = to - from + 1;
    const digits = Math.max(1, Math.ceil(Math.log10(count)));
    const names = Array.from({ length: digits }, (_, j) => `t${j}`);
    const digit =
      '(SELECT 0 d UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3 UNION ALL SELECT 4 UNION ALL SELECT 5 UNION ALL SELECT 6 UNION ALL SELECT 7 UNION ALL SELECT 8 UNION ALL SELECT 9)';
    return `(SELECT ${names.map((x, j) => `${10 ** j} * ${x}.d`).join(' + ')} + ${from} AS i FROM ${names.map((x) => `${digit} ${x}`).join(', ')}) s WHERE s.i <= ${to}`;
  }
  return `(WITH RECURSIVE c(i) AS (SELECT ${from} UNION ALL SELECT i + 1 FROM c WHERE i < ${to}) SELECT i FROM c) s`;
}

function concat(dialect: FixtureDialect, ...parts: string[]): string {
  return dialect === 'mysql' ? `CONCAT(${parts.join(', ')})` : parts.join(' || ');
}

const text = (dialect: FixtureDialect, expr: string): string => (dialect === 'mysql' ? `CAST(${expr} AS CHAR)` : `CAST(${expr} AS TEXT)`);

export const md5 = (value: string): string => createHash('md5').update(value).digest('hex');

export async function loadBigHost(fx: BigHostDb, rows: number): Promise<BigHostIds> {
  const ids = bigHostIds(rows);
  const d = fx.dialect;
  const p = fx.prefix;
  const t = (x: string): string => `${p}${x}`;
  const S = (e: string): string => text(d, e);
  // SQLite's default 2 MB page cache makes every insert into 10 M-row indexes a page read:
  // a 1 GiB cache and no syncs for the load (the adapter opens connections of its own).
  if (d === 'sqlite') await fx.exec('PRAGMA cache_size = -1048576; PRAGMA synchronous = OFF');
  await fx.exec(`INSERT INTO ${t('mimetypes')} (id, mimetype) VALUES (1, 'httpd/unix-directory'), (2, 'httpd'), (3, 'application/pdf'), (4, 'application')`);
  // Storage 1: the archive account; 2: the reader; 3..: other accounts.
  await fx.exec(`INSERT INTO ${t('storages')} (numeric_id, id, available) VALUES (1, 'home::archive', 1), (2, 'home::reader', 1)`);
  await fx.exec(`INSERT INTO ${t('storages')} (numeric_id, id, available) SELECT i + 2, ${concat(d, "'home::u'", S('i'))}, 1 FROM ${series(d, OTHER_USERS)}`);
  await fx.exec(`INSERT INTO ${t('users')} (uid, uid_lower, password) VALUES ('archive', 'archive', ''), ('reader', 'reader', '')`);
  await fx.exec(
    `INSERT INTO ${t('users')} (uid, uid_lower, password) SELECT ${concat(d, "'u'", S('i'))}, ${concat(d, "'u'", S('i'))}, '' FROM ${series(d, OTHER_USERS)}`,
  );
  const root = (id: number, storage: number, path: string, parent: number, name: string): string =>
    `(${id}, ${storage}, '${path}', '${path === '' ? 'root' : path}-${storage}', ${parent}, '${name}', 1, 2, 0, 1700000000, 1700000000, 31, 'e${id}')`;
  const cols = '(fileid, storage, path, path_hash, parent, name, mimetype, mimepart, size, mtime, storage_mtime, permissions, etag)';
  await fx.exec(
    `INSERT INTO ${t('filecache')} ${cols} VALUES ${[root(ids.root, 1, '', -1, ''), root(ids.files, 1, 'files', ids.root, 'files'), root(ids.archiveFolder, 1, 'files/Archive', ids.files, 'Archive')].join(', ')}`,
  );
  await fx.exec(
    `INSERT INTO ${t('filecache')} ${cols} SELECT ${2 * rows} + 2 * (i + 2), i + 2, 'files', ${concat(d, "'files-'", S('i'))}, -1, 'files', 1, 2, 0, 1700000000, 1700000000, 31, 'e' FROM ${series(d, OTHER_USERS)}`,
  );
  // The marker index finds the archive's `files` folder by its real path hash, as on a host.
  await fx.exec(`UPDATE ${t('filecache')} SET path_hash = ? WHERE fileid = ?`, [md5('files'), ids.files]);
  // The archive account's rows: every 10th fileid; k = fileid / 10. k <= 1000: folders F<k>; else files in folder F<k mod 1000 + 1>.
  const k = `(i / ${ARCHIVE_EVERY})`;
  const folderOf = `(${k} % ${FOLDERS} + 1)`;
  const isFolder = `${k} <= ${FOLDERS}`;
  const archiveName = `CASE WHEN ${isFolder} THEN ${concat(d, "'F'", S(k))} ELSE ${concat(d, "'Invoice '", S(k), "' [P'", S(k), "'].pdf'")} END`;
  const archivePath = `CASE WHEN ${isFolder} THEN ${concat(d, "'files/Archive/F'", S(k))} ELSE ${concat(d, "'files/Archive/F'", S(folderOf), "'/Invoice '", S(k), "' [P'", S(k), "'].pdf'")} END`;
  const otherStorage = `(i % ${OTHER_USERS} + 3)`;
  const kExpr = d === 'mysql' ? k.replace('/', 'DIV') : k;
  const fix = (e: string): string => e.split(k).join(kExpr);
  const generated = (from: number, to: number): string =>
    `INSERT INTO ${t('filecache')} ${cols} SELECT i,` +
    ` CASE WHEN i % ${ARCHIVE_EVERY} = 0 THEN 1 ELSE ${otherStorage} END,` +
    ` CASE WHEN i % ${ARCHIVE_EVERY} = 0 THEN ${fix(archivePath)} ELSE ${concat(d, "'files/Doc '", S('i'), "'.pdf'")} END,` +
    ` ${S('i')},` +
    ` CASE WHEN i % ${ARCHIVE_EVERY} = 0 THEN (CASE WHEN ${fix(isFolder)} THEN ${ids.archiveFolder} ELSE ${ARCHIVE_EVERY} * ${fix(folderOf)} END) ELSE ${2 * rows} + 2 * ${otherStorage} END,` +
    ` CASE WHEN i % ${ARCHIVE_EVERY} = 0 THEN ${fix(archiveName)} WHEN i % 100 = 1 THEN ${concat(d, "'Scan [P'", S('i'), "'].pdf'")} ELSE ${concat(d, "'Doc '", S('i'), "'.pdf'")} END,` +
    ` CASE WHEN i % ${ARCHIVE_EVERY} = 0 AND ${fix(isFolder)} THEN 1 ELSE 3 END, CASE WHEN i % ${ARCHIVE_EVERY} = 0 AND ${fix(isFolder)} THEN 2 ELSE 4 END,` +
    ` 1000, 1700000000, 1700000000, CASE WHEN i % ${ARCHIVE_EVERY} = 0 AND ${fix(isFolder)} THEN 31 ELSE 27 END, ${concat(d, "'e'", S('i'))} FROM ${series(d, to, from)}`;
  // In steps of a million rows: bounded transactions (MariaDB's undo log), and a progress line.
  for (let from = 1; from <= rows; from += CHUNK) {
    const to = Math.min(rows, from + CHUNK - 1);
    await fx.exec(generated(from, to));
    if (rows > CHUNK) process.stderr.write(`${d}: ${to} of ${rows} file-cache rows\n`);
  }
  // A generator that stops early would make every figure lie: count what is there.
  const [counted] = await fx.all(`SELECT COUNT(*) AS n FROM ${t('filecache')} WHERE fileid <= ?`, [rows]);
  if (Number(counted?.n) !== rows) throw new Error(`big host: ${String(counted?.n)} generated file-cache rows, expected ${rows}`);
  // Shares: the whole archive folder to the reader, then user shares among the other accounts.
  const shareCols = '(share_type, share_with, uid_owner, uid_initiator, item_type, item_source, file_source, file_target, permissions, stime, accepted)';
  await fx.exec(
    `INSERT INTO ${t('share')} ${shareCols} VALUES (0, 'reader', 'archive', 'archive', 'folder', '${ids.archiveFolder}', ${ids.archiveFolder}, '/Archive', 1, 1700000000, 1)`,
  );
  // A second reader gets one folder of rows / 10 000 files (F7, file id 70).
  await fx.exec(`INSERT INTO ${t('users')} (uid, uid_lower, password) VALUES ('reader2', 'reader2', '')`);
  await fx.exec(`INSERT INTO ${t('share')} ${shareCols} VALUES (0, 'reader2', 'archive', 'archive', 'folder', '70', 70, '/F7', 1, 1700000000, 1)`);
  await fx.exec(
    `INSERT INTO ${t('share')} ${shareCols} SELECT 0, ${concat(d, "'u'", S(`(i % ${OTHER_USERS}) + 1`))}, ${concat(d, "'u'", S(`((i + 7) % ${OTHER_USERS}) + 1`))}, ${concat(d, "'u'", S(`((i + 7) % ${OTHER_USERS}) + 1`))},` +
      ` 'file', ${S('i')}, i, ${concat(d, "'/Doc '", S('i'), "'.pdf'")}, 1, 1700000000 + i, 1 FROM ${series(d, SHARES - 1)}`,
  );
  if (d === 'pgsql') await fx.exec('VACUUM ANALYZE');
  else if (d === 'mysql') await fx.exec(`ANALYZE TABLE ${t('filecache')}, ${t('share')}, ${t('storages')}`);
  else await fx.exec('ANALYZE');
  return ids;
}

/** 25 documents spread over the archive, as an archive-server page would be. */
export function spreadDocumentIds(rows: number): number[] {
  const step = Math.floor((rows / ARCHIVE_EVERY - FOLDERS - 1) / 25);
  return Array.from({ length: 25 }, (_, j) => FOLDERS + 1 + j * step);
}

/** Documents of folder F7 (k mod 1000 = 6), seen by the reader of that folder only. */
export function folderDocumentIds(rows: number): number[] {
  return Array.from({ length: 25 }, (_, j) => 1006 + 1000 * j).filter((k) => k <= rows / ARCHIVE_EVERY);
}

/**
 * A new marked file in folder F7 (file id 70), with the etag propagation the host does: F7,
 * Archive, files and the storage root get a new etag. Its file id follows the highest one
 * above 3·rows, so a kept host (BENCH_KEEP=1) takes new files in later runs too.
 */
export async function addPropagatedFile(fx: BigHostDb, ids: BigHostIds, n: number): Promise<number> {
  const [top] = await fx.all(`SELECT MAX(fileid) AS m FROM ${fx.prefix}filecache WHERE fileid > ?`, [3 * ids.rows]);
  const fileId = Math.max(3 * ids.rows, Number(top?.m ?? 0)) + 1;
  const documentId = 10 * ids.rows + (fileId - 3 * ids.rows);
  const name = `New ${n} [P${documentId}].pdf`;
  await fx.exec(
    `INSERT INTO ${fx.prefix}filecache (fileid, storage, path, path_hash, parent, name, mimetype, mimepart, size, mtime, storage_mtime, permissions, etag) VALUES (?, 1, ?, ?, 70, ?, 3, 4, 1000, 1700000000, 1700000000, 27, ?)`,
    [fileId, `files/Archive/F7/${name}`, md5(`files/Archive/F7/${name}`), name, `n${fileId}`],
  );
  await fx.exec(`UPDATE ${fx.prefix}filecache SET etag = ? WHERE fileid IN (70, ?, ?, ?)`, [`p${fileId}`, ids.archiveFolder, ids.files, ids.root]);
  return documentId;
}

/**
 * Runs `bench` for each dialect named on the command line (else `defaults`): on a big host it
 * loads, or, with BENCH_DB_URL, on the host a run with BENCH_KEEP=1 kept (then name its one
 * dialect; exit code 2 otherwise).
 */
export async function forEachBenchedDialect(
  defaults: readonly FixtureDialect[],
  bench: (dialect: FixtureDialect, kept: string | undefined) => Promise<void>,
): Promise<void> {
  const named = process.argv.slice(2).filter((a): a is FixtureDialect => a === 'sqlite' || a === 'pgsql' || a === 'mysql');
  const kept = process.env.BENCH_DB_URL;
  if (kept !== undefined && named.length !== 1) {
    process.stderr.write('BENCH_DB_URL names one host: name its dialect (sqlite, pgsql or mysql)\n');
    process.exitCode = 2;
    return;
  }
  for (const dialect of named.length > 0 ? named : defaults) await bench(dialect, kept);
}
