import { styleText } from 'node:util';
import { displayWidth, safeText, shortenMiddle } from './terminal-text.js';
import type { GlobalOptions } from './types.js';

/**
 * The human output of the commands. Colours only when `GlobalOptions.color` says so (a TTY,
 * no NO_COLOR, no --no-color): piped output and tests stay plain text. Every string given
 * here passes `safeText` before a colour is added, so text from the archive server or the
 * host never controls the terminal; the commands build their lines and tables only here.
 */
export function paint(globals: GlobalOptions): Painter {
  // Node's own ANSI styles: a colour library (and the terminal probing it does on import) would cost every command's start.
  const style = (format: Style) => (text: string): string => (globals.color ? styleText(format, text, { validateStream: false }) : text);
  return { green: style('green'), yellow: style('yellow'), red: style('red'), bold: style('bold') };
}

export type Style = 'green' | 'yellow' | 'red' | 'bold';

export type Painter = Readonly<Record<Style, (text: string) => string>>;

export interface Styled {
  readonly style: Style;
  readonly text: string;
}

/** A piece of a line: text (made safe), a number, or text made safe and then coloured. */
export type Piece = string | number | Styled;

export function styled(style: Style, text: string): Styled {
  return { style, text };
}

function plainOf(piece: Piece): string {
  return typeof piece === 'object' ? safeText(piece.text) : safeText(String(piece));
}

function render(piece: Piece, painter: Painter, text = plainOf(piece)): string {
  return typeof piece === 'object' ? painter[piece.style](text) : text;
}

/** One line of output, without its line end. */
export function line(globals: GlobalOptions, ...pieces: readonly Piece[]): string {
  const painter = paint(globals);
  return pieces.map((piece) => render(piece, painter)).join('');
}

export function success(globals: GlobalOptions, text: string): string {
  return line(globals, styled('green', '✓'), ' ', text);
}

export function warning(globals: GlobalOptions, text: string): string {
  return line(globals, styled('yellow', '!'), ' ', text);
}

export function failure(globals: GlobalOptions, text: string): string {
  return line(globals, styled('red', '✗'), ' ', text);
}

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
  const shortened = natural.map((w, i) => ({ w, i })).filter(({ i }) => columns[i]?.fit === 'shorten').sort((a, b) => a.w - b.w);
  const widths = [...natural];
  shortened.forEach(({ w, i }, index) => {
    const share = Math.floor(room / (shortened.length - index));
    const given = Math.min(w, Math.max(share, Math.min(w, MIN_SHORTENED)));
    widths[i] = given;
    room -= given;
  });
  return widths;
}

function padded(text: string, rendered: string, width: number): string {
  return rendered + ' '.repeat(Math.max(0, width - displayWidth(text)));
}

function rule(widths: readonly number[], left: string, middle: string, right: string): string {
  return `${left}${widths.map((w) => '─'.repeat(w + 2)).join(middle)}${right}`;
}

/**
 * A table with a header row and no lines between rows. With `globals.width` (stdout is a
 * terminal) it fits that many columns, shortening titles and paths in the middle; without
 * it every value is printed whole, for pipes and files.
 */
export function table(columns: readonly Column[], rows: readonly (readonly Piece[])[], globals: GlobalOptions): string {
  const painter = paint(globals);
  const plain = rows.map((row) => row.map(plainOf));
  const heads = columns.map((column) => safeText(column.head));
  const natural = heads.map((head, i) => Math.max(displayWidth(head), ...plain.map((row) => displayWidth(row[i] ?? ''))));
  const widths = globals.width === undefined ? natural : fittedWidths(natural, columns, globals.width);
  const rowLine = (cells: readonly string[]): string => `│ ${cells.join(' │ ')} │`;
  const head = rowLine(heads.map((text, i) => padded(text, globals.color ? painter.bold(text) : text, widths[i] ?? 0)));
  const body = rows.map((row, r) =>
    rowLine(
      columns.map((_, i) => {
        const text = shortenMiddle(plain[r]?.[i] ?? '', widths[i] ?? 0);
        const piece = row[i] ?? '';
        return padded(text, render(piece, painter, text), widths[i] ?? 0);
      }),
    ),
  );
  return [rule(widths, '┌', '┬', '┐'), head, rule(widths, '├', '┼', '┤'), ...body, rule(widths, '└', '┴', '┘')].join('\n');
}
