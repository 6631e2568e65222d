import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeWithRedis, REDIS_URL } from './support/redis-probe.js';

/**
 * `serve --cache` with a cache that cannot be used refuses to start: exit 1, one line
 * `Error [cache_unreachable]: …`, no stack of ioredis, no password. The built executable runs
 * as its own process, so that whatever ioredis itself prints to stderr is seen too.
 */

const CLI = join(process.cwd(), 'bin', 'docs-unified-search.cjs');
const PASSWORD = 'dus-cache-Pw-93kq';
let dir: string;

beforeAll(() => {
  if (!existsSync(join(process.cwd(), 'dist', 'cli.js'))) throw new Error('run npm run build first: this test starts the built executable');
  dir = mkdtempSync(join(tmpdir(), 'dus-cache-refused-'));
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** Runs `serve` and gives it 15 s: a start that is not refused is stopped and reported as such. */
function serveWith(cache: string): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [CLI, '--config-dir', join(dir, 'config'), '--host-db', `sqlite://${join(dir, 'absent.db')}`, 'serve', '--listen', '127.0.0.1:0', '--cache', cache],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, DUS_SECRET: 'cache-refused-secret' },
      },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      if (out.includes('Listening on')) child.kill('SIGTERM');
    });
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, out, err });
    });
  });
}

function expectRefused(result: { code: number | null; out: string; err: string }, reason: RegExp): void {
  expect(result.out).not.toContain('Listening on');
  expect(result.code).toBe(1);
  const lines = result.err.split('\n').filter((line) => line !== '');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/^Error \[cache_unreachable\]: The cache at /);
  expect(lines[0]).toMatch(reason);
  expect(result.err).not.toMatch(/\n\s+at |ioredis|ReplyError/);
  expect(result.err).not.toContain(PASSWORD);
}

test('a Redis that does not answer', async () => {
  expectRefused(await serveWith('redis://127.0.0.1:1/0'), /127\.0\.0\.1:1\/0 does not answer \(ECONNREFUSED\)/);
}, 180_000);

const withRedis = await describeWithRedis('serve --cache with a wrong login or database');
withRedis('a Redis that answers', () => {
  const { hostname, port } = new URL(REDIS_URL);
  const place = `${hostname}:${port || '6379'}`;

  // A user that does not exist: the shared Redis refuses the login as it refuses a wrong password.
  test('a wrong user name and password', async () => {
    expectRefused(await serveWith(`redis://dus-no-such-user:${PASSWORD}@${place}/0`), /refused the login/);
  }, 180_000);

  test('a database index out of range', async () => {
    expectRefused(await serveWith(`redis://${place}/999`), /has no database 999/);
  }, 180_000);
});
