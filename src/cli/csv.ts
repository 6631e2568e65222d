import { safeText } from './terminal-text.js';

/**
 * The one CSV writer of every export the product writes (`who --all`; docs/json.md, "CSV").
 *
 * Spreadsheets run a cell that starts with `=`, `+`, `-` or `@` as a formula (tab and CR lead
 * into one too), and account ids, folder and share names are chosen by users: `-1-1`, `@foo`
 * and `=HYPERLINK(…)` are legal account ids. OWASP's rule for CSV injection applies to every
 * text cell: such a cell is written with a `'` in front, which a spreadsheet takes as "text".
 * A cell that starts with `'` itself gets one more, so the rule reads back without loss: a
 * cell that starts with `'` had that one `'` added, and dropping it gives the value.
 *
 * Then RFC 4180: a field with a comma, a quote, CR or LF is quoted, its quotes doubled;
 * records end in CRLF.
 */
const FORMULA_START = /^[=+\-@\t\r']/;
const NEEDS_QUOTES = /[",\r\n]/;

/** A text cell, neutralised and quoted. `terminal`: control characters escaped as the tables escape them. */
export function csvCell(value: string, terminal = false): string {
  const shown = terminal ? safeText(value) : value;
  const neutral = FORMULA_START.test(shown) ? `'${shown}` : shown;
  return NEEDS_QUOTES.test(neutral) ? `"${neutral.replaceAll('"', '""')}"` : neutral;
}

/** One record: numbers as they are, text cells by `csvCell`, CRLF at the end. */
export function csvRecord(cells: readonly (string | number)[], terminal = false): string {
  return `${cells.map((cell) => (typeof cell === 'number' ? String(cell) : csvCell(cell, terminal))).join(',')}\r\n`;
}
