/**
 * `serve` start on a big host: 10 M file-cache rows, 1 M of them the archive account's marked
 * files (bench/support/big-host.ts). A real `serve` process builds the marker index at start
 * (src/core/search/warm-up.ts logs "marker index of the archive account built" with its size
 * and build time); the bench waits for that line and prints:
 *  - the index build time (warm-up's own figure) and the time from spawn to ready;
 *  - what the index keeps: the memory it holds (JS heap + external: its pairs live in typed
 *    arrays), measured in this process by building the same index through
 *    openHost({ markerIndex: true }) between two readings, each after a full collection (the
 *    index has no byte count of its own: MarkerIndex.size() counts markers, documents and
 *    folders); beside it, how far that build raised this process's resident memory at its
 *    peak (VmHWM reset through /proc/self/clear_refs), the build's own transient cost;
 *  - serve's peak resident memory (VmHWM of the child, from /proc), the same for a bare serve
 *    on an empty host, and the ratios peak ÷ index and (peak − bare) ÷ index (target ≤ 2).
 *
 *   npm run build && npm run build:tools && nice -n 10 node_modules/.bin/node dist-tools/bench/serve-start.js [sqlite|pgsql|mysql ...]
 * Env: BENCH_ROWS (10000000 file-cache rows; the archive account has one in 10), BENCH_DB_URL
 * (a big host kept by `BENCH_KEEP=1` of this bench or of host-batch.js, with the same
 * BENCH_ROWS: skips the load; name its one dialect; dropped at the end unless BENCH_KEEP=1), BENCH_KEEP=1 (keep the loaded host, its URL printed), BENCH_READY_TIMEOUT
 * (seconds, 900). Loading 10 M rows takes 2 (SQLite), 4 (PostgreSQL) and 11 min (MariaDB) on the quiet
 * 2-core machine, 15–40 min at load 10;
 * the start itself takes under a minute.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { openContext } from '../src/core/context.js';
import { openHost } from '../src/core/host/open-host.js';
import { saveSettings } from '../src/core/admin/save-settings.js';
import { startArchiveEmulator } from '../test/support/archive-emulator/index.js';
import { createHostFixture, type FixtureDialect } from '../test/support/host-fixtures/index.js';
import { attachBigHost, bigHostFixture, forEachBenchedDialect, loadBigHost, type BigHostDb } from './support/big-host.js';
import { heapUsed } from './support/heap.js';
import { load, startServer, statusMiB, stopServer } from './support/serve-process.js';

const ROWS = Number(process.env.BENCH_ROWS ?? 10_000_000);
const READY_TIMEOUT_MS = Number(process.env.BENCH_READY_TIMEOUT ?? 900) * 1000;
const ARCHIVE = 'archive';
const BUILT = 'marker index of the archive account built';
const MiB = 1024 * 1024;

interface Started {
  /** Spawn to "Listening on", ms. */
  readonly listeningMs: number;
  /** Spawn to the warm-up's log line, ms. */
  readonly readyMs: number;
  /** What warm-up logged: the index's counts and its own build time. */
  readonly built: { readonly markers: number; readonly documents: number; readonly folders: number; readonly ms: number };
  readonly peakMiB: number;
  readonly rssMiB: number;
}

const NOT_PREPARED = 'search not prepared at start';

/** The warm-up's line in serve's log file once written; a string when it says it failed. */
function builtLine(logFile: string): Started['built'] | string | null {
  let text: string;
  try {
    text = readFileSync(logFile, 'utf8');
  } catch {
    return null;
  }
  for (const line of text.split('\n')) {
    if (line.includes(NOT_PREPARED)) return line;
    if (!line.includes(BUILT)) continue;
    const entry = JSON.parse(line) as Record<string, unknown>;
    const n = (key: string): number => (typeof entry[key] === 'number' ? entry[key] : Number.NaN);
    return { markers: n('markers'), documents: n('documents'), folders: n('folders'), ms: n('ms') };
  }
  return null;
}

/** Starts serve on the host, waits until its marker index is built, reads its memory, stops it. */
async function startAndMeasure(dbUrl: string, prefix: string, archiveUrl: string, label: string): Promise<Started> {
  const dir = mkdtempSync(join(tmpdir(), 'dus-bench-start-'));
  try {
    // Debug level: warm-up says at that level why it did not build the index, so the bench stops at once.
    const env = { ...process.env, DUS_SECRET: 'bench-start-secret', DUS_LOG_LEVEL: 'debug' };
    const configDir = join(dir, 'config');
    const hostArgs = ['--host-db', dbUrl, '--table-prefix', prefix];
    const context = openContext({ configDir, hostLocation: { dbUrl, tablePrefix: prefix }, logFile: join(dir, 'setup.log'), env });
    // Saving tests the connection; serve asks nothing of the archive server at start.
    await saveSettings(context, { url: archiveUrl, token: 'emulator-token', archiveOwner: ARCHIVE, allowLocal: true });
    await context.close();
    const logFile = join(dir, 'serve.log');
    const t0 = performance.now();
    const server = await startServer(
      ['--config-dir', configDir, ...hostArgs, '--host-url', 'http://cloud.bench', '--log-file', logFile, 'serve', '--listen', '127.0.0.1:0'],
      env,
    );
    const listeningMs = performance.now() - t0;
    try {
      let built = builtLine(logFile);
      while (built === null || typeof built === 'string') {
        if (typeof built === 'string') throw new Error(`${label}: serve's warm-up did not build the index: ${built}`);
        if (server.child.exitCode !== null) throw new Error(`${label}: serve exited before its index was built: ${server.output}`);
        if (performance.now() - t0 > READY_TIMEOUT_MS)
          throw new Error(`${label}: no "${BUILT}" in serve's log after ${READY_TIMEOUT_MS / 1000} s: ${readFileSync(logFile, 'utf8').slice(-2000)}`);
        await sleep(50);
        built = builtLine(logFile);
      }
      const readyMs = performance.now() - t0;
      return { listeningMs, readyMs, built, peakMiB: statusMiB(server.child.pid, 'VmHWM'), rssMiB: statusMiB(server.child.pid, 'VmRSS') };
    } finally {
      const stopped = await stopServer(server);
      if (!stopped.includes('stopped cleanly')) process.stdout.write(`${label}: serve ${stopped}\n`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The same index built in this process: the heap it holds after a full collection, and its build time. */
interface BuildMemory {
  readonly bytes: number;
  readonly ms: number;
  readonly markers: number;
  /** How far the build raised this process's RSS at its peak, MiB; null without clear_refs. */
  readonly buildPeakMiB: number | null;
  /** Highest V8 heap reserved and external memory seen during the build, above their start, MiB (sampled every 20 ms). */
  readonly heapTotalMiB: number;
  readonly externalMiB: number;
}

async function indexHeap(dbUrl: string, prefix: string): Promise<BuildMemory> {
  const host = await openHost({ dbUrl, tablePrefix: prefix }, { markerIndex: true });
  try {
    await host.findAccount(ARCHIVE);
    const before = await heapUsed();
    const rssBefore = statusMiB(process.pid, 'VmRSS');
    const start = process.memoryUsage();
    let heapTotal = start.heapTotal;
    let external = start.external;
    // The build yields between row batches, so a timer sees where the memory goes on the way.
    const sampler = setInterval(() => {
      const now = process.memoryUsage();
      heapTotal = Math.max(heapTotal, now.heapTotal);
      external = Math.max(external, now.external);
    }, 20);
    const peakReset = resetPeak();
    const t0 = performance.now();
    const size = await host.prepareMarkerIndex(ARCHIVE).finally(() => clearInterval(sampler));
    const ms = performance.now() - t0;
    const buildPeakMiB = peakReset ? statusMiB(process.pid, 'VmHWM') - rssBefore : null;
    const heapTotalMiB = (heapTotal - start.heapTotal) / MiB;
    const externalMiB = (external - start.external) / MiB;
    const bytes = (await heapUsed()) - before;
    if (size === null) throw new Error('the marker index was not built');
    return { bytes, ms, markers: size.markers, buildPeakMiB, heapTotalMiB, externalMiB };
  } finally {
    await host.close();
  }
}

/** Resets this process's VmHWM to its current RSS (Linux: 5 to clear_refs); false where it cannot. */
function resetPeak(): boolean {
  try {
    writeFileSync('/proc/self/clear_refs', '5');
    return true;
  } catch {
    return false;
  }
}

/** A bare serve: the same dialect, the archive account with an empty archive folder. */
async function bareServe(dialect: FixtureDialect, archiveUrl: string): Promise<Started> {
  const fx = await createHostFixture(dialect, { listenerIndexes: false });
  try {
    await fx.addUser(ARCHIVE);
    await fx.addFolder(ARCHIVE, 'files/Archive');
    return await startAndMeasure(fx.dbUrl, fx.prefix, archiveUrl, `${dialect} empty host`);
  } finally {
    await fx.drop();
  }
}

async function benchOne(dialect: FixtureDialect, kept: string | undefined): Promise<void> {
  const fx: BigHostDb | null = kept === undefined ? await bigHostFixture(dialect) : await attachBigHost(kept, ROWS);
  if (fx === null) return;
  const archive = await startArchiveEmulator({ documents: [] });
  try {
    if (kept === undefined) {
      const t0 = Date.now();
      await loadBigHost(fx, ROWS);
      process.stdout.write(`${dialect}: ${ROWS} file-cache rows loaded in ${((Date.now() - t0) / 1000).toFixed(0)} s (${load()})\n`);
    }
    const bare = await bareServe(dialect, archive.url);
    const big = await startAndMeasure(fx.dbUrl, fx.prefix, archive.url, `${dialect} big host`);
    const loadAtStart = load();
    const heap = await indexHeap(fx.dbUrl, fx.prefix);
    const indexMiB = heap.bytes / MiB;
    process.stdout.write(
      `${dialect}: serve start, ${big.built.markers} markers (${big.built.documents} documents) in ${big.built.folders} folders: index built in ${(big.built.ms / 1000).toFixed(2)} s` +
        ` (spawn to listening ${(big.listeningMs / 1000).toFixed(2)} s, to index built ${(big.readyMs / 1000).toFixed(2)} s); ${loadAtStart}\n`,
    );
    process.stdout.write(
      `${dialect}: index keeps ${indexMiB.toFixed(1)} MiB (JS heap + external, built in this process between two readings after full collections: ${heap.markers} markers, ${(heap.ms / 1000).toFixed(2)} s;` +
        ` the build raised this process's resident memory by ${heap.buildPeakMiB === null ? '? (no /proc/self/clear_refs)' : `${heap.buildPeakMiB.toFixed(0)} MiB at its peak`},` +
        ` V8's reserved heap by up to ${heap.heapTotalMiB.toFixed(0)} MiB and external memory by up to ${heap.externalMiB.toFixed(0)} MiB)\n`,
    );
    process.stdout.write(
      `${dialect}: serve's peak RSS (VmHWM) ${big.peakMiB.toFixed(0)} MiB, RSS when ready ${big.rssMiB.toFixed(0)} MiB; bare serve on an empty host: peak ${bare.peakMiB.toFixed(0)} MiB;` +
        ` peak ÷ index ${(big.peakMiB / indexMiB).toFixed(2)}; (peak − bare) ÷ index ${((big.peakMiB - bare.peakMiB) / indexMiB).toFixed(2)}` +
        ` (target ≤ 2: ${(big.peakMiB - bare.peakMiB) / indexMiB <= 2 ? 'met' : 'MISSED'})\n`,
    );
  } finally {
    await archive.close();
    if (process.env.BENCH_KEEP === '1') {
      await fx.release();
      process.stdout.write(`kept ${fx.dbUrl}\n`);
    } else await fx.drop();
  }
}

await forEachBenchedDialect(['sqlite'], benchOne);
