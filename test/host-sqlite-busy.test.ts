/**
 * A live SQLite host: while another process writes (it holds the lock), a question waits for the
 * lock within its budget and then answers; a lock never released ends in a coded error, no stack.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from '@jest/globals';
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../src/cli.js';
import { openHost } from '../src/core/host/open-host.js';
import type { HostAdapter } from '../src/core/host/types.js';
import { captureIO } from './support/capture-io.js';
import { createHostFixture, type HostFixture } from './support/host-fixtures/index.js';

const A = 'archive';

/**
 * Another process writing the host database, holding the write lock (BEGIN EXCLUSIVE and an
 * UPDATE) for `holdMs` (< 0: never released). The file runs a rollback journal, as a Nextcloud
 * with `sqlite.journal_mode` DELETE does: there a writer blocks readers for as long as it holds
 * the lock; in WAL mode readers meet the same "database is locked" while a writer checkpoints or
 * recovers the WAL, which cannot be held on purpose from a test.
 */
function lockingWriter(file: string, holdMs: number): Promise<ChildProcess> {
  const script = `
    const { DatabaseSync } = require('node:sqlite');
    const db = new DatabaseSync(process.argv[1]);
    db.exec('BEGIN EXCLUSIVE');
    db.exec("UPDATE oc_appconfig SET configvalue = configvalue WHERE appid = 'files_sharing'");
    process.stdout.write('locked\\n');
    const hold = Number(process.argv[2]);
    if (hold >= 0) setTimeout(() => { db.exec('COMMIT'); process.stdout.write('released\\n'); }, hold);
    else setInterval(() => undefined, 1000);
  `;
  const child = spawn(process.execPath, ['-e', script, file, String(holdMs)], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`the writer exited (${String(code)}) before it held the lock`)));
    child.stdout?.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('locked')) resolve(child);
    });
  });
}

let fx: HostFixture;
let dir: string;
let file: string;
let dbUrl: string;
let writer: ChildProcess | undefined;

beforeAll(async () => {
  fx = await createHostFixture('sqlite');
  await fx.addUser(A);
  await fx.addUser('bob');
  await fx.setAppConfig('docs_sync', 'target_user', A);
  const folder = await fx.addFolder(A, 'Docs');
  await fx.addFile(A, 'Docs/d [P1].pdf');
  await fx.share({ owner: A, fileId: folder, type: 'user', with: 'bob', target: '/Docs' });
  // A copy in rollback-journal mode, which no other connection holds open.
  await fx.exec('PRAGMA wal_checkpoint(TRUNCATE)');
  dir = mkdtempSync(join(tmpdir(), 'dus-busy-'));
  file = join(dir, 'nextcloud.db');
  copyFileSync(fx.dbUrl.replace(/^sqlite:\/\//, ''), file);
  const { DatabaseSync } = await import('node:sqlite');
  const db = new DatabaseSync(file);
  db.exec('PRAGMA journal_mode = DELETE');
  db.close();
  dbUrl = `sqlite://${file}`;
});

afterEach(async () => {
  if (writer !== undefined && writer.exitCode === null) {
    const ended = new Promise((resolve) => writer?.once('exit', resolve));
    writer.kill();
    await ended;
  }
  writer = undefined;
});

afterAll(async () => {
  await fx?.drop();
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

describe('a SQLite host database locked by a writer', () => {
  test('the lock really blocks reads: without waiting, a question fails at once', async () => {
    const host = await openHost({ dbUrl }, { busyWaitMs: 0 });
    try {
      writer = await lockingWriter(file, -1);
      await expect(host.visibleArchiveFiles('bob', A, [1])).rejects.toMatchObject({ code: 'host_unreachable' });
    } finally {
      await host.close();
    }
  });

  test('a lock released within the budget: the question waits, then answers', async () => {
    const host: HostAdapter = await openHost({ dbUrl });
    try {
      writer = await lockingWriter(file, 400);
      const answer = await host.visibleArchiveFiles('bob', A, [1]);
      expect(answer.get(1)?.path).toBe('/Docs/d [P1].pdf');
    } finally {
      await host.close();
    }
  });

  test('opening the host while it is locked waits too', async () => {
    writer = await lockingWriter(file, 400);
    const host = await openHost({ dbUrl });
    try {
      expect((await host.ownedArchiveFiles(A, [1])).get(1)?.path).toBe('/Docs/d [P1].pdf');
    } finally {
      await host.close();
    }
  });

  test('a lock never released: `why` ends after the budget with a coded error, no stack', async () => {
    const configDir = mkdtempSync(join(tmpdir(), 'dus-busy-cli-'));
    try {
      const host = await openHost({ dbUrl });
      writer = await lockingWriter(file, -1);
      await host.close();
      const io = captureIO({ env: {}, tty: false });
      const code = await main(['--config-dir', configDir, '--host-db', dbUrl, 'why', 'bob', '1'], io);
      expect(code).toBe(1);
      expect(io.err()).toContain('host_unreachable');
      expect(io.err()).toContain('kept it locked for 3.0 s');
      expect(io.err()).not.toMatch(/\n\s+at /);
      expect(io.out()).toBe('');
    } finally {
      rmSync(configDir, { recursive: true, force: true });
    }
  }, 180_000);
});
