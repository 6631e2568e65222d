import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { FileCredentialStore } from '../src/core/settings/credential-store.js';
import { startArchiveEmulator, type ArchiveEmulator } from './support/archive-emulator/index.js';
import { createHostFixture, type HostFixture } from './support/host-fixtures/index.js';
import { runNodeScript, TS_IMPORT_PRELUDE } from './support/settings-helpers.js';

/**
 * Two real processes run the save use case against two archive servers at once. Each save
 * writes the token and the settings together; at no moment may a reader find the URL of one
 * server with the token of the other, and the end state is one whole save.
 */
const CHILD = `${TS_IMPORT_PRELUDE}const [src, dir, dbUrl, url, token, pairsJson, rounds] = process.argv.slice(2);
const { openContext } = await import(src + '/core/context.ts');
const { saveSettings } = await import(src + '/core/admin/save-settings.ts');
const pairs = JSON.parse(pairsJson);
const context = openContext({ configDir: dir, env: {}, hostLocation: { dbUrl } });
for (let i = 0; i < Number(rounds); i += 1) {
  await saveSettings(context, { url, token, allowLocal: true });
  // Read both stores as one writer would leave them: under the settings lock.
  const [seenUrl, seenToken] = context.settings.transaction(() => [context.settings.get('docs_url'), context.credentials.load()]);
  if (seenToken.status !== 'ok' || pairs[seenUrl] !== seenToken.token) {
    process.stderr.write('mixed: ' + seenUrl + '\\n');
    process.exitCode = 3;
  }
}
await context.close();
`;

let first: ArchiveEmulator;
let second: ArchiveEmulator;
let host: HostFixture;

beforeAll(async () => {
  first = await startArchiveEmulator({ tokens: ['first-token'] });
  second = await startArchiveEmulator({ tokens: ['second-token'] });
  host = await createHostFixture('sqlite');
});

afterAll(async () => {
  await first.close();
  await second.close();
  await host.drop();
});

describe('two processes saving at once', () => {
  test('never leave the URL of one server with the token of the other', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dus-concurrent-'));
    const script = join(dir, 'save-child.mjs');
    writeFileSync(script, CHILD);
    const pairs = JSON.stringify({ [first.url]: 'first-token', [second.url]: 'second-token' });
    const src = resolve('src');
    const rounds = '20';
    const results = await Promise.all([
      runNodeScript(script, [src, dir, host.dbUrl, first.url, 'first-token', pairs, rounds]),
      runNodeScript(script, [src, dir, host.dbUrl, second.url, 'second-token', pairs, rounds]),
    ]);
    for (const result of results) expect(result).toEqual({ code: 0, stderr: '' });
    const settings = JSON.parse(readFileSync(join(dir, 'settings.json'), 'utf8')) as Record<string, unknown>;
    const token = new FileCredentialStore({ directory: dir, env: {} }).load();
    const expected = settings.docs_url === first.url ? { token: 'first-token', origin: first.origin } : { token: 'second-token', origin: second.origin };
    expect([first.url, second.url]).toContain(settings.docs_url);
    expect(token).toMatchObject({ status: 'ok', ...expected });
    expect(first.requests.length).toBeGreaterThanOrEqual(20);
    expect(second.requests.length).toBeGreaterThanOrEqual(20);
  });
});
