/**
 * The message catalogs: every language has exactly the English keys, each with the same
 * `{name}` parameters; every catalog file of src/core/i18n is a registered language; a key
 * starts with a code of the product (or says where its text is shown); a message is written in
 * the language asked for, falling back as Nextcloud's codes do.
 */
import { describe, expect, test } from '@jest/globals';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ARCHIVE_ERROR_CODES, DusError, LOCAL_ERROR_CODES, localizedMessage, SETTINGS_ERROR_CODES } from '../src/core/errors.js';
import { fileAccessError } from '../src/core/settings/file-access.js';
import { CATALOGS, catalogLanguage, msg, placeholdersOf, render, type Catalog } from '../src/core/i18n/catalog.js';
import { en } from '../src/core/i18n/en.js';

const I18N_DIR = join(import.meta.dirname, '..', 'src', 'core', 'i18n');
/** The wrapper's own codes (src/http/http-error.ts) and the prefixes of texts that are not refusals. */
const OTHER_PREFIXES = [
  'unauthenticated',
  'forbidden',
  'password_confirmation_required',
  'csrf',
  'throttled',
  'local_switch',
  'names',
  'page',
  'why',
  'who',
  'cli',
  'overview',
];

/** Differences of a catalog from English: keys missing, keys extra, keys whose parameters differ. */
function differences(catalog: Readonly<Record<string, string>>): string[] {
  const found: string[] = [];
  for (const key of Object.keys(en)) if (!Object.hasOwn(catalog, key)) found.push(`missing ${key}`);
  for (const [key, text] of Object.entries(catalog)) {
    const english = (en as Readonly<Record<string, string>>)[key];
    if (english === undefined) found.push(`extra ${key}`);
    else if (placeholdersOf(english).join() !== placeholdersOf(text).join()) found.push(`parameters of ${key}: ${placeholdersOf(text).join()}`);
    else if (text.trim() === '') found.push(`empty ${key}`);
  }
  return found;
}

describe('catalogs', () => {
  test.each(Object.keys(CATALOGS))('%s has every key of en.ts, no other, with the same parameters', (language) => {
    expect(differences(CATALOGS[language] ?? {})).toEqual([]);
  });

  test('the check finds a missing key, an extra key and a changed parameter (the test above can fail)', () => {
    const german = CATALOGS.de as Readonly<Record<string, string>>;
    const { 'timeout.archive': _dropped, ...missing } = german;
    expect(differences(missing)).toEqual(['missing timeout.archive']);
    expect(differences({ ...german, 'timeout.other': 'x' })).toEqual(['extra timeout.other']);
    expect(differences({ ...german, 'unknown_host.host': 'Der Host {name} ist unbekannt.' })).toEqual(['parameters of unknown_host.host: name']);
    // A sentence of the explanations that drops a piece it must place (the share's day of expiry).
    expect(differences({ ...german, 'why.obstacle.expired': '{share} für {to} ist abgelaufen' })).toEqual(['parameters of why.obstacle.expired: share,to']);
  });

  test('every catalog file in src/core/i18n is a registered language, and every language has its file', () => {
    const files = readdirSync(I18N_DIR)
      .filter((name) => name.endsWith('.ts') && name !== 'catalog.ts')
      .map((name) => name.replace(/\.ts$/, ''))
      .sort();
    expect(files).toEqual(Object.keys(CATALOGS).sort());
  });

  test('a key starts with a code of the product or says where its text is shown', () => {
    const codes = new Set<string>([...ARCHIVE_ERROR_CODES, ...SETTINGS_ERROR_CODES, ...LOCAL_ERROR_CODES, ...OTHER_PREFIXES]);
    expect(Object.keys(en).filter((key) => !codes.has(key.split('.')[0] ?? ''))).toEqual([]);
  });

  test('German uses the terms of Nextcloud and the spec, and no form of address that fits only du or only Sie', () => {
    const german = Object.values(CATALOGS.de as Catalog).join('\n');
    expect(german).toContain('Archivserver');
    expect(german).toContain('Archivkonto');
    // (--config-dir is an option, not a pronoun)
    expect(german).not.toMatch(/(?<![-\w])(du|dein\w*|dich|dir|Sie|Ihr\w*|Ihnen)\b/);
  });
});

describe('lookup', () => {
  test('Nextcloud codes and POSIX locales find their catalog; others fall back to none', () => {
    expect(catalogLanguage('de')).toBe('de');
    expect(catalogLanguage('de_DE')).toBe('de');
    expect(catalogLanguage('de-AT')).toBe('de');
    expect(catalogLanguage('de_CH.UTF-8')).toBe('de');
    expect(catalogLanguage('en_GB')).toBe('en');
    expect(catalogLanguage('fr')).toBeNull();
    expect(catalogLanguage('C.UTF-8')).toBeNull();
    expect(catalogLanguage('')).toBeNull();
    expect(catalogLanguage(null)).toBeNull();
  });

  test('parameters are filled in, nested messages in the same language; English is the default', () => {
    const message = msg('unknown_archive_account.archive_owner', { account: 'ghost', advice: msg('unknown_archive_account.advice_why') });
    expect(render(message)).toBe(
      'The archive account "ghost" (archive_owner) does not exist on the host: set one with setup --archive-account=ID, or set the synchronization add-on\'s target_user.',
    );
    expect(render(message, 'de_DE')).toBe(
      'Das Archivkonto „ghost“ (archive_owner) gibt es in Nextcloud nicht: eines mit setup --archive-account=ID festlegen oder target_user der Synchronisierungs-App setzen.',
    );
    expect(render(message, 'fr')).toBe(render(message));
  });

  test('the command line names the local-network switch by its flag, in every language', () => {
    const message = msg('local_address.address', { host: 'nas.lan', turnOn: msg('local_switch.page.turn_on') });
    expect(render(message, null, 'cli')).toContain('run setup again with --allow-local');
    expect(render(message, 'de', 'cli')).toContain('setup erneut mit --allow-local ausführen');
    expect(render(message, 'de')).toContain('„Archivserver läuft in meinem lokalen Netzwerk“ einschalten');
  });

  test('a coded error keeps its English message and is written in another language on request', () => {
    const error = new DusError('unknown_host', msg('unknown_host.host', { host: 'archive.invalid' }));
    expect(error.message).toBe('The host name archive.invalid of the archive server does not resolve. Check the URL.');
    expect(localizedMessage(error, 'de')).toBe('Der Hostname archive.invalid des Archivservers lässt sich nicht auflösen. Die URL prüfen.');
    // A message without a catalog entry stays as it was written.
    expect(localizedMessage(new DusError('usage', 'plain English'), 'de')).toBe('plain English');
  });

  test('a nested remedy is written in the language of its sentence (config_access)', () => {
    const error = fileAccessError(Object.assign(new Error('no space'), { code: 'ENOSPC' }), '/srv/dus/settings.json', 'write');
    expect(error?.message).toBe('Cannot write /srv/dus/settings.json (ENOSPC). The disk or the quota is full: free some space.');
    expect(localizedMessage(error, 'de')).toBe(
      '/srv/dus/settings.json kann nicht geschrieben werden (ENOSPC). Der Datenträger oder das Kontingent ist voll: Platz schaffen.',
    );
  });

  test('the compiler checks the parameters of a key', () => {
    // @ts-expect-error: unknown_host.host needs its host
    expect(render(msg('unknown_host.host', {}))).toContain('{host}');
    // @ts-expect-error: no such key
    expect(() => render(msg('no.such.key'))).toThrow();
  });
});
