/**
 * Wall time of one provider search with the archive-server emulator adding a latency L to every
 * answer, for L = 0, 5, 20, 50 ms, on SQLite and PostgreSQL. The emulator runs in a process of
 * its own (bench/support/emulator-process.ts) and sends each answer L after the request arrived
 * (its timer set early, the rest waited turn by turn), so L is what it says.
 *
 * A warm search (names cached) needs one archive round trip and question 1: printed as ratios to
 * L + question 1 (the target) and to the bare floor (one raw GET with node:http, outside
 * the product's client, to the same emulator, plus question 1); "own" is the product's own time,
 * the median over runs of warm − (raw GET + question 1) of the same run. A cold search needs the
 * search page, then both names requests at the same time: ratio to 2L + question 1. Runs
 * interleave warm, cold, raw GET and question 1; medians.
 * Each latency is measured in several rounds and the quietest is printed (the round whose raw
 * GET came closest to L: on the shared machine load delays timers and wake-ups), with the range
 * of all rounds beside it.
 *
 *   npm run build:tools && node dist-tools/bench/search.js [latencyMs ...]
 * Env: BENCH_RUNS (31), BENCH_ROUNDS (3), BENCH_DIALECTS (sqlite,pgsql; PostgreSQL at 127.0.0.1:5432 user postgres).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { MemoryCache } from '../src/core/cache/memory-cache.js';
import { openContext } from '../src/core/context.js';
import type { ServiceContext } from '../src/core/context-types.js';
import type { HostAdapter, ResolvedArchiveAccount } from '../src/core/host/types.js';
import { runSearch } from '../src/core/search/pipeline.js';
import { saveSettings } from '../src/core/admin/save-settings.js';
import { sampleArchive } from '../test/support/archive-emulator/index.js';
import type { FixtureDialect } from '../test/support/host-fixtures/index.js';
import { buildSearchHost, TOKEN } from '../test/support/search-world.js';
import { startEmulatorProcess, type EmulatorProcess } from './support/emulator-process.js';

const LATENCIES = process.argv.length > 2 ? process.argv.slice(2).map(Number) : [0, 5, 20, 50];
const RUNS = Number(process.env.BENCH_RUNS ?? 31);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const DIALECTS = (process.env.BENCH_DIALECTS ?? 'sqlite,pgsql').split(',').map((name) => name.trim()) as FixtureDialect[];
const DOCUMENTS = 60;
const HOST_URL = 'https://cloud.example.com';
const SEARCH_PATH = '/api/documents/?query=invoice&page=1&page_size=25&fields=id,title,created,correspondent,document_type,__search_hit__';

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

function load(): string {
  return loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');
}

/** Kept alive like the product's client's connections, so the floor is not raised by connection set-up. */
const rawAgent = new Agent({ keepAlive: true, maxSockets: 1 });

/** One GET with node:http alone, outside the product's archive client: the same request as a warm search's. */
function rawGet(url: string): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(url, { agent: rawAgent, headers: { authorization: `Token ${TOKEN}`, accept: 'application/json; version=9' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        if (res.statusCode !== 200) reject(new Error(`raw GET answered ${res.statusCode}`));
        else resolve(performance.now() - started);
      });
    });
    req.on('error', reject);
    req.end();
  });
}

async function timed(ctx: ServiceContext): Promise<number> {
  const started = performance.now();
  const outcome = await runSearch(ctx, { user: 'bob', term: 'invoice', limit: 5 });
  const elapsed = performance.now() - started;
  if (outcome.status !== 'ok' || outcome.entries.length !== 5) throw new Error(`unexpected outcome ${outcome.status} with ${outcome.entries.length} entries`);
  return elapsed;
}

/** Question 1 as the search asks it, for the ids of the first archive page. */
async function question1(host: HostAdapter, account: ResolvedArchiveAccount, ids: readonly number[]): Promise<number> {
  const started = performance.now();
  await host.searchArchiveFiles('bob', account, ids);
  return performance.now() - started;
}

/** Medians of one round of interleaved runs at one latency. */
interface Round {
  readonly warm: number;
  readonly cold: number;
  readonly raw: number;
  readonly q1: number;
  /** Median over runs of warm − (raw GET + question 1) of the same run. */
  readonly own: number;
  readonly load: string;
}

async function measureRound(ctx: ServiceContext, latency: number, raw: () => Promise<number>, q1: () => Promise<number>): Promise<Round> {
  const warm: number[] = [];
  const cold: number[] = [];
  const bare: number[] = [];
  const question: number[] = [];
  for (let run = 0; run < RUNS; run += 1) {
    warm.push(await timed(ctx));
    // The same context with an empty names cache: both kinds of names are fetched again.
    cold.push(await timed({ ...ctx, cache: new MemoryCache() }));
    bare.push(await raw());
    question.push(await q1());
  }
  // Each run's own time beside the floor measured right after it: steadier than a difference of medians under load.
  const own = median(warm.map((time, run) => time - (bare[run] ?? Number.NaN) - (question[run] ?? Number.NaN)));
  return { warm: median(warm), cold: median(cold), raw: median(bare), q1: median(question), own, load: load() };
}

async function benchDialect(dialect: FixtureDialect, emulator: EmulatorProcess): Promise<void> {
  const host = await buildSearchHost(sampleArchive(DOCUMENTS).documents, dialect);
  const dir = mkdtempSync(join(tmpdir(), 'dus-bench-search-'));
  const hostLocation = { dbUrl: host.dbUrl, hostUrl: HOST_URL };
  const ctx = openContext({ configDir: dir, logFile: join(dir, 'host.log'), env: {}, hostLocation, cache: new MemoryCache() });
  try {
    await saveSettings(ctx, { url: emulator.url, token: TOKEN, allowLocal: true, hostLocation });
    await emulator.setLatency(0);
    await timed(ctx); // fills the names cache, opens the host database, resolves the archive account
    const adapter = await ctx.host();
    const account = await ctx.searchArchiveAccount();
    const client = ctx.archiveClient();
    if (account === null || client === null) throw new Error('the world is not configured');
    const ids = (await client.search({ term: 'invoice', page: 1 })).hits.map((hit) => hit.id);
    const rawUrl = `${emulator.url}${SEARCH_PATH}`;
    for (let run = 0; run < 20; run += 1) {
      await timed(ctx);
      await rawGet(rawUrl);
      await question1(adapter, account, ids);
    }
    console.log(`${dialect}: ${ROUNDS} round(s) of ${RUNS} runs each, interleaved; load average before ${load()} on ${cpus().length} cores`);
    for (const latency of LATENCIES) {
      await emulator.setLatency(latency);
      const rounds: Round[] = [];
      for (let round = 0; round < ROUNDS; round += 1) {
        // The child records every request; thousands of them need not be kept.
        await emulator.clearRequests();
        rounds.push(
          await measureRound(
            ctx,
            latency,
            () => rawGet(rawUrl),
            () => question1(adapter, account, ids),
          ),
        );
      }
      // The quietest window: the round whose raw GET came closest to L (a loaded machine delays it most).
      const quietest = rounds.reduce((best, round) => (round.raw < best.raw ? round : best));
      const ratios = rounds.map((round) => round.warm / (latency + round.q1));
      const q = quietest.q1;
      const floor = quietest.raw + q;
      console.log(
        `  L = ${latency} ms: warm ${quietest.warm.toFixed(2)} ms; ÷ (L + question 1 = ${(latency + q).toFixed(2)}) ${(quietest.warm / (latency + q)).toFixed(3)}` +
          `; ÷ floor (raw GET ${quietest.raw.toFixed(2)} + question 1 ${q.toFixed(2)} = ${floor.toFixed(2)}) ${(quietest.warm / floor).toFixed(3)}, own ${quietest.own.toFixed(2)} ms` +
          `; cold ${quietest.cold.toFixed(2)} ms ÷ (2L + question 1) ${(quietest.cold / (2 * latency + q)).toFixed(3)}; load ${quietest.load}` +
          (ROUNDS > 1
            ? `; all rounds ÷ (L + question 1) ${Math.min(...ratios).toFixed(3)}–${Math.max(...ratios).toFixed(3)}, raw GET ${Math.min(...rounds.map((r) => r.raw)).toFixed(2)}–${Math.max(...rounds.map((r) => r.raw)).toFixed(2)} ms`
            : ''),
      );
    }
  } finally {
    await ctx.close();
    await host.drop();
    rmSync(dir, { recursive: true, force: true });
  }
}

const emulator = await startEmulatorProcess({ ...sampleArchive(DOCUMENTS), tokens: [TOKEN] });
try {
  for (const dialect of DIALECTS) await benchDialect(dialect, emulator);
} finally {
  rawAgent.destroy();
  await emulator.close();
}
