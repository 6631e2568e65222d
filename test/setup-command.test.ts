import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { Readable } from 'node:stream';
import { join } from 'node:path';
import { MAX_FIRST_LINE_CHARS, readFirstLine } from '../src/cli/shared-options.js';
import { FileCredentialStore } from '../src/core/settings/credential-store.js';
import { localAddressRefused, redirectRefused, wordedFor } from '../src/core/archive/failures.js';
import { startArchiveEmulator, type ArchiveEmulator } from './support/archive-emulator/index.js';
import { everyFileUnder, runCli, settingsOf, type CliRun } from './support/settings-helpers.js';
import { ptyUnavailable, runOnPtyTyping } from './support/pty.js';
import { captureIO } from './support/capture-io.js';
import { main } from '../src/cli.js';
import { createHostFixture, type HostFixture } from './support/host-fixtures/index.js';

const TOKEN = 'emulator-token';
const SECOND_TOKEN = 'second-token-3f9a';

let archive: ArchiveEmulator;
let otherPort: ArchiveEmulator;
let host: HostFixture;
const roots: string[] = [];

type Run = CliRun;

function freshDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'dus-setup-'));
  roots.push(dir);
  return dir;
}

async function run(dir: string, args: readonly string[], options: { stdin?: string; env?: NodeJS.ProcessEnv; hostDb?: boolean } = {}): Promise<Run> {
  return runCli(dir, [...(options.hostDb === false ? [] : ['--host-db', host.dbUrl]), ...args], options);
}

function tokenOf(dir: string): ReturnType<FileCredentialStore['load']> {
  return new FileCredentialStore({ directory: dir, env: {} }).load();
}

function logOf(dir: string): string {
  const path = join(dir, 'docs_unified_search.log');
  return existsSync(path) ? readFileSync(path, 'utf8') : '';
}

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  await new Promise<void>((done) => server.close(() => done()));
  return port;
}

function saveArgs(url: string, ...more: string[]): string[] {
  return ['setup', `--url=${url}`, ...more];
}

beforeAll(async () => {
  archive = await startArchiveEmulator({ tokens: [TOKEN, SECOND_TOKEN], pathPrefix: '/paperless' });
  otherPort = await startArchiveEmulator({ tokens: [TOKEN, SECOND_TOKEN], pathPrefix: '/paperless' });
  host = await createHostFixture('sqlite');
  await host.addUser('Archive');
  await host.addUser('alice');
  await host.setAppConfig('docs_sync', 'target_user', 'alice');
});

afterAll(async () => {
  await archive.close();
  await otherPort.close();
  await host.drop();
  for (const dir of roots) rmSync(dir, { recursive: true, force: true });
});

describe('setup saves after a working connection test', () => {
  test('exit 0: URL, switches, archive account in the host spelling, versions, token bound to the origin', async () => {
    const dir = freshDir();
    const result = await run(dir, saveArgs(`${archive.url}/`, '--token-stdin', '--allow-local', '--archive-account=archive'), {
      stdin: `${TOKEN}\nignored second line\n`,
    });
    expect(result).toMatchObject({ code: 0, err: '' });
    expect(result.out).toContain(archive.url);
    const stored = settingsOf(dir);
    expect(stored).toMatchObject({ docs_url: archive.url, allow_local: true, always_search: false, archive_owner: 'Archive', host_db: host.dbUrl });
    expect(typeof stored.docs_version).toBe('string');
    expect(typeof stored.docs_api_version).toBe('string');
    expect(result.out).toContain(String(stored.docs_version));
    expect(tokenOf(dir)).toEqual({ status: 'ok', token: TOKEN, origin: `${archive.origin}` });
    const test = archive.requests.at(-1);
    expect(test?.path).toBe('/paperless/api/documents/');
    expect(test?.query).toMatchObject({ page_size: '1', fields: 'id' });
    expect(test?.headers.authorization).toBe(`Token ${TOKEN}`);
  });

  test('the token from an environment variable; blank archive account means the sync add-on account', async () => {
    const dir = freshDir();
    const result = await run(dir, saveArgs(archive.url, '--token-env=PAPERLESS_TOKEN', '--allow-local', '--archive-account='), {
      env: { PAPERLESS_TOKEN: ` ${TOKEN} ` },
    });
    expect(result.code).toBe(0);
    expect(settingsOf(dir).archive_owner).toBeUndefined();
    expect(result.out).toContain("alice (the synchronization add-on's account)");
    expect(tokenOf(dir)).toMatchObject({ status: 'ok', token: TOKEN });
  });

  test('--quiet: a save that worked prints nothing; --json still prints the settings', async () => {
    const dir = freshDir();
    const quiet = await run(dir, ['--quiet', ...saveArgs(archive.url, '--token-stdin', '--allow-local')], { stdin: `${TOKEN}\n` });
    expect(quiet).toMatchObject({ code: 0, out: '', err: '' });
    expect(settingsOf(dir).docs_url).toBe(archive.url);
    const json = await run(dir, ['--quiet', ...saveArgs(archive.url, '--allow-local', '--json')]);
    expect(JSON.parse(json.out)).toMatchObject({ url: archive.url, tokenConfigured: true });
  });

  test('the host location is stored: later commands need no --host-db', async () => {
    const dir = freshDir();
    expect((await run(dir, saveArgs(archive.url, '--token-stdin', '--allow-local'), { stdin: TOKEN })).code).toBe(0);
    const later = await run(dir, ['config:app:get', 'docs_sync', 'target_user'], { hostDb: false });
    expect(later).toEqual({ code: 0, out: 'alice\n', err: '' });
  });
});

test('the core words the local-network advice once, for the admin page; the command line gets its flag in both messages', () => {
  const refused = localAddressRefused('192.168.1.20', false).message;
  const forward = redirectRefused('local_switch', 302).message;
  expect(refused).toContain('switch on "archive server runs in my local network"');
  expect(wordedFor('cli', refused)).toContain('If the archive server runs in your local network, run setup again with --allow-local.');
  expect(wordedFor('cli', forward)).toContain('with --allow-local, no forward is followed');
  for (const message of [refused, forward]) {
    expect(wordedFor('page', message)).toBe(message);
    expect(wordedFor('cli', message)).not.toContain('archive server runs in my local network');
  }
});

describe('setup exit codes 1 and 2, and nothing stored on failure', () => {
  test('a loopback URL without --allow-local: local_address, warning logged, nothing stored', async () => {
    const dir = freshDir();
    const result = await run(dir, saveArgs(archive.url, '--token-stdin'), { stdin: TOKEN });
    expect(result.code).toBe(1);
    expect(result.err).toMatch(/^Error \[local_address\]/);
    // The command line names its own flag, not the admin page's switch.
    expect(result.err).toContain('run setup again with --allow-local');
    expect(result.err).not.toContain('archive server runs in my local network');
    expect(settingsOf(dir)).toEqual({});
    expect(tokenOf(dir)).toEqual({ status: 'none' });
    expect(logOf(dir)).toContain('The test of the connection to the archive server failed: local_address (local_address)');
  });

  test('an archive server that does not answer: exit 1 unreachable, nothing stored', async () => {
    const dir = freshDir();
    const result = await run(dir, saveArgs(`http://127.0.0.1:${await closedPort()}`, '--token-stdin', '--allow-local'), { stdin: TOKEN });
    expect(result.code).toBe(1);
    expect(result.err).toMatch(/^Error \[unreachable\]/);
    expect(settingsOf(dir)).toEqual({});
    // The reason is the settings routes' code; what the network said is beside it.
    expect(logOf(dir)).toContain('The test of the connection to the archive server failed: unreachable (ECONNREFUSED)');
  });

  test('a refused token: exit 1 unauthorized, the earlier settings and token stay', async () => {
    const dir = freshDir();
    expect((await run(dir, saveArgs(archive.url, '--token-stdin', '--allow-local'), { stdin: TOKEN })).code).toBe(0);
    const before = settingsOf(dir);
    const result = await run(dir, saveArgs(archive.url, '--token-stdin', '--always-search'), { stdin: 'wrong-token' });
    expect(result.code).toBe(1);
    expect(result.err).toMatch(/^Error \[unauthorized\]/);
    expect(settingsOf(dir)).toEqual(before);
    expect(tokenOf(dir)).toMatchObject({ status: 'ok', token: TOKEN });
    expect(logOf(dir)).toContain('failed: unauthorized (HTTP 401)');
  });

  test('an archive account the host does not have: exit 1 unknown_archive_account, nothing stored', async () => {
    const dir = freshDir();
    const result = await run(dir, saveArgs(archive.url, '--token-stdin', '--allow-local', '--archive-account=nobody'), { stdin: TOKEN });
    expect(result.code).toBe(1);
    expect(result.err).toMatch(/^Error \[unknown_archive_account\]/);
    expect(settingsOf(dir)).toEqual({});
    expect(tokenOf(dir)).toEqual({ status: 'none' });
  });

  test.each([
    ['a bad URL', ['--url=paperless.example.com', '--token-stdin'], 'invalid_url'],
    ['an FTP URL', ['--url=ftp://p.example.com/', '--token-stdin'], 'unsupported_scheme'],
    ['a URL with a query', ['--url=https://p.example.com/?x=1', '--token-stdin'], 'url_extras'],
    ['a Unicode host', ['--url=https://bücher.example', '--token-stdin'], 'host_not_ascii'],
    ['no token at all', ['--url=https://p.example.com'], 'token_required'],
  ])('%s: exit 1 with its code', async (_what, args, code) => {
    const dir = freshDir();
    const result = await run(dir, ['setup', ...args], { stdin: TOKEN });
    expect(result.code).toBe(1);
    expect(result.err).toMatch(new RegExp(`^Error \\[${code}\\]`));
    expect(settingsOf(dir)).toEqual({});
  });

  test.each([
    ['missing --url', ['setup', '--token-stdin'], TOKEN, /--url/],
    ['an empty first line on stdin', ['setup', '--url=https://p.example.com', '--token-stdin'], '\nsecond', /empty/],
    ['an unset token variable', ['setup', '--url=https://p.example.com', '--token-env=NOT_SET'], undefined, /NOT_SET/],
    ['two token sources', ['setup', '--url=https://p.example.com', '--token-stdin', '--token-env=X'], TOKEN, /one source/],
  ])('%s: exit 2, a usage message', async (_what, args, stdin, message) => {
    const dir = freshDir();
    const result = await run(dir, args, stdin === undefined ? {} : { stdin });
    expect(result.code).toBe(2);
    expect(result.err).toMatch(/^Error \[usage\]/);
    expect(result.err).toMatch(message);
    expect(settingsOf(dir)).toEqual({});
  });
});

describe('reading the token from standard input', () => {
  test('an endless stream without a line end is not read on: a usage error at the cap', async () => {
    const endless = Readable.from(
      (function* () {
        for (;;) yield 'x'.repeat(4096);
      })(),
    );
    await expect(readFirstLine(endless)).rejects.toMatchObject({ code: 'usage' });
  });

  test('a first line beyond the cap: exit 2, nothing stored, nothing sent', async () => {
    const dir = freshDir();
    archive.clearRequests();
    const result = await run(dir, saveArgs(archive.url, '--token-stdin', '--allow-local'), { stdin: 'a'.repeat(MAX_FIRST_LINE_CHARS + 1) });
    expect(result.code).toBe(2);
    expect(result.err).toMatch(/^Error \[usage\]: the first line of standard input is longer/);
    expect(archive.requests).toEqual([]);
    expect(settingsOf(dir)).toEqual({});
  });

  const noPty = ptyUnavailable();
  (noPty === null ? test : test.skip)(
    'on a terminal: a prompt on stderr, the typed token is not echoed, then saved',
    async () => {
      const dir = freshDir();
      const typed = 'typed-on-terminal-9c1e';
      archive.tokens.push(typed);
      const result = await runOnPtyTyping(
        100,
        ['--config-dir', dir, '--host-db', host.dbUrl, ...saveArgs(archive.url, '--token-stdin', '--allow-local')],
        '(input is hidden): ',
        `${typed}\r`,
      );
      expect(result.screen).toContain('API token of the archive server (input is hidden): ');
      expect(result.screen).not.toContain(typed);
      expect(result.code).toBe(0);
      expect(tokenOf(dir)).toMatchObject({ status: 'ok', token: typed });
      expect(logOf(dir)).not.toContain(typed);
    },
    180_000,
  );

  test('stdin a terminal, stderr not (no prompt can be shown): exit 2, told to pipe the token, nothing read or stored', async () => {
    const dir = freshDir();
    const io = captureIO({ stdin: `${TOKEN}\n` });
    (io.stdin as { isTTY?: boolean }).isTTY = true;
    const code = await main(['--config-dir', dir, '--host-db', host.dbUrl, ...saveArgs(archive.url, '--token-stdin', '--allow-local')], io);
    expect(code).toBe(2);
    expect(io.err()).toMatch(/^Error \[usage\]: standard input is a terminal but no hidden prompt can be shown here: pipe the API token/);
    expect(io.err() + io.out()).not.toContain(TOKEN);
    expect(settingsOf(dir)).toEqual({});
  });
});

describe('where the host is', () => {
  test('neither given nor stored: exit 2 before any request, nothing stored', async () => {
    const dir = freshDir();
    archive.clearRequests();
    const result = await run(dir, saveArgs(archive.url, '--token-stdin', '--allow-local'), { stdin: TOKEN, hostDb: false });
    expect(result.code).toBe(2);
    expect(result.err).toMatch(/^Error \[usage\]: .*--nextcloud=DIR or --host-db=URL/);
    expect(archive.requests).toEqual([]);
    expect(settingsOf(dir)).toEqual({});
  });

  test('a host that cannot be opened: exit 1 with its own code and message, before any request, nothing stored', async () => {
    const dir = freshDir();
    archive.clearRequests();
    const missing = join(dir, 'missing.db');
    const result = await run(dir, ['--host-db', `sqlite://${missing}`, ...saveArgs(archive.url, '--token-stdin', '--allow-local')], {
      stdin: TOKEN,
      hostDb: false,
    });
    expect(result.code).toBe(1);
    expect(result.err).toMatch(/^Error \[host_unreachable\]: .*missing\.db/);
    expect(archive.requests).toEqual([]);
    expect(settingsOf(dir)).toEqual({});
    expect(tokenOf(dir)).toEqual({ status: 'none' });
  });

  test('a Nextcloud directory given later replaces the stored database URL', async () => {
    const dir = freshDir();
    expect((await run(dir, saveArgs(archive.url, '--token-stdin', '--allow-local'), { stdin: TOKEN })).code).toBe(0);
    const nextcloud = join(freshDir(), 'nextcloud');
    await host.writeNextcloudDir(nextcloud);
    expect((await runCli(dir, ['--nextcloud', nextcloud, 'setup', `--url=${archive.url}`])).code).toBe(0);
    const stored = settingsOf(dir);
    expect(stored.nextcloud_dir).toBe(nextcloud);
    expect(stored.host_db).toBeUndefined();
  });
});

describe('Rule 1: the token is never accepted on the command line', () => {
  test.each([
    [['--token=cmdline-secret-771']],
    [['--token', 'cmdline-secret-771']],
    [['--token']],
    [['--token-stdin=cmdline-secret-771']],
    [['--token-env=X=cmdline-secret-771', '--tokn=cmdline-secret-771']],
  ])('%j: exit 2, pointed to --token-stdin / --token-env, value not echoed, nothing stored', async (tokenArgs) => {
    const dir = freshDir();
    const result = await run(dir, ['setup', `--url=${archive.url}`, '--allow-local', ...tokenArgs], { stdin: TOKEN });
    expect(result.code).toBe(2);
    expect(result.out + result.err).not.toContain('cmdline-secret-771');
    expect(settingsOf(dir)).toEqual({});
    expect(archive.requests.filter((r) => r.headers.authorization?.includes('cmdline-secret-771'))).toEqual([]);
  });

  test('--token names the two allowed sources', async () => {
    const result = await run(freshDir(), ['setup', `--url=${archive.url}`, '--token=abc'], { stdin: TOKEN });
    expect(result.err).toMatch(/^Error \[usage\]: .*--token-stdin.*--token-env/);
  });
});

describe('Rules 2 and 3: omitted options keep stored values; a blank token only for the same server', () => {
  test('an omitted switch or account keeps its stored value; a given one changes it', async () => {
    const dir = freshDir();
    expect(
      (await run(dir, saveArgs(archive.url, '--token-stdin', '--allow-local', '--always-search', '--archive-account=Archive'), { stdin: TOKEN })).code,
    ).toBe(0);
    expect((await run(dir, saveArgs(archive.url))).code).toBe(0);
    expect(settingsOf(dir)).toMatchObject({ allow_local: true, always_search: true, archive_owner: 'Archive' });
    expect((await run(dir, saveArgs(archive.url, '--no-always-search'))).code).toBe(0);
    expect(settingsOf(dir)).toMatchObject({ allow_local: true, always_search: false, archive_owner: 'Archive' });
    expect((await run(dir, saveArgs(archive.url, '--archive-account='))).code).toBe(0);
    expect(settingsOf(dir).archive_owner).toBeUndefined();
  });

  test('without a token the stored one is kept and sent for the same origin, also under another path', async () => {
    const dir = freshDir();
    expect((await run(dir, saveArgs(archive.url, '--token-env=T', '--allow-local'), { env: { T: SECOND_TOKEN } })).code).toBe(0);
    archive.clearRequests();
    const result = await run(dir, saveArgs(`${archive.origin}/paperless/`));
    expect(result.code).toBe(0);
    expect(archive.requests.at(-1)?.headers.authorization).toBe(`Token ${SECOND_TOKEN}`);
    expect(tokenOf(dir)).toMatchObject({ status: 'ok', token: SECOND_TOKEN });
  });

  test('token_for_other_server when only the port changes; nothing sent there, nothing changed', async () => {
    const dir = freshDir();
    expect((await run(dir, saveArgs(archive.url, '--token-stdin', '--allow-local'), { stdin: TOKEN })).code).toBe(0);
    const before = settingsOf(dir);
    otherPort.clearRequests();
    const result = await run(dir, saveArgs(otherPort.url));
    expect(result.code).toBe(1);
    expect(result.err).toMatch(/^Error \[token_for_other_server\]/);
    expect(otherPort.requests).toEqual([]);
    expect(settingsOf(dir)).toEqual(before);
    // With the token given again the other server is accepted and the token re-bound to it.
    expect((await run(dir, saveArgs(otherPort.url, '--token-stdin'), { stdin: TOKEN })).code).toBe(0);
    expect(tokenOf(dir)).toMatchObject({ status: 'ok', origin: otherPort.origin });
  });

  test('a stored token that cannot be decrypted must be given again', async () => {
    const dir = freshDir();
    expect((await run(dir, saveArgs(archive.url, '--token-stdin', '--allow-local'), { stdin: TOKEN, env: { DUS_SECRET: 'one' } })).code).toBe(0);
    const result = await run(dir, saveArgs(archive.url), { env: { DUS_SECRET: 'two' } });
    expect(result.code).toBe(1);
    expect(result.err).toMatch(/^Error \[token_required\]: .*can't be decrypted/);
    expect(logOf(dir)).toContain("The stored API token can't be decrypted");
  });
});

describe('the token stays secret', () => {
  test('never in stdout, stderr, the log, the settings or any other file of the config directory', async () => {
    const dir = freshDir();
    const outputs: Run[] = [];
    outputs.push(await run(dir, saveArgs(archive.url, '--token-stdin', '--allow-local'), { stdin: TOKEN, env: { DUS_LOG_LEVEL: 'debug' } }));
    outputs.push(await run(dir, saveArgs(archive.url, '--token-stdin'), { stdin: SECOND_TOKEN }));
    outputs.push(await run(dir, saveArgs(otherPort.url)));
    outputs.push(await run(dir, saveArgs(archive.url, '--token-stdin'), { stdin: 'rejected-token-5521' }));
    outputs.push(await run(dir, ['test']));
    outputs.push(await run(dir, ['config:app:get', 'docs_unified_search', 'docs_url']));
    expect(outputs.map((o) => o.code)).toEqual([0, 0, 1, 1, 0, 0]);
    const text = outputs.map((o) => o.out + o.err).join('\n') + everyFileUnder(dir);
    for (const secret of [TOKEN, SECOND_TOKEN, 'rejected-token-5521']) expect(text).not.toContain(secret);
    expect(logOf(dir)).not.toBe('');
  });
});

describe('help', () => {
  test('lists the options and examples, and no --token', async () => {
    const result = await run(freshDir(), ['setup', '--help']);
    expect(result.code).toBe(0);
    for (const option of ['--url', '--token-stdin', '--token-env', '--archive-account', '--no-allow-local', '--no-always-search', 'Examples:']) {
      expect(result.out).toContain(option);
    }
    expect(result.out).not.toMatch(/--token \[/);
  });
});
