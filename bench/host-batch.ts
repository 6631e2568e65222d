/**
 * One 25-marker batch of question 1 on a Nextcloud-shaped database with 1 M file-cache rows
 * (100 k of the archive account, interleaved with 900 other accounts' files) and 2 k shares,
 * beside one indexed lookup of a file by id. Prints medians of 20 and their ratio, with the
 * marker index off (one-shot commands) and on and warm (`serve`), plus the index's build time,
 * its refresh after one new file and the heap it takes.
 *
 *   npm run build:tools && node dist-tools/bench/host-batch.js [sqlite|pgsql|mysql ...]
 */
import { createHash } from 'node:crypto';
import { cpus, loadavg } from 'node:os';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { openHost } from '../src/core/host/open-host.js';
import type { HostAdapter } from '../src/core/host/types.js';
import { createHostFixture, FixtureUnavailable, type FixtureDialect, type HostFixture } from '../test/support/host-fixtures/index.js';

const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const ARCHIVE_EVERY = 10; // every 10th row is the archive account's: 100 k of 1 M
const OTHER_USERS = 900;
const FOLDERS = 1000;
const SHARES = 2000;
const RUNS = 20;
const REFRESHES = 5;

/** A full collection before each heap reading, so the difference is what stays reachable. */
setFlagsFromString('--expose-gc');
const collected: unknown = runInNewContext('gc');
function heapUsed(): number {
  if (typeof collected === 'function') collected();
  return process.memoryUsage().heapUsed;
}

/** Row numbers 1..ROWS as a derived table, per dialect. */
function series(dialect: FixtureDialect, n: number): string {
  if (dialect === 'pgsql') return `(SELECT g AS i FROM generate_series(1, ${n}) AS g) s`;
  if (dialect === 'mysql') return `(SELECT a.d + 10 * b.d + 100 * c.d + 1000 * d.d + 10000 * e.d + 100000 * f.d + 1 AS i FROM ${[...'abcdef'].map((x) => `(SELECT 0 d UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3 UNION ALL SELECT 4 UNION ALL SELECT 5 UNION ALL SELECT 6 UNION ALL SELECT 7 UNION ALL SELECT 8 UNION ALL SELECT 9) ${x}`).join(', ')}) s WHERE s.i <= ${n}`;
  return `(WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < ${n}) SELECT i FROM c) s`;
}

function concat(dialect: FixtureDialect, ...parts: string[]): string {
  return dialect === 'mysql' ? `CONCAT(${parts.join(', ')})` : parts.join(' || ');
}

const text = (dialect: FixtureDialect, expr: string): string => (dialect === 'mysql' ? `CAST(${expr} AS CHAR)` : `CAST(${expr} AS TEXT)`);

async function load(fx: HostFixture): Promise<void> {
  const d = fx.dialect;
  const p = fx.prefix;
  const t = (x: string): string => `${p}${x}`;
  const S = (e: string): string => text(d, e);
  await fx.exec(`INSERT INTO ${t('mimetypes')} (id, mimetype) VALUES (1, 'httpd/unix-directory'), (2, 'httpd'), (3, 'application/pdf'), (4, 'application')`);
  // Storage 1: the archive account; 2: the reader; 3..: other accounts.
  await fx.exec(`INSERT INTO ${t('storages')} (numeric_id, id, available) VALUES (1, 'home::archive', 1), (2, 'home::reader', 1)`);
  await fx.exec(`INSERT INTO ${t('storages')} (numeric_id, id, available) SELECT i + 2, ${concat(d, "'home::u'", S('i'))}, 1 FROM ${series(d, OTHER_USERS)}`);
  await fx.exec(`INSERT INTO ${t('users')} (uid, uid_lower, password) VALUES ('archive', 'archive', ''), ('reader', 'reader', '')`);
  await fx.exec(`INSERT INTO ${t('users')} (uid, uid_lower, password) SELECT ${concat(d, "'u'", S('i'))}, ${concat(d, "'u'", S('i'))}, '' FROM ${series(d, OTHER_USERS)}`);
  // Roots: archive '' (1000001), files (1000002), files/Archive (1000003); others' '' and files at 2000000 + 2 * storage.
  const root = (id: number, storage: number, path: string, parent: number, name: string): string =>
    `(${id}, ${storage}, '${path}', '${path === '' ? 'root' : path}-${storage}', ${parent}, '${name}', 1, 2, 0, 1700000000, 1700000000, 31, 'e${id}')`;
  const cols = '(fileid, storage, path, path_hash, parent, name, mimetype, mimepart, size, mtime, storage_mtime, permissions, etag)';
  await fx.exec(`INSERT INTO ${t('filecache')} ${cols} VALUES ${[root(1_000_001, 1, '', -1, ''), root(1_000_002, 1, 'files', 1_000_001, 'files'), root(1_000_003, 1, 'files/Archive', 1_000_002, 'Archive')].join(', ')}`);
  await fx.exec(
    `INSERT INTO ${t('filecache')} ${cols} SELECT 2000000 + 2 * (i + 2), i + 2, 'files', ${concat(d, "'files-'", S('i'))}, -1, 'files', 1, 2, 0, 1700000000, 1700000000, 31, 'e' FROM ${series(d, OTHER_USERS)}`,
  );
  // The marker index finds the archive's `files` folder by its real path hash, as on a host.
  await fx.exec(`UPDATE ${t('filecache')} SET path_hash = ? WHERE fileid = 1000002`, [md5('files')]);
  // The archive account's rows: every 10th fileid; k = fileid / 10. k <= 1000: folders F<k>; else files in folder F<k mod 1000 + 1>.
  const k = `(i / ${ARCHIVE_EVERY})`;
  const folderOf = `(${k} % ${FOLDERS} + 1)`;
  const isFolder = `${k} <= ${FOLDERS}`;
  const archiveName = `CASE WHEN ${isFolder} THEN ${concat(d, "'F'", S(k))} ELSE ${concat(d, "'Invoice '", S(k), "' [P'", S(k), "'].pdf'")} END`;
  const archivePath = `CASE WHEN ${isFolder} THEN ${concat(d, "'files/Archive/F'", S(k))} ELSE ${concat(d, "'files/Archive/F'", S(folderOf), "'/Invoice '", S(k), "' [P'", S(k), "'].pdf'")} END`;
  const otherStorage = `(i % ${OTHER_USERS} + 3)`;
  const integerDivision = d === 'mysql' ? `DIV` : '/';
  const kExpr = k.replace('/', integerDivision);
  const fix = (e: string): string => e.split(k).join(kExpr);
  await fx.exec(
    `INSERT INTO ${t('filecache')} ${cols} SELECT i,` +
      ` CASE WHEN i % ${ARCHIVE_EVERY} = 0 THEN 1 ELSE ${otherStorage} END,` +
      ` CASE WHEN i % ${ARCHIVE_EVERY} = 0 THEN ${fix(archivePath)} ELSE ${concat(d, "'files/Doc '", S('i'), "'.pdf'")} END,` +
      ` ${S('i')},` +
      ` CASE WHEN i % ${ARCHIVE_EVERY} = 0 THEN (CASE WHEN ${fix(isFolder)} THEN 1000003 ELSE ${ARCHIVE_EVERY} * ${fix(folderOf)} END) ELSE 2000000 + 2 * ${otherStorage} END,` +
      ` CASE WHEN i % ${ARCHIVE_EVERY} = 0 THEN ${fix(archiveName)} WHEN i % 100 = 1 THEN ${concat(d, "'Scan [P'", S('i'), "'].pdf'")} ELSE ${concat(d, "'Doc '", S('i'), "'.pdf'")} END,` +
      ` CASE WHEN i % ${ARCHIVE_EVERY} = 0 AND ${fix(isFolder)} THEN 1 ELSE 3 END, CASE WHEN i % ${ARCHIVE_EVERY} = 0 AND ${fix(isFolder)} THEN 2 ELSE 4 END,` +
      ` 1000, 1700000000, 1700000000, CASE WHEN i % ${ARCHIVE_EVERY} = 0 AND ${fix(isFolder)} THEN 31 ELSE 27 END, ${concat(d, "'e'", S('i'))} FROM ${series(d, ROWS)}`,
  );
  // Shares: the whole archive folder to the reader, then user shares among the other accounts.
  const shareCols = '(share_type, share_with, uid_owner, uid_initiator, item_type, item_source, file_source, file_target, permissions, stime, accepted)';
  await fx.exec(`INSERT INTO ${t('share')} ${shareCols} VALUES (0, 'reader', 'archive', 'archive', 'folder', '1000003', 1000003, '/Archive', 1, 1700000000, 1)`);
  // A second reader gets one folder of about 100 files (F7, file id 70).
  await fx.exec(`INSERT INTO ${t('users')} (uid, uid_lower, password) VALUES ('reader2', 'reader2', '')`);
  await fx.exec(`INSERT INTO ${t('share')} ${shareCols} VALUES (0, 'reader2', 'archive', 'archive', 'folder', '70', 70, '/F7', 1, 1700000000, 1)`);
  await fx.exec(
    `INSERT INTO ${t('share')} ${shareCols} SELECT 0, ${concat(d, "'u'", S(`(i % ${OTHER_USERS}) + 1`))}, ${concat(d, "'u'", S(`((i + 7) % ${OTHER_USERS}) + 1`))}, ${concat(d, "'u'", S(`((i + 7) % ${OTHER_USERS}) + 1`))},` +
      ` 'file', ${S('i')}, i, ${concat(d, "'/Doc '", S('i'), "'.pdf'")}, 1, 1700000000 + i, 1 FROM ${series(d, SHARES - 1)}`,
  );
  if (d === 'pgsql') await fx.exec('VACUUM ANALYZE');
  else if (d === 'mysql') await fx.exec(`ANALYZE TABLE ${t('filecache')}, ${t('share')}, ${t('storages')}`);
  else await fx.exec('ANALYZE');
}

const md5 = (value: string): string => createHash('md5').update(value).digest('hex');

/**
 * A new marked file in folder F7 (file id 70), with the etag propagation the host does: F7,
 * Archive, files and the storage root get a new etag.
 */
async function addPropagatedFile(fx: HostFixture, n: number): Promise<number> {
  const documentId = 200_000 + n;
  const name = `New ${n} [P${documentId}].pdf`;
  await fx.exec(
    `INSERT INTO ${fx.prefix}filecache (fileid, storage, path, path_hash, parent, name, mimetype, mimepart, size, mtime, storage_mtime, permissions, etag) VALUES (?, 1, ?, ?, 70, ?, 3, 4, 1000, 1700000000, 1700000000, 27, ?)`,
    [3_000_000 + n, `files/Archive/F7/${name}`, md5(`files/Archive/F7/${name}`), name, `n${n}`],
  );
  await fx.exec(`UPDATE ${fx.prefix}filecache SET etag = ? WHERE fileid IN (70, 1000003, 1000002, 1000001)`, [`p${n}`]);
  return documentId;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

async function time(fn: () => Promise<unknown>): Promise<number[]> {
  await fn();
  await fn();
  const out: number[] = [];
  for (let i = 0; i < RUNS; i += 1) {
    const start = process.hrtime.bigint();
    await fn();
    out.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return out;
}

async function benchOne(dialect: FixtureDialect): Promise<void> {
  let fx: HostFixture;
  try {
    fx = await createHostFixture(dialect, { listenerIndexes: false });
  } catch (error) {
    if (error instanceof FixtureUnavailable) {
      console.log(`${dialect}: skipped (${error.reason})`);
      return;
    }
    throw error;
  }
  let host: HostAdapter | null = null;
  let indexed: HostAdapter | null = null;
  try {
    const loadStart = Date.now();
    await load(fx);
    const loadSeconds = (Date.now() - loadStart) / 1000;
    process.stderr.write(`${dialect}: loaded in ${loadSeconds.toFixed(0)} s\n`);
    host = await openHost({ dbUrl: fx.dbUrl, tablePrefix: fx.prefix });
    const opened = host;
    // 25 documents spread over the archive, as an archive-server page would be.
    const step = Math.floor((ROWS / ARCHIVE_EVERY - FOLDERS - 1) / 25);
    const ids = Array.from({ length: 25 }, (_, j) => FOLDERS + 1 + j * step);
    const found = await opened.visibleArchiveFiles('reader', 'archive', ids);
    if (found.size !== 25) throw new Error(`expected 25 visible files, got ${found.size}`);
    const batchTimes = await time(() => opened.visibleArchiveFiles('reader', 'archive', ids));
    const batch = median(batchTimes);
    const owned = median(await time(() => opened.ownedArchiveFiles('archive', ids)));
    const foreign = median(await time(() => opened.visibleForeignFiles('reader', 'archive', ids)));
    // Documents of folder F7 (k mod 1000 = 6), seen by the reader of that folder only.
    const folderIds = Array.from({ length: 25 }, (_, j) => 1006 + 1000 * j).filter((k) => k <= ROWS / ARCHIVE_EVERY);
    const inFolder = await opened.visibleArchiveFiles('reader2', 'archive', folderIds);
    if (inFolder.size !== folderIds.length) throw new Error(`expected ${folderIds.length} files in F7, got ${inFolder.size}`);
    const oneFolder = median(await time(() => opened.visibleArchiveFiles('reader2', 'archive', folderIds)));
    const byId = median(await time(() => opened.sql.query(`SELECT fileid, path, name FROM ${fx.prefix}filecache WHERE fileid = ?`, [500_000])));

    // The same questions with the marker index on, as `serve` runs them.
    indexed = await openHost({ dbUrl: fx.dbUrl, tablePrefix: fx.prefix }, { markerIndex: true });
    const withIndex = indexed;
    await withIndex.findAccount('reader');
    const heapBefore = heapUsed();
    const buildStart = process.hrtime.bigint();
    const first = await withIndex.visibleArchiveFiles('reader', 'archive', ids);
    const buildMs = Number(process.hrtime.bigint() - buildStart) / 1e6;
    const heapIndex = heapUsed() - heapBefore;
    if (first.size !== 25) throw new Error(`index on: expected 25 visible files, got ${first.size}`);
    const warmTimes = await time(() => withIndex.visibleArchiveFiles('reader', 'archive', ids));
    const warm = median(warmTimes);
    const warmOwned = median(await time(() => withIndex.ownedArchiveFiles('archive', ids)));
    const warmFolder = median(await time(() => withIndex.visibleArchiveFiles('reader2', 'archive', folderIds)));
    const refreshTimes: number[] = [];
    for (let n = 1; n <= REFRESHES; n += 1) {
      const added = await addPropagatedFile(fx, n);
      const start = process.hrtime.bigint();
      const seen = await withIndex.visibleArchiveFiles('reader', 'archive', [...ids.slice(1), added]);
      refreshTimes.push(Number(process.hrtime.bigint() - start) / 1e6);
      if (!seen.has(added)) throw new Error(`index on: the new file [P${added}] was not found after its etags changed`);
    }
    const afterRefresh = median(await time(() => withIndex.visibleArchiveFiles('reader', 'archive', ids)));

    console.log(
      `${dialect}: ${ROWS} file-cache rows (load ${loadSeconds.toFixed(0)} s); median of ${RUNS}: ` +
        `question 1 batch of 25 ${batch.toFixed(2)} ms (one shared folder of ~100 files: ${oneFolder.toFixed(2)} ms), question 2 ${owned.toFixed(2)} ms, question 3 ${foreign.toFixed(2)} ms, ` +
        `lookup by id ${byId.toFixed(3)} ms; ratio batch/lookup ${(batch / byId).toFixed(0)}` +
        ` (fastest question 1 run ${Math.min(...batchTimes).toFixed(2)} ms; load average ${loadavg()[0]?.toFixed(2) ?? '?'} on ${cpus().length} cores)`,
    );
    console.log(
      `${dialect}: marker index on, warm: question 1 batch of 25 ${warm.toFixed(2)} ms (fastest ${Math.min(...warmTimes).toFixed(2)} ms; index off ${batch.toFixed(2)} ms),` +
        ` one shared folder ${warmFolder.toFixed(2)} ms, question 2 ${warmOwned.toFixed(2)} ms; ratio batch/lookup ${(warm / byId).toFixed(0)};` +
        ` first batch incl. build ${buildMs.toFixed(0)} ms; batch after one new file (refresh + re-run, median of ${REFRESHES}) ${median(refreshTimes).toFixed(2)} ms,` +
        ` warm again ${afterRefresh.toFixed(2)} ms; heap ${(heapIndex / 1024 / 1024).toFixed(1)} MiB;` +
        ` target 20 ms (warm index, as serve runs) ${warm <= 20 ? 'met' : 'MISSED'}`,
    );
  } finally {
    await indexed?.close();
    await host?.close();
    if (process.env.BENCH_KEEP === '1') console.log(`kept ${fx.dbUrl}`);
    else await fx.drop();
  }
}

const wanted = process.argv.slice(2).filter((a): a is FixtureDialect => a === 'sqlite' || a === 'pgsql' || a === 'mysql');
for (const dialect of wanted.length > 0 ? wanted : (['sqlite', 'pgsql'] as const)) await benchOne(dialect);
