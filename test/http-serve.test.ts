import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { main } from '../src/cli.js';
import { parseListen, parseTrustProxy, serve } from '../src/commands/serve.js';
import { captureIO } from './support/capture-io.js';
import { createHostFixture, type HostFixture } from './support/host-fixtures/index.js';

let fixture: HostFixture;
let dir: string;

beforeAll(async () => {
  fixture = await createHostFixture('sqlite');
  await fixture.addUser('admin', { password: 'serve-admin-pw', hash: 'bcrypt' });
  await fixture.addGroup('admin', ['admin']);
  dir = mkdtempSync(join(tmpdir(), 'dus-serve-'));
});

afterAll(async () => {
  await fixture.drop();
  rmSync(dir, { recursive: true, force: true });
});

async function waitFor(check: () => string | null, timeoutMs = 10_000): Promise<string> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const found = check();
    if (found !== null) return found;
    if (Date.now() > until) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('serve', () => {
  // Signals are not sent here: jest's sandboxed process object does not deliver them like Node does.
  test('listens, answers as the host, and stops cleanly when told to', async () => {
    const io = captureIO({ env: { DUS_SECRET: 'serve-test-secret' } });
    let stop = (): void => undefined;
    let released = false;
    const stopped = new Promise<void>((resolve) => {
      stop = resolve;
    });
    const globals = { configDir: join(dir, 'config'), hostDb: fixture.dbUrl, logFile: join(dir, 'host.log'), color: false };
    const running = serve(
      { listen: '127.0.0.1:0' },
      { io, globals },
      {
        stopped,
        release: () => {
          released = true;
        },
      },
    );
    const base = await waitFor(() => /Listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(io.out())?.[1] ?? null);
    const anonymous = await request(`${base}/apps/docs_unified_search/settings`);
    await anonymous.body.dump();
    expect(anonymous.statusCode).toBe(401);
    const admin = await request(`${base}/apps/docs_unified_search/settings`, {
      headers: { authorization: `Basic ${Buffer.from('admin:serve-admin-pw').toString('base64')}` },
    });
    expect(admin.statusCode).toBe(200);
    expect(await admin.body.json()).toMatchObject({ url: null, tokenConfigured: false });
    stop();
    await expect(running).resolves.toBe(0);
    expect(released).toBe(true);
    expect(io.out()).toContain('Stopped.');
    await expect(request(`${base}/`)).rejects.toThrow();
  });

  test('a host that cannot be opened at start: serve listens and says so at once on its console, as one coded warning', async () => {
    const notADatabase = join(dir, 'not-a-database.db');
    writeFileSync(notADatabase, 'plain text, no SQLite file\n');
    const io = captureIO({ env: { DUS_SECRET: 'serve-test-secret' } });
    let stop = (): void => undefined;
    const stopped = new Promise<void>((resolve) => {
      stop = resolve;
    });
    const globals = { configDir: join(dir, 'config-broken-host'), hostDb: `sqlite://${notADatabase}`, logFile: join(dir, 'host-broken.log'), color: false };
    const running = serve({ listen: '127.0.0.1:0' }, { io, globals }, { stopped, release: () => undefined });
    await waitFor(() => /Listening on/.exec(io.out())?.[0] ?? null);
    const warning = await waitFor(() => /^Warning: .*$/m.exec(io.err())?.[0] ?? null);
    expect(warning).toMatch(
      /^Warning: Error \[host_unreachable\]: The host database \(the SQLite file .*not-a-database\.db.*\) cannot be opened.* serve answers, but searches fail until this is fixed\.$/,
    );
    stop();
    await expect(running).resolves.toBe(0);
  });

  test('a taken port: exit 1, Error [listen_failed] naming the address and what to do, no stack, not internal', async () => {
    const { createServer } = await import('node:net');
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as { port: number }).port;
    try {
      const io = captureIO({ env: { DUS_SECRET: 'serve-test-secret' } });
      const globals = { configDir: join(dir, 'config'), hostDb: fixture.dbUrl, logFile: join(dir, 'host.log'), color: false };
      const code = await serve({ listen: `127.0.0.1:${port}` }, { io, globals }, { stopped: new Promise<void>(() => undefined), release: () => undefined });
      expect(code).toBe(1);
      expect(io.err()).toMatch(
        new RegExp(`^Error \\[listen_failed\\]: serve cannot listen on 127\\.0\\.0\\.1:${port} \\(EADDRINUSE\\): another program listens on that port already`),
      );
      expect(io.err()).not.toMatch(/\n\s+at /);
      expect(io.out()).not.toContain('Listening');
    } finally {
      await new Promise<void>((resolve) => taken.close(() => resolve()));
    }
  });

  test.each([
    [['serve', '--listen', 'localhost'], '--listen takes HOST:PORT'],
    [['serve', '--listen', '127.0.0.1:99999'], '--listen takes HOST:PORT'],
    [['serve', '--cache', 'memcached://x'], '--cache takes a Redis URL'],
    [['serve', '--trust-proxy', 'my proxy'], '--trust-proxy takes'],
  ])('a wrong call %j exits 2 with a coded message', async (argv, message) => {
    const io = captureIO({ env: {} });
    await expect(main(['--config-dir', join(dir, 'config'), '--host-db', fixture.dbUrl, ...argv], io)).resolves.toBe(2);
    expect(io.err()).toContain('Error [usage]:');
    expect(io.err()).toContain(message);
    expect(io.err()).not.toMatch(/\n\s+at /);
  });

  test('the first start of a new suite version runs the repair step, as the host does after an update', async () => {
    const configDir = join(dir, 'config-repair');
    // As 0.3.0 left them (config:app:set refuses the obsolete keys now).
    mkdirSync(configDir, { mode: 0o700 });
    writeFileSync(join(configDir, 'settings.json'), JSON.stringify({ installed_version: '0.3.0', last_failure: 'from 0.3.0' }));
    const io = captureIO({ env: { DUS_SECRET: 'serve-test-secret' } });
    let stop = (): void => undefined;
    const stopped = new Promise<void>((resolve) => {
      stop = resolve;
    });
    const globals = { configDir, hostDb: fixture.dbUrl, logFile: join(dir, 'host-repair.log'), color: false };
    const running = serve({ listen: '127.0.0.1:0' }, { io, globals }, { stopped, release: () => undefined });
    await waitFor(() => /Listening on/.exec(io.out())?.[0] ?? null);
    stop();
    await expect(running).resolves.toBe(0);
    const read = captureIO();
    expect(await main(['--config-dir', configDir, 'config:app:get', 'docs_unified_search', 'last_failure'], read)).toBe(1);
    expect(await main(['--config-dir', configDir, 'config:app:get', 'docs_unified_search', 'installed_version'], read)).toBe(0);
    expect(read.out().trim()).not.toBe('0.3.0');
  });

  test('keeps the marker index and builds it at start, so the first search does not pay for it', async () => {
    const host = await createHostFixture('sqlite');
    try {
      await host.addUser('archive');
      await host.setAppConfig('docs_sync', 'target_user', 'archive');
      await host.addFolder('archive', 'files/Docs');
      await host.addFile('archive', 'files/Docs/One [P1].pdf');
      await host.addFile('archive', 'files/Docs/Two [P2] and [P3].pdf');
      await host.addFile('archive', 'files/Docs/Plain.pdf');
      const io = captureIO({ env: { DUS_SECRET: 'serve-test-secret', DUS_LOG_LEVEL: 'info' } });
      let stop = (): void => undefined;
      const stopped = new Promise<void>((resolve) => {
        stop = resolve;
      });
      const logFile = join(dir, 'host-index.log');
      const globals = { configDir: join(dir, 'config-index'), hostDb: host.dbUrl, logFile, color: false };
      const running = serve({ listen: '127.0.0.1:0' }, { io, globals }, { stopped, release: () => undefined });
      const built = (): string | null =>
        existsSync(logFile)
          ? (readFileSync(logFile, 'utf8')
              .split('\n')
              .find((l) => l.includes('marker index')) ?? null)
          : null;
      try {
        await waitFor(built);
      } finally {
        stop();
      }
      await expect(running).resolves.toBe(0);
      expect(JSON.parse(built() ?? '{}')).toMatchObject({ msg: 'marker index of the archive account built', markers: 3, documents: 3, level: 30 });
    } finally {
      await host.drop();
    }
  });

  test('listen and trust-proxy forms', () => {
    expect(parseListen('[::1]:8080')).toEqual({ host: '::1', port: 8080 });
    expect(parseListen('0.0.0.0:80')).toEqual({ host: '0.0.0.0', port: 80 });
    expect(parseTrustProxy('2')).toBe(2);
    expect(parseTrustProxy('true')).toBe(true);
    expect(parseTrustProxy('10.0.0.0/8, 192.168.1.1')).toEqual(['10.0.0.0/8', '192.168.1.1']);
    expect(parseTrustProxy(undefined)).toBe(false);
  });
});
