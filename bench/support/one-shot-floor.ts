/**
 * The least any one-shot `search` has to do, written with nothing of the suite: decrypt the
 * token as the credential store does (node:crypto: HKDF-SHA256, AES-256-GCM, DESIGN.md), ask
 * the archive server once, run one statement on the SQLite host (node:sqlite) and print a line.
 * The request goes by undici's Client, the spec's client, loaded plainly from its own files
 * (with Node's compile cache on, but without the program's stand-ins for node:http2, node:http
 * and node:assert), or bundled and run as the program is (`buildBundledFloor`), or by node:http,
 * Node's own client, whose parser is part of Node: no client can ask for less.
 * bench/cli-start.ts runs the three beside the commands.
 */
import { createCipheriv, randomBytes, hkdfSync } from 'node:crypto';
import { build } from 'esbuild';
import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The token sealed as the credential store seals it, for the script's environment (FLOOR_RECORD). */
export function sealedForFloor(token: string): string {
  const secret = randomBytes(32);
  const salt = randomBytes(16);
  const iv = randomBytes(12);
  const key = Buffer.from(hkdfSync('sha256', secret, salt, 'docs-unified-search token', 32));
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const data = Buffer.concat([cipher.update(token, 'utf8'), cipher.final()]);
  const hex = (value: Buffer): string => value.toString('hex');
  return JSON.stringify({ secret: hex(secret), salt: hex(salt), iv: hex(iv), tag: hex(cipher.getAuthTag()), data: hex(data) });
}

/** The script's text (CommonJS, as the executable's program): Node's compile cache in `cacheDir` when one is given. */
function floorSource(root: string, cacheDir: string | null): string {
  const undici = join(root, 'node_modules', 'undici', 'lib');
  return `'use strict';
${cacheDir === null ? '' : `require('node:module').enableCompileCache(${JSON.stringify(cacheDir)});\n`}const { writeSync } = require('node:fs');
const [client, url, path, database] = process.argv.slice(2);
const record = JSON.parse(process.env.FLOOR_RECORD);
const bytes = (name) => Buffer.from(record[name], 'hex');
const crypto = require('node:crypto');
const key = Buffer.from(crypto.hkdfSync('sha256', bytes('secret'), bytes('salt'), 'docs-unified-search token', 32));
const decipher = crypto.createDecipheriv('aes-256-gcm', key, bytes('iv'));
decipher.setAuthTag(bytes('tag'));
const token = Buffer.concat([decipher.update(bytes('data')), decipher.final()]).toString('utf8');
const headers = { authorization: 'Token ' + token, accept: 'application/json; version=9' };
function answered(text) {
  const body = JSON.parse(text);
  const { DatabaseSync } = require('node:sqlite');
  const host = new DatabaseSync(database, { readOnly: true });
  const files = host.prepare("SELECT fileid, path FROM oc_filecache WHERE name LIKE '%[P' || ? || ']%' LIMIT 25").all(String(body.results[0]?.id ?? 0));
  host.close();
  writeSync(1, body.count + ' document(s), ' + files.length + ' file(s)\\n');
}
if (client === 'undici') {
  const Client = require(${JSON.stringify(join(undici, 'dispatcher', 'client.js'))});
  const request = require(${JSON.stringify(join(undici, 'api', 'api-request.js'))});
  const dispatcher = new Client(new URL(url).origin, { maxHeaderSize: 16384 }); // as the archive client gives it
  request.call(dispatcher, { path, method: 'GET', headers }).then(async (answer) => {
    answered(await answer.body.text());
    await dispatcher.close();
  });
} else {
  require('node:http').get(new URL(path, url), { headers }, (answer) => {
    let text = '';
    answer.setEncoding('utf8');
    answer.on('data', (chunk) => (text += chunk));
    answer.on('end', () => answered(text));
  });
}
`;
}

/**
 * Writes the script into `dir`, undici's files loaded from node_modules as they are; run it as
 * `node <file> undici|node:http <archive URL> <search path> <SQLite file>`.
 */
export function writeFloorScript(dir: string, root: string, cacheDir: string): string {
  const file = join(dir, 'one-shot-floor.cjs');
  writeFileSync(file, floorSource(root, cacheDir));
  return file;
}

/**
 * The same script as the program is built and run (scripts/build-bundle.mjs, bin/): one CommonJS
 * bundle with undici's Client and the program's stand-ins (scripts/undici-parts.mjs), llhttp's
 * WebAssembly beside it, compiled by a loader from a code cache written after its first run.
 * Run the returned loader with the script's arguments.
 */
export async function buildBundledFloor(dir: string, root: string): Promise<string> {
  const entry = join(dir, 'one-shot-floor-entry.cjs');
  const bundle = join(dir, 'one-shot-floor-bundled.cjs');
  writeFileSync(entry, floorSource(root, null));
  // From the checkout's scripts/ (this file runs from dist-tools/, which tsc fills with .js only).
  const { lazyUndiciParts } = (await import(pathToFileURL(join(root, 'scripts', 'undici-parts.mjs')).href)) as typeof import('../../scripts/undici-parts.mjs');
  await build({
    entryPoints: [entry],
    outfile: bundle,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node22',
    plugins: [lazyUndiciParts],
    logLevel: 'warning',
  });
  for (const name of ['llhttp_simd.wasm', 'llhttp.wasm']) copyFileSync(join(root, 'dist', name), join(dir, name));
  const loader = join(dir, 'one-shot-floor-loader.cjs');
  writeFileSync(
    loader,
    `'use strict';
const { existsSync, readFileSync, writeFileSync } = require('node:fs');
const Module = require('node:module');
const vm = require('node:vm');
const file = ${JSON.stringify(bundle)};
const cacheFile = file + '.v8cache';
const cachedData = existsSync(cacheFile) ? readFileSync(cacheFile) : undefined;
const script = new vm.Script(Module.wrap(readFileSync(file, 'utf8')), { filename: file, cachedData });
const loaded = { exports: {} };
script.runInThisContext()(loaded.exports, Module.createRequire(file), loaded, file, ${JSON.stringify(dir)});
if (cachedData === undefined || script.cachedDataRejected === true) process.once('exit', () => writeFileSync(cacheFile, script.createCachedData()));
`,
  );
  return loader;
}
