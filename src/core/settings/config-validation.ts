import { isAppConfigKey, KEY_DEFINITIONS } from './schema.js';

/**
 * The settings file's shape check: an object of known keys, each of its one type (the key
 * list's lexicon). Written out rather than compiled by a schema library: every command reads
 * the settings, and loading and compiling one would cost each of them its start.
 */
export function appConfigProblems(value: unknown): string[] | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return ['the file must be object'];
  const problems = Object.entries(value).flatMap(([key, stored]: [string, unknown]) => {
    if (!isAppConfigKey(key)) return [`unknown key ${JSON.stringify(key)}`];
    const type = KEY_DEFINITIONS[key].type;
    return typeof stored === type ? [] : [`key ${key} must be ${type}`];
  });
  return problems.length === 0 ? null : problems;
}
