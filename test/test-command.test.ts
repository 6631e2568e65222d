import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startArchiveEmulator, type ArchiveEmulator } from './support/archive-emulator/index.js';
import { runCli as run, settingsOf } from './support/settings-helpers.js';
import { createHostFixture, type HostFixture } from './support/host-fixtures/index.js';
import { scratchDir } from './support/scratch.js';

const TOKEN = 'emulator-token';

let archive: ArchiveEmulator;
let host: HostFixture;

function settingsPath(dir: string): string {
  return join(dir, 'settings.json');
}

/** A config directory saved by setup against the emulator. */
async function configured(env: NodeJS.ProcessEnv = {}): Promise<string> {
  const dir = scratchDir('dus-testcmd-');
  const saved = await run(dir, ['--host-db', host.dbUrl, 'setup', `--url=${archive.url}`, '--token-stdin', '--allow-local'], { stdin: TOKEN, env });
  expect(saved.code).toBe(0);
  return dir;
}

beforeAll(async () => {
  archive = await startArchiveEmulator({ tokens: [TOKEN] });
  host = await createHostFixture('sqlite');
  await host.addUser('archive');
});

afterAll(async () => {
  await archive.close();
  await host.drop();
});

describe('test', () => {
  test('exit 0 and names URL, version and API version of the archive server', async () => {
    archive.version = '2.20';
    const dir = await configured();
    const result = await run(dir, ['test']);
    expect(result).toMatchObject({ code: 0, err: '' });
    expect(result.out).toContain(archive.url);
    expect(result.out).toContain('version 2.20.15, API version 9');
  });

  test('stores the versions of the answer when they changed', async () => {
    archive.version = '2.20';
    const dir = await configured();
    expect(settingsOf(dir).docs_version).toBe('2.20.15');
    archive.version = '3.0';
    try {
      const result = await run(dir, ['test']);
      expect(result.code).toBe(0);
      expect(result.out).toContain('version 3.0.5');
      expect(settingsOf(dir)).toMatchObject({ docs_version: '3.0.5' });
    } finally {
      archive.version = '2.20';
    }
  });

  test.each([
    [{ status: 500 }, 'http', 'HTTP 500'],
    [{ status: 401, body: '{"detail":"Invalid token."}', contentType: 'application/json' }, 'unauthorized', 'HTTP 401'],
    [{ garbage: true }, 'not_paperless', 'HTTP 200'],
  ])('a failing archive server (%j): exit 1 with %s, warning in the host log with what the server said', async (fault, code, said) => {
    const dir = await configured();
    archive.faults = [{ ...fault, match: '/api/documents/' }];
    try {
      const result = await run(dir, ['test']);
      expect(result.code).toBe(1);
      expect(result.err).toMatch(new RegExp(`^Error \\[${code}\\]`));
      expect(readFileSync(join(dir, 'docs_unified_search.log'), 'utf8')).toContain(
        `The test of the connection to the archive server failed: ${code} (${said})`,
      );
    } finally {
      archive.faults = [];
    }
  });

  test('not configured: exit 1 not_configured, says to run setup', async () => {
    const result = await run(scratchDir('dus-testcmd-'), ['test']);
    expect(result.code).toBe(1);
    expect(result.err).toMatch(/^Error \[not_configured\]: .*setup/);
  });

  test('a URL changed by hand to another port: token_for_other_server', async () => {
    const dir = await configured();
    const stored = settingsOf(dir);
    const movedUrl = `http://127.0.0.1:${archive.port + 1}`;
    writeFileSync(settingsPath(dir), JSON.stringify({ ...stored, docs_url: movedUrl }));
    const result = await run(dir, ['test']);
    expect(result.code).toBe(1);
    expect(result.err).toMatch(/^Error \[token_for_other_server\]/);
  });

  test('a token that cannot be decrypted: token_required', async () => {
    const dir = await configured({ DUS_SECRET: 'first' });
    const result = await run(dir, ['test'], { env: { DUS_SECRET: 'second' } });
    expect(result.code).toBe(1);
    expect(result.err).toMatch(/^Error \[token_required\]: .*can't be decrypted/);
  });

  test('the same condition, the same code: a changed instance secret is token_required for test, check and search', async () => {
    const dir = await configured({ DUS_SECRET: 'first' });
    const env = { DUS_SECRET: 'second' };
    const tested = await run(dir, ['test'], { env });
    const checked = await run(dir, ['check', '--json'], { env });
    const searched = await run(dir, ['search', 'archive', 'invoice'], { env });
    expect(tested.err).toMatch(/^Error \[token_required\]: .*can't be decrypted/);
    expect(JSON.parse(checked.out)).toMatchObject({
      ok: false,
      failures: expect.arrayContaining([expect.objectContaining({ part: 'connection', code: 'token_required', kind: 'misconfigured' })]),
    });
    expect(searched.err).toBe(tested.err);
  });

  test('after test failed, setupchecks stops saying Connected until a test works again', async () => {
    const dir = scratchDir('dus-testcmd-');
    const args = ['--host-db', host.dbUrl, 'setup', `--url=${archive.url}`, '--token-stdin', '--allow-local', '--archive-account=archive'];
    expect((await run(dir, args, { stdin: TOKEN })).code).toBe(0);
    expect(await run(dir, ['setupchecks'])).toMatchObject({ code: 0, out: expect.stringContaining('Connected to the archive server') });
    archive.faults = [{ match: '/api/documents/', status: 500 }];
    try {
      expect((await run(dir, ['test'])).code).toBe(1);
      const warned = await run(dir, ['setupchecks']);
      expect(warned.code).toBe(1);
      expect(warned.out).not.toContain('Connected');
      expect(warned.out).toMatch(/The connection test of check or test failed \(http\) at \S+, and no test or search has worked since\./);
      expect((await run(dir, ['check'])).code).toBe(1);
      expect((await run(dir, ['setupchecks'])).code).toBe(1);
    } finally {
      archive.faults = [];
    }
    expect((await run(dir, ['test'])).code).toBe(0);
    expect(await run(dir, ['setupchecks'])).toMatchObject({ code: 0, out: expect.stringContaining('Connected to the archive server') });
  });

  describe('a release newer than the ones this version was checked against (3.3.0)', () => {
    const NEWER = "Paperless-ngx 3.3.0: newer than the releases this version was checked against (up to 3.2); searches use 3.2's rules.";

    test('test exits 0 and says so as information, in plain output and --json', async () => {
      archive.version = '3.3';
      try {
        const dir = scratchDir('dus-testcmd-');
        const args = ['--host-db', host.dbUrl, 'setup', `--url=${archive.url}`, '--token-stdin', '--allow-local', '--archive-account=archive'];
        expect((await run(dir, args, { stdin: TOKEN })).code).toBe(0);
        const result = await run(dir, ['test']);
        expect(result).toMatchObject({ code: 0, err: '' });
        expect(result.out).toContain('version 3.3.0, API version 10');
        expect(result.out).toContain(NEWER);
        const json = await run(dir, ['test', '--json']);
        expect(json.code).toBe(0);
        expect(JSON.parse(json.out)).toMatchObject({ version: '3.3.0', note: NEWER });
        const german = await run(dir, ['--lang', 'de', 'test']);
        expect(german.out).toContain(
          'Paperless-ngx 3.3.0: neuer als die Versionen, mit denen diese Version geprüft wurde (bis 3.2); Suchen folgen den Regeln von 3.2.',
        );
        // The overview check reads the stored version: information beside "Connected", no warning.
        const overview = await run(dir, ['setupchecks']);
        expect(overview.code).toBe(0);
        expect(overview.out).toContain('Connected to the archive server');
        expect(overview.out).toContain(NEWER);
        const checked = await run(dir, ['check', '--json']);
        // (Not ok here only because this archive account holds no marked files: the note is no problem.)
        expect(JSON.parse(checked.out)).toMatchObject({
          problem: 'misconfigured',
          failures: [],
          connection: { version: '3.3.0', apiVersion: '10', note: NEWER },
        });
        expect((await run(dir, ['check'])).out).toContain(`i ${NEWER}`);
      } finally {
        archive.version = '2.20';
      }
    });

    test.each([
      ['3.2', '3.2.1'],
      ['3.0', '3.0.5'],
    ] as const)('%s: no such line (%s was checked)', async (version, release) => {
      archive.version = version;
      try {
        const dir = await configured();
        const result = await run(dir, ['test']);
        expect(result.out).toContain(`version ${release}`);
        expect(result.out).not.toContain('newer than the releases');
        expect(JSON.parse((await run(dir, ['test', '--json'])).out)).not.toHaveProperty('note');
      } finally {
        archive.version = '2.20';
      }
    });
  });

  test('--help shows examples and exit codes', async () => {
    const result = await run(scratchDir('dus-testcmd-'), ['test', '--help']);
    expect(result.code).toBe(0);
    expect(result.out).toContain('Examples:');
    expect(result.out).toContain('Exit codes');
  });
});

describe('stored settings read by the rules of saving them', () => {
  test('a settings file holding [] is broken, not "not configured"', async () => {
    const dir = await configured();
    writeFileSync(settingsPath(dir), '[]');
    const result = await run(dir, ['test']);
    expect(result.code).toBe(1);
    expect(result.err).toMatch(/^Error \[internal\]: The settings file \S+settings\.json is broken \(the file must be object\)/);
  });

  test('a hand-edited file:///etc/passwd URL: unsupported_scheme, nothing sent; setup with the token repairs it', async () => {
    const dir = await configured();
    const stored = settingsOf(dir);
    writeFileSync(settingsPath(dir), JSON.stringify({ ...stored, docs_url: 'file:///etc/passwd' }));
    const before = archive.requests.length;
    const result = await run(dir, ['test']);
    expect(result.code).toBe(1);
    expect(result.err).toMatch(/^Error \[unsupported_scheme\]: The settings file \S+settings\.json holds a docs_url that setup would refuse/);
    expect(archive.requests.length).toBe(before);
    const repaired = await run(dir, ['setup', `--url=${archive.url}`, '--token-stdin'], { stdin: TOKEN });
    expect(repaired).toMatchObject({ code: 0, err: '' });
    expect(settingsOf(dir)).toMatchObject({ docs_url: archive.url, allow_local: true });
    expect((await run(dir, ['test'])).code).toBe(0);
  });

  test('config:app:delete removes a refused docs_url', async () => {
    const dir = await configured();
    writeFileSync(settingsPath(dir), JSON.stringify({ ...settingsOf(dir), docs_url: 'ftp://p.example.com' }));
    expect(await run(dir, ['config:app:delete', 'docs_unified_search', 'docs_url', '--error-if-not-exists'])).toMatchObject({ code: 0, err: '' });
    expect(await run(dir, ['test'])).toMatchObject({ code: 1, err: expect.stringMatching(/^Error \[not_configured\]/) });
  });
});
