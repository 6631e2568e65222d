/**
 * One-shot commands with the index file (marker-index-file.ts): each run is a fresh adapter on
 * the big host (bench/support/big-host.ts: ROWS file-cache rows, every 10th the archive
 * account's, so 10 M rows hold 1 M archive files), asking one 25-marker batch of question 1
 * and closing (which saves the file when it changed), as `search` or `why` would.
 * Prints the batch time (the file's load and the statement; for the cold run the build) and
 * the save at close: cold (no file), warm (file present, nothing changed; median of 11), after
 * one new file (refresh folder by folder; median of 5), and the scan without the index.
 *
 *   npm run build:tools && nice node dist-tools/bench/cli-index.js [sqlite|pgsql|mysql ...]
 *   BENCH_ROWS=1000000 for a quick run; BENCH_KEEP=1 keeps the loaded host and prints its URL,
 *   BENCH_DB_URL=<that URL> (same BENCH_ROWS, its one dialect) measures it again without loading
 *   (each run adds a few files to it)
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { openHost, type OpenHostOptions } from '../src/core/host/open-host.js';
import {
  addPropagatedFile,
  attachBigHost,
  bigHostFixture,
  bigHostIds,
  forEachBenchedDialect,
  loadBigHost,
  spreadDocumentIds,
  type BigHostDb,
} from './support/big-host.js';
import type { FixtureDialect } from '../test/support/host-fixtures/index.js';

const ROWS = Number(process.env.BENCH_ROWS ?? 10_000_000);
const WARM_RUNS = 11;
const NEW_FILE_RUNS = 5;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

const ms = (start: bigint): number => Number(process.hrtime.bigint() - start) / 1e6;

interface Run {
  readonly open: number;
  readonly batch: number;
  readonly close: number;
  readonly statements: number;
}

/** A CLI run: open, one batch, close. */
async function oneShot(fx: BigHostDb, ids: readonly number[], options: OpenHostOptions, expect: (found: number) => void): Promise<Run> {
  let start = process.hrtime.bigint();
  const host = await openHost({ dbUrl: fx.dbUrl, tablePrefix: fx.prefix }, options);
  const open = ms(start);
  try {
    const before = host.sql.queryCount;
    start = process.hrtime.bigint();
    const found = await host.visibleArchiveFiles('reader', 'archive', ids);
    const batch = ms(start);
    expect(found.size);
    const statements = host.sql.queryCount - before;
    start = process.hrtime.bigint();
    await host.close();
    return { open, batch, close: ms(start), statements };
  } catch (error) {
    await host.close();
    throw error;
  }
}

const load = (): string =>
  `load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' / ')} on ${cpus().length} cores`;

async function benchOne(dialect: FixtureDialect, kept: string | undefined): Promise<void> {
  const fx: BigHostDb | null = kept === undefined ? await bigHostFixture(dialect) : await attachBigHost(kept, ROWS);
  if (fx === null) return;
  const directory = mkdtempSync(join(tmpdir(), 'dus-cli-index-'));
  const file = join(directory, 'marker-index.bin');
  try {
    const loadStart = Date.now();
    const bigIds = kept === undefined ? await loadBigHost(fx, ROWS) : bigHostIds(ROWS);
    process.stderr.write(
      `${dialect}: ${ROWS} rows ${kept === undefined ? 'loaded' : 'attached'} in ${((Date.now() - loadStart) / 1000).toFixed(0)} s (${load()})\n`,
    );
    const ids = spreadDocumentIds(ROWS);
    const all25 = (found: number): void => {
      if (found !== 25) throw new Error(`expected 25 visible files, got ${found}`);
    };
    const indexed: OpenHostOptions = { markerIndexFile: file };

    const scans: Run[] = [];
    for (let i = 0; i < 5; i += 1) scans.push(await oneShot(fx, ids, {}, all25));
    const rssBefore = process.memoryUsage().rss;
    const cold = await oneShot(fx, ids, indexed, all25);
    const rssCold = process.resourceUsage().maxRSS * 1024;
    const bytes = statSync(file).size;
    const warm: Run[] = [];
    for (let i = 0; i < WARM_RUNS; i += 1) warm.push(await oneShot(fx, ids, indexed, all25));
    const fresh: Run[] = [];
    for (let n = 1; n <= NEW_FILE_RUNS; n += 1) {
      const added = await addPropagatedFile(fx, bigIds, n);
      fresh.push(await oneShot(fx, [...ids.slice(1), added], indexed, all25));
    }
    const warmAgain = await oneShot(fx, ids, indexed, all25);

    const f = (runs: Run[], key: keyof Run): string => median(runs.map((r) => r[key])).toFixed(2);
    console.log(
      `${dialect}: ${ROWS} file-cache rows, ${ROWS / 10} archive files; one-shot 25-marker batch (question 1), fresh adapter per run:\n` +
        `  scan, no index (median of ${scans.length}): batch ${f(scans, 'batch')} ms\n` +
        `  cold, no file: batch incl. build ${cold.batch.toFixed(0)} ms (${cold.statements} statements), save at close ${cold.close.toFixed(0)} ms, file ${(bytes / 1024 / 1024).toFixed(1)} MiB, peak RSS ${(rssCold / 1024 / 1024).toFixed(0)} MiB (before ${(rssBefore / 1024 / 1024).toFixed(0)} MiB)\n` +
        `  warm, file present, nothing changed (median of ${WARM_RUNS}): batch ${f(warm, 'batch')} ms (fastest ${Math.min(...warm.map((r) => r.batch)).toFixed(2)}, ${warm[0]?.statements ?? '?'} statement), close ${f(warm, 'close')} ms, open ${f(warm, 'open')} ms\n` +
        `  after one new file (median of ${NEW_FILE_RUNS}): batch incl. refresh ${f(fresh, 'batch')} ms (${fresh[0]?.statements ?? '?'} statements), save at close ${f(fresh, 'close')} ms; warm again ${warmAgain.batch.toFixed(2)} ms\n` +
        `  target ≤ 20 ms after the first run: ${median(warm.map((r) => r.batch)) <= 20 ? 'met' : 'MISSED'} (${load()})`,
    );
  } finally {
    rmSync(directory, { recursive: true, force: true });
    if (process.env.BENCH_KEEP === '1') {
      await fx.release();
      console.log(`kept ${fx.dbUrl}`);
    } else await fx.drop();
  }
}

await forEachBenchedDialect(['sqlite', 'pgsql'], benchOne);
