import { afterAll, describe, expect, test } from '@jest/globals';
import { chmodSync, chownSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { builtCliMissing, runCliProcess, unprivilegedAccount, type Account, type ProcessRun } from './support/cli-process.js';

/**
 * The host's SQLite file when the running user may not reach, read or (WAL mode) share it:
 * the message names what blocks, its owner and mode, and the running user, as `config_access`
 * does for the config directory. Root reads every file, so the commands run as `nobody`.
 */
const missing = builtCliMissing();
const account = unprivilegedAccount('nobody');
const nobody: Account | null = typeof account === 'string' ? null : account;
if (missing !== null) console.log(`skipped: ${missing}`);
if (typeof account === 'string') console.log(`skipped: ${account}`);
const describeAsNobody = missing === null && nobody !== null ? describe : describe.skip;

const roots: string[] = [];

function freshRoot(): string {
  const root = mkdtempSync(join(tmpdir(), 'dus-sqlite-access-'));
  chmodSync(root, 0o755);
  roots.push(root);
  return root;
}

/** A SQLite file made by root: `wal` in write-ahead-log mode (its -wal and -shm gone after the close). */
function database(path: string, wal = false): string {
  const db = new DatabaseSync(path);
  if (wal) db.exec('PRAGMA journal_mode = WAL');
  db.exec('CREATE TABLE t (x INTEGER)');
  db.close();
  chmodSync(path, 0o644);
  return path;
}

async function whyAs(who: Account, file: string): Promise<ProcessRun> {
  const config = join(freshRoot(), 'config');
  mkdirSync(config);
  chownSync(config, who.uid, who.gid);
  return runCliProcess(['--config-dir', config, '--host-db', `sqlite://${file}`, 'why', 'alice', '1'], { uid: who.uid, gid: who.gid });
}

afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

describeAsNobody('the host SQLite file the running user may not use', () => {
  test('a file in a 0700 directory of another user: the directory, its owner and mode, the user; not "does not exist"', async () => {
    if (nobody === null) return;
    const dir = join(freshRoot(), 'private');
    mkdirSync(dir);
    const file = database(join(dir, 'owncloud.db'));
    chmodSync(dir, 0o700);
    const run = await whyAs(nobody, file);
    expect(run.code).toBe(1);
    expect(run.err).toMatch(/^Error \[host_unreachable\]: The host database \(the SQLite file \S+owncloud\.db, from the --host-db URL\) cannot be opened: /);
    expect(run.err).toContain(
      `${dir} is owned by root (uid 0) with mode 0700, and this command runs as nobody (uid 65534): it may not enter that directory (EACCES)`,
    );
    expect(run.err).not.toContain('does not exist');
  });

  test('a 0600 file of another user: the file, its owner and mode, the user; not "unable to open database file"', async () => {
    if (nobody === null) return;
    const file = database(join(freshRoot(), 'owncloud.db'));
    chmodSync(file, 0o600);
    const run = await whyAs(nobody, file);
    expect(run.code).toBe(1);
    expect(run.err).toContain(
      `${file} is owned by root (uid 0) with mode 0600, and this command runs as nobody (uid 65534): it may not read the file (EACCES)`,
    );
    expect(run.err).not.toContain('unable to open database file');
  });

  test('a WAL database in a directory the user may not write: says WAL needs the -shm file, names the directory, owner, mode and user', async () => {
    if (nobody === null) return;
    const root = freshRoot();
    const file = database(join(root, 'owncloud.db'), true);
    const run = await whyAs(nobody, file);
    expect(run.code).toBe(1);
    expect(run.err).toContain(`the database is in WAL mode, in which SQLite writes ${file}-shm even to read (this suite only reads)`);
    expect(run.err).toContain(`${root} is owned by root (uid 0) with mode 0755, and this command runs as nobody (uid 65534): it may not create ${file}-shm`);
  });

  test('a file that is really missing is still said to be missing', async () => {
    if (nobody === null) return;
    const run = await whyAs(nobody, join(freshRoot(), 'nothing.db'));
    expect(run.code).toBe(1);
    expect(run.err).toContain('the file does not exist');
  });
});
