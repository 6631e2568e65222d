import { createRequire } from 'node:module';
import type StringWidth from 'string-width';

/**
 * Text from the archive server and the host (titles, names, paths, user names) reaches a
 * terminal only through here. Control characters (C0, DEL, C1), bidi controls (the overrides
 * U+202A–U+202E, the isolates U+2066–U+2069 and the marks U+061C, U+200E, U+200F) and the
 * line and paragraph separators would recolour the terminal, move the cursor, reorder what
 * is read or break a table: each is shown as its escape (`\x1b`, `\x09`, `\u202e`) instead.
 */
const UNSAFE = /[\p{Cc}\p{Bidi_Control}\p{Zl}\p{Zp}]/gu;

function escapeOf(character: string): string {
  const code = character.codePointAt(0) ?? 0;
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

export function safeText(text: string): string {
  return text.replace(UNSAFE, escapeOf);
}

const RAW_IN_JSON = /[\x7f-\x9f\p{Bidi_Control}\p{Zl}\p{Zp}]/gu;

/**
 * JSON for a terminal: the same value, with the characters above that JSON.stringify leaves
 * raw (DEL, C1, the bidi controls, the line and paragraph separators; it escapes C0 itself, and
 * the only raw C0 left are the line ends and indents of pretty output) written as `\uXXXX`
 * escapes, which every JSON reader turns back into the same text.
 */
export function terminalJson(json: string): string {
  return json.replace(RAW_IN_JSON, (character) => `\\u${(character.codePointAt(0) ?? 0).toString(16).padStart(4, '0')}`);
}

// Loaded at the first width asked of text outside ONE_COLUMN_EACH: string-width's first call
// compiles its emoji pattern (some 4 ms of a one-shot `search`), for tables that are mostly ASCII.
let stringWidth: typeof StringWidth | undefined;

/**
 * Text of which string-width counts each character one column, whatever surrounds it: printable
 * ASCII, Latin-1 and Latin Extended, Greek to Georgian, general punctuation (dashes, quotes, `…`).
 * None of them is an emoji, a combining mark, a control or wide, and no emoji sequence can be
 * formed of them alone; test/terminal-output.test.ts holds every one of them to string-width.
 */
const ONE_COLUMN_EACH = /^[\x20-\x7e\xa0-\u02ff\u0370-\u10ff\u2010-\u2027\u2030-\u205e]*$/;

/**
 * Columns a string takes on a terminal (CJK and emoji count two; escape sequences none), as
 * string-width counts them. cli-table3 measures its cells with this function too in the
 * program's bundle (scripts/build-bundle.mjs).
 */
export function displayWidth(text: string): number {
  if (ONE_COLUMN_EACH.test(text)) return text.length;
  stringWidth ??= (createRequire(import.meta.url)('string-width') as { default: typeof StringWidth }).default;
  return stringWidth(text);
}

// Made at first use: building a Segmenter loads ICU data, a cost every command's start would pay.
let graphemes: Intl.Segmenter | undefined;

function clusters(text: string): string[] {
  graphemes ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  return Array.from(graphemes.segment(text), (part) => part.segment);
}

/** Whole clusters from the start of `parts` that fit `width` columns. */
function fitting(parts: readonly string[], width: number): string[] {
  const kept: string[] = [];
  let used = 0;
  for (const part of parts) {
    const w = displayWidth(part);
    if (used + w > width) break;
    kept.push(part);
    used += w;
  }
  return kept;
}

/**
 * `text` in at most `width` columns, shortened in the middle with `…` (both ends of a title
 * or a path say the most: its kind and its name). Never splits a character or an emoji.
 */
export function shortenMiddle(text: string, width: number): string {
  if (displayWidth(text) <= width) return text;
  if (width < 1) return '';
  const room = width - 1;
  const parts = clusters(text);
  const head = fitting(parts, Math.ceil(room / 2));
  const tail = fitting([...parts].reverse(), room - head.reduce((sum, part) => sum + displayWidth(part), 0)).reverse();
  return `${head.join('')}…${tail.join('')}`;
}
