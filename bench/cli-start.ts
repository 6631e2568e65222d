/**
 * Start-up of the installed executable (bin/ over dist/) against bare `node -e 0` on the same
 * Node. Targets: `--version` and `--help` ≤ 1.5× `node -e 0`; `why` on a SQLite host
 * ≤ 2× `node -e 0` plus its queries (the same open-settings-and-decide work timed in-process
 * with its modules already loaded). Commands are run interleaved, `BENCH_RUNS` (default 21,
 * at least 10) times each; the medians of wall time (the command spawned bare) and of CPU
 * time (user + system of all its threads, in a second run under perf or GNU time, which other
 * work on a shared machine disturbs far less) are printed with the ratios. The first run of
 * each warms the file-system caches and the program's code cache (bin/ writes it after a run).
 * The code caches live in a directory of the bench's own (XDG_CACHE_HOME), where another command
 * (`completion bash`) has run first, as under a service account that runs `serve`: each command
 * must keep a cache of its own (bin/, cacheFileName), else `why` pays for the other's shape.
 * Run it in a quiet moment (or under `nice -n -5`): wall time on a busy machine mostly measures the others.
 *
 *   npm run build && npm run build:tools && node_modules/.bin/node dist-tools/bench/cli-start.js
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { buildSearchWorld } from '../test/support/search-world.js';

const RUNS = Math.max(10, Number(process.env.BENCH_RUNS ?? 21));
const root = join(import.meta.dirname, '..', '..');
const bin = join(root, 'bin', 'docs-unified-search.cjs');
const node = process.execPath;
if (!existsSync(join(root, 'dist', 'cli.js'))) throw new Error('dist/ is missing: run npm run build first');

interface Sample {
  readonly wallMs: number;
  readonly cpuMs: number;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

/**
 * The child's CPU time (user + system, all threads): `perf stat`'s task-clock where perf may
 * count (to the microsecond), else GNU time's (to the hundredth of a second).
 */
const perf = spawnSync('perf', ['stat', '-x,', '-e', 'task-clock', '--', 'true'], { encoding: 'utf8' }).status === 0;

const cacheHome = mkdtempSync(join(tmpdir(), 'dus-bench-cache-'));
const env = { ...process.env, XDG_CACHE_HOME: cacheHome };

function checked(file: string, args: readonly string[]): string {
  const run = spawnSync(file, args, { encoding: 'utf8', env });
  if (run.status !== 0) throw new Error(`${args.join(' ')} exited ${String(run.status)}: ${run.stderr}`);
  return run.stderr;
}

/** Wall time of the command alone (perf's own start would be counted in), then CPU time in a second run. */
function sample(args: readonly string[]): Sample {
  const started = performance.now();
  checked(node, args);
  const wallMs = performance.now() - started;
  const wrapped = perf
    ? (['perf', ['stat', '-x,', '-e', 'task-clock', '--', node, ...args]] as const)
    : (['/usr/bin/time', ['-f', '%U %S', node, ...args]] as const);
  const last = checked(wrapped[0], wrapped[1]).trim().split('\n').at(-1) ?? '';
  const cpuMs = perf
    ? Number(last.split(',')[0])
    : last
        .split(' ')
        .map(Number)
        .reduce((sum, seconds) => sum + seconds * 1000, 0);
  return { wallMs, cpuMs };
}

const world = await buildSearchWorld(60);
try {
  const { dir } = await world.context();
  const whyArgs = [bin, '--config-dir', dir, 'why', 'bob', '8'];
  const cases: Record<string, readonly string[]> = {
    'node -e 0': ['-e', '0'],
    '--version': [bin, '--version'],
    '--help': [bin, '--help'],
    'why (SQLite)': whyArgs,
  };

  // Its queries: the same work as `why` with every module loaded already, the settings, log and host database opened anew each time.
  const { openContext } = await import('../src/core/context.js');
  const { verdictOfDocument } = await import('../src/core/search/verdicts.js');
  const queriesMs: number[] = [];
  for (let run = 0; run < RUNS + 1; run += 1) {
    const started = performance.now();
    const ctx = openContext({ configDir: dir, env: {} });
    await verdictOfDocument(ctx, 'bob', 8, 'cli:bench');
    await ctx.close();
    if (run > 0) queriesMs.push(performance.now() - started);
  }

  const samples = new Map<string, Sample[]>(Object.keys(cases).map((name) => [name, []]));
  checked(node, [bin, 'completion', 'bash']); // another command's code cache first
  for (const args of Object.values(cases)) sample(args); // file-system caches warm for every case
  for (let run = 0; run < RUNS; run += 1) {
    for (const [name, args] of Object.entries(cases)) samples.get(name)?.push(sample(args));
  }

  const medians = new Map([...samples].map(([name, list]) => [name, { wall: median(list.map((s) => s.wallMs)), cpu: median(list.map((s) => s.cpuMs)) }]));
  const base = medians.get('node -e 0') ?? { wall: Number.NaN, cpu: Number.NaN };
  const queries = median(queriesMs);
  const load = loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');
  console.log(`Node ${process.versions.node}, ${RUNS} runs each, interleaved; CPU time by ${perf ? 'perf task-clock' : 'GNU time'}; load average ${load}`);
  console.log(`why's queries in-process (modules loaded): ${queries.toFixed(1)} ms`);
  console.log('command        wall ms  ratio   cpu ms  ratio  target');
  for (const name of Object.keys(cases)) {
    const m = medians.get(name) ?? base;
    const isWhy = name.startsWith('why');
    // For why, its queries are taken off before the ratio: the target is 2× plus the queries.
    const wallRatio = (m.wall - (isWhy ? queries : 0)) / base.wall;
    const cpuRatio = (m.cpu - (isWhy ? queries : 0)) / base.cpu;
    const limit = name === 'node -e 0' ? null : isWhy ? 2 : 1.5;
    const verdict =
      limit === null
        ? ''
        : `≤ ${limit}${isWhy ? ' + queries' : ''}: ${wallRatio <= limit ? 'met' : 'MISSED'} (wall), ${cpuRatio <= limit ? 'met' : 'MISSED'} (cpu)`;
    console.log(
      `${name.padEnd(14)} ${m.wall.toFixed(1).padStart(7)} ${wallRatio.toFixed(2).padStart(6)} ${m.cpu.toFixed(1).padStart(8)} ${cpuRatio.toFixed(2).padStart(6)}  ${verdict}`,
    );
  }
} finally {
  await world.close();
  rmSync(cacheHome, { recursive: true, force: true });
}
