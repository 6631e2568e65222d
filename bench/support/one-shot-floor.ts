/**
 * The least any one-shot `search` has to do, written with nothing of the suite: decrypt the
 * token as the credential store does (node:crypto: HKDF-SHA256, AES-256-GCM, DESIGN.md), ask
 * the archive server once with undici's Client (its own files, as the archive client loads them,
 * with Node's compile cache on), run one statement on the SQLite host (node:sqlite) and print a
 * line. bench/cli-start.ts runs it beside the commands: a command's ratio to `node -e 0` cannot
 * fall below this script's, whatever the suite does.
 */
import { createCipheriv, randomBytes, hkdfSync } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

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

/** Writes the script (CommonJS, as the executable) into `dir`; run it as `node <file> <archive URL> <search path> <SQLite file>`. */
export function writeFloorScript(dir: string, root: string, cacheDir: string): string {
  const undici = join(root, 'node_modules', 'undici', 'lib');
  const file = join(dir, 'one-shot-floor.cjs');
  writeFileSync(
    file,
    `'use strict';
require('node:module').enableCompileCache(${JSON.stringify(cacheDir)});
const { writeSync } = require('node:fs');
const [url, path, database] = process.argv.slice(2);
const record = JSON.parse(process.env.FLOOR_RECORD);
const bytes = (name) => Buffer.from(record[name], 'hex');
const crypto = require('node:crypto');
const key = Buffer.from(crypto.hkdfSync('sha256', bytes('secret'), bytes('salt'), 'docs-unified-search token', 32));
const decipher = crypto.createDecipheriv('aes-256-gcm', key, bytes('iv'));
decipher.setAuthTag(bytes('tag'));
const token = Buffer.concat([decipher.update(bytes('data')), decipher.final()]).toString('utf8');
const Client = require(${JSON.stringify(join(undici, 'dispatcher', 'client.js'))});
const request = require(${JSON.stringify(join(undici, 'api', 'api-request.js'))});
const client = new Client(new URL(url).origin);
request.call(client, { path, method: 'GET', headers: { authorization: 'Token ' + token, accept: 'application/json; version=9' } }).then(async (answer) => {
  const body = JSON.parse(await answer.body.text());
  const { DatabaseSync } = require('node:sqlite');
  const host = new DatabaseSync(database, { readOnly: true });
  const files = host.prepare("SELECT fileid, path FROM oc_filecache WHERE name LIKE '%[P' || ? || ']%' LIMIT 25").all(String(body.results[0]?.id ?? 0));
  host.close();
  writeSync(1, body.count + ' document(s), ' + files.length + ' file(s)\\n');
  await client.close();
});
`,
  );
  return file;
}
