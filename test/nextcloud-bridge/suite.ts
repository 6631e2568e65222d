/**
 * The bridge app inside a real Nextcloud (issue 10): the app installed from the package,
 * `serve` beside it with the archive-server emulator, and real Nextcloud users asking
 * Nextcloud's OWN endpoints: unified search, the smart picker, the dashboard, the settings
 * routes, the admin page and `occ setupchecks`. Databases: DUS_E2E_DATABASES (comma list of
 * sqlite, pgsql, mysql), default sqlite.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { existsSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { startArchiveEmulator } from './support/archive-emulator/index.js';
import type { ArchiveEmulator } from './support/archive-emulator/types.js';
import { BUILT_CLI } from './support/cli-process.js';
import { doc } from './support/http-harness.js';
import { BrowserSession } from './support/real-nextcloud/browser-session.js';
import { ADMIN_PASSWORD, installNextcloud, realNextcloudUnavailable, type NextcloudDb, type NextcloudUser, type RealNextcloud } from './support/real-nextcloud/index.js';
import { run } from './support/real-nextcloud/processes.js';

const DATABASES = (process.env.DUS_E2E_DATABASES ?? 'sqlite').split(',').map((db) => db.trim()) as NextcloudDb[];
const PROVIDER = 'docs_unified_search_documents';
const WIDGET = 'docs_unified_search-recent';
const SETTINGS = '/index.php/apps/docs_unified_search/settings';
const TOKEN = 'e2e-archive-token-7f3a9c';

const DOCUMENTS = [
  doc(1, 'Invoice one', '2026-11-01T10:00:00+00:00'),
  doc(2, 'Invoice two', '2026-11-02T10:00:00+00:00'),
  doc(3, 'Contract three', '2026-11-03T10:00:00+00:00'),
  doc(4, 'Private four', '2026-11-04T10:00:00+00:00'),
  doc(5, 'Team five', '2026-11-05T10:00:00+00:00'),
  doc(6, 'Fileless six', '2026-11-06T10:00:00+00:00'),
];
/** What each user may open, by the shares made below; checked against `dus search` too. */
const OPENS: Record<string, number[]> = { alice: [1, 2, 3], bob: [1, 5], dana: [], archive: [1, 2, 3, 4, 5] };

interface Envelope<T> {
  ocs: { meta: { statuscode: number }; data: T };
}
interface Entry {
  title: string;
  resourceUrl: string;
  thumbnailUrl: string;
  attributes: Record<string, string>;
}
interface SearchData {
  entries: Entry[];
  cursor: string | number | null;
  isPaginated: boolean;
}

function ocs<T>(answer: { status: number; body: string }): T {
  if (answer.status !== 200) throw new Error(`HTTP ${answer.status}: ${answer.body.slice(0, 400)}`);
  return (JSON.parse(answer.body) as Envelope<T>).ocs.data;
}

const json = { accept: 'application/json' };

function cli(env: NodeJS.ProcessEnv, args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return run(process.execPath, [BUILT_CLI, ...args], { env: { PATH: process.env.PATH, ...env } });
}

/** The README's "Inside Nextcloud" commands, run as written with the test's paths in their variables. */
function readmeInstallBlock(): string {
  const readme = readFileSync('README.md', 'utf8');
  const block = /```sh\n([\s\S]*?)```/.exec(readme.slice(readme.indexOf('### 5. Inside Nextcloud')))?.[1];
  if (block === undefined) throw new Error('README has no "Inside Nextcloud" command block');
  return block;
}

/** The unit file's ExecStart with this machine's paths: the CLI, the settings and Nextcloud directories, a free port. */
function unitExecStart(serverDir: string, configDir: string): string[] {
  const line = /^ExecStart=(.+)$/m.exec(readFileSync('docs/docs-unified-search.service', 'utf8'))?.[1] ?? '';
  const [binary, ...args] = line.trim().split(/\s+/);
  if (binary === undefined || !binary.endsWith('/dus')) throw new Error(`unexpected ExecStart: ${line}`);
  const ours: Record<string, string> = { '/var/www/nextcloud': serverDir, '/var/lib/docs-unified-search': configDir, '127.0.0.1:8080': '127.0.0.1:0' };
  return [BUILT_CLI, ...args.map((arg) => ours[arg] ?? arg)];
}

/** Starts `serve` as the unit file does; resolves with the process and its address. */
async function startServe(env: NodeJS.ProcessEnv, serverDir: string, clockOffset?: string): Promise<{ child: ChildProcess; url: string }> {
  const configDir = env.DUS_CONFIG_DIR;
  if (configDir === undefined) throw new Error('serve is started with the settings directory of the test (DUS_CONFIG_DIR)');
  const command = [process.execPath, ...unitExecStart(serverDir, configDir)];
  const [file = process.execPath, ...args] = clockOffset === undefined ? command : ['faketime', '-f', clockOffset, ...command];
  // faketime runs serve as its own child: a process group of their own, ended together.
  const child = spawn(file, args, { env: { PATH: process.env.PATH, ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: clockOffset !== undefined });
  let out = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start: ${out}`)), 30_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /Listening on (http:\/\/[^\s]+)/.exec(out);
      if (match?.[1] !== undefined) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.stderr?.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('exit', (code) => reject(new Error(`serve exited ${code}: ${out}`)));
  });
  return { child, url };
}

async function stopServe(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  if (child.spawnargs[0] === 'faketime' && child.pid !== undefined) process.kill(-child.pid, 'SIGTERM');
  else child.kill('SIGTERM');
  await exited;
}

const unavailable = realNextcloudUnavailable();
if (unavailable !== null) process.stdout.write(`SKIP bridge app in a real Nextcloud: ${unavailable}\n`);
const describeReal = unavailable === null ? describe.each(DATABASES) : describe.skip.each(DATABASES);

describeReal('the bridge app inside a real Nextcloud (%s)', (db) => {
  let nc: RealNextcloud;
  let emulator: ArchiveEmulator;
  let serve: { child: ChildProcess; url: string };
  let work: string;
  let env: NodeJS.ProcessEnv;
  let secret: string;
  const fileIds = new Map<number, number>();
  const users: Record<string, NextcloudUser> = {};

  beforeAll(async () => {
    nc = await installNextcloud(db);
    process.stdout.write(`real Nextcloud (${db}) installed in ${nc.installMs} ms\n`);
    work = mkdtempSync(join(tmpdir(), 'dus-bridge-e2e-'));
    env = { DUS_CONFIG_DIR: join(work, 'config'), DUS_SECRET: 'e2e-instance-secret' };

    // Archive account, users, files with markers, shares.
    for (const name of ['archive', 'alice', 'bob', 'dana']) users[name] = await nc.createUser(name);
    await nc.createGroup('team');
    await nc.addToGroup('bob', 'team');
    const archive = users.archive as NextcloudUser;
    await archive.mkdirs('Shared');
    await archive.mkdirs('Private');
    await archive.mkdirs('Team');
    await archive.put('Shared/Invoice one [P1].pdf');
    await archive.put('Shared/Invoice two [P2].pdf');
    await archive.put('Shared/Contract three [P3].pdf');
    await archive.put('Private/Private four [P4].pdf');
    await archive.put('Team/Team five [P5].pdf');
    for (const entry of await archive.tree()) {
      const marker = /\[P(\d+)\]/.exec(entry.name);
      if (marker?.[1] !== undefined && typeof entry.fileId === 'number') fileIds.set(Number(marker[1]), entry.fileId);
    }
    await archive.share({ path: '/Shared', type: 'user', with: 'alice' });
    await archive.share({ path: '/Shared/Invoice one [P1].pdf', type: 'user', with: 'bob' });
    await archive.share({ path: '/Team', type: 'group', with: 'team' });
    await (users.alice as NextcloudUser).put('Own notes [P2].txt');

    emulator = await startArchiveEmulator({ documents: DOCUMENTS, tokens: [TOKEN] });
    const setup = await run('sh', ['-c', `printf '%s\\n' "$TOKEN" | "$NODE" "$CLI" --nextcloud "$NC" setup --url "$URL" --token-stdin --archive-account archive --allow-local`], {
      env: { ...process.env, ...env, TOKEN, NODE: process.execPath, CLI: BUILT_CLI, NC: nc.serverDir, URL: emulator.url },
    });
    if (setup.code !== 0) throw new Error(`setup: ${setup.stdout}${setup.stderr}`);

    // serve as the unit file starts it, then the README's install, pairing and pointing, as written.
    serve = await startServe(env, nc.serverDir);
    const readme = await run('bash', ['-euo', 'pipefail', '-c', readmeInstallBlock()], {
      env: { ...process.env, ...env, NC: nc.serverDir, APPS: join(nc.serverDir, 'apps'), OCC: `php ${nc.serverDir}/occ`, DUS: `${process.execPath} ${BUILT_CLI}`, SERVE: serve.url },
    });
    if (readme.code !== 0) throw new Error(`README commands: ${readme.stdout}${readme.stderr}`);
    secret = readFileSync(join(work, 'config', 'bridge-secret'), 'utf8').trim();
  }, 600_000);

  afterAll(async () => {
    if (serve !== undefined) await stopServe(serve.child);
    await emulator?.close();
    await nc?.stop();
    if (work !== undefined) rmSync(work, { recursive: true, force: true });
  }, 120_000);

  const searchAs = (user: string, query: string): Promise<SearchData> =>
    (users[user] as NextcloudUser).request('GET', `/ocs/v2.php/search/providers/${PROVIDER}/search?${query}`, { headers: json }).then((answer) => ocs<SearchData>(answer));
  const documentIds = (entries: Entry[]): number[] => entries.map((entry) => Number(entry.attributes.documentId)).sort((a, b) => a - b);

  test("Nextcloud's provider list names the provider", async () => {
    const providers = ocs<{ id: string; appId: string; name: string }[]>(await (users.alice as NextcloudUser).request('GET', '/ocs/v2.php/search/providers', { headers: json }));
    expect(providers).toContainEqual(expect.objectContaining({ id: PROVIDER, appId: 'docs_unified_search', name: 'Archive documents' }));
  }, 60_000);

  test("Nextcloud's unified search returns only the documents each user can open", async () => {
    for (const [user, opens] of Object.entries(OPENS)) {
      const data = await searchAs(user, 'term=invoice&limit=25');
      expect([user, documentIds(data.entries)]).toEqual([user, opens]);
      for (const entry of data.entries) {
        expect(entry.resourceUrl).toBe(`${nc.url}/f/${fileIds.get(Number(entry.attributes.documentId))}`);
      }
    }
  }, 120_000);

  test("the search bar's date filter keeps the day the user picked, in the user's time zone", async () => {
    // The browser sends the user's midnight and last millisecond of the day as UTC moments
    // (axios writes Dates with toISOString). Invoices 1 and 2 were created on 1 and 2 November.
    const pick = async (zone: string, since: string, until: string): Promise<number[]> => {
      const set = await nc.occ(['user:setting', 'alice', 'core', 'timezone', zone]);
      expect(set.code).toBe(0);
      return documentIds((await searchAs('alice', `term=invoice&limit=25&since=${since}&until=${until}`)).entries);
    };
    try {
      // 2 November in Berlin (+01:00) starts on 1 November in UTC.
      expect(await pick('Europe/Berlin', '2026-11-01T23:00:00.000Z', '2026-11-02T22:59:59.999Z')).toEqual([2]);
      // 1 November in New York ends on 2 November in UTC; that night summer time ends, so the
      // day starts at -04:00 and ends at -05:00.
      expect(await pick('America/New_York', '2026-11-01T04:00:00.000Z', '2026-11-02T04:59:59.999Z')).toEqual([1]);
    } finally {
      await nc.occ(['user:setting', '--delete', 'alice', 'core', 'timezone']);
    }
  }, 120_000);

  test('results page with the cursor: one at a time, no repeats, none left out', async () => {
    const seen: number[] = [];
    let cursor: string | number | null = null;
    for (let page = 0; page < 6; page++) {
      const data: SearchData = await searchAs('alice', `term=invoice&limit=1${cursor === null ? '' : `&cursor=${encodeURIComponent(String(cursor))}`}`);
      expect(data.entries.length).toBeLessThanOrEqual(1);
      seen.push(...documentIds(data.entries));
      cursor = data.cursor;
      if (cursor === null) break;
      expect(data.isPaginated).toBe(true);
    }
    expect(cursor).toBeNull();
    expect([...seen].sort((a, b) => a - b)).toEqual(OPENS.alice);
  }, 120_000);

  test('the same verdicts as `dus search --json` for every user', async () => {
    for (const user of Object.keys(OPENS)) {
      const verdicts = await cli(env, ['--nextcloud', nc.serverDir, 'search', user, 'invoice', '--limit=50', '--json']);
      expect(verdicts.code).toBe(0);
      const shown = (JSON.parse(verdicts.stdout) as { id: number; verdict: string }[]).filter((item) => item.verdict === 'shown').map((item) => item.id);
      const inNextcloud = documentIds((await searchAs(user, 'term=invoice&limit=25')).entries);
      expect([user, inNextcloud]).toEqual([user, [...shown].sort((a, b) => a - b)]);
    }
  }, 120_000);

  test('the smart picker lists the provider, searches through it, and links resolve for readers who can open them', async () => {
    const bob = users.bob as NextcloudUser;
    const providers = ocs<{ id: string; search_providers_ids?: string[] }[]>(await bob.request('GET', '/ocs/v2.php/references/providers', { headers: json }));
    expect(providers).toContainEqual(expect.objectContaining({ id: 'docs_unified_search-documents', search_providers_ids: [PROVIDER] }));
    // The picker asks the search endpoint without `from`.
    const picked = await searchAs('bob', 'term=invoice&limit=5');
    const link = picked.entries.find((entry) => entry.attributes.documentId === '1')?.resourceUrl ?? '';
    expect(link).toBe(`${nc.url}/f/${fileIds.get(1)}`);

    type Resolved = { references: Record<string, { accessible: boolean; richObjectType: string; richObject: Record<string, unknown> | null; openGraphObject: { name: string; thumb: string | null } } | null> };
    const resolve = (user: string, reference: string) =>
      (users[user] as NextcloudUser).request('GET', `/ocs/v2.php/references/resolve?reference=${encodeURIComponent(reference)}`, { headers: json }).then((answer) => ocs<Resolved>(answer).references[reference]);
    const forBob = await resolve('bob', link);
    expect(forBob).toMatchObject({ accessible: true, richObjectType: 'file', openGraphObject: { name: 'Invoice one [P1].pdf' } });
    expect(forBob?.openGraphObject.thumb).toContain(`/core/preview?fileId=${fileIds.get(1)}`);
    const forDana = await resolve('dana', link);
    expect(forDana?.accessible).toBe(false);
    expect(JSON.stringify(forDana)).not.toContain('Invoice one');
    // A file that is not an archive file stays with Nextcloud's own Files provider.
    const own = (await (users.alice as NextcloudUser).tree()).find((entry) => entry.name === 'Own notes [P2].txt');
    const ownLink = `${nc.url}/index.php/f/${own?.fileId}`;
    const forAlice = await resolve('alice', ownLink);
    if (forAlice?.accessible !== true) process.stdout.write(`own link ${ownLink} resolved to ${JSON.stringify(forAlice)}\n`);
    expect(forAlice).toMatchObject({ accessible: true, richObjectType: 'file', richObject: expect.objectContaining({ name: 'Own notes [P2].txt' }) });
  }, 120_000);

  test("Nextcloud's dashboard API returns the widget's items, newer than a sinceId on request", async () => {
    const alice = users.alice as NextcloudUser;
    const widgets = ocs<Record<string, { reload_interval: number; item_api_versions: number[]; buttons?: { type: string }[] }>>(await alice.request('GET', '/ocs/v2.php/apps/dashboard/api/v1/widgets', { headers: json }));
    expect(widgets[WIDGET]).toMatchObject({ reload_interval: 60, buttons: [expect.objectContaining({ type: 'more' })] });
    expect(widgets[WIDGET]?.item_api_versions).toContain(2);
    type Items = Record<string, { items: { title: string; sinceId: string; link: string }[] }>;
    const items = ocs<Items>(await alice.request('GET', `/ocs/v2.php/apps/dashboard/api/v2/widget-items?widgets[]=${WIDGET}`, { headers: json }))[WIDGET]?.items ?? [];
    expect(items.map((item) => item.title)).toEqual(['Contract three', 'Invoice two', 'Invoice one']);
    const since = items[1]?.sinceId ?? '';
    const newer = ocs<Items>(await alice.request('GET', `/ocs/v2.php/apps/dashboard/api/v2/widget-items?widgets[]=${WIDGET}&sinceIds[${WIDGET}]=${encodeURIComponent(since)}`, { headers: json }))[WIDGET]?.items ?? [];
    expect(newer.map((item) => item.title)).toEqual(['Contract three']);
    const forDana = ocs<Items>(await (users.dana as NextcloudUser).request('GET', `/ocs/v2.php/apps/dashboard/api/v2/widget-items?widgets[]=${WIDGET}`, { headers: json }))[WIDGET]?.items;
    expect(forDana).toEqual([]);
    // Nextcloud's dispatcher enforces the API's int<1, 30> itself (ParameterOutOfRangeException):
    // the service is never asked for more, so the bridge passes the limit on as it is.
    const tooMany = await alice.request('GET', `/ocs/v2.php/apps/dashboard/api/v2/widget-items?widgets[]=${WIDGET}&limit=31`, { headers: json });
    expect(tooMany.status).not.toBe(200);
  }, 120_000);

  test('the settings routes refuse non-administrators and answer administrators', async () => {
    const asAlice = await (users.alice as NextcloudUser).request('GET', SETTINGS, { headers: json });
    expect(asAlice.status).toBe(403);
    const asAdmin = await nc.admin.request('GET', SETTINGS, { headers: json });
    expect(asAdmin.status).toBe(200);
    expect(JSON.parse(asAdmin.body)).toMatchObject({ url: emulator.url, archiveOwner: 'archive', tokenConfigured: true });
    expect(asAdmin.body).not.toContain(TOKEN);
    const tried = await nc.admin.request('POST', `${SETTINGS}/try`, { body: new URLSearchParams({ term: 'invoice', user: 'bob' }), headers: json });
    expect(tried.status).toBe(200);
    expect((JSON.parse(tried.body) as { documents: { id: number; shown: boolean }[] }).documents.filter((d) => d.shown).map((d) => d.id).sort()).toEqual(OPENS.bob);
  }, 60_000);

  test('a browser session needs the request token, and Save and Disconnect a recent password confirmation', async () => {
    const session = await BrowserSession.logIn(nc.url, 'admin', ADMIN_PASSWORD);
    await session.page('/index.php/settings/admin/docs_unified_search');
    const noToken = await session.request('GET', SETTINGS, { headers: json });
    expect(noToken.status).toBe(412);
    const withToken = await session.request('GET', SETTINGS, { headers: { ...json, requesttoken: session.requestToken } });
    expect(withToken.status).toBe(200);
    const save = new URLSearchParams({ url: emulator.url, archiveOwner: 'archive', allowLocal: 'true' });
    // Forty minutes later (a server of the same instance under a shifted clock) the login's confirmation is too old.
    const later = await nc.startClockedServer('+40m');
    try {
      const stale = session.at(later.url);
      const refused = await stale.request('POST', SETTINGS, { body: save, headers: { ...json, requesttoken: session.requestToken } });
      expect(refused.status).toBe(403);
      expect(JSON.parse(refused.body)).toEqual({ message: 'Password confirmation is required' });
      expect((await stale.request('DELETE', SETTINGS, { headers: { ...json, requesttoken: session.requestToken } })).status).toBe(403);
    } finally {
      await later.stop();
    }
    // Just after the login the confirmation holds: Nextcloud says so to serve, which saves.
    const saved = await session.request('POST', SETTINGS, { body: save, headers: { ...json, requesttoken: session.requestToken } });
    expect(saved.status).toBe(200);
    expect(JSON.parse(saved.body)).toMatchObject({ url: emulator.url, tokenConfigured: true });
  }, 180_000);

  test("Nextcloud's admin page holds the section's form, rendered on the server", async () => {
    const session = await BrowserSession.logIn(nc.url, 'admin', ADMIN_PASSWORD);
    const page = await session.page('/index.php/settings/admin/docs_unified_search');
    expect(page.status).toBe(200);
    expect(page.body).toContain('id="dus-admin"');
    expect(page.body).toContain(`data-settings-url="/index.php/apps/docs_unified_search/settings"`);
    expect(page.body).toMatch(/<form id="dus-settings"/);
    expect(page.body).toContain(`value="${emulator.url}"`);
    expect(page.body).toContain('A token is stored');
    expect(page.body).toMatch(/docs_unified_search\/js\/admin-settings\.js/);
    expect(page.body).not.toContain(TOKEN);
  }, 60_000);

  const CHROMIUM = process.env.DUS_TEST_CHROMIUM ?? '/usr/bin/chromium';
  if (!existsSync(CHROMIUM)) process.stdout.write(`SKIP the section's script in Chromium: no Chromium at ${CHROMIUM}\n`);
  (existsSync(CHROMIUM) ? test : test.skip)("the section's script and styles work in Nextcloud's page in Chromium: history, Try a search, Save through the password dialog", async () => {
    // Forty minutes after the login, Save needs the password again: Nextcloud and serve both run
    // under a clock forty minutes on (serve too, or it would refuse the calls as stale).
    const session = await BrowserSession.logIn(nc.url, 'admin', ADMIN_PASSWORD);
    const later = await nc.startClockedServer('+40m');
    const laterServe = await startServe(env, nc.serverDir, '+40m');
    await nc.setAppConfig('docs_unified_search', 'service_url', laterServe.url);
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
    try {
      const context = await browser.newContext({ viewport: { width: 1100, height: 1500 } });
      await context.addCookies(session.cookieEntries().map(([name, value]) => ({ name, value, url: later.url })));
      const page = await context.newPage();
      page.setDefaultTimeout(20_000);
      await page.goto(`${later.url}/index.php/settings/admin/docs_unified_search`);
      // Nextcloud's own bundles are missing from the vendored tree; the section's script runs alone.
      await page.locator('#dus-history li').first().waitFor();
      await expect(page.locator('#dus-confirm').isVisible()).resolves.toBe(false);
      await page.locator('#dus-history', { hasNotText: 'Loading' }).waitFor();
      await expect(page.locator('#dus-admin .buttons').first().evaluate((element) => (element.ownerDocument.defaultView as { getComputedStyle(e: unknown): { display: string } } | null)?.getComputedStyle(element).display)).resolves.toBe('flex');
      await page.getByLabel('Search term').fill('invoice');
      await page.getByLabel('Search as user').fill('bob');
      await page.getByRole('button', { name: 'Try' }).click();
      await page.locator('#dus-try-results').filter({ hasText: 'Team five' }).waitFor();
      await expect(page.locator('#dus-try-results').textContent()).resolves.toContain('Invoice one');
      await page.getByRole('button', { name: 'Save' }).click();
      await page.locator('#dus-confirm').waitFor({ state: 'visible' }).catch(async (error: unknown) => {
        throw new Error(`no password dialog; status "${await page.locator('#dus-status').textContent()}", error "${await page.locator('#dus-error').textContent()}": ${String(error)}`);
      });
      // The dialog sits in the viewport (Nextcloud's CSS reset would pin it to a corner).
      const box = await page.locator('#dus-confirm').boundingBox();
      expect(box !== null && box.y > 0 && box.x > 0 && box.y + box.height < 1500).toBe(true);
      await page.locator('#dus-confirm-password').fill(ADMIN_PASSWORD);
      await page.locator('#dus-confirm-ok').click();
      await page.locator('#dus-status').filter({ hasText: 'Saved' }).waitFor();
      await expect(page.locator('#dus-token-state').textContent()).resolves.toBe('A token is stored');
      mkdirSync(join(process.cwd(), 'test-artifacts'), { recursive: true });
      await page.screenshot({ path: join(process.cwd(), 'test-artifacts', `nextcloud-admin-section-${db}.png`), fullPage: true });
    } finally {
      await browser.close();
      await nc.setAppConfig('docs_unified_search', 'service_url', serve.url);
      await stopServe(laterServe.child);
      await later.stop();
    }
  }, 240_000);

  test('occ setupchecks shows the overview check', async () => {
    const checks = await nc.occ(['setupchecks', '--output=json']);
    const all = JSON.parse(checks.stdout) as Record<string, Record<string, { name: string; severity: string; description: string | null }>>;
    expect(all.system?.['OCA\\DocsUnifiedSearch\\SetupCheck\\OverviewCheck']).toMatchObject({ name: 'Document archive search', severity: 'success' });
  }, 60_000);

  test('the secret is in no answer, no log and not in the package', async () => {
    const logs = readFileSync(join(nc.dataDir, 'nextcloud.log'), 'utf8') + readFileSync(join(work, 'config', 'docs_unified_search.log'), 'utf8');
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(logs).not.toContain(secret);
    expect(logs).not.toContain(TOKEN);
    const packed = await run('sh', ['-c', 'tar -xzOf dist-nextcloud-app/docs_unified_search-*.tar.gz']);
    expect(packed.stdout).toContain('OCA\\DocsUnifiedSearch');
    expect(packed.stdout).not.toContain(secret);
    expect((await nc.admin.request('GET', SETTINGS, { headers: json })).body).not.toContain(secret);
  }, 60_000);

  test('with serve down, Nextcloud search still answers: no results, one log line, never a 500', async () => {
    await stopServe(serve.child);
    const logFile = join(nc.dataDir, 'nextcloud.log');
    const before = readFileSync(logFile, 'utf8').split('\n').length;
    const direct = await (users.alice as NextcloudUser).request('GET', `/ocs/v2.php/search/providers/${PROVIDER}/search?term=invoice`, { headers: json });
    expect(direct.status).toBe(200);
    expect(ocs<SearchData>(direct).entries).toEqual([]);
    const lines = readFileSync(logFile, 'utf8').split('\n').slice(before - 1).filter((line) => line.includes('"app":"docs_unified_search"'));
    expect(lines).toHaveLength(1);
    // Nextcloud writes the request's URL itself; the app's own message names no term.
    const message = (JSON.parse(lines[0] ?? '{}') as { message?: string }).message ?? '';
    expect(message).toContain('did not answer');
    expect(message).not.toContain('invoice');
    const providers = await (users.alice as NextcloudUser).request('GET', '/ocs/v2.php/search/providers', { headers: json });
    expect(providers.status).toBe(200);
    expect(ocs<{ id: string }[]>(providers).map((provider) => provider.id)).not.toContain(PROVIDER);
    const widget = await (users.alice as NextcloudUser).request('GET', `/ocs/v2.php/apps/dashboard/api/v2/widget-items?widgets[]=${WIDGET}`, { headers: json });
    expect(widget.status).toBe(200);
  }, 60_000);
});
