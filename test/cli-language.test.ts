/**
 * The command line's language: English unless `--lang` or the locale (LC_ALL, LC_MESSAGES,
 * LANG) names a catalog language; the code never changes; inside `--json` the message is
 * translated only when `--lang` asked for it, so a script's output does not follow the locale.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { builtCliMissing, runCliProcess } from './support/cli-process.js';
import { createHostFixture, type HostFixture } from './support/host-fixtures/index.js';
import { startArchiveEmulator, type ArchiveEmulator } from './support/archive-emulator/index.js';
import { runCli } from './support/settings-helpers.js';

const ENGLISH = 'Error [unsupported_scheme]: The archive server URL must start with http:// or https://, not ftp:.\n';
const GERMAN = 'Error [unsupported_scheme]: Die URL des Archivservers muss mit http:// oder https:// beginnen, nicht mit ftp:.\n';
const GERMAN_MESSAGE = 'Die URL des Archivservers muss mit http:// oder https:// beginnen, nicht mit ftp:.';
const ENGLISH_MESSAGE = 'The archive server URL must start with http:// or https://, not ftp:.';

let host: HostFixture;
let archive: ArchiveEmulator;
let dir: string;

beforeAll(async () => {
  host = await createHostFixture('sqlite');
  await host.addUser('archive');
  archive = await startArchiveEmulator({ tokens: ['emulator-token'] });
  dir = mkdtempSync(join(tmpdir(), 'dus-lang-'));
});

afterAll(async () => {
  await archive.close();
  await host.drop();
  rmSync(dir, { recursive: true, force: true });
});

const setup = (url: string, more: readonly string[], env: NodeJS.ProcessEnv = {}) =>
  runCli(dir, ['--host-db', host.dbUrl, 'setup', `--url=${url}`, '--token-stdin', ...more], { stdin: 'emulator-token\n', env });

describe('the command line speaks English unless asked', () => {
  test('no --lang, no locale: English, word for word', async () => {
    const run = await setup('ftp://archive.example', []);
    expect(run.code).toBe(1);
    expect(run.err).toBe(ENGLISH);
  });

  test.each([{ lang: ['--lang', 'de'] }, { lang: ['--lang=de_DE'] }, { lang: ['--lang', 'de-AT'] }])(
    '$lang: German, the code and exit code unchanged',
    async ({ lang }) => {
      const run = await setup('ftp://archive.example', lang);
      expect(run.code).toBe(1);
      expect(run.err).toBe(GERMAN);
    },
  );

  test('--lang de with --json: the message inside JSON is German too, the code is not', async () => {
    const run = await setup('ftp://archive.example', ['--lang', 'de', '--json']);
    expect(JSON.parse(run.out)).toEqual({ error: { code: 'unsupported_scheme', message: GERMAN_MESSAGE } });
  });

  test('a German locale: German lines for people, English inside --json', async () => {
    const run = await setup('ftp://archive.example', ['--json'], { LANG: 'de_DE.UTF-8' });
    expect(run.err).toBe(GERMAN);
    expect(JSON.parse(run.out)).toEqual({ error: { code: 'unsupported_scheme', message: ENGLISH_MESSAGE } });
  });

  test('LC_ALL=C over LANG=de_DE, and LC_MESSAGES over LANG, as POSIX orders them', async () => {
    expect((await setup('ftp://archive.example', [], { LANG: 'de_DE.UTF-8', LC_ALL: 'C' })).err).toBe(ENGLISH);
    expect((await setup('ftp://archive.example', [], { LANG: 'en_US.UTF-8', LC_MESSAGES: 'de_DE.UTF-8' })).err).toBe(GERMAN);
    expect((await setup('ftp://archive.example', ['--lang', 'en'], { LANG: 'de_DE.UTF-8' })).err).toBe(ENGLISH);
  });

  test('a locale without a catalog is English; a --lang without one is a wrong call', async () => {
    expect((await setup('ftp://archive.example', [], { LANG: 'fr_FR.UTF-8' })).err).toBe(ENGLISH);
    const run = await setup('ftp://archive.example', ['--lang', 'fr', '--json']);
    expect(run.code).toBe(2);
    expect(run.err).toContain('Error [usage]: --lang fr names no language of this release: give one of en, de.');
    expect(JSON.parse(run.out)).toMatchObject({ error: { code: 'usage' } });
  });

  test("the local-network refusal names the command line's flag in German too", async () => {
    const run = await setup(archive.url, ['--lang', 'de']);
    expect(run.err).toMatch(
      /^Error \[local_address\]: Die Adresse von 127\.0\.0\.1 liegt im lokalen Netzwerk, .* setup erneut mit --allow-local ausführen\.\n$/,
    );
  });

  test('the built CLI (one bundle) carries the catalogs', async () => {
    if (builtCliMissing() !== null) throw new Error('build first: npm run build');
    const run = await runCliProcess(['--config-dir', dir, '--host-db', host.dbUrl, '--lang', 'de', 'setup', '--url=ftp://archive.example', '--token-stdin'], {
      stdin: 'x\n',
    });
    expect(run.code).toBe(1);
    expect(run.err).toBe(GERMAN);
  });
});
