/**
 * The bridge app's own strings go through Nextcloud's IL10N with catalogs in Nextcloud's
 * format (l10n/<language>.json and .js, as its apps ship them): every string the app translates
 * has an entry in every catalog, none more, with the same %s parameters; the .js and .json of a
 * language agree; the names match the service's catalog, so a German user reads one name
 * whether Nextcloud or the service writes it.
 */
import { describe, expect, test } from '@jest/globals';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { CATALOGS } from '../src/core/i18n/catalog.js';
import { phpMissing, runAppPhp } from './support/php-app/index.js';

const APP = join('nextcloud-app', 'docs_unified_search');
const L10N = join(APP, 'l10n');
const withPhp = phpMissing ? test.skip : test;

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/** The texts the app hands to IL10N: `->t('…')` in its PHP, and info.xml's name, summary and description (Nextcloud translates those with the app's catalog). */
function translatedTexts(): string[] {
  const texts = new Set<string>();
  for (const file of [...filesUnder(join(APP, 'lib')), ...filesUnder(join(APP, 'templates'))]) {
    for (const match of readFileSync(file, 'utf8').matchAll(/->t\('((?:[^'\\]|\\.)*)'/g)) texts.add((match[1] ?? '').replace(/\\'/g, "'"));
  }
  const info = readFileSync(join(APP, 'appinfo', 'info.xml'), 'utf8');
  for (const tag of ['name', 'summary']) texts.add(new RegExp(`<${tag}>([^<]*)</${tag}>`).exec(info)?.[1] ?? '');
  texts.add(/<description><!\[CDATA\[([\s\S]*?)\]\]><\/description>/.exec(info)?.[1] ?? '');
  return [...texts].sort();
}

function jsonCatalog(language: string): Record<string, string> {
  const parsed = JSON.parse(readFileSync(join(L10N, `${language}.json`), 'utf8')) as { translations: Record<string, string>; pluralForm: string };
  expect(parsed.pluralForm).toBe('nplurals=2; plural=(n != 1);');
  return parsed.translations;
}

function jsCatalog(language: string): Record<string, string> {
  const text = readFileSync(join(L10N, `${language}.js`), 'utf8');
  const match = /^OC\.L10N\.register\(\n {4}"docs_unified_search",\n {4}(\{[\s\S]*\}),\n"nplurals=2; plural=\(n != 1\);"\);\n$/.exec(text);
  expect(match).not.toBeNull();
  return JSON.parse(match?.[1] ?? '{}') as Record<string, string>;
}

const languages = readdirSync(L10N)
  .filter((name) => name.endsWith('.json'))
  .map((name) => name.replace(/\.json$/, ''))
  .sort();

describe("the bridge app's catalogs", () => {
  test("German in both of Nextcloud's forms: de (du) and de_DE (Sie), each as .json and .js", () => {
    expect(languages).toEqual(['de', 'de_DE']);
    expect(readdirSync(L10N).sort()).toEqual(['de.js', 'de.json', 'de_DE.js', 'de_DE.json']);
  });

  test.each(languages)('%s: every translated text, no other, the same %%s parameters; .js as .json', (language) => {
    const catalog = jsonCatalog(language);
    expect(Object.keys(catalog).sort()).toEqual(translatedTexts());
    for (const [english, translated] of Object.entries(catalog)) {
      expect([english, translated.match(/%s/g)?.length ?? 0]).toEqual([english, english.match(/%s/g)?.length ?? 0]);
      expect(translated.trim()).not.toBe('');
    }
    expect(jsCatalog(language)).toEqual(catalog);
  });

  test('de says du and de_DE says Sie where the text speaks to the administrator', () => {
    const du = Object.values(jsonCatalog('de')).join('\n');
    const sie = Object.values(jsonCatalog('de_DE')).join('\n');
    expect(du).toMatch(/\bPrüfe\b/);
    expect(du).not.toMatch(/\bSie\b/);
    expect(sie).toMatch(/\bPrüfen Sie\b/);
    expect(sie).not.toMatch(/\bPrüfe\b/);
  });

  test("the names match the service's catalog, in every language both have", () => {
    for (const language of languages) {
      const service = CATALOGS[language] ?? CATALOGS[language.split('_')[0] ?? ''];
      expect(jsonCatalog(language)['Archive documents']).toBe(service?.['names.provider']);
      expect(jsonCatalog(language)['New in the archive']).toBe(service?.['names.widget']);
    }
  });

  withPhp('a user whose Nextcloud speaks German sees German names of the provider, the smart picker and the widget', () => {
    const offered = JSON.stringify({ ocs: { meta: { status: 'ok', statuscode: 200 }, data: [{ id: 'docs_unified_search_documents' }] } });
    const widget = JSON.stringify({
      ocs: { meta: { status: 'ok', statuscode: 200 }, data: { 'docs_unified_search-recent': { id: 'docs_unified_search-recent' } } },
    });
    const names = (language: string) =>
      runAppPhp(`
        $l10n = Fake::l10n('${language}');
        Fake::answer('${offered}');
        $provider = new OCA\\DocsUnifiedSearch\\Search\\DocumentsProvider(Fake::bridge(), Fake::userSession(), new class implements OCP\\IDateTimeZone {}, Fake::urls(), $l10n);
        $picker = new OCA\\DocsUnifiedSearch\\Reference\\DocumentsReferenceProvider(Fake::bridge(), Fake::urls(), Fake::userSession(), $l10n);
        $name = $provider->getName();
        Fake::answer('${widget}');
        $recent = new OCA\\DocsUnifiedSearch\\Dashboard\\RecentWidget(Fake::bridge(), Fake::urls(), Fake::userSession(), $l10n);
        echo json_encode([$name, $picker->getTitle(), $recent->getTitle()]);
      `);
    expect(names('de')).toEqual(['Archivdokumente', 'Archivdokumente', 'Neu im Archiv']);
    expect(names('de_DE')).toEqual(['Archivdokumente', 'Archivdokumente', 'Neu im Archiv']);
    expect(names('en')).toEqual(['Archive documents', 'Archive documents', 'New in the archive']);
  });
});
