import type { Dataset } from '../dataset.js';
import { DOCUMENT_ORDERING_FIELDS, parseOrdering, sortDocuments } from '../ordering.js';
import type { VersionProfile } from '../profiles.js';
import type { JsonObject } from '../serialize.js';
import type { EmulatorDocument } from '../types.js';
import { tantivySnippet, whooshHighlights, type HighlightTerm } from './highlight.js';
import { correctQuery, highlightTerms, indexDocument, Matcher, type IndexedDocument } from './match.js';
import { fold, parseQuery, type QueryNode } from './query-parser.js';

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
      /** The answer when a page with hits is asked for: 3.0.5's `text` highlighting fails to parse the term. */
      readonly highlightRefusal: SearchRefusal | null;
    }
  | { readonly ok: false; readonly refusal: SearchRefusal };

const SEARCH_PARAMS_3X = ['text', 'title_search', 'query', 'more_like_id'] as const;
/** Orderings Whoosh sorts by itself, which leaves `score` null (index.py @2.20.15). */
const WHOOSH_SORT_FIELDS = new Set(['created', 'modified', 'added', 'title', 'correspondent__name', 'document_type__name', 'archive_serial_number', 'num_notes', 'owner', 'page_count']);

const LISTING_ERROR: SearchRefusal = {
  status: 400,
  contentType: 'text/html; charset=utf-8',
  body: 'Error listing search results, check logs for more detail.',
};

function json(status: number, body: unknown): SearchRefusal {
  return { status, contentType: 'application/json', body: JSON.stringify(body) };
}

/** Whether the request is in search mode at all (2.x: `query` or `more_like_id`; 3.x: any of four). */
export function isSearchRequest(params: ReadonlyMap<string, string>, profile: VersionProfile): boolean {
  if (profile.engine === 'whoosh') return params.has('query') || params.has('more_like_id');
  return SEARCH_PARAMS_3X.some((p) => params.has(p));
}

interface Matched {
  readonly hits: Hit[];
  /** 3.0.5 `text`: the highlight query could not be parsed (fails only for a page with hits). */
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
  const keyTerms = [...counts.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, 10).map(([t]) => t);
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
  return fold(text.toLowerCase()).split(/\s+/u).filter((chunk) => chunk !== '');
}

const simpleCache = new WeakMap<EmulatorDocument, { readonly title: string; readonly content: string; readonly chunks: { title: string[]; content: string[] } }>();

function simpleFields(doc: EmulatorDocument): { title: string[]; content: string[] } {
  const cached = simpleCache.get(doc);
  if (cached !== undefined && cached.title === doc.title && cached.content === doc.content) return cached.chunks;
  const chunks = { title: simpleChunks(doc.title), content: simpleChunks(doc.content) };
  simpleCache.set(doc, { title: doc.title, content: doc.content, chunks });
  return chunks;
}

/**
 * 3.0.5 `text` / `title_search` (`_query.py`): over chunks of non-space characters, the first
 * token matches inside a chunk (`.*tok.*`), later tokens must start the following chunks (a regex
 * phrase), in the title (boost 2) or the content. Regex queries score a constant per field.
 * Highlighting (`text` only) parses the tokens, `+`/`-` turned into spaces, with the strict query
 * parser: punctuation it rejects fails the request whenever the page has hits.
 */
function simpleText(value: string, titleOnly: boolean, corpus: readonly IndexedDocument[], today: string): Matched {
  const tokens = simpleChunks(value);
  const hits: Hit[] = [];
  const phraseIn = (chunks: readonly string[]): boolean => {
    if (tokens.length === 0) return false;
    for (let i = 0; i + tokens.length <= chunks.length; i++) {
      if (tokens.every((t, k) => (k === 0 ? (chunks[i] ?? '').includes(t) : (chunks[i + k] ?? '').startsWith(t)))) return true;
    }
    return false;
  };
  for (const d of corpus) {
    const fields = simpleFields(d.doc);
    const score = (phraseIn(fields.title) ? 2 : 0) + (!titleOnly && phraseIn(fields.content) ? 1 : 0);
    if (score > 0) hits.push({ doc: d.doc, score });
  }
  if (titleOnly) return { hits, terms: [], correctedQuery: null, zeroScores: false };
  // The highlight query is a plain term query on content: substring-only matches give "".
  const highlightQuery = simpleChunks(value.replace(/[-+]/g, ' ')).join(' ');
  const parsed = highlightQuery === '' ? null : parseQuery(highlightQuery, 'tantivy', today);
  if (parsed !== null && !parsed.ok) return { hits, terms: [], correctedQuery: null, zeroScores: false, highlightFails: true };
  const terms = parsed?.node === null || parsed === null ? [] : highlightTerms(parsed.node);
  return { hits, terms, correctedQuery: null, zeroScores: false };
}

function match(params: ReadonlyMap<string, string>, profile: VersionProfile, corpus: readonly IndexedDocument[], data: Dataset, today: string): Matched | SearchRefusal {
  const tantivy = profile.engine === 'tantivy';
  if (tantivy && SEARCH_PARAMS_3X.filter((p) => params.has(p)).length > 1) {
    return json(400, { detail: 'Specify only one of text, title_search, query, or more_like_id.' });
  }
  const query = params.get('query');
  if (query === undefined) {
    const text = tantivy ? params.get('text') : undefined;
    if (text !== undefined) return simpleText(text, false, corpus, today);
    const title = tantivy ? params.get('title_search') : undefined;
    if (title !== undefined) return simpleText(title, true, corpus, today);
    const raw = params.get('more_like_id') ?? '';
    const target = /^\d+$/.test(raw) ? data.documents.find((d) => d.id === Number(raw)) : undefined;
    if (target === undefined) {
      const hidden = /^\d+$/.test(raw) && data.hiddenIds.has(Number(raw));
      return { status: 403, contentType: 'text/html; charset=utf-8', body: hidden ? 'Insufficient permissions.' : 'Invalid more_like_id' };
    }
    return moreLikeThis(target, corpus, data);
  }
  const parsed = parseQuery(query, profile.engine, today);
  if (!parsed.ok) {
    if (parsed.error === 'date') return json(400, { query: [`Invalid date value '${parsed.value}' for field '${parsed.field}'.`] });
    return LISTING_ERROR;
  }
  const node = parsed.node;
  if (node === null) return { hits: [], terms: [], correctedQuery: null, zeroScores: false };
  const matcher = new Matcher(corpus, profile.engine);
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
export function runSearch(candidates: readonly EmulatorDocument[], data: Dataset, params: ReadonlyMap<string, string>, profile: VersionProfile, today: string, broken = false): SearchOutcome {
  const corpus = candidates.map((d) => indexDocument(d, data, profile.engine === 'tantivy'));
  const matched = match(params, profile, corpus, data, today);
  // The two-modes check comes before the search itself; any exception inside it is a 400.
  if (broken && !('status' in matched && matched.status === 400 && matched.contentType.startsWith('application/json') && matched.body.includes('Specify only one'))) {
    return { ok: false, refusal: LISTING_ERROR };
  }
  if ('status' in matched) return { ok: false, refusal: matched };
  const tantivy = profile.engine === 'tantivy';
  const ordering = params.get('ordering');
  let hits = [...matched.hits].sort(relevanceOrder);
  let scoresShown = true;
  if (!tantivy && ordering !== undefined && WHOOSH_SORT_FIELDS.has(ordering.replace(/^-/, ''))) {
    const byId = new Map(hits.map((h) => [h.doc.id, h]));
    hits = sortDocuments(hits.map((h) => h.doc), parseOrdering(ordering, DOCUMENT_ORDERING_FIELDS), data).flatMap((d) => byId.get(d.id) ?? []);
    scoresShown = false;
  } else if (tantivy && ordering !== undefined) {
    const trimmed = ordering.trim();
    // `score` is relevance order reversed (views.py reverses Tantivy's best-first list).
    if (trimmed === 'score') hits = [...hits].reverse();
    else if (trimmed !== '-score') {
      const terms = parseOrdering(ordering, DOCUMENT_ORDERING_FIELDS);
      if (terms.length > 0) {
        const byId = new Map(hits.map((h) => [h.doc.id, h]));
        hits = sortDocuments(hits.map((h) => h.doc), terms, data).flatMap((d) => byId.get(d.id) ?? []);
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
