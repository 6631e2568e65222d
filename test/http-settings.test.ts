import { afterAll, beforeAll, beforeEach, describe, expect, test } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FormData, request } from 'undici';
import type { ServiceContext } from '../src/core/context-types.js';
import { openHost } from '../src/core/host/open-host.js';
import { buildServer } from '../src/http/server.js';
import { ARCHIVE_TOKEN, call, login, PASSWORDS, startHarness, type Harness } from './support/http-harness.js';

const SETTINGS = '/apps/docs_unified_search/settings';
const ADMIN = { basic: ['admin', PASSWORDS.admin] as const, headers: { 'ocs-apirequest': 'true' } };

let h: Harness;

beforeAll(async () => {
  h = await startHarness({ configured: false });
});

afterAll(async () => {
  await h.close();
});

beforeEach(() => {
  h.emulator.clearRequests();
});

async function save(form: Record<string, string>, path = SETTINGS) {
  return call(h, 'POST', path, { ...ADMIN, form });
}

describe('Save', () => {
  test.each([
    ['ftp://archive.example', 'unsupported_scheme'],
    ['not a url', 'invalid_url'],
    ['https://user:pw@archive.example', 'url_extras'],
    ['https://archive.example/?x=1', 'url_extras'],
  ])('refuses %s with 400 and code %s, asking nothing of the archive server', async (url, code) => {
    const answer = await save({ url, token: ARCHIVE_TOKEN });
    expect(answer.status).toBe(400);
    expect(answer.json()).toEqual({ message: expect.any(String), code });
    expect(h.emulator.requests).toHaveLength(0);
  });

  test('a token the archive server refuses gives 400 unauthorized, the spec warning in the log, and stores nothing', async () => {
    const answer = await save({ url: h.emulator.url, token: 'wrong-token-value' });
    expect(answer.status).toBe(400);
    expect(answer.json().code).toBe('unauthorized');
    expect(answer.text).not.toContain('wrong-token-value');
    expect(h.context.settings.get('docs_url')).toBeUndefined();
    const log = readFileSync(join(h.configDir, 'host.log'), 'utf8');
    expect(log).toContain('The test of the connection to the archive server failed: unauthorized (HTTP 401)');
    expect(log).not.toContain('wrong-token-value');
  });

  test('missing url or an unreadable switch is a 400 usage error', async () => {
    expect((await save({ token: ARCHIVE_TOKEN })).json().code).toBe('usage');
    const odd = await save({ url: h.emulator.url, token: ARCHIVE_TOKEN, allowLocal: 'maybe' });
    expect(odd.status).toBe(400);
    expect(odd.json().code).toBe('usage');
  });

  test('an unknown archive account is refused after the test', async () => {
    const answer = await save({ url: h.emulator.url, token: ARCHIVE_TOKEN, archiveOwner: 'ghost' });
    expect(answer.status).toBe(400);
    expect(answer.json().code).toBe('unknown_archive_account');
  });

  test('a good save tests, stores and answers the settings response without the token', async () => {
    const answer = await save({ url: `${h.emulator.url}/`, token: ARCHIVE_TOKEN, archiveOwner: 'ARCHIVE', alwaysSearch: 'true', allowLocal: 'false' });
    expect(answer.status).toBe(200);
    expect(answer.json()).toEqual({
      url: h.emulator.url,
      tokenConfigured: true,
      alwaysSearch: true,
      archiveOwner: 'archive',
      syncAccount: null,
      tokenUnreadable: false,
      archiveOwnerMissing: false,
      allowLocal: false,
      docsVersion: expect.any(String),
      docsApiVersion: expect.any(String),
    });
    expect(answer.text).not.toContain(ARCHIVE_TOKEN);
    const test = h.emulator.requests.find((r) => r.path.endsWith('/api/documents/'));
    expect(test?.query).toMatchObject({ page_size: '1', fields: 'id' });
    expect(test?.headers.authorization).toBe(`Token ${ARCHIVE_TOKEN}`);
  });

  test('a blank token keeps the stored one for the same server; another server needs it again', async () => {
    const same = await save({ url: h.emulator.url, token: '' }, `/index.php${SETTINGS}`);
    expect(same.status).toBe(200);
    const other = await save({ url: h.emulator.url.replace('127.0.0.1', 'localhost') });
    expect(other.status).toBe(400);
    expect(other.json().code).toBe('token_for_other_server');
  });

  test('the token as a multipart file upload: its first line counts', async () => {
    const form = new FormData();
    form.append('url', h.emulator.url);
    form.append('token', new Blob([`${ARCHIVE_TOKEN}\nsecond line\n`]), 'token.txt');
    const response = await request(`${h.base}${SETTINGS}`, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from(`admin:${PASSWORDS.admin}`).toString('base64')}`, 'ocs-apirequest': 'true', accept: 'application/json' },
      body: form,
    });
    const text = await response.body.text();
    expect(response.statusCode).toBe(200);
    expect(JSON.parse(text)).toMatchObject({ tokenConfigured: true });
    expect(h.emulator.requests.at(-1)?.headers.authorization).toBe(`Token ${ARCHIVE_TOKEN}`);
  });

  test('a host database that cannot be opened after the test: 500 internal, the spec error line, nothing stored', async () => {
    const missing = join(h.configDir, 'missing.db');
    // The host is there for the login, then gone (a database restarting) when the save reads it.
    let hostGone = false;
    const context: ServiceContext = { ...h.context, host: () => (hostGone ? openHost({ dbUrl: `sqlite://${missing}` }) : h.context.host()) };
    const app = await buildServer({ context });
    try {
      const headers = {
        authorization: `Basic ${Buffer.from(`admin:${PASSWORDS.admin}`).toString('base64')}`,
        'ocs-apirequest': 'true',
        accept: 'application/json',
      };
      expect((await app.inject({ method: 'GET', url: SETTINGS, headers })).statusCode).toBe(200);
      hostGone = true;
      // As bytes: a token saved again is encrypted anew, so a write shows even with the same token.
      const stored = (): string[] => ['settings.json', 'credentials.json'].map((name) => readFileSync(join(h.configDir, 'config', name), 'utf8'));
      const before = stored();
      const logBefore = readFileSync(join(h.configDir, 'host.log'), 'utf8');
      const answer = await app.inject({
        method: 'POST',
        url: SETTINGS,
        headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({
          url: h.emulator.url,
          token: ARCHIVE_TOKEN,
          archiveOwner: 'archive',
          alwaysSearch: String(h.context.settings.get('always_search') !== true),
        }).toString(),
      });
      expect(answer.statusCode).toBe(500);
      expect(answer.json()).toEqual({ message: expect.stringContaining('(host_unreachable)'), code: 'internal' });
      expect(answer.body).not.toContain(ARCHIVE_TOKEN);
      expect(answer.body).not.toContain(missing);
      expect(h.emulator.requests.some((r) => r.path.endsWith('/api/documents/'))).toBe(true);
      expect(stored()).toEqual(before);
      const logged = readFileSync(join(h.configDir, 'host.log'), 'utf8').slice(logBefore.length);
      expect(logged.match(/The settings of the app could not be saved \(internal\)/g)).toHaveLength(1);
      expect(logged).not.toContain(ARCHIVE_TOKEN);
    } finally {
      await app.close();
    }
  });
});

test('a token file over 16 KiB or a body over 64 KiB is refused with 413, nothing stored', async () => {
  const form = new FormData();
  form.append('url', 'https://other.example');
  form.append('token', new Blob(['x'.repeat(20_000)]), 'token.txt');
  const response = await request(`${h.base}${SETTINGS}`, {
    method: 'POST',
    headers: { authorization: `Basic ${Buffer.from(`admin:${PASSWORDS.admin}`).toString('base64')}`, 'ocs-apirequest': 'true', accept: 'application/json' },
    body: form,
  });
  expect(response.statusCode).toBe(413);
  expect(await response.body.json()).toMatchObject({ code: 'too_large' });
  const big = await save({ url: 'https://other.example', token: 'y'.repeat(70_000) });
  expect(big.status).toBe(413);
  expect(h.context.settings.get('docs_url')).not.toBe('https://other.example');
});

test("a cut-off multipart form is the caller's 400, not a server failure", async () => {
  const before = readFileSync(join(h.configDir, 'host.log'), 'utf8');
  const answer = await call(h, 'POST', SETTINGS, {
    ...ADMIN,
    headers: { ...ADMIN.headers, 'content-type': 'multipart/form-data; boundary=XX' },
    body: '--XX\r\nContent-Disposition: form-data; name="url"\r\n\r\nhttps://cut.example\r\n--XX',
  });
  expect(answer.status).toBe(400);
  expect(answer.json()).toEqual({ message: expect.any(String), code: 'usage' });
  expect(readFileSync(join(h.configDir, 'host.log'), 'utf8')).toBe(before);
  expect(h.context.settings.get('docs_url')).not.toBe('https://cut.example');
});

describe('Disconnect and Clear history', () => {
  test('Clear history deletes only the history', async () => {
    h.context.settings.update({ diagnostics: JSON.stringify([{ at: '2026-01-01T00:00:00Z', code: 'timeout', message: 'm' }]), diagnostics_pending: true });
    const before = Object.keys(h.context.settings.read()).sort();
    const answer = await call(h, 'DELETE', `${SETTINGS}/diagnostics`, ADMIN);
    expect(answer.status).toBe(200);
    expect(answer.json()).toEqual({ entries: [] });
    expect(Object.keys(h.context.settings.read()).sort()).toEqual(before.filter((k) => k !== 'diagnostics'));
  });

  test('Disconnect deletes URL, token, switches, account, versions and history; keeps diagnostics_pending and the host keys', async () => {
    expect((await save({ url: h.emulator.url, token: ARCHIVE_TOKEN, archiveOwner: 'archive', allowLocal: 'false', alwaysSearch: 'true' })).status).toBe(200);
    h.context.settings.update({
      diagnostics: JSON.stringify([{ at: '2026-01-01T00:00:00Z', code: 'timeout', message: 'm' }]),
      diagnostics_pending: true,
      enabled: true,
      installed_version: '0.4.0',
    });
    expect(Object.keys(h.context.settings.read()).sort()).toEqual(
      [
        'allow_local',
        'always_search',
        'archive_owner',
        'diagnostics',
        'diagnostics_pending',
        'docs_api_version',
        'docs_url',
        'docs_version',
        'enabled',
        'installed_version',
      ].sort(),
    );
    const answer = await call(h, 'DELETE', SETTINGS, ADMIN);
    expect(answer.status).toBe(200);
    expect(answer.json()).toMatchObject({ url: null, tokenConfigured: false, alwaysSearch: false, allowLocal: false, archiveOwner: '' });
    expect(h.context.settings.read()).toEqual({ diagnostics_pending: true, enabled: true, installed_version: '0.4.0' });
    expect(h.context.credentials.load().status).toBe('none');
  });
});

describe('the overview check', () => {
  const OVERVIEW = `${SETTINGS}/overview`;
  test('warns while not configured, names the server once it is, reads stored data only', async () => {
    const warn = await call(h, 'GET', OVERVIEW, ADMIN);
    expect(warn.status).toBe(200);
    expect(warn.json()).toMatchObject({ severity: 'warning', link: expect.stringContaining('/settings/admin/docs_unified_search') });
    expect((await save({ url: h.emulator.url, token: ARCHIVE_TOKEN, archiveOwner: 'archive' })).status).toBe(200);
    // Disconnect above kept diagnostics_pending raised; a search that worked would lower it.
    const pending = await call(h, 'GET', OVERVIEW, ADMIN);
    expect(pending.json<{ messages: string[] }>().messages.join(' ')).toContain('A search failed');
    h.context.settings.update({ diagnostics_pending: false });
    h.emulator.clearRequests();
    const ok = await call(h, 'GET', OVERVIEW, ADMIN);
    expect(ok.json()).toMatchObject({ severity: 'success', messages: [expect.stringContaining(h.emulator.url)] });
    expect(h.emulator.requests).toHaveLength(0);
    expect(ok.text).not.toContain(ARCHIVE_TOKEN);
    expect((await call(h, 'GET', OVERVIEW, { basic: ['alice', PASSWORDS.alice] })).status).toBe(403);
  });
});

describe('the admin page', () => {
  test('shows the sync account as placeholder, a stored-token indicator, never the token; the script is served', async () => {
    await h.fixture.setAppConfig('docs_sync', 'target_user', 'archive');
    expect((await save({ url: h.emulator.url, token: ARCHIVE_TOKEN, archiveOwner: '' })).status).toBe(200);
    const session = await login(h, 'admin', PASSWORDS.admin);
    const page = await call(h, 'GET', '/index.php/settings/admin/docs_unified_search', { cookie: session.cookie, headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.text).toMatch(/<input type="text" id="dus-owner" name="archiveOwner" value="" placeholder="archive"/);
    expect(page.text).toMatch(/<input type="password" id="dus-token" name="token" value=""/);
    expect(page.text).toContain('A token is stored');
    expect(page.text).not.toContain(ARCHIVE_TOKEN);
    expect(page.text).toContain(`<meta name="requesttoken" content="${session.requestToken}">`);
    // The connection at a glance, from the overview check: marked, not only a grey line.
    const badge = (html: string): string => /<p class="hint connection">([\s\S]*?)<\/p>/.exec(html)?.[1] ?? '';
    h.context.settings.update({ diagnostics_pending: true });
    const failing = await call(h, 'GET', '/settings/admin/docs_unified_search', { cookie: session.cookie, headers: { accept: 'text/html' } });
    expect(badge(failing.text)).toMatch(
      /^<span class="badge bad" id="dus-connection">! Needs attention<\/span> <span id="dus-connection-findings">.*A search failed/,
    );
    h.context.settings.update({ diagnostics_pending: false });
    const connected = await call(h, 'GET', '/settings/admin/docs_unified_search', { cookie: session.cookie, headers: { accept: 'text/html' } });
    expect(badge(connected.text)).toMatch(/^<span class="badge" id="dus-connection">✓ Connected<\/span>/);
    const script = await call(h, 'GET', '/apps/docs_unified_search/js/admin-settings.js');
    expect(script.status).toBe(200);
    expect(String(script.headers['content-type'])).toContain('text/javascript');
  });
});
