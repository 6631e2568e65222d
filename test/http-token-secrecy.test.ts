import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { leaksIn } from './support/archive-emulator/hostile.js';
import { call, HOST_URL, login, PASSWORDS, startHarness, type CallResult, type Harness } from './support/http-harness.js';

/**
 * The token is saved through the settings route, and then every route of the wrapper is
 * called (found from the router, so a new route is covered without editing this file):
 * neither a response (body or header), the admin page, the host log, the audit log nor any
 * file of the config directory other than the encrypted credential file may hold it. The
 * archive server is hostile for the sweep: it echoes the token into every string and version
 * header it answers (whole, other letter case, inside a word, halves, one character short),
 * and the scan looks for each of those forms in any letter case.
 */

const TOKEN = 'Recognisable-T0ken-5e2d7c91';
const WRONG_TOKEN = 'Recognisable-Wr0ng-0b3f1a66';
const SHARED_PREFIX = 'recognisable-';
/** The forms of both tokens (any case, halves, one short), and their common prefix in any case. */
const leaks = (text: string): string[] => [...leaksIn(text, [TOKEN, WRONG_TOKEN]), ...(text.toLowerCase().includes(SHARED_PREFIX) ? [SHARED_PREFIX] : [])];
const SETTINGS = '/apps/docs_unified_search/settings';

let h: Harness;
const seen: string[] = [];

beforeAll(async () => {
  h = await startHarness({ configured: false });
  h.emulator.tokens = [TOKEN];
});

afterAll(async () => {
  await h.close();
});

function record(answer: CallResult): CallResult {
  seen.push(`${answer.status} ${JSON.stringify(answer.headers)}\n${answer.text}`);
  return answer;
}

/** Method and path of every route, read from fastify's route tree (`├── segment (GET, HEAD)`). */
function everyRoute(tree: string): Array<{ method: string; path: string }> {
  const routes: Array<{ method: string; path: string }> = [];
  const parents: string[] = [];
  for (const line of tree.split('\n')) {
    const match = /^([│├└─\s]*)(\S.*?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (match === null || match[2] === undefined) continue;
    const depth = Math.floor((match[1] ?? '').length / 4);
    const path = (parents[depth - 1] ?? '') + match[2];
    parents[depth] = path;
    parents.length = depth + 1;
    for (const method of (match[3] ?? '').split(', ')) if (method !== '' && method !== 'HEAD') routes.push({ method, path });
  }
  return routes;
}

/** The host log, the audit log and every file of the config directory but the credential file. */
function expectNoTraceOnDisk(credentialsStored: boolean): void {
  const files = readdirSync(h.configDir, { recursive: true, encoding: 'utf8' })
    .map((name) => join(h.configDir, name))
    .filter((path) => statSync(path).isFile());
  const credentials = files.filter((path) => path.endsWith('credentials.json'));
  // The exclusion names a real file: while a token is stored, exactly one holds it, encrypted.
  expect(credentials).toHaveLength(credentialsStored ? 1 : 0);
  expect(files.some((path) => path.endsWith('host.log'))).toBe(true);
  for (const path of files.filter((p) => !credentials.includes(p))) {
    const text = readFileSync(path, 'latin1');
    expect([path, leaks(text)]).toEqual([path, []]);
  }
}

describe('a saved token shows nowhere', () => {
  test('save it through the route, with a refused attempt first', async () => {
    const session = await login(h, 'admin', PASSWORDS.admin);
    const headers = { requesttoken: session.requestToken };
    const refused = record(
      await call(h, 'POST', SETTINGS, { cookie: session.cookie, headers, form: { url: h.emulator.url, token: WRONG_TOKEN, archiveOwner: 'archive' } }),
    );
    expect(refused.json().code).toBe('unauthorized');
    const saved = record(
      await call(h, 'POST', SETTINGS, { cookie: session.cookie, headers, form: { url: h.emulator.url, token: TOKEN, archiveOwner: 'archive' } }),
    );
    expect(saved.status).toBe(200);
    expect(saved.json().tokenConfigured).toBe(true);
    const page = record(await call(h, 'GET', '/settings/admin/docs_unified_search', { cookie: session.cookie, headers: { accept: 'text/html' } }));
    expect(page.text).toContain('<form');
  });

  test('every route answers an administrator without it, and nothing on disk holds it (Disconnect last)', async () => {
    const routes = everyRoute(h.app.printRoutes({ commonPrefix: false }));
    // The settings, search, picker, widget, session and page routes: a tree misread finds far fewer.
    expect(routes.length).toBeGreaterThanOrEqual(25);
    const link = encodeURIComponent(`${HOST_URL}/f/${h.files.get(1) ?? 0}`);
    const query = `?term=invoice&user=alice&widgets[]=docs_unified_search-recent&reference=${link}`;
    const form = { term: 'invoice', user: 'alice', password: PASSWORDS.admin, url: h.emulator.url };
    const statuses: string[] = [];
    h.emulator.echoToken = true;
    const callEach = async (some: typeof routes): Promise<void> => {
      for (const { method, path } of some) {
        const answer = record(
          await call(h, method, method === 'GET' ? `${path}${query}` : path, {
            basic: ['admin', PASSWORDS.admin],
            headers: { 'ocs-apirequest': 'true' },
            ...(method === 'POST' ? { form } : {}),
          }),
        );
        statuses.push(`${method} ${path} ${answer.status}`);
      }
    };
    await callEach(routes.filter((r) => r.method !== 'DELETE'));
    expectNoTraceOnDisk(true);
    await callEach(routes.filter((r) => r.method === 'DELETE'));
    expectNoTraceOnDisk(false);
    // The calls reached their handlers: the searches asked the archive server with the token.
    expect(h.emulator.requests.some((r) => r.path.includes('/api/documents/'))).toBe(true);
    expect(statuses.filter((s) => s.endsWith(' 200')).length).toBeGreaterThanOrEqual(20);
    expect(leaks(seen.join('\n'))).toEqual([]);
    // The hostile server's echoes reached the answers, replaced.
    expect(seen.join('\n')).toContain('[redacted]');
  });
});
