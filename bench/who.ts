/**
 * `who` (issue 27) on SQLite hosts built for it (support/who-host.ts):
 *
 * 1. `who <id>` one-shot, for a document in a folder shared with the group `everyone` of 10,
 *    1 000 and 10 000 accounts (100 k archive files): the CLI's wall time (median), beside
 *    `why` and `--version` in the same conditions, and the work in-process (modules loaded).
 * 2. `who --all` at 1 M archive files and 10 000 accounts (a user share of a folder of 200 files
 *    each, 100 groups of 100 with a folder each, `everyone` with one folder): wall time, rows,
 *    and the CLI's resident memory sampled every 100 ms during the run (flat = bounded).
 *
 *   npm run build && npm run build:tools && node_modules/.bin/node dist-tools/bench/who.js [one|all]
 *
 * Prints figures and ratios only: no target is asserted (a shared machine's load moves them).
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { buildWhoHost } from './support/who-host.js';

const RUNS = Math.max(3, Number(process.env.BENCH_RUNS ?? 7));
const root = join(import.meta.dirname, '..', '..');
const bin = join(root, 'bin', 'docs-unified-search.cjs');
const node = process.execPath;
const parts = process.argv.slice(2);
const wanted = (part: string): boolean => parts.length === 0 || parts.includes(part);
const load = (): string =>
  loadavg()
    .map((v) => v.toFixed(1))
    .join(' ');

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

/** Wall time of a one-shot run, and its CPU time (user + system, by GNU time) in the same run: on a loaded machine the CPU time says what the run costs. */
function cliMs(args: readonly string[]): { wall: number; cpu: number } {
  const started = performance.now();
  const run = spawnSync('/usr/bin/time', ['-f', '%U %S', node, bin, ...args], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  const wall = performance.now() - started;
  if (run.status !== 0) throw new Error(`${args.join(' ')} exited ${String(run.status)}: ${run.stderr}`);
  const cpu = (run.stderr.trim().split('\n').at(-1) ?? '')
    .split(' ')
    .map(Number)
    .reduce((sum, seconds) => sum + seconds * 1000, 0);
  return { wall, cpu };
}

console.log(`Node ${process.versions.node}, ${RUNS} runs each (medians), load average at start ${load()}`);

if (wanted('one')) {
  const { openContext } = await import('../src/core/context.js');
  const { whoCanOpen } = await import('../src/core/search/who.js');
  console.log(
    'accounts  group members  who one-shot wall / cpu  why one-shot wall / cpu  --version wall / cpu  who/why (cpu)  who in-process wall / cpu  accounts listed',
  );
  for (const accounts of [10, 1000, 10_000]) {
    const host = await buildWhoHost({ accounts, files: 100_000, folders: 500, spread: false });
    const dir = mkdtempSync(join(tmpdir(), 'dus-bench-who-'));
    try {
      const global = ['--config-dir', dir, '--host-db', host.fx.dbUrl];
      const id = String(host.teamDocument);
      cliMs([...global, 'who', id]); // the marker index file is built by the first run, as after any first search
      const samples = {
        who: [] as { wall: number; cpu: number }[],
        why: [] as { wall: number; cpu: number }[],
        version: [] as { wall: number; cpu: number }[],
        inProcess: [] as { wall: number; cpu: number }[],
      };
      let listed = 0;
      for (let run = 0; run < RUNS; run += 1) {
        samples.who.push(cliMs([...global, 'who', id, '--json']));
        samples.why.push(cliMs([...global, 'why', 'u1', id]));
        samples.version.push(cliMs(['--version']));
        const ctx = openContext({ configDir: dir, env: {}, hostLocation: { dbUrl: host.fx.dbUrl } });
        const started = performance.now();
        const cpuBefore = process.cpuUsage();
        listed = (await whoCanOpen(ctx, host.teamDocument)).accounts.length;
        const cpu = process.cpuUsage(cpuBefore);
        samples.inProcess.push({ wall: performance.now() - started, cpu: (cpu.user + cpu.system) / 1000 });
        await ctx.close();
      }
      const both = (list: readonly { wall: number; cpu: number }[]): string =>
        `${median(list.map((x) => x.wall)).toFixed(0)} / ${median(list.map((x) => x.cpu)).toFixed(0)} ms`;
      const ratio = median(samples.who.map((x) => x.cpu)) / median(samples.why.map((x) => x.cpu));
      console.log(
        `${String(accounts).padStart(8)}  ${String(accounts).padStart(13)}  ${both(samples.who).padStart(23)}  ${both(samples.why).padStart(23)}  ${both(samples.version).padStart(20)}  ${ratio.toFixed(2).padStart(13)}  ${both(samples.inProcess).padStart(25)}  ${String(listed).padStart(15)}`,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await host.fx.drop();
    }
  }
  console.log(`load average after: ${load()}`);
}

/** Resident memory of a process from /proc (kB), or NaN once it is gone. */
function rssKb(pid: number): number {
  try {
    const match = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match === null ? Number.NaN : Number(match[1]);
  } catch {
    return Number.NaN;
  }
}

/** CPU time (user + system) of a process so far, from /proc (clock ticks of 10 ms), or NaN once it is gone. */
function cpuMs(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return Number.NaN;
  }
}

async function streamed(args: readonly string[]): Promise<{ ms: number; lines: number; bytes: number; rss: number[]; cpu: number }> {
  const started = performance.now();
  const child = spawn(node, [bin, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let lines = 0;
  let bytes = 0;
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => {
    bytes += chunk.length;
    for (let at = chunk.indexOf(10); at >= 0; at = chunk.indexOf(10, at + 1)) lines += 1;
  });
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const rss: number[] = [];
  const pid = child.pid ?? -1;
  let cpu = Number.NaN;
  const timer = setInterval(() => {
    const kb = rssKb(pid);
    if (!Number.isNaN(kb)) rss.push(kb);
    const used = cpuMs(pid);
    if (!Number.isNaN(used)) cpu = used;
  }, 100);
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  clearInterval(timer);
  if (code !== 0) throw new Error(`who --all exited ${String(code)}: ${err}`);
  return { ms: performance.now() - started, lines, bytes, rss, cpu };
}

if (wanted('all')) {
  const built = performance.now();
  const host = await buildWhoHost({ accounts: 10_000, files: 1_000_000, folders: 5000, spread: true });
  console.log(
    `who --all host: 1 M archive files in 5 000 folders, 10 000 accounts, built in ${((performance.now() - built) / 1000).toFixed(0)} s; load average ${load()}`,
  );
  const dir = mkdtempSync(join(tmpdir(), 'dus-bench-who-'));
  try {
    const global = ['--config-dir', dir, '--host-db', host.fx.dbUrl];
    for (const format of [[], ['--json']]) {
      const run = await streamed([...global, 'who', '--all', ...format]);
      const mb = (kb: number): string => (kb / 1024).toFixed(0);
      const tenths = Array.from({ length: 10 }, (_, i) => run.rss[Math.min(run.rss.length - 1, Math.floor(((i + 1) * run.rss.length) / 10) - 1)] ?? Number.NaN);
      const rows = run.lines - (format.length === 0 ? 1 : 0);
      console.log(
        `who --all${format.length === 0 ? ' (CSV)' : ' --json'}: ${(run.ms / 1000).toFixed(1)} s wall, ${(run.cpu / 1000).toFixed(1)} s CPU (to the last sample), ${rows} rows (${(rows / (run.ms / 1000) / 1e6).toFixed(2)} M rows/s), ${(run.bytes / 1048576).toFixed(0)} MiB; ` +
          `RSS at each tenth of the run (MiB) ${tenths.map(mb).join(' ')}; peak ${mb(Math.max(...run.rss))} MiB; load average ${load()}`,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await host.fx.drop();
  }
}
