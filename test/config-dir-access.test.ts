import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { withFileLock } from '../src/core/settings/file-lock.js';
import { startArchiveEmulator, type ArchiveEmulator } from './support/archive-emulator/index.js';
import {
  builtCliMissing,
  readOnlyMountMissing,
  runCliProcess,
  unprivilegedAccount,
  type Account,
  type ProcessRun,
  type ProcessRunOptions,
} from './support/cli-process.js';
import { createHostFixture, type HostFixture } from './support/host-fixtures/index.js';

/**
 * A config directory that is read-only, foreign or damaged, and the modes of what the suite
 * creates: the installed executable in processes of their own, as root and as unprivileged
 * accounts (root reads every file whatever its mode, so permission cases run as `nobody`).
 */
const TOKEN = 'access-token-5b1e77';

const missing = builtCliMissing();
const describeBuilt = missing === null ? describe : describe.skip;
if (missing !== null) console.log(`skipped: ${missing}`);

function accountOrSkip(name: string): Account | null {
  const account = unprivilegedAccount(name);
  if (typeof account === 'string') {
    console.log(`skipped: ${account}`);
    return null;
  }
  return account;
}

const readOnlyMissing = readOnlyMountMissing();
if (readOnlyMissing !== null) console.log(`skipped: ${readOnlyMissing}`);
const nobody = accountOrSkip('nobody');
const wwwData = accountOrSkip('www-data');

let archive: ArchiveEmulator;
let host: HostFixture;
const roots: string[] = [];

function freshRoot(): string {
  const root = mkdtempSync(join(tmpdir(), 'dus-access-'));
  chmodSync(root, 0o755);
  roots.push(root);
  return root;
}

function dus(dir: string, args: readonly string[], options: ProcessRunOptions = {}): Promise<ProcessRun> {
  return runCliProcess(['--config-dir', dir, ...args], options);
}

async function configured(dir = join(freshRoot(), 'config')): Promise<string> {
  const saved = await dus(dir, ['--host-db', host.dbUrl, 'setup', `--url=${archive.url}`, '--token-stdin', '--allow-local', '--archive-account=archive'], {
    stdin: TOKEN,
  });
  expect(saved).toMatchObject({ code: 0, err: '' });
  return dir;
}

function chownTree(path: string, account: Account): void {
  chownSync(path, account.uid, account.gid);
  for (const name of readdirSync(path, { recursive: true, encoding: 'utf8' })) chownSync(join(path, name), account.uid, account.gid);
}

/** Every file and directory under `dir` with its permission bits. */
function modesUnder(dir: string): Record<string, string> {
  const modes: Record<string, string> = { '.': (statSync(dir).mode & 0o777).toString(8) };
  for (const name of readdirSync(dir, { recursive: true, encoding: 'utf8' })) modes[name] = (statSync(join(dir, name)).mode & 0o777).toString(8);
  return modes;
}

function noStackNoInternal(run: ProcessRun): void {
  expect(run.err).not.toMatch(/\n\s+at |Error \[internal\]/);
}

beforeAll(async () => {
  archive = await startArchiveEmulator({ tokens: [TOKEN] });
  host = await createHostFixture('sqlite');
  await host.addUser('archive');
  await host.addUser('alice');
  // The unprivileged accounts read the host database too (read-only).
  const file = host.dbUrl.replace(/^sqlite:\/\//, '');
  chmodSync(dirname(file), 0o755);
  chmodSync(file, 0o644);
});

afterAll(async () => {
  await archive.close();
  await host.drop();
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

(readOnlyMissing === null ? describeBuilt : describe.skip)('a config directory on a read-only file system (EROFS)', () => {
  test('commands that only read work, with one warning line for the log', async () => {
    const dir = await configured();
    for (const args of [['test'], ['check'], ['setupchecks'], ['config:app:get', 'docs_unified_search', 'docs_url']]) {
      const writable = await dus(dir, args);
      const readOnly = await dus(dir, args, { readOnly: dir });
      expect({ args, code: readOnly.code, out: readOnly.out }).toEqual({ args, code: writable.code, out: writable.out });
      expect(readOnly.err).toMatch(
        /^Warning: the host log \S+docs_unified_search\.log cannot be written \(EROFS\); its lines go to standard error instead\.\n/,
      );
      noStackNoInternal(readOnly);
    }
  });

  test('a write the command needs names the file, the code and the fix (exit 1)', async () => {
    const dir = await configured();
    const cases: [string[], RegExp][] = [
      [['why', 'alice', '1'], /Error \[config_access\]: Cannot write \S+audit\.log \(EROFS\)\. The file system holding it is read-only: .*--config-dir/],
      [['search', 'alice', 'invoice'], /Error \[config_access\]: Cannot write \S+audit\.log \(EROFS\)/],
      [['setup', `--url=${archive.url}`], /Error \[config_access\]: Cannot write \S+settings\.lock \(EROFS\)/],
      [['config:app:set', 'docs_unified_search', 'always_search', '--value=true'], /Error \[config_access\]: Cannot write \S+settings\.lock \(EROFS\)/],
    ];
    for (const [args, expected] of cases) {
      const run = await dus(dir, args, { readOnly: dir });
      expect({ args, code: run.code }).toEqual({ args, code: 1 });
      expect(run.err).toMatch(expected);
      noStackNoInternal(run);
    }
  });
});

(nobody === null ? describe.skip : describeBuilt)('files the running user may not read', () => {
  test('an unreadable settings.json names its owner, its mode and the running user; never "remove it"', async () => {
    if (nobody === null) return;
    const dir = await configured();
    chownTree(dir, nobody);
    chownSync(join(dir, 'settings.json'), 0, 0);
    const run = await dus(dir, ['test'], { uid: nobody.uid, gid: nobody.gid });
    expect(run.code).toBe(1);
    expect(run.err).toMatch(
      /^Error \[config_access\]: Cannot read \S+settings\.json \(EACCES\)\. \S+settings\.json is owned by root \(uid 0\) with mode 0600, and this command runs as nobody \(uid 65534\): run it as the owner/,
    );
    expect(run.err).not.toMatch(/broken|remove it/);
    noStackNoInternal(run);
  });

  test('a directory the user may not write: reads work, a save names the directory and who owns it', async () => {
    if (nobody === null) return;
    const dir = await configured();
    chownTree(dir, nobody);
    chmodSync(dir, 0o500);
    const as = { uid: nobody.uid, gid: nobody.gid };
    // The log file is the user's own, so it is still appended to.
    expect(await dus(dir, ['test'], as)).toMatchObject({ code: 0, err: '' });
    const write = await dus(dir, ['setup', `--url=${archive.url}`], as);
    expect(write.code).toBe(1);
    expect(write.err).toMatch(
      /^Error \[config_access\]: Cannot write \S+settings\.lock \(EACCES\)\. \S+ is owned by nobody \(uid 65534\) with mode 0500, and this command runs as nobody \(uid 65534\)/,
    );
    noStackNoInternal(write);
  });
});

describeBuilt('damaged files', () => {
  test('a secret that is a directory is named, with what to do', async () => {
    const dir = await configured();
    rmSync(join(dir, 'secret'));
    mkdirSync(join(dir, 'secret'));
    const run = await dus(dir, ['test']);
    expect(run.code).toBe(1);
    expect(run.err).toMatch(/^Error \[config_access\]: Cannot read \S+\/secret \(EISDIR\)\. \S+\/secret is a directory where a file is expected/);
    noStackNoInternal(run);
  });

  test('a --config-dir that names a file is config_access with what to do, not internal EEXIST', async () => {
    const file = join(freshRoot(), 'not-a-directory');
    writeFileSync(file, 'x');
    for (const args of [['test'], ['check', '--json']]) {
      const run = await dus(file, args);
      expect(run.code).toBe(1);
      expect(run.err).toMatch(
        /^Error \[config_access\]: Cannot create the directory \S+\/not-a-directory \(EEXIST\)\. \S+\/not-a-directory is not a directory: /,
      );
      noStackNoInternal(run);
    }
    expect(readFileSync(file, 'utf8')).toBe('x');
  });
});

describeBuilt('modes of everything the suite creates', () => {
  test.each(['000', '022'])('umask %s: every file 0600, every directory 0700', async (umask) => {
    const root = freshRoot();
    const dir = join(root, 'config');
    const logs = join(root, 'logs', 'dus.log');
    const as = { umask };
    expect(
      (
        await dus(dir, ['--host-db', host.dbUrl, 'setup', `--url=${archive.url}`, '--token-env=T', '--allow-local', '--archive-account=archive'], {
          ...as,
          env: { T: TOKEN },
        })
      ).code,
    ).toBe(0);
    expect((await dus(dir, ['search', 'alice', 'invoice'], as)).code).toBe(0);
    expect((await dus(dir, ['why', 'alice', '1'], as)).code).toBe(0);
    expect((await dus(dir, ['config:app:set', 'docs_unified_search', 'always_search', '--value=true'], as)).code).toBe(0);
    expect((await dus(dir, ['--log-file', logs, 'test'], as)).code).toBe(0);
    const modes = modesUnder(dir);
    // search and why keep the marker index file (a temporary file renamed over it: none left).
    expect(Object.keys(modes).sort()).toEqual(['.', 'audit.log', 'credentials.json', 'docs_unified_search.log', 'marker-index.bin', 'secret', 'settings.json']);
    expect(modes).toEqual(Object.fromEntries(Object.keys(modes).map((name) => [name, name === '.' ? '700' : '600'])));
    expect(modesUnder(dirname(logs))).toEqual({ '.': '700', 'dus.log': '600' });
  });

  test.each([0o000, 0o022])('umask %o: the settings lock file is 0600', (umask) => {
    const dir = freshRoot();
    const lock = join(dir, 'settings.lock');
    const previous = process.umask(umask);
    try {
      expect(withFileLock(lock, {}, () => statSync(lock).mode & 0o777)).toBe(0o600);
    } finally {
      process.umask(previous);
    }
  });
});

(wwwData === null ? describe.skip : describeBuilt)("README's setup as www-data on Debian's layout (a home owned by root)", () => {
  test('the default directory cannot be made: config_access says why and what to give; the documented commands work', async () => {
    if (wwwData === null) return;
    const root = freshRoot();
    // Debian: www-data's home /var/www exists, owned by root, mode 0755.
    const home = join(root, 'var-www');
    mkdirSync(home, { mode: 0o755 });
    const as = { uid: wwwData.uid, gid: wwwData.gid, env: { HOME: home }, stdin: TOKEN };
    const setupArgs = ['--host-db', host.dbUrl, 'setup', `--url=${archive.url}`, '--token-stdin', '--allow-local', '--archive-account=archive'];
    const old = await runCliProcess(setupArgs, as);
    expect(old.code).toBe(1);
    expect(old.err).toMatch(
      new RegExp(
        `^Error \\[config_access\\]: Cannot create the directory ${home}/\\.config/docs-unified-search \\(EACCES\\)\\. ${home} is owned by root \\(uid 0\\) with mode 0755, and this command runs as www-data \\(uid 33\\): .*--config-dir`,
      ),
    );
    noStackNoInternal(old);

    // README, as root: `install -d -o www-data -g www-data -m 0700 /var/lib/docs-unified-search`, then every command with --config-dir.
    const dir = join(root, 'var-lib', 'docs-unified-search');
    const install = spawnSync('install', ['-d', '-o', 'www-data', '-g', 'www-data', '-m', '0700', dir], { encoding: 'utf8' });
    expect(install.stderr).toBe('');
    expect(await runCliProcess(['--config-dir', dir, ...setupArgs], as)).toMatchObject({ code: 0, err: '' });
    expect(await runCliProcess(['--config-dir', dir, 'test'], as)).toMatchObject({ code: 0, err: '' });
    const owners = readdirSync(dir).map((name) => statSync(join(dir, name)).uid);
    expect(new Set(owners)).toEqual(new Set([wwwData.uid]));
  });
});
