import { createRequire } from 'node:module';
import type { ChalkInstance } from 'chalk';
import { displayWidth, safeText } from './terminal-text.js';
import { textIn, type MessageKey, type ParamsOf } from '../core/i18n/catalog.js';
import type { GlobalOptions } from './types.js';

/**
 * The human output of the commands. Colours only when `GlobalOptions.color` says so (a TTY,
 * no NO_COLOR, no --no-color): piped output and tests stay plain text. Every string given
 * here passes `safeText` before a colour is added, so text from the archive server or the
 * host never controls the terminal; the commands build their lines here and their tables in table.ts.
 */
export function paint(globals: GlobalOptions): Painter {
  return globals.color ? coloured() : PLAIN;
}

// The level is ours, never chalk's own guess from the terminal: `globals.color` already weighs
// NO_COLOR, --no-color and whether stdout is a terminal. Level 1 (16 colours) is all we use.
// chalk is loaded when a colour is first painted (a terminal): piped output, what scripts and
// CI read, needs none of it, and chalk at level 0 hands every text back as it is.
let colouredChalk: ChalkInstance | undefined;
function coloured(): Painter {
  colouredChalk ??= new (createRequire(import.meta.url)('chalk') as typeof import('chalk')).Chalk({ level: 1 });
  return colouredChalk;
}
const same = (text: string): string => text;
const PLAIN: Painter = { green: same, yellow: same, red: same, bold: same };

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

export function plainOf(piece: Piece): string {
  return typeof piece === 'object' ? safeText(piece.text) : safeText(String(piece));
}

export function render(piece: Piece, painter: Painter, text = plainOf(piece)): string {
  return typeof piece === 'object' ? painter[piece.style](text) : text;
}

/** One line of output, without its line end. */
export function line(globals: GlobalOptions, ...pieces: readonly Piece[]): string {
  const painter = paint(globals);
  return pieces.map((piece) => render(piece, painter)).join('');
}

/** A run of a piece's text: a word (or part of one) in the piece's style, or the spaces between words. */
interface Fragment {
  readonly text: string;
  readonly style: Style | undefined;
}

type Token = { readonly space: true; readonly text: string } | { readonly space: false; readonly fragments: readonly Fragment[]; readonly width: number };

/** The words and spaces of a line; a word may span pieces (`7` and `:` of `Document 7:`). */
function tokensOf(pieces: readonly Piece[]): Token[] {
  const tokens: Token[] = [];
  let word: Fragment[] = [];
  const endWord = (): void => {
    if (word.length > 0) tokens.push({ space: false, fragments: word, width: word.reduce((sum, f) => sum + displayWidth(f.text), 0) });
    word = [];
  };
  for (const piece of pieces) {
    const style = typeof piece === 'object' ? piece.style : undefined;
    for (const part of plainOf(piece).split(/( +)/)) {
      if (part === '') continue;
      if (part.startsWith(' ')) {
        endWord();
        tokens.push({ space: true, text: part });
      } else {
        word.push({ text: part, style });
      }
    }
  }
  endWord();
  return tokens;
}

/**
 * A sentence for people (an explanation, a check's result, a summary), without its line end.
 * On a terminal (`globals.width`) it is broken at spaces into lines of at most that many
 * columns, the following lines indented by `hang` columns, so that the terminal never cuts a
 * word at its edge; a word wider than the room (a long path) stays whole. Not on a terminal it
 * stays one line, as tables keep whole values there: a pipe or a file gets one line per sentence.
 */
export function prose(globals: GlobalOptions, hang: number, ...pieces: readonly Piece[]): string {
  const width = globals.width;
  if (width === undefined) return line(globals, ...pieces);
  const painter = paint(globals);
  const indent = ' '.repeat(Math.min(hang, Math.floor(width / 2)));
  const lines: string[] = [];
  let current = '';
  let used = 0;
  let gap = '';
  let started = false;
  for (const token of tokensOf(pieces)) {
    if (token.space) {
      // Spaces before the first word are the line's own indent; later ones separate words.
      if (started) gap += token.text;
      else {
        current += token.text;
        used += token.text.length;
      }
      continue;
    }
    if (started && used + gap.length + token.width > width) {
      lines.push(current);
      current = indent;
      used = indent.length;
      gap = '';
    }
    current += gap + token.fragments.map((f) => (f.style === undefined ? f.text : painter[f.style](f.text))).join('');
    used += gap.length + token.width;
    gap = '';
    started = true;
  }
  lines.push(current);
  return lines.join('\n');
}

/** A check's result line (`✓`, `!`, `✗` and the text), after `indent`; on a terminal wrapped under its text. */
function marked(globals: GlobalOptions, mark: Styled, text: string, indent: string): string {
  return prose(globals, indent.length + 2, indent, mark, ' ', text);
}

export function success(globals: GlobalOptions, text: string, indent = ''): string {
  return marked(globals, styled('green', '✓'), text, indent);
}

export function warning(globals: GlobalOptions, text: string, indent = ''): string {
  return marked(globals, styled('yellow', '!'), text, indent);
}

/** Information that asks for nothing (`i`): what a reader may want to know while everything works. */
export function note(globals: GlobalOptions, text: string, indent = ''): string {
  return marked(globals, styled('bold', 'i'), text, indent);
}

export function failure(globals: GlobalOptions, text: string, indent = ''): string {
  return marked(globals, styled('red', '✗'), text, indent);
}

const isPieces = (value: Piece | readonly Piece[]): value is readonly Piece[] => Array.isArray(value);

/**
 * A catalog text as pieces, in `language` (English when it has no catalog): its words, with each
 * `{name}` replaced by the piece (or pieces) given, so that a user name or a verdict inside the
 * sentence is made safe and coloured as any piece is (`line`, `prose`).
 */
export function saidIn<K extends MessageKey>(
  language: string | null,
  key: K,
  params: { readonly [P in keyof ParamsOf<K>]: Piece | readonly Piece[] },
): Piece[] {
  const text = textIn(key, language);
  const given: Readonly<Record<string, Piece | readonly Piece[]>> = params;
  const pieces: Piece[] = [];
  let last = 0;
  for (const match of text.matchAll(/\{(\w+)\}/g)) {
    if (match.index > last) pieces.push(text.slice(last, match.index));
    const value = given[match[1] ?? ''] ?? match[0];
    if (isPieces(value)) pieces.push(...value);
    else pieces.push(value);
    last = match.index + match[0].length;
  }
  if (last < text.length) pieces.push(text.slice(last));
  return pieces;
}
