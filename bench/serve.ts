/**
 * The HTTP wrapper under load, as real `serve` processes on loopback, the archive emulator in
 * a process of its own (so neither serve's nor the bench client's CPU includes its work).
 * Parts, each selectable by name (all by default), each with its own `serve` process(es):
 *  login     How long an unknown login takes beside a wrong password for an argon2id account,
 *            the host's default hash (target ratio about 1: timing must not tell whether a user
 *            exists). In-process, no serve.
 *  widget    500 concurrent widget loads spread over 3 processes that share one Redis: how
 *            many requests reach the archive server (target ≤ 1); then warm loads per second.
 *  searches  Searches per second through one process with warm caches and the archive server
 *            at 5 ms latency, and the process's resident memory after a warm-up, after 10 000
 *            searches and after 10 000 more (target flat).
 *  latency   p50/p99 of warm searches at 1, 8 and 64 concurrent clients (kept-alive
 *            connections), archive server at L = 0 and 5 ms, and the serve process's peak
 *            resident memory (VmHWM of the child, from /proc).
 *
 *   npm run build && npm run build:tools && nice -n 10 node_modules/.bin/node dist-tools/bench/serve.js [login] [widget] [searches] [latency]
 * Env: BENCH_REDIS (default redis://127.0.0.1:6379; widget needs it, searches and latency use
 * the process's memory cache without it, or with BENCH_CACHE=memory: with Redis every warm search
 * asks it for the names, one more loopback round trip, which at one client is most of the time
 * above the product's own; each latency line says which cache it ran with), BENCH_SEARCHES (10000), BENCH_CONCURRENCY (32),
 * BENCH_WARM_UP (2000), BENCH_LATENCY_SEARCHES (2000 per client count), BENCH_LATENCIES (0,5),
 * BENCH_DIALECT (sqlite; pgsql or mysql: the host on the local server, as the tests reach it).
 * Takes about 2 minutes in all on a quiet 2-core machine (latency alone about 45 s).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool, request } from 'undici';
import { Authenticator } from '../src/core/auth/authenticator.js';
import { RedisCache } from '../src/core/cache/redis-cache.js';
import { openHost } from '../src/core/host/open-host.js';
import { openContext } from '../src/core/context.js';
import { saveSettings } from '../src/core/admin/save-settings.js';
import type { EmulatorDocument } from '../test/support/archive-emulator/types.js';
import { createHostFixture, type HostFixture } from '../test/support/host-fixtures/index.js';
import { startEmulatorProcess, type EmulatorProcess } from './support/emulator-process.js';
import { load, startServer, statusMiB, stopServer, type Server } from './support/serve-process.js';

const REDIS = process.env.BENCH_REDIS ?? 'redis://127.0.0.1:6379';
const DIALECT_NAME = process.env.BENCH_DIALECT ?? 'sqlite';
const DIALECT = (['sqlite', 'pgsql', 'mysql'] as const).find((d) => d === DIALECT_NAME);
const SEARCHES = Number(process.env.BENCH_SEARCHES ?? 10_000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32);
const WARM_UP = Number(process.env.BENCH_WARM_UP ?? 2000);
const LATENCY_SEARCHES = Number(process.env.BENCH_LATENCY_SEARCHES ?? 2000);
const LATENCIES = (process.env.BENCH_LATENCIES ?? '0,5').split(',').map(Number);
const CLIENTS = [1, 8, 64] as const;
const WIDGET_LOADS = 500;
const PROCESSES = 3;
const PARTS = ['login', 'widget', 'searches', 'latency'] as const;
type Part = (typeof PARTS)[number];
const WIDGET = '/ocs/v2.php/apps/dashboard/api/v2/widget-items?widgets[]=docs_unified_search-recent';
const SEARCH = '/ocs/v2.php/search/providers/docs_unified_search_documents/search';
const TERMS = ['invoice', 'electricity', 'number', 'invoice electricity'];

/** What every part shares: the host, the emulator process, the config directory. */
interface World {
  readonly fixture: HostFixture;
  readonly emulator: EmulatorProcess;
  readonly dir: string;
  readonly env: NodeJS.ProcessEnv;
  readonly common: readonly string[];
  /** `--cache` arguments: Redis under a prefix of this run, or none (the process's memory). */
  readonly cacheArgs: readonly string[];
  readonly redis: boolean;
}

function documents(): EmulatorDocument[] {
  return Array.from({ length: 60 }, (_, i) => {
    const id = i + 1;
    const day = String((i % 28) + 1).padStart(2, '0');
    return {
      id,
      title: `Invoice ${id}`,
      content: `invoice number ${id} electricity`,
      created: `2026-10-${day}`,
      added: `2026-10-${day}T09:${String(i % 60).padStart(2, '0')}:00+00:00`,
      correspondent: (i % 3) + 1,
      documentType: (i % 2) + 1,
    };
  });
}

async function login(base: string, user: string, password: string): Promise<{ cookie: string; token: string }> {
  const answer = await request(`${base}/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ user, password }).toString(),
  });
  await answer.body.dump();
  const setCookie = answer.headers['set-cookie'];
  const first = Array.isArray(setCookie) ? setCookie[0] : setCookie;
  const cookie = (first ?? '').split(';')[0] ?? '';
  const csrf = await request(`${base}/csrftoken`, { headers: { cookie } });
  const { token } = (await csrf.body.json()) as { token: string };
  return { cookie, token };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

/** The nearest-rank percentile (p in 0..100) of the values. */
function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? 0;
}

/** Alternates unknown logins and wrong passwords, so that machine load hits both alike. */
async function loginTiming(dbUrl: string): Promise<void> {
  const host = await openHost({ dbUrl });
  try {
    const auth = new Authenticator(host);
    await auth.authenticate('nobody-at-all', 'warm-up-password');
    const unknown: number[] = [];
    const wrong: number[] = [];
    for (let i = 0; i < 9; i += 1) {
      let t0 = performance.now();
      await auth.authenticate('nobody-at-all', `guess-${i}`);
      unknown.push(performance.now() - t0);
      t0 = performance.now();
      await auth.authenticate('timing', `guess-${i}`);
      wrong.push(performance.now() - t0);
    }
    const [u, w] = [median(unknown), median(wrong)];
    process.stdout.write(
      `login: unknown login ${u.toFixed(0)} ms, wrong password (argon2id) ${w.toFixed(0)} ms (median of 9; ratio ${(u / w).toFixed(2)}, target about 1; ${load()})\n`,
    );
  } finally {
    await host.close();
  }
}

/** Starts `count` serve processes, runs `body`, stops them whatever happens. */
async function withServers(world: World, count: number, name: string, body: (servers: readonly Server[]) => Promise<void>): Promise<void> {
  const servers: Server[] = [];
  try {
    for (let i = 0; i < count; i += 1) {
      servers.push(
        await startServer(
          [...world.common, '--log-file', join(world.dir, `${name}-${i}.log`), 'serve', '--listen', '127.0.0.1:0', ...world.cacheArgs],
          world.env,
        ),
      );
    }
    await body(servers);
  } finally {
    for (const server of servers) process.stdout.write(`${name}: serve ${server.base}: ${await stopServer(server)}\n`);
  }
}

type Headers = Record<string, string>;

async function readerHeaders(base: string): Promise<Headers> {
  const session = await login(base, 'reader', 'reader-bench-pw');
  return { cookie: session.cookie, requesttoken: session.token, accept: 'application/json' };
}

async function widgetPart(world: World): Promise<void> {
  if (!world.redis) {
    process.stdout.write(`widget: SKIP, Redis at ${REDIS} is unreachable (3 processes share it)\n`);
    return;
  }
  await withServers(world, PROCESSES, 'widget', async (servers) => {
    const first = servers[0];
    if (first === undefined) throw new Error('no server');
    // Sessions live in the shared cache: one login serves every process.
    const headers = await readerHeaders(first.base);
    await world.emulator.setLatency(20);
    await world.emulator.clearRequests();
    const started = performance.now();
    const loads = await Promise.all(
      Array.from({ length: WIDGET_LOADS }, async (_, i) => {
        const server = servers[i % PROCESSES] ?? first;
        const answer = await request(`${server.base}${WIDGET}`, { headers });
        const body = (await answer.body.json()) as { ocs: { data: Record<string, { items: unknown[] }> } };
        return answer.statusCode === 200 ? (body.ocs.data['docs_unified_search-recent']?.items.length ?? -1) : -answer.statusCode;
      }),
    );
    const widgetMs = performance.now() - started;
    const seen = await world.emulator.requests();
    const newest = seen.filter((r) => r.query.ordering === '-added').length;
    const names = seen.filter((r) => r.path.endsWith('/api/correspondents/') || r.path.endsWith('/api/document_types/')).length;
    const good = loads.filter((n) => n === 7).length;
    process.stdout.write(
      `widget: ${WIDGET_LOADS} concurrent loads over ${PROCESSES} processes sharing Redis: ${newest} newest-documents request(s) to the archive server (target ≤ 1), ${names} names request(s); ${good}/${WIDGET_LOADS} loads listed 7 items; ${widgetMs.toFixed(0)} ms in all\n`,
    );

    // The wrapper's own cost: warm widget loads ask nothing of the archive server.
    const widgetPool = new Pool(first.base, { connections: CONCURRENCY, pipelining: 1 });
    let widgetNext = 0;
    const widgetStart = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (widgetNext < 5000) {
          widgetNext += 1;
          const answer = await widgetPool.request({ method: 'GET', path: WIDGET, headers });
          await answer.body.dump();
        }
      }),
    );
    const widgetRate = (5000 / (performance.now() - widgetStart)) * 1000;
    await widgetPool.close();
    process.stdout.write(
      `widget: 5000 warm loads through one process, ${CONCURRENCY} at a time: ${widgetRate.toFixed(0)} loads/s (session in Redis, one visibility query each, no archive request; ${load()})\n`,
    );
  });
}

/** One warm search through the pool; its status and wall time in ms. */
async function searchOnce(pool: Pool, headers: Headers, i: number): Promise<{ status: number; ms: number }> {
  const term = TERMS[i % TERMS.length] ?? 'invoice';
  const t0 = performance.now();
  const answer = await pool.request({ method: 'GET', path: `${SEARCH}?term=${encodeURIComponent(term)}&limit=10`, headers });
  await answer.body.dump();
  return { status: answer.statusCode, ms: performance.now() - t0 };
}

/** `count` searches by `clients` clients, each waiting for its answer before its next search. */
async function searchRun(pool: Pool, headers: Headers, clients: number, count: number): Promise<{ ms: number; failures: number; times: number[] }> {
  let next = 0;
  let failures = 0;
  const times: number[] = [];
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (next < count) {
        const i = next;
        next += 1;
        const one = await searchOnce(pool, headers, i);
        times.push(one.ms);
        if (one.status !== 200) failures += 1;
      }
    }),
  );
  return { ms: performance.now() - t0, failures, times };
}

async function searchesPart(world: World): Promise<void> {
  await withServers(world, 1, 'searches', async ([server]) => {
    if (server === undefined) throw new Error('no server');
    const headers = await readerHeaders(server.base);
    await world.emulator.setLatency(5);
    const pool = new Pool(server.base, { connections: CONCURRENCY, pipelining: 1 });
    try {
      const warm = await searchRun(pool, headers, CONCURRENCY, WARM_UP);
      const before = statusMiB(server.child.pid, 'VmRSS');
      await world.emulator.clearRequests();
      const measured = await searchRun(pool, headers, CONCURRENCY, SEARCHES);
      const after = statusMiB(server.child.pid, 'VmRSS');
      const again = await searchRun(pool, headers, CONCURRENCY, SEARCHES);
      const afterAgain = statusMiB(server.child.pid, 'VmRSS');
      const archiveRequests = (await world.emulator.requests()).length;
      await world.emulator.clearRequests();
      process.stdout.write(
        `search: ${SEARCHES} searches, ${CONCURRENCY} at a time, warm caches (${world.redis ? 'Redis' : 'memory'}), archive server at 5 ms: ${((SEARCHES / measured.ms) * 1000).toFixed(0)} searches/s (${measured.failures + again.failures} failed; warm-up ${warm.failures} failed); archive requests ${archiveRequests} for ${2 * SEARCHES} searches; ${load()}\n`,
      );
      process.stdout.write(
        `memory: resident ${before.toFixed(1)} MiB after ${WARM_UP} warm-up searches, ${after.toFixed(1)} MiB after ${SEARCHES} more (ratio ${(after / before).toFixed(2)}), ${afterAgain.toFixed(1)} MiB after ${SEARCHES} more again (ratio ${(afterAgain / after).toFixed(2)}; target flat); peak ${statusMiB(server.child.pid, 'VmHWM').toFixed(1)} MiB\n`,
      );
    } finally {
      await pool.close();
    }
  });
}

async function latencyPart(world: World): Promise<void> {
  await withServers(world, 1, 'latency', async ([server]) => {
    if (server === undefined) throw new Error('no server');
    const headers = await readerHeaders(server.base);
    const startRss = statusMiB(server.child.pid, 'VmHWM');
    for (const latency of LATENCIES) {
      await world.emulator.setLatency(latency);
      for (const clients of CLIENTS) {
        // A pool per client count: every client keeps its own connection alive.
        const pool = new Pool(server.base, { connections: clients, pipelining: 1 });
        try {
          const warm = await searchRun(pool, headers, clients, Math.max(200, 4 * clients));
          const run = await searchRun(pool, headers, clients, LATENCY_SEARCHES);
          process.stdout.write(
            `latency: L = ${latency} ms, ${String(clients).padStart(2)} client(s), ${LATENCY_SEARCHES} warm searches: p50 ${percentile(run.times, 50).toFixed(2)} ms, p99 ${percentile(run.times, 99).toFixed(2)} ms,` +
              ` max ${Math.max(...run.times).toFixed(1)} ms; p50 − L ${(percentile(run.times, 50) - latency).toFixed(2)} ms; ${((LATENCY_SEARCHES / run.ms) * 1000).toFixed(0)} searches/s` +
              ` (${run.failures + warm.failures} failed; cache ${world.redis ? 'Redis' : 'memory'}; ${load()})\n`,
          );
        } finally {
          await pool.close();
        }
        // The emulator's request log would grow with every search otherwise.
        await world.emulator.clearRequests();
      }
    }
    const peak = statusMiB(server.child.pid, 'VmHWM');
    process.stdout.write(
      `latency: serve's peak resident memory (VmHWM) ${peak.toFixed(1)} MiB (${startRss.toFixed(1)} MiB after start and login; now ${statusMiB(server.child.pid, 'VmRSS').toFixed(1)} MiB); cache ${world.redis ? 'Redis' : 'memory'}\n`,
    );
  });
}

async function redisReachable(): Promise<boolean> {
  const probe = new RedisCache({ url: REDIS, keyPrefix: 'dus-bench-probe:' });
  try {
    await probe.connect();
    await probe.get('x');
    return true;
  } catch (error: unknown) {
    process.stdout.write(`Redis at ${REDIS} is unreachable (${error instanceof Error ? error.message : String(error)})\n`);
    return false;
  } finally {
    await probe.close().catch(() => undefined);
  }
}

function askedParts(args: readonly string[]): Part[] | null {
  const unknown = args.filter((a) => !(PARTS as readonly string[]).includes(a));
  if (unknown.length > 0) {
    process.stderr.write(`unknown part(s) ${unknown.join(', ')}; parts: ${PARTS.join(', ')}\n`);
    return null;
  }
  return args.length === 0 ? [...PARTS] : PARTS.filter((p) => args.includes(p));
}

async function main(): Promise<number> {
  const parts = askedParts(process.argv.slice(2));
  if (parts === null) return 2;
  if (DIALECT === undefined) {
    process.stderr.write(`unknown BENCH_DIALECT ${DIALECT_NAME}; one of sqlite, pgsql, mysql\n`);
    return 2;
  }
  process.stdout.write(`serve bench: ${parts.join(', ')}; host database ${DIALECT}; start: ${load()}\n`);
  const fixture = await createHostFixture(DIALECT);
  try {
    await fixture.addUser('archive', { password: 'archive-bench-pw', hash: 'bcrypt' });
    await fixture.addUser('reader', { password: 'reader-bench-pw', hash: 'bcrypt' });
    await fixture.addUser('timing', { password: 'timing-bench-pw' });
    const folder = await fixture.addFolder('archive', 'files/Archive');
    for (const d of documents()) await fixture.addFile('archive', `files/Archive/${d.title} [P${d.id}].pdf`);
    await fixture.share({ owner: 'archive', fileId: folder, type: 'user', with: 'reader', permissions: 1 });
    if (parts.includes('login')) await loginTiming(fixture.dbUrl);
    const served = parts.filter((p) => p !== 'login');
    if (served.length === 0) return 0;

    const redis = process.env.BENCH_CACHE !== 'memory' && (await redisReachable());
    const emulator = await startEmulatorProcess({ documents: documents() });
    const dir = mkdtempSync(join(tmpdir(), 'dus-bench-serve-'));
    const prefix = `dus-bench-${randomBytes(6).toString('hex')}:`;
    try {
      const env = { ...process.env, DUS_SECRET: 'bench-serve-secret' };
      const common = ['--config-dir', join(dir, 'config'), '--host-db', fixture.dbUrl, '--host-url', 'http://cloud.bench'];
      const context = openContext({ configDir: join(dir, 'config'), hostLocation: { dbUrl: fixture.dbUrl }, logFile: join(dir, 'setup.log'), env });
      // The emulator is on loopback: the local-network switch lets exactly its origin through.
      await saveSettings(context, { url: emulator.url, token: 'emulator-token', archiveOwner: 'archive', allowLocal: true });
      await context.close();
      const world: World = { fixture, emulator, dir, env, common, cacheArgs: redis ? ['--cache', REDIS, '--cache-prefix', prefix] : [], redis };
      if (served.includes('widget')) await widgetPart(world);
      if (served.includes('searches')) await searchesPart(world);
      if (served.includes('latency')) await latencyPart(world);
    } finally {
      if (redis) {
        const cleaner = new RedisCache({ url: REDIS, keyPrefix: prefix });
        await cleaner.clearPrefix().catch(() => undefined);
        await cleaner.close();
      }
      await emulator.close();
      rmSync(dir, { recursive: true, force: true });
    }
  } finally {
    await fixture.drop();
  }
  process.stdout.write(`serve bench: end: ${load()}\n`);
  return 0;
}

process.exitCode = await main();
