/**
 * What a search term means to the archive server's query parsers, decided before or after it
 * answers 400 (facts: docs/archive-client.md "Terms with punctuation").
 *
 * - Archive server 3 parses `query` with Tantivy's strict grammar; its `text` mode matches each
 *   whitespace-separated chunk of the term as a substring (first chunk) or a prefix (later chunks)
 *   of consecutive chunks of the document, but its highlighting step parses those chunks with the
 *   same strict grammar, so `text` fails on punctuation whenever there are hits.
 * - Archive server 2 (Whoosh) is lenient: a term of letters, digits and spaces never fails there.
 */

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
 * The value of the `text` repeat on archive server 3: the term cut down to letters and digits,
 * so that the highlighting step cannot fail to parse it, yet still matching every document that
 * holds the words as typed. The first chunk may match inside a chunk of the document, so its
 * longest piece stays (`O'Brien` → `Brien`, `"abc` → `abc`, `Re:` → `Re`); a later chunk must
 * start a chunk of the document, so only its leading piece can stay (`Re: invoice` →
 * `Re invoice`), and a later chunk that starts with punctuation ends the phrase there (nothing
 * after it could be required without asking for the punctuation). Empty when nothing is left.
 */
export function simpleTextOf(term: string): string {
  const kept: string[] = [];
  for (const chunk of term.split(/\s+/u)) {
    if (chunk === '') continue;
    if (kept.length === 0) {
      const longest = (chunk.match(WORD_PIECE) ?? []).reduce((best, piece) => (piece.length > best.length ? piece : best), '');
      if (longest !== '') kept.push(longest);
      continue;
    }
    const leading = /^[\p{L}\p{M}\p{N}]+/u.exec(chunk)?.[0];
    if (leading === undefined) break;
    kept.push(leading);
  }
  return kept.join(' ');
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
 * Whether the term excludes something with `-`: archive server 2's parser (Whoosh, no +/-
 * operators) reads `-invoice` as the word `invoice`, the opposite of what was asked.
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
