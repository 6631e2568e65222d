import type { ConfigValueType } from './schema.js';

/** Text forms occ accepts for `--type=boolean` (case-insensitive). */
const TRUE_WORDS = ['true', '1', 'on', 'yes'];
const FALSE_WORDS = ['false', '0', 'off', 'no'];

/** A `--value` given on the command line as the key's type, or null when it is not one. */
export function parseConfigValue(type: ConfigValueType, text: string): string | boolean | null {
  if (type === 'string') return text;
  const word = text.toLowerCase();
  if (TRUE_WORDS.includes(word)) return true;
  if (FALSE_WORDS.includes(word)) return false;
  return null;
}

/** occ's plain output of a value: booleans as true/false, strings as they are. */
export function plainConfigValue(value: string | boolean): string {
  return typeof value === 'boolean' ? String(value) : value;
}
