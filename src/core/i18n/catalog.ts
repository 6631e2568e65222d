/**
 * The message catalogs and their lookup. A message is a key of the English catalog (en.ts) with
 * its parameters; it is written out in a language only where it is shown (an HTTP answer, a
 * command's error line), so the core builds one message and each surface chooses the language.
 * Adding a language: one file beside en.ts exporting a function that builds its `Catalog` (as
 * de.ts does), named in CATALOGS below (test/i18n-catalogs.test.ts fails on a file not named
 * there, on a missing or extra key, and on a key whose parameters differ from English).
 */
import { de } from './de.js';
import { en, type Catalog, type MessageKey } from './en.js';

export type { Catalog, MessageKey } from './en.js';

/** The names of `{name}` in a text, as a type: what a message of that key must be given. */
type Placeholders<S extends string> = S extends `${string}{${infer Name}}${infer Rest}` ? Name | Placeholders<Rest> : never;
export type ParamsOf<K extends MessageKey> = { readonly [P in Placeholders<(typeof en)[K]>]: MessageParam };

export type MessageParam = string | number | Message;

export interface Message {
  readonly key: MessageKey;
  readonly params: Readonly<Record<string, MessageParam>>;
}

/**
 * The catalogs by Nextcloud's language code (the `core`/`lang` preference's spelling). English is
 * the catalog every message falls back to; another language is built when first read.
 */
export const CATALOGS: Readonly<Record<string, Catalog>> = {
  en,
  get de() {
    return de();
  },
};

/** A message of `key`; its parameters are checked against the English text's placeholders. */
export function msg<K extends MessageKey>(key: K, ...params: keyof ParamsOf<K> extends never ? [] : [ParamsOf<K>]): Message {
  return { key, params: params[0] ?? {} };
}

export function isMessage(value: unknown): value is Message {
  return typeof value === 'object' && value !== null && 'key' in value && 'params' in value && typeof value.key === 'string';
}

/**
 * The catalog language for a language code as Nextcloud stores it (`de`, `de_DE`, `de-AT`,
 * `en_GB`), or a POSIX locale (`de_DE.UTF-8@euro`): the exact code when there is a catalog for
 * it, else its language part; null when there is none (the caller's fallback applies).
 */
export function catalogLanguage(code: string | null | undefined): string | null {
  if (code === null || code === undefined) return null;
  const tag = code
    .trim()
    .replace(/[.@].*$/, '')
    .replace(/-/g, '_');
  if (tag === '' || tag === 'C' || tag === 'POSIX') return null;
  if (Object.hasOwn(CATALOGS, tag)) return tag;
  const base = tag.split('_')[0]?.toLowerCase() ?? '';
  return Object.hasOwn(CATALOGS, base) ? base : null;
}

/** Which words a message uses for the local-network setting: the admin page's switch or the command line's flag. */
export type Surface = 'page' | 'cli';

/** The text of `key` in `language`, its `{name}` placeholders as written (English where no catalog has the language). */
export function textIn(key: MessageKey, language: string | null): string {
  return (CATALOGS[catalogLanguage(language) ?? 'en'] ?? en)[key];
}

/** A message written out in `language` (a catalog language or any code `catalogLanguage` reads; English otherwise). */
export function render(message: Message, language: string | null = null, surface: Surface = 'page'): string {
  const key = surface === 'cli' ? cliKey(message.key) : message.key;
  return textIn(key, language).replace(/\{(\w+)\}/g, (whole, name: string) => {
    const value = message.params[name];
    if (value === undefined) return whole;
    return typeof value === 'object' ? render(value, language, surface) : String(value);
  });
}

/** The command line names the local-network switch by its flag. */
function cliKey(key: MessageKey): MessageKey {
  if (key === 'local_switch.page.turn_on') return 'local_switch.cli.turn_on';
  if (key === 'local_switch.page.when_on') return 'local_switch.cli.when_on';
  return key;
}

/** The `{name}` placeholders of a text, sorted and once each (for the catalog test). */
export function placeholdersOf(text: string): string[] {
  return [...new Set([...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1] ?? ''))].sort();
}
