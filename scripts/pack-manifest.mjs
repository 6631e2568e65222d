#!/usr/bin/env node
// npm pack's prepack and postpack: the packed package.json carries no scripts and no development
// fields. An installed copy has nothing to build (dist/ is in the tarball), and npm 11 warns at
// `npm install -g` about every lifecycle script of the package not covered by allowScripts —
// `prepare`, which builds a clone at `npm ci`, among them, although npm never runs it for a
// tarball. `strip` keeps the developer's package.json byte for byte beside it; `restore` puts it
// back (npm runs postpack only when packing worked: after a failed pack, run `restore` by hand).
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const manifest = join(root, 'package.json');
const kept = join(root, 'package.json.before-pack');

/** Fields that only a clone reads: its scripts, its development tools, npm's settings for its own installs. */
export const DEVELOPMENT_FIELDS = ['scripts', 'devDependencies', 'allowScripts', 'overrides'];

const action = process.argv[2];
if (action === 'strip') {
  if (existsSync(kept)) {
    console.error(`pack-manifest: ${kept} is still there from an earlier pack: run node scripts/pack-manifest.mjs restore first`);
    process.exit(1);
  }
  const text = readFileSync(manifest, 'utf8');
  const parsed = JSON.parse(text);
  for (const field of DEVELOPMENT_FIELDS) delete parsed[field];
  writeFileSync(kept, text);
  writeFileSync(manifest, `${JSON.stringify(parsed, null, 2)}\n`);
} else if (action === 'restore') {
  if (existsSync(kept)) renameSync(kept, manifest);
} else {
  console.error('usage: node scripts/pack-manifest.mjs strip|restore');
  process.exit(2);
}
