/**
 * The release a user installs (issue 40): `npm pack` of this checkout, then `npm install -g` of
 * that tarball into a temporary prefix, as the README's Install section says, and the installed
 * executable run with the project's own Node: `--version`, `help` and `why` against a fixture
 * database. npm 11 warned at that install that the package's install scripts were not run
 * (`prepare`, which builds a clone at `npm ci`): the packed package.json now carries no scripts.
 *
 * The pack runs in a copy of the checkout's package files whose `build` script does nothing:
 * `npm test` built dist/ before jest starts, and packing in the checkout itself would rewrite its
 * package.json (prepack/postpack) while other test files read it. The install takes the
 * dependencies from npm's cache first (`--prefer-offline`; `npm ci` filled it); when one is missing
 * and the registry is out of reach, the installed-copy tests are skipped and say why.
 */
import { afterAll, describe, expect, test } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { builtCliMissing } from './support/cli-process.js';
import { createHostFixture } from './support/host-fixtures/index.js';

const root = join(import.meta.dirname, '..');
const work = mkdtempSync(join(tmpdir(), 'dus-package-'));
// npm and the installed executable run on the Node that runs the tests (the project's Node 24).
const PATH = [dirname(process.execPath), process.env.PATH ?? ''].join(delimiter);
const env = { ...process.env, PATH, npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' };

interface Step {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function npm(args: readonly string[], cwd: string): Step {
  const run = spawnSync('npm', args, { cwd, env, encoding: 'utf8', timeout: 150_000 });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

/** Errors npm reports when the registry cannot be reached and the cache lacks a package. */
const OFFLINE = /ENOTCACHED|ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENETUNREACH|network/;

const missingBuild = builtCliMissing();
const copy = join(work, 'checkout');
const prefix = join(work, 'prefix');
let packed: Step | undefined;
let tarball = '';
let installed: Step | undefined;
let skipReason: string | null = missingBuild;
const manifestBefore = readFileSync(join(root, 'package.json'), 'utf8');
let copyManifest = '';

if (missingBuild === null) {
  mkdirSync(copy);
  for (const part of ['bin', 'dist', 'man', 'completion', 'nextcloud-app', 'docs', 'scripts', 'README.md'])
    cpSync(join(root, part), join(copy, part), { recursive: true });
  const manifest = JSON.parse(manifestBefore) as { scripts: Record<string, string> };
  manifest.scripts.build = 'node -e 0';
  copyManifest = `${JSON.stringify(manifest, null, 2)}\n`;
  writeFileSync(join(copy, 'package.json'), copyManifest);
  packed = npm(['pack', '--pack-destination', work], copy);
  tarball = readdirSync(work).find((name) => name.endsWith('.tgz')) ?? '';
  if (packed.status === 0 && tarball !== '') {
    installed = npm(['install', '-g', '--prefix', prefix, '--prefer-offline', '--no-audit', '--no-fund', join(work, tarball)], work);
    if (installed.status !== 0 && OFFLINE.test(installed.stderr)) {
      skipReason = `npm install needs the registry, which is out of reach, for a package npm's cache lacks (${OFFLINE.exec(installed.stderr)?.[0] ?? ''})`;
    }
  }
}
if (skipReason !== null) process.stdout.write(`SKIP the installed package: ${skipReason}\n`);

afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The bridge app as the README's "Inside Nextcloud" block copies it from the installed package. */
const APP_FILES = [
  'package/nextcloud-app/docs_unified_search/appinfo/info.xml',
  'package/nextcloud-app/docs_unified_search/js/admin-settings.js',
  // The systemd units the README's "serve as a service" block installs from the package.
  'package/docs/docs-unified-search.service',
  'package/docs/docs-unified-search-socket.service',
];

const installedDir = join(prefix, 'lib', 'node_modules', 'docs-unified-search');
const installedBin = join(prefix, 'bin', 'dus');

function dus(args: readonly string[], extraEnv: NodeJS.ProcessEnv = {}): Step {
  const run = spawnSync(installedBin, args, { env: { PATH, HOME: work, ...extraEnv }, encoding: 'utf8', timeout: 60_000 });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

(missingBuild === null ? describe : describe.skip)('npm pack', () => {
  test('makes a tarball with dist/, the man pages, completion and the Nextcloud app, whose package.json has no scripts or dev dependencies', () => {
    expect([packed?.status, packed?.stderr.match(/^npm (?:warn|error).*/gm) ?? []]).toEqual([0, []]);
    const list = spawnSync('tar', ['-tzf', join(work, tarball)], { encoding: 'utf8' }).stdout.split('\n');
    for (const file of [
      'package/bin/docs-unified-search.cjs',
      'package/dist/cli.cjs',
      'package/dist/help.txt',
      'package/man/docs-unified-search.1',
      'package/README.md',
      ...APP_FILES,
    ])
      expect(list).toContain(file);
    expect(list.some((file) => file.startsWith('package/completion/'))).toBe(true);
    expect(list.filter((file) => /^package\/(src|test|bench|demo|node_modules)\/|phpcs|^package\/docs\/.*\.md$/.test(file))).toEqual([]);
    const inside = JSON.parse(spawnSync('tar', ['-xzOf', join(work, tarball), 'package/package.json'], { encoding: 'utf8' }).stdout) as Record<string, unknown>;
    expect([inside.scripts, inside.devDependencies, inside.allowScripts]).toEqual([undefined, undefined, undefined]);
    expect(inside.version).toBe((JSON.parse(manifestBefore) as { version: string }).version);
  });

  test("puts the packed directory's package.json back byte for byte (postpack)", () => {
    expect(readFileSync(join(copy, 'package.json'), 'utf8')).toBe(copyManifest);
    expect(existsSync(join(copy, 'package.json.before-pack'))).toBe(false);
  });
});

(skipReason === null ? describe : describe.skip)('npm install -g of the packed tarball', () => {
  test('installs without a warning about install scripts, and without dev dependencies', () => {
    expect(installed?.status).toBe(0);
    expect(installed?.stderr).not.toMatch(/install-scripts|allowScripts|allow-scripts/);
    const modules = readdirSync(join(installedDir, 'node_modules'));
    for (const dev of ['jest', 'typescript', 'eslint', 'esbuild', 'node']) expect(modules).not.toContain(dev);
    expect(existsSync(join(prefix, 'share', 'man', 'man1', 'docs-unified-search-why.1'))).toBe(true);
    expect(APP_FILES.filter((file) => !existsSync(join(installedDir, file.replace(/^package\//, ''))))).toEqual([]);
  });

  test('the installed dus answers --version with the package version, and help with the command list', () => {
    const version = dus(['--version']);
    expect([version.status, version.stdout.trim(), version.stderr]).toEqual([0, (JSON.parse(manifestBefore) as { version: string }).version, '']);
    const help = dus(['help']);
    expect([help.status, help.stderr]).toEqual([0, '']);
    for (const name of ['setup', 'search', 'why', 'who', 'serve', 'bridge:secret']) expect(help.stdout).toContain(name);
  });

  test('the installed dus answers why against a Nextcloud database', async () => {
    const host = await createHostFixture('sqlite');
    try {
      await host.addUser('archive');
      await host.addUser('alice');
      await host.addFile('archive', 'files/Invoices/ACME 2024 [P7].pdf');
      await host.setAppConfig('docs_sync', 'target_user', 'archive');
      const why = dus(['--host-db', host.dbUrl, '--config-dir', join(work, 'config'), 'why', 'alice', '7', '--json']);
      expect([why.status, why.stderr]).toEqual([0, '']);
      expect(JSON.parse(why.stdout)).toMatchObject({ id: 7, verdict: 'not shared', owner: 'archive' });
    } finally {
      await host.drop();
    }
  });
});
