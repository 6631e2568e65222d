/**
 * The settings routes answer in the administrator's language as Nextcloud stores it: the
 * account's `core`/`lang`, else config.php's `default_language`, else English; `force_language`
 * over both. The code never changes; English is exactly the text the other tests compare.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { join } from 'node:path';
import { ARCHIVE_TOKEN, call, login, PASSWORDS, startHarness, type Harness } from './support/http-harness.js';

const SETTINGS = '/apps/docs_unified_search/settings';
const ADMIN = { basic: ['admin', PASSWORDS.admin] as const, headers: { 'ocs-apirequest': 'true' } };
const ENGLISH_SCHEME = 'The archive server URL must start with http:// or https://, not ftp:.';
const GERMAN_SCHEME = 'Die URL des Archivservers muss mit http:// oder https:// beginnen, nicht mit ftp:.';

interface OcsList {
  ocs: { data: { name?: string; title?: string }[] };
}
interface OcsWidgets {
  ocs: { data: Record<string, { title: string; buttons: { text: string }[] }> };
}

let h: Harness;

beforeAll(async () => {
  // The host is read from a Nextcloud directory, so config.php's language keys count; it is
  // opened at the first request, after config.php is written again below.
  h = await startHarness({ configured: false, viaNextcloudDir: true });
  await h.fixture.writeNextcloudDir(join(h.configDir, 'nextcloud'), { default_language: 'de_DE' });
});

afterAll(async () => {
  await h.close();
});

const saveAs = (form: Record<string, string>) => call(h, 'POST', SETTINGS, { ...ADMIN, form });

describe("a refused save is answered in the administrator's language", () => {
  test("no own language: the instance's default_language (de_DE) gives German, the code unchanged", async () => {
    const answer = await saveAs({ url: 'ftp://archive.example', token: ARCHIVE_TOKEN });
    expect(answer.status).toBe(400);
    expect(answer.json()).toEqual({ code: 'unsupported_scheme', message: GERMAN_SCHEME });
  });

  test('the account chose English: English, word for word', async () => {
    await h.fixture.setUserPreference('admin', 'core', 'lang', 'en');
    const answer = await saveAs({ url: 'ftp://archive.example', token: ARCHIVE_TOKEN });
    expect(answer.json()).toEqual({ code: 'unsupported_scheme', message: ENGLISH_SCHEME });
  });

  test('the account chose German (informal de): German for the URL rules, the token rule, the form and the archive server', async () => {
    await h.fixture.setUserPreference('admin', 'core', 'lang', 'de');
    expect((await saveAs({ url: 'ftp://archive.example', token: ARCHIVE_TOKEN })).json().message).toBe(GERMAN_SCHEME);
    expect((await saveAs({ url: h.emulator.url })).json()).toEqual({
      code: 'token_required',
      message: 'Es ist kein API-Token gespeichert: das API-Token des Kontos auf dem Archivserver eingeben, mit dem gesucht werden soll.',
    });
    expect((await saveAs({ token: ARCHIVE_TOKEN })).json()).toEqual({ code: 'usage', message: 'Das Formularfeld url ist erforderlich.' });
    const refused = await saveAs({ url: h.emulator.url, token: 'wrong-token-value' });
    expect(refused.json().code).toBe('unauthorized');
    expect(refused.json().message).toMatch(/^Der Archivserver hat das API-Token abgelehnt \(HTTP 401\)\./);
    const ghost = await saveAs({ url: h.emulator.url, token: ARCHIVE_TOKEN, archiveOwner: 'ghost' });
    expect(ghost.json()).toEqual({
      code: 'unknown_archive_account',
      message:
        'Das Archivkonto „ghost“ gibt es in Nextcloud nicht: die ID eines vorhandenen Kontos angeben oder das Feld leer lassen, um das Konto der Synchronisierungs-App zu verwenden.',
    });
  });

  test("a user's refusal of an administrators' route follows that user's language", async () => {
    await h.fixture.setUserPreference('alice', 'core', 'lang', 'de');
    const answer = await call(h, 'GET', SETTINGS, { basic: ['alice', PASSWORDS.alice] });
    expect(answer.json()).toEqual({ code: 'forbidden', message: 'Das darf nur die Administration.' });
  });

  test("names the user sees follow the user's language: provider, smart picker, widget", async () => {
    await h.fixture.setUserPreference('admin', 'core', 'lang', 'en');
    expect((await saveAs({ url: h.emulator.url, token: ARCHIVE_TOKEN, archiveOwner: 'archive' })).status).toBe(200);
    const ocs = { headers: { 'ocs-apirequest': 'true' } };
    const names = async (user: 'alice' | 'bob' | 'admin') => {
      const basic = [user, PASSWORDS[user]] as const;
      const providers = (await call(h, 'GET', '/ocs/v2.php/search/providers?format=json', { basic, ...ocs })).json<OcsList>().ocs.data;
      const pickers = (await call(h, 'GET', '/ocs/v2.php/references/providers?format=json', { basic, ...ocs })).json<OcsList>().ocs.data;
      const widgets = (await call(h, 'GET', '/ocs/v2.php/apps/dashboard/api/v1/widgets?format=json', { basic, ...ocs })).json<OcsWidgets>().ocs.data;
      const widget = widgets['docs_unified_search-recent'];
      return [providers[0]?.name, pickers[0]?.title, widget?.title, widget?.buttons[0]?.text];
    };
    // alice chose de; bob chose nothing, so the instance's default_language (de_DE); admin chose en.
    expect(await names('alice')).toEqual(['Archivdokumente', 'Archivdokumente', 'Neu im Archiv', 'Für mich freigegebene Dateien']);
    expect(await names('bob')).toEqual(['Archivdokumente', 'Archivdokumente', 'Neu im Archiv', 'Für mich freigegebene Dateien']);
    expect(await names('admin')).toEqual(['Archive documents', 'Archive documents', 'New in the archive', 'Files shared with you']);
  });

  test("the admin page's texts are in the administrator's language, its values as stored", async () => {
    await h.fixture.setUserPreference('admin', 'core', 'lang', 'de_DE');
    const { cookie } = await login(h, 'admin', PASSWORDS.admin);
    const page = await call(h, 'GET', '/settings/admin/docs_unified_search', { cookie });
    expect(page.status).toBe(200);
    expect(page.text).toContain('<html lang="de">');
    expect(page.text).toContain('<title>Suche im Dokumentarchiv – Administration</title>');
    expect(page.text).toContain('<label for="dus-url">URL des Archivservers</label>');
    expect(page.text).toContain('<span class="badge" id="dus-token-state">Ein Token ist gespeichert</span>');
    expect(page.text).toContain('>Archivserver läuft in meinem lokalen Netzwerk</label>');
    expect(page.text).toContain(`value="${h.emulator.url}"`);
    expect(page.text).not.toMatch(/>(Save|Disconnect|Archive server URL)</);
    await h.fixture.setUserPreference('admin', 'core', 'lang', 'en');
    const english = await call(h, 'GET', '/settings/admin/docs_unified_search', { cookie });
    expect(english.text).toContain('<html lang="en">');
    expect(english.text).toContain('<label for="dus-url">Archive server URL</label>');
  });

  test('a caller not logged in is answered in English: no account, no language', async () => {
    const answer = await call(h, 'GET', SETTINGS, { basic: ['admin', 'wrong'] });
    expect(answer.json()).toEqual({ code: 'unauthenticated', message: 'Log in with your login and password or an app password.' });
  });
});
