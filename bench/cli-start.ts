/**
 * Start-up of the installed executable (bin/ over dist/) against bare `node -e 0` on the same
 * Node, command by command: `--version`, `--help`, `why` (host only), and `search`, `check` and
 * `test` against the archive emulator in a process of its own (bench/support/emulator-process.ts)
 * on a SQLite host. Targets (issues 12 and 26): `--version`, `--help` ≤ 1.5× `node -e 0`;
 * `why` ≤ 2×; `search` and `check` ≤ 2.5×.
 *
 * Every run of a command is paired with a run of `node -e 0` just before it, and the pairs are
 * interleaved over the commands, `BENCH_RUNS` (default 21, at least 10) times each: the ratio
 * printed is the median of the pairs' ratios (a load that comes and goes falls on both halves of
 * a pair), beside the medians of wall time (the command spawned bare) and of CPU time (user +
 * system of all its threads, a second run under perf or GNU time, which other work on a shared
 * machine disturbs far less). The first run of each warms the file-system caches and the
 * program's code cache (bin/ writes it after a run). The code caches live in a directory of the
 * bench's own (XDG_CACHE_HOME), where another command (`completion bash`) has run first, as
 * under a service account that runs `serve`: each command must keep a cache of its own.
 *
 * Printed with them: the archive's own answer time (one search request by bare node:http on a
 * new connection, as a one-shot command makes it, and the requests each command made), `why`'s
 * queries timed in-process with every module loaded, and the load average before and after.
 * `BENCH_PROFILE=1` adds a start-up profile per command: one run under --cpu-prof, its samples
 * summed by where they fell (the program, each package, Node's own modules, the rest), and the
 * packages and modules the run loaded (test/support/loaded-modules.ts).
 * Run it in a quiet moment (or under `nice -n -5`): wall time on a busy machine mostly measures the others.
 *
 *   npm run build && npm run build:tools && node_modules/.bin/node dist-tools/bench/cli-start.js
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { MemoryCache } from '../src/core/cache/memory-cache.js';
import { openContext } from '../src/core/context.js';
import { saveSettings } from '../src/core/admin/save-settings.js';
import { sampleArchive } from '../test/support/archive-emulator/index.js';
import { packagesOf, runRecordingModules } from '../test/support/loaded-modules.js';
import { buildSearchHost, TOKEN } from '../test/support/search-world.js';
import { buildBundledFloor, sealedForFloor, writeFloorScript } from './support/one-shot-floor.js';
import { startEmulatorProcess } from './support/emulator-process.js';

const RUNS = Math.max(10, Number(process.env.BENCH_RUNS ?? 21));
const PROFILE = process.env.BENCH_PROFILE === '1';
const root = join(import.meta.dirname, '..', '..');
const bin = join(root, 'bin', 'docs-unified-search.cjs');
const node = process.execPath;
const HOST_URL = 'https://cloud.example.com';
const SEARCH_PATH = '/api/documents/?query=invoice&page=1&page_size=25&fields=id,title,created,correspondent,document_type,__search_hit__';
if (!existsSync(join(root, 'dist', 'cli.cjs'))) throw new Error('dist/ is missing: run npm run build first');

interface Sample {
  readonly wallMs: number;
  readonly cpuMs: number;
}

interface Case {
  readonly args: readonly string[];
  /** Exit codes the run may end with (check says 1 when a document has no file of the archive account). */
  readonly ok: readonly number[];
  readonly target: number | null;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

function load(): string {
  return loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');
}

/**
 * The child's CPU time (user + system, all threads): `perf stat`'s task-clock where perf may
 * count (to the microsecond), else GNU time's (to the hundredth of a second).
 */
const perf = spawnSync('perf', ['stat', '-x,', '-e', 'task-clock', '--', 'true'], { encoding: 'utf8' }).status === 0;

const cacheHome = mkdtempSync(join(tmpdir(), 'dus-bench-cache-'));
const env = { ...process.env, XDG_CACHE_HOME: cacheHome, FLOOR_RECORD: sealedForFloor(TOKEN) };

function checked(file: string, args: readonly string[], ok: readonly number[] = [0]): string {
  const run = spawnSync(file, args, { encoding: 'utf8', env });
  if (run.status === null || !ok.includes(run.status)) throw new Error(`${args.join(' ')} exited ${String(run.status)}: ${run.stderr}`);
  return run.stderr;
}

/** Wall time of the command alone (perf's own start would be counted in), then CPU time in a second run. */
function sample(args: readonly string[], ok: readonly number[]): Sample {
  const started = performance.now();
  checked(node, args, ok);
  const wallMs = performance.now() - started;
  const wrapped = perf
    ? (['perf', ['stat', '-x,', '-e', 'task-clock', '--', node, ...args]] as const)
    : (['/usr/bin/time', ['-f', '%U %S', node, ...args]] as const);
  const last = checked(wrapped[0], wrapped[1], ok).trim().split('\n').at(-1) ?? '';
  const cpuMs = perf
    ? Number(last.split(',')[0])
    : last
        .split(' ')
        .map(Number)
        .reduce((sum, seconds) => sum + seconds * 1000, 0);
  return { wallMs, cpuMs };
}

/** One search request by bare node:http on a new connection: what the archive itself takes, loopback included. */
function rawGet(url: string): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(url, { agent: false, headers: { authorization: `Token ${TOKEN}`, accept: 'application/json; version=9' } }, (res) => {
      res.resume();
      res.on('end', () => {
        if (res.statusCode !== 200) reject(new Error(`raw GET answered ${String(res.statusCode)}`));
        else resolve(performance.now() - started);
      });
    });
    req.on('error', reject);
    req.end();
  });
}

/** Where one run's CPU samples fell: the program (dist/cli.cjs), each package, Node's own modules, the rest (GC, compiling, idle). */
function profileOf(args: readonly string[], ok: readonly number[], scratch: string): string {
  const dir = mkdtempSync(join(scratch, 'prof-'));
  checked(node, ['--cpu-prof', '--cpu-prof-dir', dir, ...args], ok);
  const file = readdirSync(dir).find((name) => name.endsWith('.cpuprofile'));
  if (file === undefined) return 'no profile written';
  interface ProfileNode {
    readonly id: number;
    readonly callFrame: { readonly url: string; readonly functionName: string };
  }
  const profile = JSON.parse(readFileSync(join(dir, file), 'utf8')) as { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] };
  const where = new Map(profile.nodes.map((entry) => [entry.id, entry.callFrame]));
  const byPlace = new Map<string, number>();
  profile.samples.forEach((id, at) => {
    const frame = where.get(id);
    const url = frame?.url ?? '';
    const place =
      /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)?.[1] ??
      (url.endsWith('/dist/cli.cjs') ? 'program' : url.startsWith('node:') ? 'node:*' : url === '' ? `(${frame?.functionName ?? '?'})` : 'other');
    byPlace.set(place, (byPlace.get(place) ?? 0) + (profile.timeDeltas[at] ?? 0) / 1000);
  });
  return [...byPlace]
    .sort((a, b) => b[1] - a[1])
    .filter(([, ms]) => ms >= 0.5)
    .map(([place, ms]) => `${place} ${ms.toFixed(1)}`)
    .join(', ');
}

const sampleData = sampleArchive(60);
const emulator = await startEmulatorProcess({ ...sampleData, tokens: [TOKEN] });
const host = await buildSearchHost(sampleData.documents);
const dir = mkdtempSync(join(tmpdir(), 'dus-bench-start-'));
try {
  const hostLocation = { dbUrl: host.dbUrl, hostUrl: HOST_URL };
  const setup = openContext({ configDir: dir, logFile: join(dir, 'host.log'), env: {}, hostLocation, cache: new MemoryCache() });
  await saveSettings(setup, { url: emulator.url, token: TOKEN, allowLocal: true, hostLocation });
  await setup.close();

  const common = [bin, '--config-dir', dir];
  const floor = writeFloorScript(dir, root, join(cacheHome, 'floor-compile-cache'));
  const bundledFloor = await buildBundledFloor(dir, root);
  const hostFile = host.dbUrl.slice('sqlite://'.length);
  const cases: Record<string, Case> = {
    '--version': { args: [bin, '--version'], ok: [0], target: 1.5 },
    '--help': { args: [bin, '--help'], ok: [0], target: 1.5 },
    'why bob 8': { args: [...common, 'why', 'bob', '8'], ok: [0], target: 2 },
    search: { args: [...common, 'search', 'bob', 'invoice'], ok: [0], target: 2.5 },
    check: { args: [...common, 'check'], ok: [0, 1], target: 2.5 },
    test: { args: [...common, 'test'], ok: [0], target: null },
    // Not the suite: what any one-shot search has to do, by undici and by Node's own client (bench/support/one-shot-floor.ts).
    'floor undici': { args: [floor, 'undici', emulator.url, SEARCH_PATH, hostFile], ok: [0], target: null },
    'floor bundled': { args: [bundledFloor, 'undici', emulator.url, SEARCH_PATH, hostFile], ok: [0], target: null },
    'floor http': { args: [floor, 'node:http', emulator.url, SEARCH_PATH, hostFile], ok: [0], target: null },
  };
  const base: readonly string[] = ['-e', '0'];

  // why's queries: the same work with every module loaded, the settings, log and host database opened anew each time.
  const { verdictOfDocument } = await import('../src/core/search/verdicts.js');
  const queriesMs: number[] = [];
  for (let run = 0; run < RUNS + 1; run += 1) {
    const started = performance.now();
    const ctx = openContext({ configDir: dir, env: {} });
    await verdictOfDocument(ctx, 'bob', 8, 'cli:bench');
    await ctx.close();
    if (run > 0) queriesMs.push(performance.now() - started);
  }
  const rawMs: number[] = [];
  for (let run = 0; run < RUNS + 1; run += 1) {
    const ms = await rawGet(`${emulator.url}${SEARCH_PATH}`);
    if (run > 0) rawMs.push(ms);
  }
  const requestsOf = new Map<string, number>();
  for (const [name, entry] of Object.entries(cases)) {
    await emulator.clearRequests();
    checked(node, entry.args, entry.ok); // warms the file-system caches
    requestsOf.set(name, (await emulator.requests()).length);
  }

  const loadBefore = load();
  checked(node, [bin, 'completion', 'bash']); // another command's code cache first
  const samples = new Map<string, { own: Sample[]; base: Sample[] }>(Object.keys(cases).map((name) => [name, { own: [], base: [] }]));
  for (let run = 0; run < RUNS; run += 1) {
    for (const [name, entry] of Object.entries(cases)) {
      const pair = samples.get(name);
      pair?.base.push(sample(base, [0]));
      pair?.own.push(sample(entry.args, entry.ok));
    }
  }
  const loadAfter = load();

  console.log(`Node ${process.versions.node}, ${RUNS} paired runs per command, interleaved; CPU time by ${perf ? 'perf task-clock' : 'GNU time'}`);
  console.log(`load average before ${loadBefore}, after ${loadAfter}`);
  console.log(
    `archive's own answer (one search request, new connection, bare node:http): ${median(rawMs).toFixed(2)} ms; why's queries in-process (modules loaded): ${median(queriesMs).toFixed(1)} ms`,
  );
  const allBase = [...samples.values()].flatMap((pair) => pair.base);
  console.log(`node -e 0: ${median(allBase.map((s) => s.wallMs)).toFixed(1)} ms wall, ${median(allBase.map((s) => s.cpuMs)).toFixed(1)} ms CPU`);
  console.log('command       requests  wall ms  ÷ node -e 0   cpu ms  ÷ node -e 0  target');
  for (const [name, entry] of Object.entries(cases)) {
    const pair = samples.get(name) ?? { own: [], base: [] };
    const wallRatio = median(pair.own.map((s, at) => s.wallMs / (pair.base[at]?.wallMs ?? Number.NaN)));
    const cpuRatio = median(pair.own.map((s, at) => s.cpuMs / (pair.base[at]?.cpuMs ?? Number.NaN)));
    const verdict =
      entry.target === null
        ? ''
        : `≤ ${entry.target}: ${wallRatio <= entry.target ? 'met' : 'MISSED'} (wall), ${cpuRatio <= entry.target ? 'met' : 'MISSED'} (cpu)`;
    console.log(
      `${name.padEnd(13)} ${String(requestsOf.get(name) ?? 0).padStart(8)} ${median(pair.own.map((s) => s.wallMs))
        .toFixed(1)
        .padStart(8)} ${wallRatio.toFixed(2).padStart(12)} ${median(pair.own.map((s) => s.cpuMs))
        .toFixed(1)
        .padStart(8)} ${cpuRatio.toFixed(2).padStart(12)}  ${verdict}`,
    );
  }

  const wallOf = (name: string): number => median((samples.get(name)?.own ?? []).map((s) => s.wallMs));
  console.log(
    `floor: node:crypto's decryption of the token, one GET (by undici's Client from its own files, by it bundled as the program bundles it, or by node:http), one SQLite statement, nothing of the suite (bench/support/one-shot-floor.ts); wall: search ÷ floor bundled ${(wallOf('search') / wallOf('floor bundled')).toFixed(2)}, ÷ floor http ${(wallOf('search') / wallOf('floor http')).toFixed(2)}; check ÷ floor bundled ${(wallOf('check') / wallOf('floor bundled')).toFixed(2)}, ÷ floor http ${(wallOf('check') / wallOf('floor http')).toFixed(2)}`,
  );

  if (PROFILE) {
    console.log('\nStart-up profile per command (one run under --cpu-prof, ms of samples by place), then what it loaded:');
    const scratch = mkdtempSync(join(tmpdir(), 'dus-bench-profile-'));
    try {
      for (const [name, entry] of Object.entries(cases)) {
        console.log(`${name}: ${profileOf(entry.args, entry.ok, scratch)}`);
        const loaded = runRecordingModules(entry.args, scratch, env);
        const files = loaded.urls.filter((url) => url.startsWith('file:'));
        const builtins = loaded.urls.filter((url) => url.startsWith('node:'));
        const packages = [...packagesOf(files)].map((pkg) => `${pkg} ${files.filter((url) => url.includes(`/node_modules/${pkg}/`)).length}`);
        console.log(`  loads ${files.length} files (${packages.join(', ') || 'no package'}), ${builtins.length} of Node's public modules:`);
        console.log(`    ${builtins.map((url) => url.slice('node:'.length)).join(' ')}`);
      }
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  }
} finally {
  await emulator.close();
  await host.drop();
  rmSync(dir, { recursive: true, force: true });
  rmSync(cacheHome, { recursive: true, force: true });
}
