import type { Dataset } from '../dataset.js';
import { DOCUMENT_ORDERING_FIELDS, parseOrdering, sortDocuments } from '../ordering.js';
import type { VersionProfile } from '../profiles.js';
import type { JsonObject } from '../serialize.js';
import type { EmulatorDocument } from '../types.js';
import { tantivySnippet, whooshHighlights, type HighlightTerm } from './highlight.js';
import { correctQuery, highlightTerms, indexDocument, Matcher, type IndexedDocument } from './match.js';
import { analyze, fold, parseQuery, pyRepr, type QueryNode } from './query-parser.js';

/** An answer that ends the request early (400 / 403), already in Paperless's form. */
export interface SearchRefusal {
  readonly status: number;
  readonly contentType: string;
  readonly body: string;
}

export interface Hit {
  readonly doc: EmulatorDocument;
  readonly score: number;
}

export type SearchOutcome =
  | {
      readonly ok: true;
      /** Every hit in answer order (the page is cut from this). */
      readonly hits: readonly Hit[];
      readonly correctedQuery: string | null;
      /** `__search_hit__` of the hit at 0-based position `index` of `hits`. */
      hitJson(index: number): JsonObject;
      /** The answer when a page with hits is asked for: `text` highlighting (3.0, 3.1) fails to parse the term. */
      readonly highlightRefusal: SearchRefusal | null;
    }
  | { readonly ok: false; readonly refusal: SearchRefusal };

const SEARCH_PARAMS_3X = ['text', 'title_search', 'query', 'more_like_id'] as const;
/** Orderings Whoosh sorts by itself, which leaves `score` null (index.py @2.20.15). */
const WHOOSH_SORT_FIELDS = new Set([
  'created',
  'modified',
  'added',
  'title',
  'correspondent__name',
  'document_type__name',
  'archive_serial_number',
  'num_notes',
  'owner',
  'page_count',
]);

const LISTING_ERROR: SearchRefusal = {
  status: 400,
  contentType: 'text/html; charset=utf-8',
  body: 'Error listing search results, check logs for more detail.',
};

/**
 * 3.2: an exception that is not a SearchQueryError leaves the view (views/documents.py catches
 * no other) and Django answers 500. The page is Django's default; Paperless's own was not read.
 */
const SERVER_ERROR: SearchRefusal = {
  status: 500,
  contentType: 'text/html; charset=utf-8',
  body: '<!doctype html>\n<html lang="en">\n<head>\n  <title>Server Error (500)</title>\n</head>\n<body>\n  <h1>Server Error (500)</h1><p></p>\n</body>\n</html>\n',
};

/** tantivy 0.26 `RegexPhraseQuery::new`: `max_expansions: 1 << 14`. */
export const DEFAULT_PHRASE_MAX_EXPANSIONS = 16_384;

/** 3.0.x's regex phrase ceiling and the index whose terms it counts (every document, not the filtered ones). */
export interface PhraseLimit {
  readonly max: number;
  readonly index: readonly EmulatorDocument[];
}

function json(status: number, body: unknown): SearchRefusal {
  return { status, contentType: 'application/json', body: JSON.stringify(body) };
}

/**
 * 3.x answers two search modes at once with 400 before anything else of the request is read: the
 * view's `list` checks them before `filter_queryset` applies the filters and the ordering
 * (`views.py` `UnifiedSearchViewSet.list` @v3.0.5, lines 2363–2516; `views/documents.py`
 * `parse_search_params` @2104fd50 for 3.2).
 */
export function modesConflict(params: ReadonlyMap<string, string>, profile: VersionProfile): SearchRefusal | null {
  if (profile.engine !== 'tantivy' || SEARCH_PARAMS_3X.filter((p) => params.has(p)).length <= 1) return null;
  return json(400, { detail: 'Specify only one of text, title_search, query, or more_like_id.' });
}

/** Whether the request is in search mode at all (2.x: `query` or `more_like_id`; 3.x: any of four). */
export function isSearchRequest(params: ReadonlyMap<string, string>, profile: VersionProfile): boolean {
  if (profile.engine === 'whoosh') return params.has('query') || params.has('more_like_id');
  return SEARCH_PARAMS_3X.some((p) => params.has(p));
}

interface Matched {
  readonly hits: Hit[];
  /** `text` (3.0, 3.1): the highlight query could not be parsed (fails only for a page with hits). */
  readonly highlightFails?: boolean;
  readonly terms: readonly HighlightTerm[];
  readonly correctedQuery: string | null;
  /** Tantivy scores more_like_id results 0.0. */
  readonly zeroScores: boolean;
}

function relevanceOrder(a: Hit, b: Hit): number {
  return b.score - a.score || a.doc.id - b.doc.id;
}

function moreLikeThis(target: EmulatorDocument, corpus: readonly IndexedDocument[], data: Dataset): Matched {
  const counts = new Map<string, number>();
  for (const t of indexDocument(target, data, true).fields.content) if (t.length >= 4) counts.set(t, (counts.get(t) ?? 0) + 1);
  const keyTerms = [...counts.entries()]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, 10)
    .map(([t]) => t);
  const hits: Hit[] = [];
  for (const d of corpus) {
    if (d.doc.id === target.id) continue;
    const shared = keyTerms.filter((t) => d.fields.content.includes(t) || d.fields.title.includes(t)).length;
    if (shared > 0) hits.push({ doc: d.doc, score: shared });
  }
  return { hits, terms: keyTerms.map((text) => ({ text, prefix: false })), correctedQuery: null, zeroScores: true };
}

/** The simple fields' analyzer (`_tokenizer.py` @3.0.5): `\S+` chunks, lower-cased, folded to ASCII. */
function simpleChunks(text: string): string[] {
  return fold(text.toLowerCase())
    .split(/\s+/u)
    .filter((chunk) => chunk !== '');
}

const simpleCache = new WeakMap<
  EmulatorDocument,
  { readonly title: string; readonly content: string; readonly chunks: { title: string[]; content: string[] } }
>();

function simpleFields(doc: EmulatorDocument): { title: string[]; content: string[] } {
  const cached = simpleCache.get(doc);
  if (cached !== undefined && cached.title === doc.title && cached.content === doc.content) return cached.chunks;
  const chunks = { title: simpleChunks(doc.title), content: simpleChunks(doc.content) };
  simpleCache.set(doc, { title: doc.title, content: doc.content, chunks });
  return chunks;
}

/** Python's `str.isdecimal()`: every character a decimal digit. */
function isDecimal(token: string): boolean {
  return /^\p{Nd}+$/u.test(token);
}

/** ASCII punctuation and space, the class `_build_simple_token_query` lets a bounded token follow. */
const BOUNDARY = /[\x20-\x2f\x3a-\x40\x5b-\x60\x7b-\x7e]/;

/**
 * One token of 3.1's `text` in one chunk of a document (`_build_simple_token_query`, #13504): inside
 * the chunk (`.*tok.*`), except that a number among several tokens must start the chunk or follow
 * punctuation, so `6` does not match inside `16`.
 */
function tokenInChunk(token: string, chunk: string, infix: boolean): boolean {
  if (infix) return chunk.includes(token);
  for (let at = chunk.indexOf(token); at !== -1; at = chunk.indexOf(token, at + 1)) {
    if (at === 0 || BOUNDARY.test(chunk[at - 1] ?? '')) return true;
  }
  return false;
}

/**
 * `text` / `title_search` over the simple fields: chunks of non-space characters, lower-cased and
 * folded to ASCII, in the title (boost 2) or the content. Regex queries score a constant per field.
 * - `phrase` (3.0.5 `_query.py`): the first token matches inside a chunk (`.*tok.*`), later tokens
 *   must start the following chunks (a regex phrase).
 * - `all-words` (3.1 on, #13504): every token must match some chunk of the title or the content,
 *   in any order and either field.
 * Highlighting (`text` only): `parsed` (3.0, 3.1) parses the tokens, `+`/`-` turned into spaces,
 * with the strict query parser, so punctuation it rejects fails the request whenever the page has
 * hits; `quoted` (3.2) quotes each token as a phrase, which cannot fail.
 */
function simpleText(value: string, titleOnly: boolean, corpus: readonly IndexedDocument[], today: string, profile: VersionProfile): Matched {
  const tokens = simpleChunks(value);
  const hits: Hit[] = [];
  const phraseIn = (chunks: readonly string[]): boolean => {
    if (tokens.length === 0) return false;
    for (let i = 0; i + tokens.length <= chunks.length; i++) {
      if (tokens.every((t, k) => (k === 0 ? (chunks[i] ?? '').includes(t) : (chunks[i + k] ?? '').startsWith(t)))) return true;
    }
    return false;
  };
  const tokenIn = (token: string, chunks: readonly string[]): boolean => {
    const infix = tokens.length === 1 || !isDecimal(token);
    return chunks.some((chunk) => tokenInChunk(token, chunk, infix));
  };
  for (const d of corpus) {
    const fields = simpleFields(d.doc);
    const content = titleOnly ? [] : fields.content;
    let score = 0;
    if (profile.simpleText === 'phrase') {
      score = (phraseIn(fields.title) ? 2 : 0) + (phraseIn(content) ? 1 : 0);
    } else if (tokens.length > 0 && tokens.every((t) => tokenIn(t, fields.title) || tokenIn(t, content))) {
      for (const t of tokens) score += (tokenIn(t, fields.title) ? 2 : 0) + (tokenIn(t, content) ? 1 : 0);
    }
    if (score > 0) hits.push({ doc: d.doc, score });
  }
  if (titleOnly) return { hits, terms: [], correctedQuery: null, zeroScores: false };
  const highlightTokens = simpleChunks(value.replace(/[-+]/g, ' '));
  if (profile.textHighlight === 'quoted') {
    // Each token a phrase of the words the content analyzer makes of it: words of a whole token only.
    const terms = highlightTokens.flatMap((token) => analyze(token, true)).map((text) => ({ text, prefix: false }));
    return { hits, terms, correctedQuery: null, zeroScores: false };
  }
  // The highlight query is a plain term query on content: substring-only matches give "".
  const highlightQuery = highlightTokens.join(' ');
  const parsed = highlightQuery === '' ? null : parseQuery(highlightQuery, 'tantivy', today);
  if (parsed !== null && !parsed.ok) return { hits, terms: [], correctedQuery: null, zeroScores: false, highlightFails: true };
  const terms = parsed?.node === null || parsed === null ? [] : highlightTerms(parsed.node);
  return { hits, terms, correctedQuery: null, zeroScores: false };
}

/**
 * Whether 3.0.5's regex phrase query (`_build_simple_field_query`, one per simple field, for two
 * tokens or more) refuses to run: tantivy's `RegexPhraseWeight` adds up, word after word, the index
 * terms of the field each word's pattern matches (the first `.*tok.*`, later ones `tok.*`), stops
 * without error at a word matching none, and fails with "Phrase query exceeded max expansions" once
 * the sum passes the ceiling. The view turns that exception into its 400 "Error listing…".
 */
function exceedsExpansions(tokens: readonly string[], titleOnly: boolean, limit: PhraseLimit): boolean {
  if (tokens.length < 2) return false;
  const fields: Array<'title' | 'content'> = titleOnly ? ['title'] : ['title', 'content'];
  return fields.some((field) => {
    const terms = new Set(limit.index.flatMap((doc) => simpleFields(doc)[field]));
    let expansions = 0;
    for (const [k, token] of tokens.entries()) {
      let matched = 0;
      for (const term of terms) if (k === 0 ? term.includes(token) : term.startsWith(token)) matched += 1;
      if (matched === 0) return false;
      expansions += matched;
      if (expansions > limit.max) return true;
    }
    return false;
  });
}

/** `{"query": [message]}`: a SearchQueryError as the view answers it (DRF ValidationError, 400). */
function queryError(message: string): SearchRefusal {
  return json(400, { query: [message] });
}

/**
 * 3.2's `_get_tantivy_query_and_mode` (views/base.py, #14072/#14073): the value of the mode in
 * use (`text`, else `title_search`, else `query`) longer than the cap in characters is a
 * QueryTooLongError, before anything is parsed; exactly the cap is accepted.
 */
function tooLong(params: ReadonlyMap<string, string>, profile: VersionProfile): SearchRefusal | null {
  if (profile.maxQueryLength === null) return null;
  const raw = params.get('text') ?? params.get('title_search') ?? params.get('query');
  if (raw === undefined) return null;
  const length = [...raw].length;
  if (length <= profile.maxQueryLength) return null;
  return queryError(`The search query is too long (${length} characters). The maximum allowed length is ${profile.maxQueryLength} characters.`);
}

function match(
  params: ReadonlyMap<string, string>,
  profile: VersionProfile,
  corpus: readonly IndexedDocument[],
  data: Dataset,
  today: string,
  phraseLimit: PhraseLimit | undefined,
): Matched | SearchRefusal {
  const tantivy = profile.engine === 'tantivy';
  const conflict = modesConflict(params, profile);
  if (conflict !== null) return conflict;
  const overlong = tooLong(params, profile);
  if (overlong !== null) return overlong;
  const query = params.get('query');
  if (query === undefined) {
    const text = tantivy ? params.get('text') : undefined;
    const title = tantivy ? params.get('title_search') : undefined;
    const simple = text ?? title;
    if (simple !== undefined) {
      const titleOnly = text === undefined;
      if (profile.simpleText === 'phrase' && phraseLimit !== undefined && exceedsExpansions(simpleChunks(simple), titleOnly, phraseLimit)) return LISTING_ERROR;
      return simpleText(simple, titleOnly, corpus, today, profile);
    }
    const raw = params.get('more_like_id') ?? '';
    const target = /^\d+$/.test(raw) ? data.documents.find((d) => d.id === Number(raw)) : undefined;
    if (target === undefined) {
      const hidden = /^\d+$/.test(raw) && data.hiddenIds.has(Number(raw));
      return { status: 403, contentType: 'text/html; charset=utf-8', body: hidden ? 'Insufficient permissions.' : 'Invalid more_like_id' };
    }
    return moreLikeThis(target, corpus, data);
  }
  const parsed = parseQuery(query, profile.queryParser, today);
  if (!parsed.ok) {
    // InvalidDateQuery (3.0.5 `_translate.py`, 3.2 `_errors.py`): `{value!r}` and `{field!r}`.
    if (parsed.error === 'date') return queryError(`Invalid date value ${pyRepr(parsed.value)} for field ${pyRepr(parsed.field)}.`);
    if (parsed.error === 'refused') return queryError(parsed.message);
    return LISTING_ERROR;
  }
  const node = parsed.node;
  if (node === null) return { hits: [], terms: [], correctedQuery: null, zeroScores: false };
  const matcher = new Matcher(corpus, profile.queryParser);
  const hits: Hit[] = [];
  for (const d of corpus) {
    const score = matcher.score(node, d);
    if (score !== null) hits.push({ doc: d.doc, score });
  }
  return { hits, terms: highlightTerms(node), correctedQuery: tantivy ? null : usefulCorrection(query, node, corpus, matcher, today), zeroScores: false };
}

/** 2.x offers a correction only when the corrected query finds something (index.py @2.20.15). */
function usefulCorrection(query: string, node: QueryNode, corpus: readonly IndexedDocument[], matcher: Matcher, today: string): string | null {
  const corrected = correctQuery(query, node, corpus);
  if (corrected === null) return null;
  const parsed = parseQuery(corrected, 'whoosh', today);
  if (!parsed.ok || parsed.node === null) return null;
  const correctedNode = parsed.node;
  return corpus.some((d) => matcher.score(correctedNode, d) !== null) ? corrected : null;
}

/**
 * Full-text search over the documents the ORM filters kept. Relevance order is score
 * descending, then id ascending.
 */
export function runSearch(
  candidates: readonly EmulatorDocument[],
  data: Dataset,
  params: ReadonlyMap<string, string>,
  profile: VersionProfile,
  today: string,
  broken = false,
  phraseLimit?: PhraseLimit,
): SearchOutcome {
  const corpus = candidates.map((d) => indexDocument(d, data, profile.engine === 'tantivy'));
  const matched = match(params, profile, corpus, data, today, phraseLimit);
  // The mode check, the length cap and the query's own errors (answered as JSON) come before the
  // search itself; any other exception inside it is a 400 up to 3.1 and a 500 on 3.2.
  if (broken && !('status' in matched && matched.status === 400 && matched.contentType.startsWith('application/json'))) {
    return { ok: false, refusal: profile.searchFailureStatus === 500 ? SERVER_ERROR : LISTING_ERROR };
  }
  if ('status' in matched) return { ok: false, refusal: matched };
  const tantivy = profile.engine === 'tantivy';
  const ordering = params.get('ordering');
  let hits = [...matched.hits].sort(relevanceOrder);
  let scoresShown = true;
  if (!tantivy && ordering !== undefined && WHOOSH_SORT_FIELDS.has(ordering.replace(/^-/, ''))) {
    const byId = new Map(hits.map((h) => [h.doc.id, h]));
    hits = sortDocuments(
      hits.map((h) => h.doc),
      parseOrdering(ordering, DOCUMENT_ORDERING_FIELDS),
      data,
    ).flatMap((d) => byId.get(d.id) ?? []);
    scoresShown = false;
  } else if (tantivy && ordering !== undefined) {
    const trimmed = ordering.trim();
    // `score` is relevance order reversed (views.py reverses Tantivy's best-first list).
    if (trimmed === 'score') hits = [...hits].reverse();
    else if (trimmed !== '-score') {
      const terms = parseOrdering(ordering, DOCUMENT_ORDERING_FIELDS);
      if (terms.length > 0) {
        const byId = new Map(hits.map((h) => [h.doc.id, h]));
        hits = sortDocuments(
          hits.map((h) => h.doc),
          terms,
          data,
        ).flatMap((d) => byId.get(d.id) ?? []);
      }
    }
  }
  const best = matched.hits.reduce((max, h) => Math.max(max, h.score), 0);
  const finalHits = hits;
  return {
    ok: true,
    hits: finalHits,
    correctedQuery: matched.correctedQuery,
    highlightRefusal: matched.highlightFails === true ? LISTING_ERROR : null,
    hitJson(index: number): JsonObject {
      const hit = finalHits[index];
      if (hit === undefined) return {};
      if (tantivy) {
        return {
          score: matched.zeroScores ? 0 : Math.round(hit.score * 10000) / 10000,
          highlights: matched.zeroScores ? '' : tantivySnippet(hit.doc.content, matched.terms),
          note_highlights: null,
          rank: index + 1,
        };
      }
      return {
        score: scoresShown && best > 0 ? hit.score / best : null,
        highlights: whooshHighlights(hit.doc.content, matched.terms),
        note_highlights: '',
        rank: index,
      };
    },
  };
}
