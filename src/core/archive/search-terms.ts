/**
 * What a search term means to the archive server's query parsers, decided before or after it
 * answers 400 (facts: docs/archive-client.md "Terms with punctuation" and "Releases").
 *
 * - Paperless-ngx 3.0 and 3.1 parse `query` with Tantivy's strict grammar; their `text` mode
 *   matches whitespace-separated chunks of the term (3.0: the first as a substring, later ones as
 *   prefixes of the following chunks; 3.1: each as a substring somewhere), but its highlighting
 *   step parses those chunks with the same strict grammar, so `text` fails on punctuation
 *   whenever there are hits.
 * - Paperless-ngx 2 (Whoosh) and 3.2 (whoosh-compat, a fork of Whoosh's grammar) are lenient: a
 *   term of letters, digits and spaces never fails there, and neither knows `-word`.
 */
import type { ArchiveVersions } from './types.js';

/**
 * Which parser reads `query`, and so what a term means: Whoosh (2.x), Tantivy with `text` as a
 * phrase (3.0), Tantivy with `text` as all words (3.1, #13504), whoosh-compat (3.2 on, #14072).
 */
export type TermReader = 'whoosh' | 'tantivy' | 'tantivy-all-words' | 'whoosh-compat';

/**
 * The reader of the release an answer named: `X-Version` decides (`3.1.3` → 3.1); without it, API
 * version 10 or later means a 3.x of unknown minor, read as 3.0, whose `text` value also matches
 * on 3.1 (the other way round it would not). Newer majors read as the newest known.
 */
export function termReaderOf(versions: ArchiveVersions): TermReader {
  const release = /^(\d+)\.(\d+)/.exec(versions.version ?? '');
  if (release !== null) {
    const major = Number(release[1]);
    const minor = Number(release[2]);
    if (major < 3) return 'whoosh';
    if (major > 3 || minor >= 2) return 'whoosh-compat';
    return minor === 1 ? 'tantivy-all-words' : 'tantivy';
  }
  const api = versions.apiVersion === null ? Number.NaN : Number.parseInt(versions.apiVersion, 10);
  return api >= 10 ? 'tantivy' : 'whoosh';
}

/** Whoosh and whoosh-compat have no `+`/`-` operators: `-invoice` is the word `invoice`. */
export function readsMinusAsWord(reader: TermReader): boolean {
  return reader === 'whoosh' || reader === 'whoosh-compat';
}

/** Tantivy's strict parser (3.0, 3.1): the releases whose 400 may be a term still being typed, repeated as `text`. */
export function parsesStrictly(reader: TermReader): reader is 'tantivy' | 'tantivy-all-words' {
  return reader === 'tantivy' || reader === 'tantivy-all-words';
}

/** Letters (with their combining marks) and digits: what no query grammar gives a meaning. */
const WORD_PIECE = /[\p{L}\p{M}\p{N}]+/gu;
const PLAIN = /^[\p{L}\p{M}\p{N}\s]*$/u;

/**
 * A term of only letters, digits and spaces cannot be a syntax error in either engine, so a
 * 400 for it is a fault of the archive server (Paperless answers 400 for any exception while
 * searching), not a query still being typed.
 */
export function cannotBeSyntaxError(term: string): boolean {
  return PLAIN.test(term) && term.trim() !== '';
}

/**
 * The value of the `text` repeat on Paperless-ngx 3.0 and 3.1: the term cut down to letters and
 * digits, so that the highlighting step cannot fail to parse it, yet still matching every
 * document that holds the words as typed.
 * - 3.0 (`tantivy`): the first chunk may match inside a chunk of the document, so its longest
 *   piece stays (`O'Brien` → `Brien`, `"abc` → `abc`, `Re:` → `Re`); a later chunk must start a
 *   chunk of the document, so only its leading piece can stay (`Re: invoice` → `Re invoice`), and
 *   a later chunk that starts with punctuation ends the phrase there (nothing after it could be
 *   required without asking for the punctuation).
 * - 3.1 (`tantivy-all-words`): every chunk matches inside any chunk of the document, in any order,
 *   so each keeps its longest piece (`Mr O'Brien` → `Mr Brien`, `invoice "gard` → `invoice gard`).
 *   Among several pieces, one of only digits must start a chunk of the document or follow ASCII
 *   punctuation there (`_build_simple_token_query`), so such a piece after other punctuation
 *   (`№123`) gives way to the chunk's next longest piece, or the chunk is left out.
 * Empty when nothing is left.
 */
export function simpleTextOf(term: string, reader: 'tantivy' | 'tantivy-all-words' = 'tantivy'): string {
  const chunks = term.split(/\s+/u).filter((chunk) => chunk !== '');
  if (reader === 'tantivy-all-words') return allWordsText(chunks);
  const kept: string[] = [];
  for (const chunk of chunks) {
    if (kept.length === 0) {
      const longest = longestPiece(piecesOf(chunk));
      if (longest !== '') kept.push(longest);
      continue;
    }
    const leading = /^[\p{L}\p{M}\p{N}]+/u.exec(chunk)?.[0];
    if (leading === undefined) break;
    kept.push(leading);
  }
  return kept.join(' ');
}

interface Piece {
  readonly text: string;
  /** Whether 3.1 finds it among several pieces: not only digits, or at the start of the chunk or after ASCII punctuation. */
  readonly bounded: boolean;
}

/** Python's `str.isdecimal()`, which decides whether 3.1 holds a token to a boundary. */
const DECIMAL = /^\p{Nd}+$/u;
/** The characters 3.1 lets a bounded token follow (`[\x20-\x2f\x3a-\x40\x5b-\x60\x7b-\x7e]`). */
const ASCII_BOUNDARY = /[\x20-\x2f\x3a-\x40\x5b-\x60\x7b-\x7e]/;

function piecesOf(chunk: string): Piece[] {
  return [...chunk.matchAll(WORD_PIECE)].map((match) => ({
    text: match[0],
    bounded: !DECIMAL.test(match[0]) || match.index === 0 || ASCII_BOUNDARY.test(chunk.charAt(match.index - 1)),
  }));
}

function longestPiece(pieces: readonly Piece[]): string {
  return pieces.reduce((best, piece) => (piece.text.length > best.length ? piece.text : best), '');
}

function allWordsText(chunks: readonly string[]): string {
  const pieces = chunks.map(piecesOf);
  const kept = pieces.map(longestPiece).filter((text) => text !== '');
  // A single piece is matched anywhere; among several, only bounded ones can be.
  if (kept.length <= 1) return kept.join(' ');
  return pieces
    .map((list) => longestPiece(list.filter((piece) => piece.bounded)))
    .filter((text) => text !== '')
    .join(' ');
}

/**
 * Whether the term asks only to exclude (`-invoice`, `NOT invoice`, `-a -"b c"`): Tantivy refuses
 * such a query, and repeating it as `text` would find the documents that DO hold the words.
 * Clauses are read at the top level as Tantivy does: `-x` and `NOT x` exclude, `AND`/`OR` join,
 * a `-` or `+` standing alone is dropped (Paperless strips dangling operators), anything else
 * includes. Quotes and parentheses keep their content in one clause.
 */
export function isExclusionsOnly(term: string): boolean {
  return exclusionsOf(term).only;
}

/**
 * Whether the term excludes something with `-`: the parsers of Paperless-ngx 2 (Whoosh) and 3.2
 * (whoosh-compat) have no +/- operators and read `-invoice` as the word `invoice`, the opposite of
 * what was asked.
 */
export function hasMinusExclusion(term: string): boolean {
  return exclusionsOf(term).byMinus > 0;
}

function exclusionsOf(term: string): { readonly only: boolean; readonly byMinus: number } {
  let byMinus = 0;
  let excluded = 0;
  let included = 0;
  let negateNext = false;
  for (const clause of topLevelClauses(term)) {
    if (clause === 'AND' || clause === 'OR') continue;
    if (clause === 'NOT') {
      negateNext = true;
      continue;
    }
    if (clause === '-' || clause === '+') continue;
    if (negateNext || clause.startsWith('-')) excluded += 1;
    else included += 1;
    if (!negateNext && clause.startsWith('-')) byMinus += 1;
    negateNext = false;
  }
  return { only: excluded > 0 && included === 0, byMinus };
}

/** Whitespace-separated clauses; a quote or parenthesis opened in a clause extends it to its close. */
function topLevelClauses(term: string): string[] {
  const clauses: string[] = [];
  let current = '';
  let depth = 0;
  let quoted = false;
  for (const char of term) {
    if (quoted) {
      current += char;
      if (char === '"') quoted = false;
      continue;
    }
    if (char === '"') quoted = true;
    else if (char === '(') depth += 1;
    else if (char === ')' && depth > 0) depth -= 1;
    if (/\s/u.test(char) && depth === 0) {
      if (current !== '') clauses.push(current);
      current = '';
      continue;
    }
    current += char;
  }
  if (current !== '') clauses.push(current);
  return clauses;
}
