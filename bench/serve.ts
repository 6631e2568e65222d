/**
 * The HTTP wrapper under load, as real `serve` processes on loopback:
 *  1. 500 concurrent widget loads spread over 3 processes that share one Redis: how many
 *     requests reach the archive server (target ≤ 1).
 *  0. How long an unknown login takes beside a wrong password for an argon2id account, the
 *     host's default hash (target ratio about 1: timing must not tell whether a user exists).
 *  2. Searches per second through one process with warm caches and the archive server at
 *     5 ms latency, and the process's resident memory after a warm-up, after 10 000 searches
 *     and after 10 000 more (target flat).
 *
 *   npm run build:tools && node dist-tools/bench/serve.js
 * Env: BENCH_REDIS (default redis://127.0.0.1:6379), BENCH_SEARCHES (10000), BENCH_CONCURRENCY (32).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Pool, request } from 'undici';
import { Authenticator } from '../src/core/auth/authenticator.js';
import { RedisCache } from '../src/core/cache/redis-cache.js';
import { openHost } from '../src/core/host/open-host.js';
import { openContext } from '../src/core/context.js';
import { saveSettings } from '../src/core/settings/save-settings.js';
import { startArchiveEmulator } from '../test/support/archive-emulator/index.js';
import type { EmulatorDocument } from '../test/support/archive-emulator/types.js';
import { createHostFixture } from '../test/support/host-fixtures/index.js';

const REDIS = process.env.BENCH_REDIS ?? 'redis://127.0.0.1:6379';
const SEARCHES = Number(process.env.BENCH_SEARCHES ?? 10_000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32);
const WARM_UP = Number(process.env.BENCH_WARM_UP ?? 2000);
const WIDGET_LOADS = 500;
const PROCESSES = 3;
const CLI = pathToFileURL(join(dirname(fileURLToPath(import.meta.url)), '..', 'src', 'cli.js')).href;
// What bin/docs-unified-search.js does, against this build's copy of the CLI.
const RUNNER = `import { main } from ${JSON.stringify(CLI)}; process.exitCode = await main(process.argv.slice(1), { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env });`;
const WIDGET = '/ocs/v2.php/apps/dashboard/api/v2/widget-items?widgets[]=docs_unified_search-recent';

interface Server {
  readonly child: ChildProcess;
  readonly base: string;
  output: string;
}

function documents(): EmulatorDocument[] {
  return Array.from({ length: 60 }, (_, i) => {
    const id = i + 1;
    const day = String((i % 28) + 1).padStart(2, '0');
    return { id, title: `Invoice ${id}`, content: `invoice number ${id} electricity`, created: `2026-10-${day}`, added: `2026-10-${day}T09:${String(i % 60).padStart(2, '0')}:00+00:00`, correspondent: (i % 3) + 1, documentType: (i % 2) + 1 };
  });
}

function startServer(args: readonly string[], env: NodeJS.ProcessEnv): Promise<Server> {
  const child = spawn(process.execPath, ['--input-type=module', '-e', RUNNER, '--', ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const server: Server = { child, base: '', output: '' };
  return new Promise((resolve, reject) => {
    child.stderr?.on('data', (chunk: Buffer) => {
      server.output += chunk.toString('utf8');
    });
    child.stdout?.on('data', (chunk: Buffer) => {
      server.output += chunk.toString('utf8');
      const match = /Listening on (http:\/\/[^\s]+)/.exec(server.output);
      if (match?.[1] !== undefined && server.base === '') resolve({ ...server, base: match[1], child });
    });
    child.on('exit', (code) => reject(new Error(`serve exited with ${code}: ${server.output}`)));
  });
}

async function stopServer(server: Server): Promise<string> {
  let output = '';
  server.child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8');
  });
  const exited = new Promise<number | null>((resolve) => server.child.once('exit', resolve));
  server.child.kill('SIGTERM');
  const code = await exited;
  return `exit ${code}${output.includes('Stopped.') ? ', stopped cleanly' : ''}`;
}

function residentMiB(pid: number | undefined): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kib / 1024;
}

async function login(base: string, user: string, password: string): Promise<{ cookie: string; token: string }> {
  const answer = await request(`${base}/login`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ user, password }).toString() });
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
    process.stdout.write(`login: unknown login ${u.toFixed(0)} ms, wrong password (argon2id) ${w.toFixed(0)} ms (median of 9; ratio ${(u / w).toFixed(2)}, target about 1)\n`);
  } finally {
    await host.close();
  }
}

async function main(): Promise<void> {
  const probe = new RedisCache({ url: REDIS, keyPrefix: 'dus-bench-probe:' });
  try {
    await probe.connect();
    await probe.get('x');
  } catch (error: unknown) {
    process.stdout.write(`SKIP: Redis at ${REDIS} is unreachable (${error instanceof Error ? error.message : String(error)})\n`);
    return;
  } finally {
    await probe.close().catch(() => undefined);
  }

  const fixture = await createHostFixture('sqlite');
  await fixture.addUser('archive', { password: 'archive-bench-pw', hash: 'bcrypt' });
  await fixture.addUser('reader', { password: 'reader-bench-pw', hash: 'bcrypt' });
  await fixture.addUser('timing', { password: 'timing-bench-pw' });
  const folder = await fixture.addFolder('archive', 'files/Archive');
  for (const d of documents()) await fixture.addFile('archive', `files/Archive/${d.title} [P${d.id}].pdf`);
  await fixture.share({ owner: 'archive', fileId: folder, type: 'user', with: 'reader', permissions: 1 });
  await loginTiming(fixture.dbUrl);
  const emulator = await startArchiveEmulator({ documents: documents() });
  const dir = mkdtempSync(join(tmpdir(), 'dus-bench-serve-'));
  const prefix = `dus-bench-${randomBytes(6).toString('hex')}:`;
  const env = { ...process.env, DUS_SECRET: 'bench-serve-secret' };
  const common = ['--config-dir', join(dir, 'config'), '--host-db', fixture.dbUrl, '--host-url', 'http://cloud.bench'];
  const context = openContext({ configDir: join(dir, 'config'), hostLocation: { dbUrl: fixture.dbUrl }, logFile: join(dir, 'setup.log'), env });
  // The emulator is on loopback: the local-network switch lets exactly its origin through.
  await saveSettings(context, { url: emulator.url, token: 'emulator-token', archiveOwner: 'archive', allowLocal: true });
  await context.close();

  const servers: Server[] = [];
  try {
    for (let i = 0; i < PROCESSES; i += 1) {
      servers.push(await startServer([...common, '--log-file', join(dir, `serve-${i}.log`), 'serve', '--listen', '127.0.0.1:0', '--cache', REDIS, '--cache-prefix', prefix], env));
    }
    const first = servers[0];
    if (first === undefined) throw new Error('no server');
    // Sessions live in the shared cache: one login serves every process.
    const session = await login(first.base, 'reader', 'reader-bench-pw');
    const headers = { cookie: session.cookie, requesttoken: session.token, accept: 'application/json' };

    emulator.latencyMs = 20;
    emulator.clearRequests();
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
    const newest = emulator.requests.filter((r) => r.query.ordering === '-added').length;
    const names = emulator.requests.filter((r) => r.path.endsWith('/api/correspondents/') || r.path.endsWith('/api/document_types/')).length;
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
    process.stdout.write(`widget: 5000 warm loads through one process, ${CONCURRENCY} at a time: ${widgetRate.toFixed(0)} loads/s (session in Redis, one visibility query each, no archive request)\n`);

    emulator.latencyMs = 5;
    const terms = ['invoice', 'electricity', 'number', 'invoice electricity'];
    const pool = new Pool(first.base, { connections: CONCURRENCY, pipelining: 1 });
    const search = async (i: number): Promise<number> => {
      const term = terms[i % terms.length] ?? 'invoice';
      const answer = await pool.request({ method: 'GET', path: `/ocs/v2.php/search/providers/docs_unified_search_documents/search?term=${encodeURIComponent(term)}&limit=10`, headers });
      await answer.body.dump();
      return answer.statusCode;
    };
    const run = async (count: number): Promise<{ ms: number; failures: number }> => {
      let next = 0;
      let failures = 0;
      const t0 = performance.now();
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (next < count) {
            const i = next;
            next += 1;
            if ((await search(i)) !== 200) failures += 1;
          }
        }),
      );
      return { ms: performance.now() - t0, failures };
    };
    const warm = await run(WARM_UP);
    const before = residentMiB(first.child.pid);
    emulator.clearRequests();
    const measured = await run(SEARCHES);
    const after = residentMiB(first.child.pid);
    const again = await run(SEARCHES);
    const afterAgain = residentMiB(first.child.pid);
    await pool.close();
    process.stdout.write(
      `search: ${SEARCHES} searches, ${CONCURRENCY} at a time, warm caches, archive server at 5 ms: ${((SEARCHES / measured.ms) * 1000).toFixed(0)} searches/s (${measured.failures + again.failures} failed; warm-up ${warm.failures} failed); archive requests ${emulator.requests.length} for ${2 * SEARCHES} searches\n`,
    );
    process.stdout.write(
      `memory: resident ${before.toFixed(1)} MiB after ${WARM_UP} warm-up searches, ${after.toFixed(1)} MiB after ${SEARCHES} more (ratio ${(after / before).toFixed(2)}), ${afterAgain.toFixed(1)} MiB after ${SEARCHES} more again (ratio ${(afterAgain / after).toFixed(2)}; target flat)\n`,
    );
  } finally {
    for (const server of servers) process.stdout.write(`serve ${server.base}: ${await stopServer(server)}\n`);
    const cleaner = new RedisCache({ url: REDIS, keyPrefix: prefix });
    await cleaner.clearPrefix().catch(() => undefined);
    await cleaner.close();
    await emulator.close();
    await fixture.drop();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
