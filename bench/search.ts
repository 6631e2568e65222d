/**
 * Wall time of one provider search with the archive-server emulator adding a fixed latency L
 * to every answer. A warm search (names cached) needs one round trip: target median ≤ 1.10·L.
 * A cold search needs the search page, then both names requests at the same time: target
 * median ≤ 1.10·2L. Prints the medians and the ratios.
 *
 *   npm run build:tools && node dist-tools/bench/search.js [latencyMs]
 */
import { performance } from 'node:perf_hooks';
import { MemoryCache } from '../src/core/cache/memory-cache.js';
import type { ServiceContext } from '../src/core/context-types.js';
import { runSearch } from '../src/core/search/pipeline.js';
import { buildSearchWorld } from '../test/support/search-world.js';

const LATENCY_MS = Number(process.argv[2] ?? process.env.BENCH_LATENCY_MS ?? 50);
const RUNS = Number(process.env.BENCH_RUNS ?? 21);

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
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
  world.archive.latencyMs = LATENCY_MS;
  const warm: number[] = [];
  const cold: number[] = [];
  for (let run = 0; run < RUNS; run += 1) {
    warm.push(await timed(ctx));
    // The same context with an empty names cache: both kinds of names are fetched again.
    cold.push(await timed({ ...ctx, cache: new MemoryCache() }));
  }
  // The floor: one bare archive request at latency L, no pipeline around it.
  const bare: number[] = [];
  for (let run = 0; run < RUNS; run += 1) {
    const started = performance.now();
    await client.search({ term: 'invoice', page: 1 });
    bare.push(performance.now() - started);
  }
  const warmRatio = median(warm) / LATENCY_MS;
  const coldRatio = median(cold) / (2 * LATENCY_MS);
  console.log(`latency L = ${LATENCY_MS} ms, ${RUNS} runs each`);
  console.log(`without latency: warm search ${median(fixed).toFixed(1)} ms = emulator page ${median(archivePart).toFixed(1)} ms + host lookup ${median(hostPart).toFixed(1)} ms + the pipeline's own steps`);
  console.log(`warm search (names cached): median ${median(warm).toFixed(1)} ms, ratio to L  = ${warmRatio.toFixed(3)} (target ≤ 1.10)`);
  console.log(`floor: one bare archive request at latency L: median ${median(bare).toFixed(1)} ms, ratio to L = ${(median(bare) / LATENCY_MS).toFixed(3)}`);
  console.log(`cold search (names fetched): median ${median(cold).toFixed(1)} ms, ratio to 2L = ${coldRatio.toFixed(3)} (target ≤ 1.10)`);
  process.exitCode = 0;
} finally {
  await world.close();
}
