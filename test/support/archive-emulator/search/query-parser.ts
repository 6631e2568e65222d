/**
 * The full-text query language, close enough to Whoosh (2.x), Tantivy (3.0, 3.1) and
 * whoosh-compat (3.2) for the queries a search box produces: words, `word*`, "phrases",
 * `field:value`, AND / OR / NOT, `+` / `-`, parentheses, and date clauses on `created` /
 * `added`. In strict (Tantivy) mode what Tantivy refuses is an error; the Whoosh grammars make
 * the best of it as Whoosh does, and whoosh-compat reports only what Paperless turns into a
 * SearchQueryError (a bad date, a bracket range without a wildcard).
 */
import { addDays, isoDate } from '../values.js';

export type TextField = 'title' | 'content' | 'correspondent' | 'type';
export type DateField = 'created' | 'added' | 'modified';

export type QueryNode =
  | { readonly kind: 'term'; readonly fields: readonly TextField[] | null; readonly text: string; readonly prefix: boolean }
  | { readonly kind: 'phrase'; readonly fields: readonly TextField[] | null; readonly words: readonly string[] }
  /** Days `from` (inclusive) to `to` (exclusive), YYYY-MM-DD. */
  | { readonly kind: 'date'; readonly field: DateField; readonly from: string; readonly to: string }
  | { readonly kind: 'nothing' }
  /** Lucene-style clause list: every `must`, no `mustNot`, and one `should` when there is no `must`. */
  | { readonly kind: 'bool'; readonly must: readonly QueryNode[]; readonly should: readonly QueryNode[]; readonly mustNot: readonly QueryNode[] }
  | { readonly kind: 'or'; readonly children: readonly QueryNode[] };

/** How clauses without an operator combine: Whoosh ANDs them, Tantivy's parser ORs them. */
export type Conjunction = 'and' | 'or';

/** Which parser reads `query`: see `VersionProfile.queryParser`. */
export type QueryDialect = 'whoosh' | 'tantivy' | 'whoosh-compat';

type Occur = 'must' | 'should' | 'mustNot' | 'default';

export type ParseOutcome =
  | { readonly ok: true; readonly node: QueryNode | null }
  | { readonly ok: false; readonly error: 'syntax' }
  | { readonly ok: false; readonly error: 'date'; readonly field: DateField; readonly value: string }
  /** A SearchQueryError other than a date: Paperless's message, answered as `{"query": [message]}`. */
  | { readonly ok: false; readonly error: 'refused'; readonly message: string };

const TEXT_FIELDS: Record<string, TextField> = {
  title: 'title',
  content: 'content',
  correspondent: 'correspondent',
  type: 'type',
  document_type: 'type',
};
const DATE_FIELDS: Record<string, DateField> = { created: 'created', added: 'added', modified: 'modified' };
/** Fields that exist in the index but hold nothing in the emulator. */
const EMPTY_FIELDS = new Set([
  'tag',
  'tags',
  'notes',
  'note',
  'custom_fields',
  'path',
  'storage_path',
  'owner',
  'asn',
  'page_count',
  'num_notes',
  'checksum',
  'original_filename',
]);
/** Unsigned fields of 3.0's Tantivy schema (`_schema.py` @v3.0.5): its parser refuses a value that is no number. */
const TANTIVY_NUMERIC_FIELDS = new Set(['asn', 'page_count', 'num_notes']);
/**
 * whoosh-compat's registry in 3.2 (`PUBLIC_FIELDS`, `src/documents/search/_fields.py` @d0869bec):
 * text fields the emulator leaves empty (`path` is `storage_path`'s alias), the keyword `checksum`,
 * the JSON fields; `owner` is none of them, so `owner:x` is text again (FieldsPlugin).
 */
const COMPAT_EMPTY_FIELDS = new Set(['storage_path', 'path', 'original_filename', 'tag', 'checksum', 'notes', 'custom_fields']);
/** whoosh-compat U64 fields (`FieldKind.U64`): a value that is no whole number is an InvalidNumberQuery. */
const COMPAT_NUMERIC_FIELDS = new Set(['asn', 'page_count', 'num_notes']);
/**
 * The six multi-word keywords whoosh-compat reads without quotes on a date field (0.1.0,
 * CHANGELOG "Added"); any further plain word makes the value multi-word again.
 */
const UNQUOTED_KEYWORDS = new Set(['previous week', 'previous month', 'previous quarter', 'previous year', 'this month', 'this year']);
const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];

type Token =
  | { readonly t: 'lparen' }
  | { readonly t: 'rparen' }
  | { readonly t: 'op'; readonly op: 'AND' | 'OR' | 'NOT' }
  | { readonly t: 'mod'; readonly mod: '+' | '-' }
  | { readonly t: 'word'; readonly field: string | null; readonly value: string; readonly quoted: boolean };

class QuerySyntaxError extends Error {}
class QueryRefusedError extends Error {}
/** InvalidNumberQuery (`_errors.py` @c673c81b): "Invalid numeric value {value!r} for field {field!r}." */
class QueryNumberError extends QueryRefusedError {
  constructor(field: string, value: string) {
    super(`Invalid numeric value ${pyRepr(value)} for field ${pyRepr(field)}.`);
  }
}
class QueryDateError extends Error {
  constructor(
    readonly field: DateField,
    readonly value: string,
  ) {
    super(`Invalid date value ${pyRepr(value)} for field ${pyRepr(field)}.`);
  }
}

/** Python's `repr()` of a string, as Paperless's f-strings `{value!r}` write it. */
export function pyRepr(text: string): string {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = '';
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    if (char === '\\' || char === quote) out += `\\${char}`;
    else if (char === '\n') out += '\\n';
    else if (char === '\r') out += '\\r';
    else if (char === '\t') out += '\\t';
    else if (code < 0x20 || code === 0x7f) out += `\\x${code.toString(16).padStart(2, '0')}`;
    else out += char;
  }
  return `${quote}${out}${quote}`;
}

/** whoosh-compat names a field by its canonical name (`type:` is reported as `document_type`). */
const CANONICAL_FIELD: Record<TextField, string> = { title: 'title', content: 'content', correspondent: 'correspondent', type: 'document_type' };

/** Tantivy's analyzers fold to ASCII (Müller → muller); Whoosh's StandardAnalyzer does not. */
export function fold(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').replace(/ß/g, 'ss').replace(/æ/g, 'ae').replace(/ø/g, 'o').replace(/œ/g, 'oe');
}

/** Lower-cased word tokens, as both engines' analyzers split text. */
export function analyze(text: string, folding = false): string[] {
  const lower = text.toLowerCase();
  return ((folding ? fold(lower) : lower).match(/[\p{L}\p{N}_]+/gu) ?? []).slice();
}

function lex(query: string, strict: boolean): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  const isSpace = (c: string | undefined): boolean => c !== undefined && /\s/.test(c);
  const readQuoted = (): string => {
    const end = query.indexOf('"', i + 1);
    if (end === -1) {
      if (strict) throw new QuerySyntaxError('unterminated quote');
      const value = query.slice(i + 1);
      i = query.length;
      return value;
    }
    const value = query.slice(i + 1, end);
    i = end + 1;
    return value;
  };
  while (i < query.length) {
    const c = query[i];
    if (isSpace(c)) {
      i++;
    } else if (c === '(') {
      tokens.push({ t: 'lparen' });
      i++;
    } else if (c === ')') {
      tokens.push({ t: 'rparen' });
      i++;
    } else if (strict && (c === '+' || c === '-')) {
      const next = query[i + 1];
      // A dangling modifier is dropped by both engines (Tantivy's translate step strips it).
      if (next !== undefined && !isSpace(next) && next !== ')') tokens.push({ t: 'mod', mod: c });
      i++;
    } else if (c === '"') {
      tokens.push({ t: 'word', field: null, value: readQuoted(), quoted: true });
    } else if (strict && c === "'") {
      // Tantivy takes single quotes as a phrase too; an unclosed one fails.
      const end = query.indexOf("'", i + 1);
      if (end === -1) throw new QuerySyntaxError('unterminated quote');
      tokens.push({ t: 'word', field: null, value: query.slice(i + 1, end), quoted: true });
      i = end + 1;
    } else {
      let j = i;
      while (j < query.length && !isSpace(query[j]) && !'()"'.includes(query[j] ?? '')) {
        if (query[j] === ':') break;
        j++;
      }
      if (query[j] === ':' && j > i) {
        const field = query.slice(i, j).toLowerCase();
        i = j + 1;
        if (query[i] === '"') {
          tokens.push({ t: 'word', field, value: readQuoted(), quoted: true });
        } else if (query[i] === '[') {
          const end = query.indexOf(']', i);
          if (end === -1 && strict) throw new QuerySyntaxError('unterminated range');
          const stop = end === -1 ? query.length : end + 1;
          tokens.push({ t: 'word', field, value: query.slice(i, stop), quoted: false });
          i = stop;
        } else {
          let k = i;
          while (k < query.length && !isSpace(query[k]) && !'()"'.includes(query[k] ?? '')) k++;
          if (strict && k > i) checkTantivyWord(query.slice(i, k), query[k]);
          tokens.push({ t: 'word', field, value: query.slice(i, k), quoted: false });
          i = k;
        }
      } else {
        let k = j;
        while (k < query.length && !isSpace(query[k]) && !'()"'.includes(query[k] ?? '')) k++;
        const word = query.slice(i, k);
        i = k;
        if (strict) checkTantivyWord(word, query[k]);
        if (word === 'AND' || word === 'OR' || word === 'NOT') tokens.push({ t: 'op', op: word });
        else tokens.push({ t: 'word', field: null, value: word, quoted: false });
      }
    }
  }
  return tokens;
}

/**
 * Tantivy's word (query-grammar 0.26 `word`): these characters end a word unless escaped, and
 * what follows a word must be a space, `)` or the end, so a word holding one fails to parse:
 * `O'Brien`, `hatt'`, `a{b`. A trailing `^2` is a boost, `*` and `~` are word characters.
 */
const ENDS_A_WORD = /[\^`{}[\]'\\]/;

function checkTantivyWord(word: string, next: string | undefined): void {
  const unboosted = word.replace(/\^\d+(\.\d+)?$/, '');
  if (ENDS_A_WORD.test(unboosted)) throw new QuerySyntaxError(`word ${word} holds a character that ends a word`);
  if (next === '(' || next === '"') throw new QuerySyntaxError('no space after a word');
}

const RELATIVE_DAYS: Record<string, (today: string) => [string, string]> = {
  // `now` is an instant; at the emulator's day precision it is today.
  now: (t) => [t, addDays(t, 1)],
  today: (t) => [t, addDays(t, 1)],
  yesterday: (t) => [addDays(t, -1), t],
  'this week': (t) => [mondayOf(t), addDays(t, 1)],
  'last week': (t) => [addDays(mondayOf(t), -7), mondayOf(t)],
  'previous week': (t) => [addDays(mondayOf(t), -7), mondayOf(t)],
  'this month': (t) => [`${t.slice(0, 7)}-01`, addDays(t, 1)],
  'last month': (t) => [monthBefore(t), `${t.slice(0, 7)}-01`],
  'previous month': (t) => [monthBefore(t), `${t.slice(0, 7)}-01`],
  'this year': (t) => [`${t.slice(0, 4)}-01-01`, addDays(t, 1)],
  'last year': (t) => [`${Number(t.slice(0, 4)) - 1}-01-01`, `${t.slice(0, 4)}-01-01`],
  'previous year': (t) => [`${Number(t.slice(0, 4)) - 1}-01-01`, `${t.slice(0, 4)}-01-01`],
};

function mondayOf(day: string): string {
  const weekday = new Date(`${day}T00:00:00Z`).getUTCDay();
  return addDays(day, -((weekday + 6) % 7));
}

function monthBefore(day: string): string {
  const year = Number(day.slice(0, 4));
  const month = Number(day.slice(5, 7));
  return month === 1 ? `${year - 1}-12-01` : `${year}-${String(month - 1).padStart(2, '0')}-01`;
}

/** A month by name (`december`, `dec`) → its number 1–12, or null. */
function monthNumber(word: string): number | null {
  const at = MONTHS.findIndex((name) => name === word || (word.length >= 3 && name.startsWith(word)));
  return at === -1 ? null : at + 1;
}

function monthSpan(year: number, month: number): [string, string] | null {
  const first = isoDate(year, month, 1);
  if (first === null) return null;
  return [first, month === 12 ? `${year + 1}-01-01` : `${year}-${String(month + 1).padStart(2, '0')}-01`];
}

/**
 * One date value: a day, a month, a year, 8 digits, or a relative keyword → [from, to). `words`
 * (the Whoosh grammars: Whoosh's `dateparse` and whoosh-compat's fork of it) adds month names
 * (`december` this year, `december 2019`) and a range written `a to b`.
 */
function dateSpan(value: string, today: string, words = false): [string, string] | null {
  const v = value.trim().toLowerCase().replace(/\s+/g, ' ');
  const relative = RELATIVE_DAYS[v];
  if (relative !== undefined) return relative(today);
  if (words) {
    const range = /^(.+?) to (.+)$/.exec(v);
    if (range !== null) {
      const from = dateSpan(range[1] ?? '', today, true);
      const to = dateSpan(range[2] ?? '', today, true);
      return from === null || to === null ? null : [from[0], to[1]];
    }
    const named = /^([a-z]+)(?: (\d{4}))?$/.exec(v);
    const month = named === null ? null : monthNumber(named[1] ?? '');
    if (named !== null && month !== null) return monthSpan(named[2] === undefined ? Number(today.slice(0, 4)) : Number(named[2]), month);
  }
  let m = /^(\d{4})-?(\d{2})-?(\d{2})$/.exec(v);
  if (m !== null) {
    const day = isoDate(Number(m[1]), Number(m[2]), Number(m[3]));
    return day === null ? null : [day, addDays(day, 1)];
  }
  m = /^(\d{4})-(\d{2})$/.exec(v);
  if (m !== null) {
    const first = isoDate(Number(m[1]), Number(m[2]), 1);
    if (first === null) return null;
    const next = Number(m[2]) === 12 ? `${Number(m[1]) + 1}-01-01` : `${m[1]}-${String(Number(m[2]) + 1).padStart(2, '0')}-01`;
    return [first, next];
  }
  m = /^(\d{4})$/.exec(v);
  if (m !== null) return [`${m[1]}-01-01`, `${Number(m[1]) + 1}-01-01`];
  return null;
}

function dateNode(field: DateField, value: string, today: string, words = false): QueryNode {
  const range = /^\[(.*?)\s+to\s+(.*?)\]$/i.exec(value.trim());
  if (range !== null) {
    const fromText = range[1] ?? '';
    const toText = range[2] ?? '';
    const from = fromText === '' || fromText === '*' ? ['0001-01-01', ''] : dateSpan(fromText, today, words);
    const to = toText === '' || toText === '*' ? ['', '9999-12-31'] : dateSpan(toText, today, words);
    if (from === null) throw new QueryDateError(field, fromText);
    if (to === null) throw new QueryDateError(field, toText);
    return { kind: 'date', field, from: from[0] ?? '', to: to[1] ?? '' };
  }
  const span = dateSpan(value, today, words);
  if (span === null) throw new QueryDateError(field, value);
  return { kind: 'date', field, from: span[0], to: span[1] };
}

/** Whether a date value parses (whoosh-compat's test for joining the words after it). */
function parsesAsDate(value: string, today: string): boolean {
  try {
    dateNode('created', value, today, true);
    return true;
  } catch {
    return false;
  }
}

/**
 * Tantivy turns a word that analyses into several tokens into a phrase; Whoosh (and whoosh-compat,
 * whose default group is And) ANDs the tokens. Tantivy's analyzers fold to ASCII, Whoosh's do not.
 */
function textNode(fields: readonly TextField[] | null, value: string, quoted: boolean, dialect: QueryDialect): QueryNode | null {
  const words = analyze(value, dialect !== 'whoosh');
  if (words.length === 0) return null;
  if (quoted || (dialect === 'tantivy' && words.length > 1))
    return words.length === 1 ? { kind: 'term', fields, text: words[0] ?? '', prefix: false } : { kind: 'phrase', fields, words };
  const prefix = value.endsWith('*');
  const terms: QueryNode[] = words.map((w, index) => ({ kind: 'term', fields, text: w, prefix: prefix && index === words.length - 1 }));
  return terms.length === 1 ? (terms[0] ?? null) : { kind: 'bool', must: terms, should: [], mustNot: [] };
}

class Parser {
  private pos = 0;

  constructor(
    private readonly tokens: readonly Token[],
    private readonly dialect: QueryDialect,
    private readonly today: string,
  ) {
    this.strict = dialect === 'tantivy';
    this.conjunction = dialect === 'tantivy' ? 'or' : 'and';
  }

  private readonly strict: boolean;
  private readonly conjunction: Conjunction;

  parse(): QueryNode | null {
    let node = this.parseOr();
    while (this.pos < this.tokens.length) {
      // Only a stray ')' can be left over.
      if (this.strict) throw new QuerySyntaxError('unbalanced parenthesis');
      this.pos++;
      const more = this.parseOr();
      if (more !== null) node = node === null ? more : { kind: 'bool', must: [node, more], should: [], mustNot: [] };
    }
    return node;
  }

  private peek(): Token | undefined {
    return this.tokens[this.pos];
  }

  private parseOr(): QueryNode | null {
    const children: QueryNode[] = [];
    let first = this.parseClauses();
    if (first !== null) children.push(first);
    for (;;) {
      const token = this.peek();
      if (token?.t !== 'op' || token.op !== 'OR') break;
      this.pos++;
      if (first === null && this.strict) throw new QuerySyntaxError('dangling OR');
      const next = this.parseClauses();
      if (next === null) {
        if (this.strict) throw new QuerySyntaxError('dangling OR');
      } else children.push(next);
      first = next;
    }
    if (children.length === 0) return null;
    return children.length === 1 ? (children[0] ?? null) : { kind: 'or', children };
  }

  /** A run of clauses joined by nothing or by AND. */
  private parseClauses(): QueryNode | null {
    const units: Array<{ occur: Occur; node: QueryNode }> = [];
    let pendingAnd = false;
    for (;;) {
      const token = this.peek();
      if (token === undefined || token.t === 'rparen') break;
      if (token.t === 'op' && token.op === 'OR') break;
      if (token.t === 'op' && token.op === 'AND') {
        this.pos++;
        if ((units.length === 0 || pendingAnd) && this.strict) throw new QuerySyntaxError('dangling AND');
        pendingAnd = true;
        const previous = units[units.length - 1];
        if (previous !== undefined && previous.occur === 'default') previous.occur = 'must';
        continue;
      }
      const unit = this.parseUnary();
      if (unit !== null) {
        if (pendingAnd && unit.occur === 'default') unit.occur = 'must';
        units.push(unit);
      }
      pendingAnd = false;
    }
    if (pendingAnd && this.strict) throw new QuerySyntaxError('dangling AND');
    if (units.length === 0) return null;
    const only = units[0];
    if (units.length === 1 && only !== undefined && (only.occur === 'default' || only.occur === 'must')) return only.node;
    const bool = { must: [] as QueryNode[], should: [] as QueryNode[], mustNot: [] as QueryNode[] };
    for (const { occur, node } of units) {
      const resolved = occur === 'default' ? (this.conjunction === 'and' ? 'must' : 'should') : occur;
      bool[resolved].push(node);
    }
    return { kind: 'bool', ...bool };
  }

  private parseUnary(): { occur: Occur; node: QueryNode } | null {
    const token = this.peek();
    if (token?.t === 'op' && token.op === 'NOT') {
      this.pos++;
      const inner = this.parseUnary();
      if (inner === null) {
        if (this.strict) throw new QuerySyntaxError('dangling NOT');
        return null;
      }
      return { occur: 'mustNot', node: inner.node };
    }
    if (token?.t === 'mod') {
      this.pos++;
      const node = this.parsePrimary();
      if (node === null) return null;
      return { occur: token.mod === '-' ? 'mustNot' : 'must', node };
    }
    const node = this.parsePrimary();
    return node === null ? null : { occur: 'default', node };
  }

  private parsePrimary(): QueryNode | null {
    const token = this.peek();
    if (token === undefined) return null;
    this.pos++;
    if (token.t === 'lparen') {
      const inner = this.parseOr();
      if (this.peek()?.t === 'rparen') this.pos++;
      else if (this.strict) throw new QuerySyntaxError('unbalanced parenthesis');
      return inner;
    }
    if (token.t === 'word') {
      if (this.dialect === 'whoosh-compat' && token.field !== null && DATE_FIELDS[token.field] !== undefined && !token.quoted && !token.value.startsWith('[')) {
        return this.clause(token.field, this.dateRun(DATE_FIELDS[token.field] ?? 'created', token.value), false);
      }
      return this.clause(token.field, token.value, token.quoted);
    }
    // An operator or parenthesis where a clause belongs.
    if (this.strict) throw new QuerySyntaxError('misplaced operator');
    return null;
  }

  /**
   * whoosh-compat 0.2.0 on (CHANGELOG 0.2.0 "Changed", DIVERGENCES.md entry 61; pinned by
   * Paperless-ngx 3.2.1 and 3.3.0): the plain words after an unquoted date value (no field of
   * their own, no operator, no wildcard) are joined to it as far as the joined value still parses
   * as a date, and such a value of several words is refused as a whole ("Invalid date value
   * 'december 2019' …"); a word the joined value cannot take stays a search term
   * (`created:2020 invoice`). The six multi-word keywords are one value (`created:previous month`).
   */
  private dateRun(field: DateField, value: string): string {
    const run: string[] = [];
    for (let at = this.pos; ; at++) {
      const next = this.tokens[at];
      if (next?.t !== 'word' || next.field !== null || next.quoted || /[*?]/.test(next.value)) break;
      run.push(next.value);
    }
    let head = value;
    let used = 0;
    if (run.length > 0 && UNQUOTED_KEYWORDS.has(`${value} ${run[0] ?? ''}`.toLowerCase())) {
      head = `${value} ${run[0] ?? ''}`;
      used = 1;
    }
    for (let k = run.length; k > used; k--) {
      const joined = [head, ...run.slice(used, k)].join(' ');
      if (parsesAsDate(joined, this.today)) throw new QueryDateError(field, joined);
    }
    this.pos += used;
    return head;
  }

  private clause(field: string | null, value: string, quoted: boolean): QueryNode | null {
    const dialect = this.dialect;
    if (field === null) return textNode(null, value, quoted, dialect);
    if (value.trim() === '') {
      if (this.strict) throw new QuerySyntaxError('field without value');
      // Whoosh's FieldsPlugin (remove_unknown) turns an unknown `name:` back into text.
      return TEXT_FIELDS[field] === undefined && DATE_FIELDS[field] === undefined && !EMPTY_FIELDS.has(field) ? textNode(null, field, false, dialect) : null;
    }
    if (dialect === 'whoosh-compat') {
      if (COMPAT_NUMERIC_FIELDS.has(field)) {
        // The emulated documents have no ASN, page count or notes: a valid number matches nothing.
        if (!/^\d+$/.test(value.trim()) && !/^\[\s*(\d+|\*)?\s+to\s+(\d+|\*)?\s*\]$/i.test(value.trim())) throw new QueryNumberError(field, value);
        return { kind: 'nothing' };
      }
      if (COMPAT_EMPTY_FIELDS.has(field)) return { kind: 'nothing' };
      if (field === 'owner') return textNode(null, `${field} ${value}`, quoted, dialect);
    }
    const textField = TEXT_FIELDS[field];
    if (textField !== undefined) {
      // whoosh-compat: `[` is a wildcard only beside `*` or `?` (SINGLE_CHAR_BRACKET_RANGE, _query.py after #14072).
      if (dialect === 'whoosh-compat' && !quoted && value.includes('[') && !/[*?]/.test(value)) {
        throw new QueryRefusedError(
          `${pyRepr(value)} looks like a bracket range for field ${pyRepr(CANONICAL_FIELD[textField])}, but '[' is not a wildcard character on its own. ` +
            "Combine it with a wildcard, e.g. a trailing '*', or double-quote the value to search it as literal text.",
        );
      }
      return textNode([textField], value, quoted, dialect);
    }
    const dateField = DATE_FIELDS[field];
    if (dateField !== undefined) {
      try {
        return dateNode(dateField, value, this.today, dialect !== 'tantivy');
      } catch (e) {
        // Whoosh's date plugin turns an unreadable date into a clause that matches nothing;
        // whoosh-compat reports it as a diagnostic, which Paperless answers as InvalidDateQuery.
        if (e instanceof QueryDateError && dialect === 'whoosh') return { kind: 'nothing' };
        throw e;
      }
    }
    if (this.strict && TANTIVY_NUMERIC_FIELDS.has(field) && !/^\d+$/.test(value) && !value.startsWith('['))
      throw new QuerySyntaxError(`${field} needs a number`);
    if (EMPTY_FIELDS.has(field)) return { kind: 'nothing' };
    if (this.strict) throw new QuerySyntaxError(`unknown field ${field}`);
    return textNode(null, `${field} ${value}`, quoted, dialect);
  }
}

/**
 * Tantivy (3.0, 3.1) is strict, ORs bare clauses and folds to ASCII; Whoosh (2.x) is lenient and
 * ANDs; whoosh-compat (3.2) parses as Whoosh does and folds as Tantivy's analyzers do.
 */
export function parseQuery(query: string, dialect: QueryDialect, today: string): ParseOutcome {
  const strict = dialect === 'tantivy';
  try {
    const node = new Parser(lex(query, strict), dialect, today).parse();
    // Tantivy's QueryParser: "Invalid query: Only excluding terms given" (AllButQueryForbidden).
    if (strict && node !== null && allNegative(node)) return { ok: false, error: 'syntax' };
    return { ok: true, node };
  } catch (e) {
    if (e instanceof QueryDateError) return { ok: false, error: 'date', field: e.field, value: e.value };
    if (e instanceof QuerySyntaxError) return { ok: false, error: 'syntax' };
    if (e instanceof QueryRefusedError) return { ok: false, error: 'refused', message: e.message };
    throw e;
  }
}

/** A query whose every clause excludes (tantivy `all_negative`). */
function allNegative(node: QueryNode): boolean {
  if (node.kind === 'bool') return node.must.length === 0 && node.should.every(allNegative) && node.should.length + node.mustNot.length > 0;
  if (node.kind === 'or') return node.children.every(allNegative);
  return false;
}
