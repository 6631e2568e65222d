/**
 * Wall time of one provider search with the archive-server emulator adding a fixed latency L
 * to every answer, for L = 0, 5, 20, 50 ms. A warm search (names cached) needs one archive
 * round trip and question 1: printed as ratios to L + question 1 and to the bare floor (one
 * raw GET with node:http outside the product's client, plus question 1). A cold search needs
 * the search page, then both names requests at the same time: ratio to 2L + question 1.
 * The emulator still runs in this process (not yet in its own).
 *
 *   npm run build:tools && node dist-tools/bench/search.js [latencyMs ...]
 */
import { Agent, request } from 'node:http';
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { MemoryCache } from '../src/core/cache/memory-cache.js';
import type { ServiceContext } from '../src/core/context-types.js';
import { runSearch } from '../src/core/search/pipeline.js';
import { buildSearchWorld } from '../test/support/search-world.js';

const LATENCIES = process.argv.length > 2 ? process.argv.slice(2).map(Number) : [0, 5, 20, 50];
const RUNS = Number(process.env.BENCH_RUNS ?? 21);

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

/** Kept alive like the product's client's connections, so the floor is not raised by connection set-up. */
const rawAgent = new Agent({ keepAlive: true, maxSockets: 1 });

/** One GET with node:http alone, outside the product's archive client. */
function rawGet(url: string, token: string): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(url, { agent: rawAgent, headers: { authorization: `Token ${token}`, accept: 'application/json; version=9' } }, (res) => {
      res.on('data', () => undefined);
      res.on('end', () => resolve(performance.now() - started));
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

const world = await buildSearchWorld(60);
try {
  const warmCache = new MemoryCache();
  const { ctx } = await world.context({ cache: warmCache });
  world.archive.latencyMs = 0;
  await timed(ctx); // fills the names cache, opens the host database
  // The fixed cost with no latency at all: the emulator's full-text work, the host lookup, our own steps.
  const fixed: number[] = [];
  for (let run = 0; run < RUNS; run += 1) fixed.push(await timed(ctx));
  // Its parts that do not belong to the pipeline: one emulator page and one host lookup.
  const client = ctx.archiveClient();
  const host = await ctx.host();
  if (client === null) throw new Error('not configured');
  const page = await client.search({ term: 'invoice', page: 1 });
  const ids = page.hits.map((hit) => hit.id);
  const archivePart: number[] = [];
  const hostPart: number[] = [];
  for (let run = 0; run < RUNS; run += 1) {
    let started = performance.now();
    await client.search({ term: 'invoice', page: 1 });
    archivePart.push(performance.now() - started);
    started = performance.now();
    await host.visibleArchiveFiles('bob', 'archive', ids);
    hostPart.push(performance.now() - started);
  }
  console.log(`${RUNS} runs each; load average ${loadavg().map((l) => l.toFixed(1)).join(' ')} on ${cpus().length} cores`);
  console.log(`without latency: warm search ${median(fixed).toFixed(1)} ms = emulator page ${median(archivePart).toFixed(1)} ms + host lookup ${median(hostPart).toFixed(1)} ms + the pipeline's own steps`);
  const connection = ctx.archiveConnection();
  if (connection === null) throw new Error('not configured');
  for (const latency of LATENCIES) {
    world.archive.latencyMs = latency;
    const warm: number[] = [];
    const cold: number[] = [];
    const bare: number[] = [];
    const question1: number[] = [];
    for (let run = 0; run < RUNS; run += 1) {
      warm.push(await timed(ctx));
      // The same context with an empty names cache: both kinds of names are fetched again.
      cold.push(await timed({ ...ctx, cache: new MemoryCache() }));
      bare.push(await rawGet(`${connection.url.replace(/\/$/, '')}/api/documents/?query=invoice&page=1&page_size=25`, connection.token));
      const started = performance.now();
      await host.visibleArchiveFiles('bob', 'archive', ids);
      question1.push(performance.now() - started);
    }
    const floor = median(bare) + median(question1);
    console.log(
      `L = ${latency} ms: warm ${median(warm).toFixed(2)} ms; ratio to L + question 1 (${(latency + median(question1)).toFixed(2)} ms) ${(median(warm) / (latency + median(question1))).toFixed(3)}` +
        `, to the bare floor (raw GET ${median(bare).toFixed(2)} ms + question 1 = ${floor.toFixed(2)} ms) ${(median(warm) / floor).toFixed(3)}` +
        `; cold ${median(cold).toFixed(2)} ms, ratio to 2L + question 1 ${(median(cold) / (2 * latency + median(question1))).toFixed(3)}`,
    );
  }
  rawAgent.destroy();
  process.exitCode = 0;
} finally {
  await world.close();
}
