/**
 * The bridge app's files: PHP that lints, Nextcloud's coding standard (as near as Debian's
 * php-codesniffer gets, nextcloud-app/phpcs.xml), and `npm run package:nextcloud-app` giving
 * a tarball of the app's own folders only, without any secret.
 */
import { describe, expect, test } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { ADMIN_SCRIPT } from '../src/http/pages/admin-script.js';

const APP = 'nextcloud-app/docs_unified_search';

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

const has = (command: string): boolean => spawnSync('sh', ['-c', `command -v ${command}`]).status === 0;
const phpFiles = filesUnder(APP).filter((file) => file.endsWith('.php'));

describe('the PHP of the bridge app', () => {
  const withPhp = has('php') ? test : test.skip;
  if (!has('php')) process.stdout.write('SKIP php -l of the bridge app: php is not installed\n');
  withPhp('every file passes php -l', () => {
    expect(phpFiles.length).toBeGreaterThan(10);
    for (const file of phpFiles) {
      const lint = spawnSync('php', ['-l', file], { encoding: 'utf8' });
      expect([file, lint.status, lint.stdout.trim()]).toEqual([file, 0, `No syntax errors detected in ${file}`]);
    }
  });

  const withPhpcs = has('phpcs') ? test : test.skip;
  if (!has('phpcs')) process.stdout.write('SKIP coding standard of the bridge app: phpcs (Debian php-codesniffer) is not installed\n');
  withPhpcs('every file keeps the coding standard (nextcloud-app/phpcs.xml)', () => {
    const check = spawnSync('phpcs', ['--standard=phpcs.xml', '--report=emacs'], { cwd: 'nextcloud-app', encoding: 'utf8' });
    expect(check.stdout).toBe('');
    expect(check.status).toBe(0);
  });

  test('the section script in the app is the admin page script (run npm run package:nextcloud-app after changing it)', () => {
    expect(readFileSync(join(APP, 'js', 'admin-settings.js'), 'utf8')).toBe(ADMIN_SCRIPT);
  });

  test('every class info.xml names exists, and the version is the package version', () => {
    const info = readFileSync(join(APP, 'appinfo', 'info.xml'), 'utf8');
    const classes = [...info.matchAll(/>OCA\\DocsUnifiedSearch\\([^<]+)</g)].map((match) => match[1] ?? '');
    expect(classes.length).toBeGreaterThanOrEqual(3);
    for (const name of classes) expect(phpFiles).toContain(join(APP, 'lib', `${name.replaceAll('\\', '/')}.php`));
    const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
    expect(info).toContain(`<version>${version}</version>`);
  });
});

describe('npm run package:nextcloud-app', () => {
  test('packs the app folders only, with no secret inside, the same bytes each time', () => {
    // A settings directory with a bridge secret and a token where a careless packer might look.
    const home = mkdtempSync(join(tmpdir(), 'dus-package-'));
    const secret = 'S3cr3t-bridge-value-that-must-not-travel-x1';
    try {
      const config = join(home, '.config', 'docs-unified-search');
      mkdirSync(config, { recursive: true });
      writeFileSync(join(config, 'bridge-secret'), `${secret}\n`);
      writeFileSync(join(APP, 'stray-secret.txt'), secret);
      const env = { ...process.env, HOME: home, DUS_CONFIG_DIR: config };
      const first = spawnSync(process.execPath, ['scripts/package-nextcloud-app.mjs'], { env, encoding: 'utf8' });
      expect(first.status).toBe(0);
      const archive = first.stdout.trim();
      expect(relative(process.cwd(), archive)).toMatch(/^dist-nextcloud-app\/docs_unified_search-\d+\.\d+\.\d+\.tar\.gz$/);
      const bytes = readFileSync(archive);
      const listing = spawnSync('tar', ['-tzf', archive], { encoding: 'utf8' })
        .stdout.split('\n')
        .filter((line) => line !== '');
      expect(listing.every((entry) => /^docs_unified_search\/((appinfo|lib|templates|img|js|css|l10n)\/.*)?$/.test(entry))).toBe(true);
      expect(listing).toEqual(
        expect.arrayContaining([
          'docs_unified_search/appinfo/info.xml',
          'docs_unified_search/lib/AppInfo/Application.php',
          'docs_unified_search/js/admin-settings.js',
          'docs_unified_search/l10n/de.json',
          'docs_unified_search/l10n/de_DE.js',
        ]),
      );
      const contents = spawnSync('tar', ['-xzOf', archive], { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 }).stdout;
      expect(contents).not.toContain(secret);
      const again = spawnSync(process.execPath, ['scripts/package-nextcloud-app.mjs'], { env, encoding: 'utf8' });
      expect(again.status).toBe(0);
      expect(readFileSync(archive).equals(bytes)).toBe(true);
    } finally {
      rmSync(join(APP, 'stray-secret.txt'), { force: true });
      rmSync(home, { recursive: true, force: true });
    }
  });
});
