/**
 * The verdict explanations in the reader's language: `why` on the command line in the `--lang`
 * language (inside `--json` only when `--lang` asked for it), and Try a search and Who can open
 * in the administrator's Nextcloud language. English stays word for word.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHostFixture, type HostFixture } from './support/host-fixtures/index.js';
import { call, login, PASSWORDS, startHarness, type Harness } from './support/http-harness.js';
import { ADMIN_SCRIPT } from '../src/http/pages/admin-script.js';
import { SCRIPT_TEXTS } from '../src/http/pages/admin-page.js';
import { runCli } from './support/settings-helpers.js';

const A = 'archive';

describe('why --lang de: the explanation in German, one whole sentence per cause', () => {
  let host: HostFixture;
  let dir: string;

  beforeAll(async () => {
    host = await createHostFixture('sqlite');
    await host.addUser(A);
    await host.addUser('anna');
    await host.addUser('bob');
    await host.addGroup('accounting', ['bob']);
    await host.setAppConfig('docs_sync', 'target_user', A);
    await host.addFile(A, 'Invoices/inv [P411].pdf');
    await host.share({ owner: A, fileId: await host.addFolder(A, 'Invoices'), type: 'user', with: 'anna', accepted: 0 });
    await host.addFile(A, 'Accounting/a [P413].pdf');
    await host.share({ owner: A, fileId: await host.addFolder(A, 'Accounting'), type: 'group', with: 'accounting' });
    await host.addFile(A, 'Expired/e [P415].pdf');
    await host.share({ owner: A, fileId: await host.addFolder(A, 'Expired'), type: 'user', with: 'anna', expiration: '2020-01-01 00:00:00' });
    dir = mkdtempSync(join(tmpdir(), 'dus-why-lang-'));
  });

  afterAll(async () => {
    await host.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  const why = (id: number, more: readonly string[] = [], env: NodeJS.ProcessEnv = {}) =>
    runCli(dir, ['--host-db', host.dbUrl, 'why', 'anna', String(id), ...more], { env });

  test.each([
    [
      411,
      'not accepted',
      'Document 411: the archive account archive has /Invoices/inv [P411].pdf but anna cannot open it: anna has not accepted the share of /Invoices from archive: anna accepts it in Files, under Shares.',
      'Dokument 411: Das Archivkonto archive hat die Datei /Invoices/inv [P411].pdf, aber anna kann sie nicht öffnen, denn anna hat die Freigabe des Ordners /Invoices durch archive noch nicht angenommen: anna nimmt sie in Dateien unter „Freigaben“ an.',
    ],
    [
      413,
      'not a member',
      'Document 413: the archive account archive has /Accounting/a [P413].pdf but anna cannot open it: /Accounting is shared with group accounting; anna is not a member: add anna to accounting, or share it with anna.',
      'Dokument 413: Das Archivkonto archive hat die Datei /Accounting/a [P413].pdf, aber anna kann sie nicht öffnen, denn die Freigabe des Ordners /Accounting richtet sich an die Gruppe accounting, und anna ist kein Mitglied: anna zur Gruppe accounting hinzufügen oder direkt für anna freigeben.',
    ],
    [
      415,
      'expired',
      'Document 415: the archive account archive has /Expired/e [P415].pdf but anna cannot open it: the share of /Expired from archive with anna expired on 2020-01-01: give it a later expiry date, or share it again.',
      'Dokument 415: Das Archivkonto archive hat die Datei /Expired/e [P415].pdf, aber anna kann sie nicht öffnen, denn die Freigabe des Ordners /Expired durch archive für anna ist am 2020-01-01 abgelaufen: ein späteres Ablaufdatum setzen oder erneut freigeben.',
    ],
    [
      99,
      'no file (no share to name)',
      'Document 99: no file of the archive account archive carries [P99] in its name: the synchronization has not written one, or names files without the marker.',
      'Dokument 99: Keine Datei des Archivkontos archive trägt [P99] im Namen: Die Synchronisierung hat keine solche Datei angelegt oder benennt Dateien ohne die Markierung.',
    ],
  ])('document %i (%s): English word for word without --lang, German with --lang de', async (id, _cause, english, german) => {
    const plain = await why(id);
    expect(plain.code).toBe(0);
    expect(plain.out.split('\n')).toContain(english);
    const translated = await why(id, ['--lang', 'de']);
    expect(translated.code).toBe(0);
    expect(translated.out.split('\n')).toContain(german);
    expect(translated.out).not.toContain(english);
  });

  test('--json: the explanation is German with --lang de, English with a German locale only', async () => {
    const asked = JSON.parse((await why(411, ['--lang', 'de', '--json'])).out) as { explanation: string; verdict: string };
    expect(asked.verdict).toBe('not shared');
    expect(asked.explanation).toMatch(
      /^Dokument 411: Das Archivkonto archive hat die Datei \/Invoices\/inv \[P411\]\.pdf, aber anna kann sie nicht öffnen, denn /,
    );
    const locale = await why(411, ['--json'], { LANG: 'de_DE.UTF-8' });
    expect((JSON.parse(locale.out) as { explanation: string }).explanation).toMatch(/^Document 411: the archive account archive has /);
    // The lines for people follow the locale.
    expect((await why(411, [], { LANG: 'de_DE.UTF-8' })).out).toContain('denn anna hat die Freigabe des Ordners /Invoices durch archive noch nicht angenommen');
  });

  test("the command line's own lines around them follow --lang too: why's verdict line, who's headings and count", async () => {
    const english = await why(99);
    expect(english.out.split('\n').slice(0, 1)).toEqual(['Document 99 for anna: no file.']);
    expect(english.out).toContain('why does not ask the archive server: if it has no document 99 (search for it), nothing is wrong here.');
    const german = await why(99, ['--lang', 'de']);
    // The verdict stays the spec's word (as in --json); the sentence around it is German.
    expect(german.out.split('\n').slice(0, 1)).toEqual(['Dokument 99 für anna: no file.']);
    expect(german.out).toContain('why fragt den Archivserver nicht: Hat er kein Dokument 99 (danach suchen), ist hier alles in Ordnung.');
    const who = await runCli(dir, ['--host-db', host.dbUrl, 'who', '411', '--lang', 'de']);
    expect(who.out).toMatch(/│ Konto +│ Pfad +│ Über +│/);
    expect(who.out).toContain('1 Konto/Konten können Dokument 411 öffnen (/Invoices/inv [P411].pdf, von archive).');
    expect((await runCli(dir, ['--host-db', host.dbUrl, 'who', '411'])).out).toContain(
      '1 account(s) can open document 411 (/Invoices/inv [P411].pdf, of archive).',
    );
  });

  test("the host's own refusals follow --lang: an unknown host, a missing Nextcloud directory; the code stays", async () => {
    const empty = mkdtempSync(join(tmpdir(), 'dus-host-lang-'));
    try {
      const german = await runCli(empty, ['--lang', 'de', 'why', 'anna', '1']);
      expect(german).toMatchObject({ code: 1, out: '' });
      expect(german.err).toContain(
        'Error [host_config]: Nextcloud ist nicht bekannt: --nextcloud VERZEICHNIS oder --host-db URL angeben (setup speichert es für spätere Befehle).',
      );
      const english = await runCli(empty, ['why', 'anna', '1']);
      expect(english.err).toContain('Error [host_config]: The host (Nextcloud) is not known: give --nextcloud DIR or --host-db URL');
      const missing = await runCli(empty, ['--lang', 'de', '--nextcloud', join(empty, 'nowhere'), 'why', 'anna', '1']);
      expect(missing.err).toContain(`Error [host_config]: Das Nextcloud-Verzeichnis ${join(empty, 'nowhere')} gibt es nicht`);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });

  test('setupchecks --lang de: the overview check in German; its JSON only with --lang', async () => {
    const german = await runCli(dir, ['--host-db', host.dbUrl, 'setupchecks', '--lang', 'de']);
    expect(german.code).toBe(1);
    expect(german.out).toContain('Suche im Dokumentarchiv:\n');
    expect(german.out).toContain('Es ist kein Archivserver eingerichtet.');
    expect(german.out).toContain('In den Einstellungen der App korrigieren: ');
    const english = await runCli(dir, ['--host-db', host.dbUrl, 'setupchecks']);
    expect(english.out).toContain('No archive server is configured.');
    const located = await runCli(dir, ['--host-db', host.dbUrl, 'setupchecks', '--json'], { env: { LANG: 'de_DE.UTF-8' } });
    expect((JSON.parse(located.out) as { docs_unified_search: { description: string } }).docs_unified_search.description).toContain(
      'No archive server is configured.',
    );
  });

  test('who --include-blocked --lang de: the blocked cause and the chain in German; --json only with --lang', async () => {
    const run = await runCli(dir, ['--host-db', host.dbUrl, 'who', '411', '--include-blocked', '--lang', 'de']);
    expect(run.code).toBe(0);
    expect(run.out).toContain('Besitzer (die eigenen Ordner des Archivkontos)');
    expect(run.out).toContain('anna: Dokument 411: Das Archivkonto archive hat die Datei /Invoices/inv [P411].pdf, aber anna kann sie nicht öffnen, denn ');
    const located = await runCli(dir, ['--host-db', host.dbUrl, 'who', '411', '--include-blocked', '--json'], { env: { LANG: 'de_DE.UTF-8' } });
    const answer = JSON.parse(located.out) as { accounts: { account: string; through: string | null; blocked: string | null }[] };
    expect(answer.accounts.find((a) => a.account === A)?.through).toBe("owner (the archive account's own folders)");
    expect(answer.accounts.find((a) => a.account === 'anna')?.blocked).toMatch(/^Document 411: the archive account archive has /);
  });
});

/** The texts the admin page hands its script (`#dus-texts`'s data-texts). */
function scriptTextsOf(html: string): Record<string, string> {
  const attribute = /<div id="dus-texts" hidden data-texts="([^"]*)"><\/div>/.exec(html)?.[1] ?? '{}';
  const json = attribute
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
  return JSON.parse(json) as Record<string, string>;
}

test("every text the admin page's script writes is one the page hands it, and no more", () => {
  const asked = new Set([...ADMIN_SCRIPT.matchAll(/\bt\('([a-z_.]+)'/g)].map((match) => match[1]));
  expect([...asked].sort()).toEqual([...SCRIPT_TEXTS].sort());
  // No English sentence written into the script itself any more.
  expect(ADMIN_SCRIPT).not.toMatch(/textContent = '[A-Z]/);
});

describe("serve: Try a search and Who can open answer in the administrator's language", () => {
  let h: Harness;
  const admin = { basic: ['admin', PASSWORDS.admin] as const, headers: { 'ocs-apirequest': 'true' } };

  beforeAll(async () => {
    h = await startHarness();
  });

  afterAll(async () => {
    await h.close();
  });

  test('a German administrator: whyNot, the chains and the no-file sentence in German; English after switching back', async () => {
    await h.fixture.setUserPreference('admin', 'core', 'lang', 'de');
    const tried = await call(h, 'POST', '/apps/docs_unified_search/settings/try', { ...admin, form: { term: 'invoice', user: 'bob' } });
    expect(tried.status).toBe(200);
    const documents = tried.json<{ documents: { id: number; whyNot: string | null }[] }>().documents;
    expect(documents.find((d) => d.id === 2)?.whyNot).toBe(
      'Dokument 2: Das Archivkonto archive hat eine Datei mit [P2], aber bob kann sie nicht öffnen: die Datei oder einen übergeordneten Ordner schreibgeschützt für bob freigeben.',
    );
    const who = await call(h, 'POST', '/apps/docs_unified_search/settings/who', { ...admin, form: { document: '1' } });
    expect(who.json<{ accounts: { account: string; through: string | null }[] }>().accounts.map((a) => [a.account, a.through])).toEqual([
      ['alice', 'direkte Freigabe von /files/Shared durch archive'],
      ['archive', 'Besitzer (die eigenen Ordner des Archivkontos)'],
      ['bob', 'direkte Freigabe von /files/Shared/Invoice one [P1].pdf durch archive'],
    ]);
    const none = await call(h, 'POST', '/apps/docs_unified_search/settings/who', { ...admin, form: { document: '99' } });
    expect(none.json<{ noFile: string | null }>().noFile).toBe(
      'Dokument 99: Keine Datei des Archivkontos archive trägt [P99] im Namen: Die Synchronisierung hat keine solche Datei angelegt oder benennt Dateien ohne die Markierung.',
    );

    const overview = await call(h, 'GET', '/apps/docs_unified_search/settings/overview', admin);
    expect(overview.json<{ severity: string; messages: string[] }>().messages.join(' ')).toMatch(
      /^(Verbunden mit dem Archivserver unter |Eine Suche ist fehlgeschlagen)/,
    );
    // The page hands its script the texts it writes (status lines, the dialog's errors, the result tables) in German too.
    const session = await login(h, 'admin', PASSWORDS.admin);
    const page = await call(h, 'GET', '/settings/admin/docs_unified_search', { cookie: session.cookie, headers: { accept: 'text/html' } });
    const texts = scriptTextsOf(page.text);
    expect(texts['page.script.wrong_password']).toBe('Falsches Passwort.');
    expect(texts['page.script.who_count']).toBe('{count} Konto/Konten können Dokument {id} öffnen.');
    expect(texts['cli.search.head_title']).toBe('Titel');

    await h.fixture.setUserPreference('admin', 'core', 'lang', 'en');
    const englishPage = await call(h, 'GET', '/settings/admin/docs_unified_search', { cookie: session.cookie, headers: { accept: 'text/html' } });
    expect(scriptTextsOf(englishPage.text)['page.script.wrong_password']).toBe('Wrong password.');
    const english = await call(h, 'POST', '/apps/docs_unified_search/settings/try', { ...admin, form: { term: 'invoice', user: 'bob' } });
    expect(english.json<{ documents: { id: number; whyNot: string | null }[] }>().documents.find((d) => d.id === 2)?.whyNot).toBe(
      'Document 2: the archive account archive has a file with [P2] but bob cannot open it: share the file or a folder holding it, read-only, with bob.',
    );
  });
});
