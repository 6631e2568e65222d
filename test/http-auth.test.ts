import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { createHash } from 'node:crypto';
import bcrypt from 'bcryptjs';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Authenticator } from '../src/core/auth/authenticator.js';
import { LoginThrottle, THROTTLE_MAX_FAILURES } from '../src/core/auth/throttle.js';
import { buildServer } from '../src/http/server.js';
import { ARCHIVE_TOKEN, call, login, PASSWORDS, startHarness, type Harness } from './support/http-harness.js';

const SETTINGS = '/apps/docs_unified_search/settings';
const WIDGETS = '/ocs/v2.php/apps/dashboard/api/v1/widgets';
const OCS = { 'ocs-apirequest': 'true' };

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});

afterAll(async () => {
  await h.close();
});

describe('who may call', () => {
  test('anonymous callers get 401 (OCS envelope on OCS routes) and the admin page sends them to the login form', async () => {
    const plain = await call(h, 'GET', SETTINGS);
    expect(plain.status).toBe(401);
    expect(plain.json()).toEqual({ message: expect.any(String), code: 'unauthenticated' });
    const ocs = await call(h, 'GET', WIDGETS);
    expect(ocs.status).toBe(401);
    expect(ocs.json<{ ocs: { meta: { statuscode: number } } }>().ocs.meta.statuscode).toBe(401);
    const page = await call(h, 'GET', '/settings/admin/docs_unified_search', { headers: { accept: 'text/html' } });
    expect(page.status).toBe(303);
    expect(page.headers.location).toBe('/login?redirect_url=%2Fsettings%2Fadmin%2Fdocs_unified_search');
  });

  test('unknown login, wrong password and disabled account get the very same answer', async () => {
    const answers = await Promise.all([
      call(h, 'GET', SETTINGS, { basic: ['nobody', 'whatever-1'], from: '10.1.0.1' }),
      call(h, 'GET', SETTINGS, { basic: ['admin', 'wrong-password'], from: '10.1.0.2' }),
      call(h, 'GET', SETTINGS, { basic: ['carol', PASSWORDS.carol], from: '10.1.0.3' }),
    ]);
    for (const answer of answers) expect(answer.status).toBe(401);
    expect(new Set(answers.map((a) => a.text)).size).toBe(1);
  });

  test("an unknown login is checked against a decoy with the cost of the host's own argon2id hashes", async () => {
    // The fixture stores argon2id as the host does (m=65536, t=4, p=1): a wrong password costs that
    // much, so an unknown login must too, or its quicker refusal tells that the user does not exist.
    const authenticator = new Authenticator(await h.context.host());
    expect(await authenticator.decoyHash()).toMatch(/^3\|\$argon2id\$v=19\$m=65536,t=4,p=1\$/);
  });

  test('a user who is not an administrator gets 403 on settings routes but may use the widget API', async () => {
    const settings = await call(h, 'GET', SETTINGS, { basic: ['alice', PASSWORDS.alice] });
    expect(settings.status).toBe(403);
    expect(settings.json().code).toBe('forbidden');
    const clear = await call(h, 'DELETE', `${SETTINGS}/diagnostics`, { basic: ['alice', PASSWORDS.alice], headers: OCS });
    expect(clear.status).toBe(403);
    const widgets = await call(h, 'GET', WIDGETS, { basic: ['alice', PASSWORDS.alice] });
    expect(widgets.status).toBe(200);
    const session = await login(h, 'alice', PASSWORDS.alice);
    const page = await call(h, 'GET', '/settings/admin/docs_unified_search', { cookie: session.cookie, headers: { accept: 'text/html' } });
    expect(page.status).toBe(403);
    expect(page.text).toContain('Administrators only');
    expect(page.text).not.toContain('dus-settings');
  });

  test('public routes check no Basic header: a stale one neither blocks the login form nor counts as a failure', async () => {
    h.delays.length = 0;
    const from = '10.5.0.1';
    for (let i = 0; i < 3; i += 1) {
      const form = await call(h, 'GET', '/login', { basic: ['admin', 'stale-password'], from, headers: { accept: 'text/html' } });
      expect(form.status).toBe(200);
    }
    expect((await call(h, 'POST', '/login', { basic: ['admin', 'stale-password'], from, form: { user: 'alice', password: PASSWORDS.alice } })).status).toBe(
      303,
    );
    expect(h.delays).toEqual([]);
  });

  test('the login is case-insensitive on the uid; bcrypt (1|$2y$) and argon2id (3|) hashes both verify', async () => {
    const upper = await call(h, 'GET', SETTINGS, { basic: ['ADMIN', PASSWORDS.admin] });
    expect(upper.status).toBe(200);
    const bob = await call(h, 'GET', WIDGETS, { basic: ['Bob', PASSWORDS.bob] });
    expect(bob.status).toBe(200);
  });

  test('an administrator reads the settings response, never the token', async () => {
    const answer = await call(h, 'GET', SETTINGS, { basic: ['admin', PASSWORDS.admin] });
    expect(answer.status).toBe(200);
    expect(answer.json()).toMatchObject({ url: h.emulator.url, tokenConfigured: true, archiveOwner: 'archive' });
    expect(answer.text).not.toContain(ARCHIVE_TOKEN);
    expect(answer.headers['cache-control']).toBe('no-store');
    expect(answer.headers['x-content-type-options']).toBe('nosniff');
    expect(answer.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('CSRF', () => {
  test('Basic auth on a state-changing route needs OCS-APIRequest: true (412 without)', async () => {
    const without = await call(h, 'DELETE', `${SETTINGS}/diagnostics`, { basic: ['admin', PASSWORDS.admin] });
    expect(without.status).toBe(412);
    expect(without.json().code).toBe('csrf');
    const withHeader = await call(h, 'DELETE', `${SETTINGS}/diagnostics`, { basic: ['admin', PASSWORDS.admin], headers: OCS });
    expect(withHeader.status).toBe(200);
  });

  test('a cookie session needs its request token on state-changing and OCS calls; OCS-APIRequest does not replace it', async () => {
    const session = await login(h, 'admin', PASSWORDS.admin);
    expect(session.requestToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const missing = await call(h, 'DELETE', `${SETTINGS}/diagnostics`, { cookie: session.cookie });
    expect(missing.status).toBe(412);
    const headerOnly = await call(h, 'DELETE', `${SETTINGS}/diagnostics`, { cookie: session.cookie, headers: OCS });
    expect(headerOnly.status).toBe(412);
    const wrong = await call(h, 'DELETE', `${SETTINGS}/diagnostics`, { cookie: session.cookie, headers: { requesttoken: 'x'.repeat(43) } });
    expect(wrong.status).toBe(412);
    const right = await call(h, 'DELETE', `${SETTINGS}/diagnostics`, { cookie: session.cookie, headers: { requesttoken: session.requestToken } });
    expect(right.status).toBe(200);
    const asField = await call(h, 'DELETE', `${SETTINGS}/diagnostics`, { cookie: session.cookie, form: { requesttoken: session.requestToken } });
    expect(asField.status).toBe(200);
    const ocsWithout = await call(h, 'GET', WIDGETS, { cookie: session.cookie });
    expect(ocsWithout.status).toBe(412);
    const ocsWith = await call(h, 'GET', WIDGETS, { cookie: session.cookie, headers: { requesttoken: session.requestToken } });
    expect(ocsWith.status).toBe(200);
    // A plain read of the settings needs no token.
    expect((await call(h, 'GET', SETTINGS, { cookie: session.cookie })).status).toBe(200);
  });

  test('the session cookie is HttpOnly and SameSite=Strict; Secure only when the trusted proxy says HTTPS', async () => {
    const plain = await call(h, 'POST', '/login', { form: { user: 'alice', password: PASSWORDS.alice } });
    const cookie = String(plain.headers['set-cookie']);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    expect(cookie).not.toMatch(/Secure/);
    const proxied = await call(h, 'POST', '/login', { form: { user: 'alice', password: PASSWORDS.alice }, headers: { 'x-forwarded-proto': 'https' } });
    expect(String(proxied.headers['set-cookie'])).toMatch(/Secure/);
  });

  test('a login posted from another origin is refused', async () => {
    const foreign = await call(h, 'POST', '/login', { form: { user: 'alice', password: PASSWORDS.alice }, headers: { origin: 'https://evil.example' } });
    expect(foreign.status).toBe(403);
    expect(foreign.headers['set-cookie']).toBeUndefined();
    const own = await call(h, 'POST', '/login', { form: { user: 'alice', password: PASSWORDS.alice }, headers: { origin: h.base } });
    expect(own.status).toBe(303);
  });

  test('the login page escapes what it echoes and only redirects within this server', async () => {
    // The target is kept as the browser would send it (quotes and angle brackets percent-encoded); `&` stays and is escaped.
    const page = await call(h, 'GET', `/login?redirect_url=${encodeURIComponent('/x?a="><script>alert(1)</script>&b')}`, { headers: { accept: 'text/html' } });
    expect(page.text).not.toContain('<script>alert(1)');
    expect(page.text).toContain('/x?a=%22%3E%3Cscript%3Ealert(1)%3C/script%3E&amp;b');
    // A browser drops tabs and line ends from a URL: `/<tab>/evil.example` would leave for evil.example.
    for (const target of ['//evil.example/', '/\\evil.example/', '/\t/evil.example/', '/\n/evil.example/', 'https://evil.example/']) {
      const away = await call(h, 'POST', '/login', { form: { user: 'bob', password: PASSWORDS.bob, redirect_url: target } });
      expect([target, away.status, away.headers.location]).toEqual([target, 303, '/settings/admin/docs_unified_search']);
    }
    const within = await call(h, 'POST', '/login', { form: { user: 'bob', password: PASSWORDS.bob, redirect_url: '/settings/admin/docs_unified_search?x=1' } });
    expect(within.headers.location).toBe('/settings/admin/docs_unified_search?x=1');
  });

  test('a session ends when its account is disabled', async () => {
    await h.fixture.addUser('dave', { password: 'dave-pass-1', hash: 'bcrypt' });
    const session = await login(h, 'dave', 'dave-pass-1');
    const headers = { requesttoken: session.requestToken };
    expect((await call(h, 'GET', WIDGETS, { cookie: session.cookie, headers })).status).toBe(200);
    await h.fixture.setUserPreference('dave', 'core', 'enabled', 'false');
    expect((await call(h, 'GET', WIDGETS, { cookie: session.cookie, headers })).status).toBe(401);
    // Enabled again, the account logs in anew; the session refused once stays ended.
    await h.fixture.setUserPreference('dave', 'core', 'enabled', 'true');
    expect((await call(h, 'GET', WIDGETS, { cookie: session.cookie, headers })).status).toBe(401);
    expect((await call(h, 'GET', WIDGETS, { basic: ['dave', 'dave-pass-1'] })).status).toBe(200);
  });

  test('a changed password ends the sessions started with the old one', async () => {
    await h.fixture.addUser('erin', { password: 'erin-pass-1', hash: 'bcrypt' });
    const session = await login(h, 'erin', 'erin-pass-1');
    const headers = { requesttoken: session.requestToken };
    expect((await call(h, 'GET', WIDGETS, { cookie: session.cookie, headers })).status).toBe(200);
    await h.fixture.exec("UPDATE oc_users SET password = ? WHERE uid = 'erin'", [`1|${bcrypt.hashSync('erin-pass-2', 4).replace(/^\$2b\$/, '$2y$')}`]);
    expect((await call(h, 'GET', WIDGETS, { cookie: session.cookie, headers })).status).toBe(401);
    expect((await call(h, 'GET', WIDGETS, { basic: ['erin', 'erin-pass-2'] })).status).toBe(200);
  });

  test('a login always starts a new session id: a planted or earlier session is worth nothing after it', async () => {
    const planted = `dus_session=${'P'.repeat(43)}`;
    const fromPlanted = await call(h, 'POST', '/login', { cookie: planted, form: { user: 'alice', password: PASSWORDS.alice } });
    const issued = String(fromPlanted.headers['set-cookie']).split(';')[0] ?? '';
    expect(issued).toMatch(/^dus_session=[A-Za-z0-9_-]{43}$/);
    expect(issued).not.toBe(planted);

    const earlier = await login(h, 'alice', PASSWORDS.alice);
    const again = await call(h, 'POST', '/login', { cookie: earlier.cookie, form: { user: 'admin', password: PASSWORDS.admin } });
    const renewed = String(again.headers['set-cookie']).split(';')[0] ?? '';
    expect(renewed).not.toBe(earlier.cookie);
    const headers = { requesttoken: earlier.requestToken };
    expect((await call(h, 'GET', WIDGETS, { cookie: earlier.cookie, headers })).status).toBe(401);
  });

  test('logout ends the session', async () => {
    const session = await login(h, 'alice', PASSWORDS.alice);
    expect((await call(h, 'GET', WIDGETS, { cookie: session.cookie, headers: { requesttoken: session.requestToken } })).status).toBe(200);
    const out = await call(h, 'POST', '/logout', { cookie: session.cookie, form: { requesttoken: session.requestToken } });
    expect(out.status).toBe(303);
    expect((await call(h, 'GET', WIDGETS, { cookie: session.cookie, headers: { requesttoken: session.requestToken } })).status).toBe(401);
  });
});

describe('password confirmation', () => {
  test('Basic auth with the login password counts as confirmed: Disconnect works', async () => {
    const answer = await call(h, 'DELETE', SETTINGS, { basic: ['admin', PASSWORDS.admin], headers: OCS });
    expect(answer.status).toBe(200);
    expect(answer.json()).toMatchObject({ url: null, tokenConfigured: false });
  });

  test('a session confirms at login, Save and Disconnect refuse after 30 minutes until the password is confirmed again', async () => {
    const session = await login(h, 'admin', PASSWORDS.admin);
    const headers = { requesttoken: session.requestToken };
    const fresh = await call(h, 'DELETE', SETTINGS, { cookie: session.cookie, headers });
    expect(fresh.status).toBe(200);

    // Within the window the confirmation from the login still counts for Save.
    h.clock.now += 29 * 60 * 1000;
    const save = { url: h.emulator.url, token: ARCHIVE_TOKEN, archiveOwner: 'archive' };
    expect((await call(h, 'POST', SETTINGS, { cookie: session.cookie, headers, form: save })).status).toBe(200);

    h.clock.now += 2 * 60 * 1000;
    for (const path of [SETTINGS, `/index.php${SETTINGS}`]) {
      for (const method of ['DELETE', 'POST']) {
        const stale = await call(h, method, path, { cookie: session.cookie, headers, ...(method === 'POST' ? { form: save } : {}) });
        expect([method, path, stale.status, stale.json().code]).toEqual([method, path, 403, 'password_confirmation_required']);
      }
    }
    expect(h.context.settings.get('docs_url')).toBe(h.emulator.url);
    // Clear history needs no confirmation.
    expect((await call(h, 'DELETE', `${SETTINGS}/diagnostics`, { cookie: session.cookie, headers })).status).toBe(200);

    const wrong = await call(h, 'POST', '/login/confirm', { cookie: session.cookie, headers, json: { password: 'not-it' } });
    expect(wrong.status).toBe(403);
    const right = await call(h, 'POST', '/login/confirm', { cookie: session.cookie, headers, json: { password: PASSWORDS.admin } });
    expect(right.status).toBe(200);
    expect(right.json<{ lastLogin: number }>().lastLogin).toBe(Math.floor(h.clock.now / 1000));
    expect((await call(h, 'DELETE', SETTINGS, { cookie: session.cookie, headers })).status).toBe(200);
  });
});

describe('app passwords (oc_authtoken)', () => {
  const appPassword = 'AppPw-abcde-fghij-klmno-pqrst';
  const hash = (token: string): string => createHash('sha512').update(token).digest('hex');
  let nextId = 100;
  const addToken = async (token: string, o: { login?: string; type?: number; expires?: number | null; invalid?: number }): Promise<void> => {
    nextId += 1;
    await h.fixture.exec(
      'INSERT INTO oc_authtoken (id, uid, login_name, name, token, type, remember, last_activity, last_check, expires, version, password_invalid) VALUES (?, ?, ?, ?, ?, ?, 0, 0, 0, ?, 2, ?)',
      [nextId, 'admin', o.login ?? 'admin', 'test', hash(token), o.type ?? 1, o.expires ?? null, o.invalid ?? 0],
    );
  };

  test('an app password logs in but is not a password confirmation', async () => {
    await addToken(appPassword, {});
    const read = await call(h, 'GET', SETTINGS, { basic: ['admin', appPassword] });
    expect(read.status).toBe(200);
    const disconnect = await call(h, 'DELETE', SETTINGS, { basic: ['admin', appPassword], headers: OCS });
    expect(disconnect.status).toBe(403);
    expect(disconnect.json().code).toBe('password_confirmation_required');
    const form = await call(h, 'POST', '/login', { form: { user: 'admin', password: appPassword }, headers: { accept: 'text/html' }, from: '10.2.1.1' });
    expect(form.status).toBe(401);
    expect(form.headers['set-cookie']).toBeUndefined();
  });

  // The host refuses an app password of a disabled account at each login over Basic auth
  // (completeLogin: "User disabled") and keeps it: it works again once the account is enabled.
  // (Only a cookie session holding it loses the token.) This wrapper reads oc_authtoken and never writes it.
  test('an app password of a disabled account is refused, and works again once the account is enabled', async () => {
    await h.fixture.addUser('gina', { password: 'gina-pass-1', hash: 'bcrypt' });
    nextId += 1;
    const token = 'GinaPw-abcde-fghij-klmno-pqrst';
    await h.fixture.exec(
      'INSERT INTO oc_authtoken (id, uid, login_name, name, token, type, remember, last_activity, last_check, expires, version, password_invalid) VALUES (?, ?, ?, ?, ?, 1, 0, 0, 0, NULL, 2, 0)',
      [nextId, 'gina', 'gina', 'test', hash(token)],
    );
    expect((await call(h, 'GET', WIDGETS, { basic: ['gina', token] })).status).toBe(200);
    await h.fixture.setUserPreference('gina', 'core', 'enabled', 'false');
    expect((await call(h, 'GET', WIDGETS, { basic: ['gina', token], from: '10.2.9.1' })).status).toBe(401);
    await h.fixture.setUserPreference('gina', 'core', 'enabled', 'true');
    expect((await call(h, 'GET', WIDGETS, { basic: ['gina', token], from: '10.2.9.2' })).status).toBe(200);
  });

  test('wipe tokens, expired tokens, invalidated passwords and another login name are refused', async () => {
    const cases: Array<[string, Parameters<typeof addToken>[1]]> = [
      ['Wipe-abcde-fghij-klmno-pqrst', { type: 2 }],
      ['Expired-bcde-fghij-klmno-pqrst', { expires: Math.floor(h.clock.now / 1000) - 60 }],
      ['Invalid-bcde-fghij-klmno-pqrst', { invalid: 1 }],
      ['OtherLogin-de-fghij-klmno-pqrst', { login: 'someone-else' }],
    ];
    for (const [token, o] of cases) {
      await addToken(token, o);
      const answer = await call(h, 'GET', SETTINGS, { basic: ['admin', token], from: `10.2.0.${nextId}` });
      expect([token, answer.status]).toEqual([token, 401]);
    }
  });
});

// Failures use bob (bcrypt, cheap) rather than an argon2id account: the throttle counts per address, not per login.
describe('throttling of failed logins', () => {
  test('each failure from an address doubles the next wait; a success clears it', async () => {
    const from = '10.3.0.1';
    h.delays.length = 0;
    for (let i = 0; i < 3; i += 1) {
      expect((await call(h, 'GET', SETTINGS, { basic: ['bob', 'bad'], from })).status).toBe(401);
    }
    expect((await call(h, 'GET', SETTINGS, { basic: ['admin', PASSWORDS.admin], from })).status).toBe(200);
    expect((await call(h, 'GET', SETTINGS, { basic: ['admin', PASSWORDS.admin], from })).status).toBe(200);
    expect(h.delays).toEqual([200, 400, 800]);
  });

  test('past the limit the address is refused with 429 even with the right password; other addresses are not', async () => {
    const from = '10.3.0.2';
    for (let i = 0; i <= THROTTLE_MAX_FAILURES; i += 1) {
      expect((await call(h, 'GET', SETTINGS, { basic: ['bob', 'bad'], from })).status).toBe(401);
    }
    const refused = await call(h, 'GET', SETTINGS, { basic: ['admin', PASSWORDS.admin], from });
    expect(refused.status).toBe(429);
    expect(refused.json().code).toBe('throttled');
    const form = await call(h, 'POST', '/login', { form: { user: 'admin', password: PASSWORDS.admin }, from, headers: { accept: 'text/html' } });
    expect(form.status).toBe(429);
    expect((await call(h, 'GET', SETTINGS, { basic: ['admin', PASSWORDS.admin], from: '10.3.0.3' })).status).toBe(200);
    h.clock.now += 12 * 60 * 60 * 1000 + 1;
    expect((await call(h, 'GET', SETTINGS, { basic: ['admin', PASSWORDS.admin], from })).status).toBe(200);
  });
});

describe('throttling counts a client network, not one address', () => {
  test('failures from many IPv6 addresses of one /56 add up; another /56 is not refused', async () => {
    for (let i = 0; i <= THROTTLE_MAX_FAILURES; i += 1) {
      // Each failure from another address of the same end-user allocation 2001:db8:0:ab00::/56.
      const from = `2001:db8:0:ab${i.toString(16).padStart(2, '0')}::${i + 1}`;
      expect((await call(h, 'GET', SETTINGS, { basic: ['bob', 'bad'], from })).status).toBe(401);
    }
    const refused = await call(h, 'GET', SETTINGS, { basic: ['admin', PASSWORDS.admin], from: '2001:db8:0:abff:1234::9' });
    expect(refused.status).toBe(429);
    expect((await call(h, 'GET', SETTINGS, { basic: ['admin', PASSWORDS.admin], from: '2001:db8:0:ac00::1' })).status).toBe(200);
  });

  test('an IPv4 address and its IPv4-mapped IPv6 form are one client', async () => {
    h.delays.length = 0;
    expect((await call(h, 'GET', SETTINGS, { basic: ['bob', 'bad'], from: '10.4.0.1' })).status).toBe(401);
    expect((await call(h, 'GET', SETTINGS, { basic: ['bob', 'bad'], from: '::ffff:10.4.0.1' })).status).toBe(401);
    expect((await call(h, 'GET', SETTINGS, { basic: ['bob', 'bad'], from: '10.4.0.1' })).status).toBe(401);
    expect(h.delays).toEqual([200, 400]);
  });
});

describe('without a trusted proxy', () => {
  test('X-Forwarded-For and X-Forwarded-Proto from a client count for nothing', async () => {
    const app = await buildServer({ context: h.context, now: () => h.clock.now, sleep: async () => undefined });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const address = app.server.address();
    const direct = { ...h, base: `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}` };
    try {
      const cookie = await call(direct, 'POST', '/login', { form: { user: 'alice', password: PASSWORDS.alice }, headers: { 'x-forwarded-proto': 'https' } });
      expect(String(cookie.headers['set-cookie'])).not.toMatch(/Secure/);
      // A new forged client address for every failure still counts as the one real peer.
      for (let i = 0; i <= THROTTLE_MAX_FAILURES; i += 1) {
        expect((await call(direct, 'GET', SETTINGS, { basic: ['bob', 'bad'], from: `198.51.100.${i + 1}` })).status).toBe(401);
      }
      expect((await call(direct, 'GET', SETTINGS, { basic: ['admin', PASSWORDS.admin], from: '203.0.113.7' })).status).toBe(429);
    } finally {
      await app.close();
      // The harness's own calls come from this peer too.
      await new LoginThrottle(h.context.cache).reset('127.0.0.1');
    }
  });
});

describe('nothing leaks', () => {
  test('the host log never holds a password or the archive token', () => {
    const log = readFileSync(join(h.configDir, 'host.log'), 'utf8');
    for (const secret of [...Object.values(PASSWORDS), ARCHIVE_TOKEN, 'AppPw-abcde']) expect(log).not.toContain(secret);
  });
});
