/**
 * Tables of the commands that list (`search`, `who`), drawn by cli-table3. Only those commands
 * import this module: the program's bundle runs cli-table3's code when one of them starts,
 * and keeps it in that command's code cache (scripts/build-bundle.mjs), so no other command
 * loads it and a table costs no compiling at each run.
 */
import Table from 'cli-table3';
import { paint, plainOf, render, type Piece } from './format.js';
import { displayWidth, safeText, shortenMiddle } from './terminal-text.js';
import type { GlobalOptions } from './types.js';

export interface Column {
  readonly head: string;
  /** `whole` (ids, verdicts) is never shortened; `shorten` (titles, paths) gives way on a narrow terminal. */
  readonly fit: 'whole' | 'shorten';
}

/** Columns a shortened column keeps at least, so that both ends of its text still show. */
const MIN_SHORTENED = 12;

/** Border and padding: `│ a │ b │` takes 3 columns per column and one more. */
function frameWidth(columns: number): number {
  return 3 * columns + 1;
}

/**
 * Widths that fit `width` columns: whole columns keep their width, the shortened ones share
 * what is left, the narrowest natural width first so that a short path gives its spare room
 * to a long title. A terminal too narrow for that keeps the minimum and lets the line wrap.
 */
function fittedWidths(natural: readonly number[], columns: readonly Column[], width: number): number[] {
  const fixed = natural.reduce((sum, w, i) => sum + (columns[i]?.fit === 'whole' ? w : 0), 0);
  let room = width - frameWidth(columns.length) - fixed;
  const shortened = natural
    .map((w, i) => ({ w, i }))
    .filter(({ i }) => columns[i]?.fit === 'shorten')
    .sort((a, b) => a.w - b.w);
  const widths = [...natural];
  shortened.forEach(({ w, i }, index) => {
    const share = Math.floor(room / (shortened.length - index));
    const given = Math.min(w, Math.max(share, Math.min(w, MIN_SHORTENED)));
    widths[i] = given;
    room -= given;
  });
  return widths;
}

/**
 * A table with a header row and no lines between rows (cli-table3's compact style). With
 * `globals.width` (stdout is a terminal) it fits that many columns: the widths are chosen here
 * and titles and paths shortened in the middle before they reach cli-table3, whose own
 * truncation (at the end) then never applies. Without it every value is printed whole, for
 * pipes and files. Cells are made safe and coloured here; cli-table3 measures them without
 * their colours, with `displayWidth` in the program's bundle (string-width's counts, without
 * loading it for Latin text) and string-width itself elsewhere, so CJK and emoji stay aligned.
 */
export function table(columns: readonly Column[], rows: readonly (readonly Piece[])[], globals: GlobalOptions): string {
  const painter = paint(globals);
  const plain = rows.map((row) => row.map(plainOf));
  const heads = columns.map((column) => safeText(column.head));
  const natural = (): number[] => heads.map((head, i) => Math.max(displayWidth(head), ...plain.map((row) => displayWidth(row[i] ?? ''))));
  // Piped: no widths, cli-table3 sizes each column to its widest value.
  const widths = globals.width === undefined ? undefined : fittedWidths(natural(), columns, globals.width);
  const t = new Table({
    head: heads.map((text) => (globals.color ? painter.bold(text) : text)),
    // Colours come from the painter only (cli-table3's would load @colors/colors and probe the terminal itself).
    style: { head: [], border: [], compact: true, 'padding-left': 1, 'padding-right': 1 },
    ...(widths === undefined ? {} : { colWidths: widths.map((w) => w + 2) }),
  });
  for (const [r, row] of rows.entries()) {
    t.push(
      columns.map((_, i) => {
        const whole = plain[r]?.[i] ?? '';
        const text = widths === undefined ? whole : shortenMiddle(whole, widths[i] ?? 0);
        return render(row[i] ?? '', painter, text);
      }),
    );
  }
  return t.toString();
}
