import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { loadCommands } from '../src/commands/list.js';
import { serve } from '../src/commands/serve.js';
import { startArchiveEmulator, type ArchiveEmulator } from './support/archive-emulator/index.js';
import { leaksIn } from './support/archive-emulator/hostile.js';
import { captureIO } from './support/capture-io.js';
import { createHostFixture, type HostFixture } from './support/host-fixtures/index.js';
import { everyFileUnder, runCli } from './support/settings-helpers.js';

const COMMANDS = await loadCommands();

/**
 * The issue's acceptance: every command of the suite runs with a known token, through its
 * successes and its failures, and the token shows in none of stdout, stderr, the log, the
 * stored settings, the problem history or the host's database. The archive server here is
 * hostile too: it echoes the token in an error body and in its version header, and then (the
 * emulator's `echoToken`) into every string and version header of every answer, in every
 * form: whole, other letter case, inside a longer word, each half, one character short. The
 * scan looks for each secret in any letter case, for each half of it and for it one
 * character short.
 */

const TOKEN = 'Secr3tTok-9f4e2a7c1b';
const OTHER_TOKEN = 'Secr3tTok-other-55d1';
const WRONG_TOKEN = 'Secr3tTok-wrong-0a0a';
const SECRETS = [TOKEN, OTHER_TOKEN, WRONG_TOKEN];
const ADMIN_PASSWORD = 'secrecy-admin-pw';

let archive: ArchiveEmulator;
let other: ArchiveEmulator;
let host: HostFixture;
let dir: string;
const transcript: string[] = [];

async function run(args: readonly string[], options: { stdin?: string } = {}): Promise<number> {
  const { code, out, err } = await runCli(dir, ['--host-db', host.dbUrl, ...args], { ...options, env: { DUS_LOG_LEVEL: 'debug' } });
  // The arguments themselves are left out: some carry the token on purpose, to prove it is not echoed.
  transcript.push(`run ${transcript.length + 1} → ${code}\n${out}${err}`);
  return code;
}

beforeAll(async () => {
  archive = await startArchiveEmulator({ version: '3.0', tokens: [TOKEN, OTHER_TOKEN] });
  other = await startArchiveEmulator({ tokens: [TOKEN, OTHER_TOKEN] });
  host = await createHostFixture('sqlite');
  await host.addUser('archive', { password: ADMIN_PASSWORD, hash: 'bcrypt' });
  await host.addGroup('admin', ['archive']);
  await host.setAppConfig('docs_sync', 'target_user', 'archive');
  await host.addFile('archive', 'Docs/Invoice [P1].pdf');
  dir = mkdtempSync(join(tmpdir(), 'dus-secrecy-'));
});

afterAll(async () => {
  await archive.close();
  await other.close();
  await host.drop();
  rmSync(dir, { recursive: true, force: true });
});

describe('the token appears nowhere', () => {
  test('every command, its help, its failures and serve leave no trace of the token', async () => {
    const codes: number[] = [];
    codes.push(await run(['setup', `--url=${archive.url}`, '--token-stdin', '--allow-local', '--archive-account=archive'], { stdin: `${TOKEN}\n` }));
    codes.push(await run(['setup', `--url=${archive.url}`, `--token=${TOKEN}`]));
    codes.push(await run(['setup', `--url=${archive.url}`, `--token-stdin=${TOKEN}`]));
    codes.push(await run(['setup', `--url=${archive.url}`, `--tokn=${TOKEN}`]));
    codes.push(await run(['setup', `--url=${archive.url}`, '--token-stdin', TOKEN]));
    codes.push(await run(['setup', `--url=${other.url}`]));
    codes.push(await run(['setup', `--url=${archive.url}`, '--token-stdin'], { stdin: WRONG_TOKEN }));
    codes.push(await run(['test']));
    codes.push(await run(['search', 'archive', 'invoice', '--explain']));
    codes.push(await run(['search', 'archive', 'invoice', '--json']));
    codes.push(await run(['check']));
    codes.push(await run(['check', '--json']));
    for (const key of ['docs_url', 'allow_local', 'always_search', 'archive_owner', 'docs_version', 'docs_api_version']) {
      codes.push(await run(['config:app:get', 'docs_unified_search', key, '--details']));
    }
    codes.push(await run(['config:app:set', 'docs_unified_search', 'always_search', '--value=true', '--type=boolean']));
    codes.push(await run(['config:app:set', 'docs_unified_search', 'docs_url', `--value=${other.url}`]));
    codes.push(await run(['config:app:delete', 'docs_unified_search', 'always_search']));

    // A hostile answer: the token in the body of a 500 and in the version header.
    archive.faults = [
      { match: '/api/documents/', status: 500, body: `{"detail":"Token ${TOKEN}"}`, contentType: 'application/json', headers: { 'X-Version': TOKEN } },
    ];
    codes.push(await run(['search', 'archive', 'invoice']));
    // Paperless's own refusal of a term (SearchQueryError), shown to the one who searched: the token in it.
    archive.faults = [
      {
        match: '/api/documents/',
        status: 400,
        body: JSON.stringify({ query: [`Invalid date value '${TOKEN}' for field 'created'.`, `Token ${TOKEN.toUpperCase()} x${TOKEN.slice(3)}`] }),
        contentType: 'application/json',
      },
    ];
    codes.push(await run(['search', 'archive', 'created:x']));
    codes.push(await run(['test']));
    codes.push(await run(['config:app:get', 'docs_unified_search', 'diagnostics']));
    codes.push(await run(['setupchecks', '--output=json']));
    archive.faults = [];
    codes.push(await run(['setupchecks']));

    // A server that echoes the token into every string and version header it sends.
    archive.echoToken = true;
    const hostileRuns = [
      ['test'],
      ['search', 'archive', 'invoice', '--explain'],
      ['search', 'archive', 'invoice', '--json'],
      ['check'],
      ['check', '--json'],
      ['why', 'archive', '1'],
      ['setupchecks'],
      ['setupchecks', '--output=json'],
    ];
    for (const argv of hostileRuns) codes.push(await run(argv));
    for (const key of ['docs_version', 'docs_api_version', 'diagnostics']) codes.push(await run(['config:app:get', 'docs_unified_search', key]));
    transcript.push(await servedAnswers());
    archive.echoToken = false;
    codes.push(await run(['maintenance:repair']));
    codes.push(await run(['completion', 'bash']));
    for (const command of COMMANDS) codes.push(await run([command.name, '--help']));

    // Mistakes that put the token on the command line of other commands: refused without echoing it.
    const mistakes = [
      ['test', `--token=${TOKEN}`],
      [`--token=${TOKEN}`, 'test'],
      ['search', 'archive', 'invoice', `--api-token=${TOKEN}`],
      ['config:app:set', 'docs_unified_search', 'always_search', `--valeu=${TOKEN}`],
      ['test', TOKEN],
      [TOKEN],
    ];
    for (const argv of mistakes) codes.push(await run(argv));

    expect(codes.slice(0, 8)).toEqual([0, 2, 2, 2, 2, 1, 1, 0]);
    expect(codes.slice(-mistakes.length)).toEqual(mistakes.map(() => 2));
    expect(codes.filter((code) => code === 0).length).toBeGreaterThan(COMMANDS.length + 10);

    transcript.push(await servedAnswers());

    const log = readFileSync(join(dir, 'docs_unified_search.log'), 'utf8');
    expect(log).toContain('The test of the connection to the archive server failed');
    expect(readFileSync(join(dir, 'settings.json'), 'utf8')).toContain('"diagnostics"');
    const hostDb = host.dbUrl.startsWith('sqlite://') ? readFileSync(host.dbUrl.slice('sqlite://'.length), 'latin1') : '';
    const everywhere = [...transcript, everyFileUnder(dir), hostDb].join('\n');
    expect(leaksIn(everywhere, SECRETS)).toEqual([]);
    // The hostile server did echo: its answers reached the output, with the token replaced.
    expect(everywhere).toContain('[redacted]');
    // The check above could pass on empty output: the token's absence means something only if the runs said something.
    expect(transcript.join('').length).toBeGreaterThan(5_000);
    expect(existsSync(join(dir, 'credentials.json'))).toBe(true);
  });
});

/** serve over loopback: the settings route, the search provider and the widget as the administrator. */
async function servedAnswers(): Promise<string> {
  const io = captureIO({ env: { DUS_LOG_LEVEL: 'debug' } });
  let stop = (): void => undefined;
  const stopped = new Promise<void>((resolve) => {
    stop = resolve;
  });
  const running = serve(
    { listen: '127.0.0.1:0' },
    { io, globals: { configDir: dir, hostDb: host.dbUrl, color: false } },
    { stopped, release: () => undefined },
  );
  const base = await listeningAt(io);
  const headers = { authorization: `Basic ${Buffer.from(`archive:${ADMIN_PASSWORD}`).toString('base64')}`, 'ocs-apirequest': 'true' };
  const bodies: string[] = [];
  const paths = [
    '/apps/docs_unified_search/settings',
    '/ocs/v2.php/search/providers/docs_unified_search_documents/search?term=invoice&format=json',
    '/ocs/v2.php/apps/dashboard/api/v2/widget-items?widgets[]=docs_unified_search-recent&format=json',
    '/apps/docs_unified_search/settings/overview',
    '/apps/docs_unified_search/settings/diagnostics',
  ];
  for (const path of paths) {
    const answer = await request(`${base}${path}`, { headers });
    bodies.push(`${answer.statusCode} ${JSON.stringify(answer.headers)} ${await answer.body.text()}`);
  }
  const tried = await request(`${base}/apps/docs_unified_search/settings/try`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ term: 'invoice', user: 'archive' }),
  });
  bodies.push(`${tried.statusCode} ${JSON.stringify(tried.headers)} ${await tried.body.text()}`);
  stop();
  expect(await running).toBe(0);
  expect(bodies.map((body) => body.slice(0, 3))).toEqual(['200', '200', '200', '200', '200', '200']);
  expect(bodies[0]).toContain('"tokenConfigured":true');
  return `${io.out()}${io.err()}${bodies.join('\n')}`;
}

async function listeningAt(io: ReturnType<typeof captureIO>): Promise<string> {
  for (let attempt = 0; attempt < 500; attempt += 1) {
    const found = /Listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(io.out())?.[1];
    if (found !== undefined) return found;
    if (io.err() !== '') throw new Error(io.err());
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('serve did not start');
}
