/**
 * Where the real Nextcloud comes from (test/support/real-nextcloud/source.ts, index.ts): a user's
 * own server tree or tarball named by DUS_NEXTCLOUD_TARBALL becomes the .xz tarball install.sh
 * unpacks, with `nextcloud/` on top and an installed tree's config.php and data left out.
 */
import { afterAll, describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_RELEASE, installedVersion, nextcloudSource, releaseLabel, releaseTarball, xzTarball } from './support/real-nextcloud/index.js';

const tools = ['tar', 'xz'].filter((tool) => spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0);
if (tools.length > 0) process.stdout.write(`SKIP real-Nextcloud source packing: ${tools.join(', ')} not installed\n`);
const describeTools = tools.length === 0 ? describe : describe.skip;

const listing = (tarball: string): string[] =>
  spawnSync('tar', ['-tJf', tarball], { encoding: 'utf8' })
    .stdout.split('\n')
    .filter((line) => line !== '')
    .sort();

describeTools('the Nextcloud source a user names', () => {
  const dir = mkdtempSync(join(tmpdir(), 'dus-nc-source-'));
  const made: string[] = [];
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
    for (const file of made) rmSync(file, { force: true });
  });

  const tree = join(dir, 'my-server');
  mkdirSync(join(tree, 'config'), { recursive: true });
  mkdirSync(join(tree, 'data', 'admin'), { recursive: true });
  mkdirSync(join(tree, 'lib'), { recursive: true });
  writeFileSync(join(tree, 'occ'), '<?php // occ');
  writeFileSync(join(tree, 'version.php'), '<?php $OC_Version = [32, 0, 0, 0];');
  writeFileSync(join(tree, 'lib', 'base.php'), '<?php');
  writeFileSync(join(tree, 'config', 'config.php'), '<?php $CONFIG = ["installed" => true];');
  writeFileSync(join(tree, 'config', 'config.sample.php'), '<?php');
  writeFileSync(join(tree, 'data', 'admin', 'x.txt'), 'user data');

  it('takes the release a run asks for from the vendored tarballs, 34.0.1 unless told, and lets DUS_NEXTCLOUD_TARBALL replace it', () => {
    expect(DEFAULT_RELEASE).toBe('34.0.1');
    expect(releaseTarball('33.0.1')).toMatch(/[/]vendor[/]nextcloud-33\.0\.1\.tar\.xz$/);
    const vendored = (release: '34.0.1' | '33.0.1'): unknown => nextcloudSource({}, release);
    for (const release of ['34.0.1', '33.0.1'] as const) {
      const expected = existsSync(releaseTarball(release))
        ? { path: releaseTarball(release), kind: 'tarball' }
        : expect.stringContaining(`no Nextcloud ${release} tarball at`);
      expect(vendored(release)).toEqual(expected);
      expect(releaseLabel(release, {})).toBe(`Nextcloud ${release}`);
      // The user's own server replaces every release, under either variable name.
      expect(nextcloudSource({ DUS_NEXTCLOUD_TARBALL: tree }, release)).toEqual({ path: tree, kind: 'tree' });
      expect(nextcloudSource({ NEXTCLOUD_TARBALL: tree }, release)).toEqual({ path: tree, kind: 'tree' });
      expect(releaseLabel(release, { NEXTCLOUD_TARBALL: tree })).toContain(tree);
    }
    expect(installedVersion(tree)).toBe(null);
  });

  it('reads the version of a server tree from its version.php', () => {
    const other = join(dir, 'versioned');
    mkdirSync(other, { recursive: true });
    writeFileSync(join(other, 'version.php'), "<?php\n$OC_Version = array(34,0,1,2);\n$OC_VersionString = '34.0.1';\n");
    expect(installedVersion(other)).toBe('34.0.1');
  });

  it('says what is wrong with a path that is neither a tarball nor a server tree', () => {
    expect(nextcloudSource({ DUS_NEXTCLOUD_TARBALL: join(dir, 'missing.tar.xz') })).toMatch(/no Nextcloud tarball or server tree at .*missing\.tar\.xz/);
    expect(nextcloudSource({ DUS_NEXTCLOUD_TARBALL: join(tree, 'lib') })).toMatch(/without occ and version\.php/);
    expect(nextcloudSource({ DUS_NEXTCLOUD_TARBALL: tree })).toEqual({ path: tree, kind: 'tree' });
  });

  it('packs a server tree under nextcloud/, without its config.php and data', async () => {
    const tarball = await xzTarball({ path: tree, kind: 'tree' });
    made.push(tarball);
    expect(listing(tarball)).toEqual([
      'nextcloud/',
      'nextcloud/config/',
      'nextcloud/config/config.sample.php',
      'nextcloud/lib/',
      'nextcloud/lib/base.php',
      'nextcloud/occ',
      'nextcloud/version.php',
    ]);
  });

  it('repacks a tarball of another compression, and takes an .xz tarball as it is', async () => {
    const gz = join(dir, 'nextcloud-32.tar.gz');
    expect(spawnSync('tar', ['-czf', gz, '-C', dir, '--transform', 's,^my-server,nextcloud,', 'my-server/occ', 'my-server/version.php']).status).toBe(0);
    const tarball = await xzTarball({ path: gz, kind: 'tarball' });
    made.push(tarball);
    expect(listing(tarball)).toEqual(['nextcloud/', 'nextcloud/occ', 'nextcloud/version.php']);
    expect(await xzTarball({ path: tarball, kind: 'tarball' })).toBe(tarball);
  });
});
