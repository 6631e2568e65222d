#!/usr/bin/env node
// Builds dist-nextcloud-app/docs_unified_search-<version>.tar.gz from nextcloud-app/docs_unified_search
// (run `npm run build` first: the admin section's script is the admin page's, from dist/).
// Only the app's own folders go in, listed below: never a config file, a secret or a test file.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const appDir = join(root, 'nextcloud-app', 'docs_unified_search');
const { ADMIN_SCRIPT } = await import(join(root, 'dist/http/pages/admin-script.js'));
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

// The section's script is the admin page's script, kept in the app folder (committed; a test compares).
mkdirSync(join(appDir, 'js'), { recursive: true });
writeFileSync(join(appDir, 'js', 'admin-settings.js'), ADMIN_SCRIPT);

const info = readFileSync(join(appDir, 'appinfo', 'info.xml'), 'utf8');
const declared = /<version>([^<]+)<\/version>/.exec(info)?.[1];
if (declared !== version) {
  console.error(`package-nextcloud-app: appinfo/info.xml says version ${declared}, package.json ${version}: make them agree`);
  process.exit(1);
}

const stage = mkdtempSync(join(tmpdir(), 'dus-nc-app-'));
try {
  const target = join(stage, 'docs_unified_search');
  for (const part of ['appinfo', 'lib', 'templates', 'img', 'js', 'css', 'l10n']) cpSync(join(appDir, part), join(target, part), { recursive: true });
  const outDir = join(root, 'dist-nextcloud-app');
  mkdirSync(outDir, { recursive: true });
  const archive = join(outDir, `docs_unified_search-${version}.tar.gz`);
  // Sorted names, no owner, fixed time: the same tree gives the same bytes.
  const tar = execFileSync('tar', ['--sort=name', '--owner=0', '--group=0', '--numeric-owner', '--mtime=@0', '--mode=u+rwX,go+rX,go-w', '-C', stage, '-cf', '-', 'docs_unified_search']);
  writeFileSync(archive, execFileSync('gzip', ['-n', '-9'], { input: tar }));
  console.log(archive);
} finally {
  rmSync(stage, { recursive: true, force: true });
}
