/**
 * `__search_hit__.highlights`: Whoosh's HtmlFormatter + ContextFragmenter on 2.x,
 * Tantivy's SnippetGenerator on 3.x (reference §3.4). Fragment boundaries approximate
 * the engines'; the markup and escaping are theirs.
 */

import { fold } from './query-parser.js';

export interface HighlightTerm {
  readonly text: string;
  readonly prefix: boolean;
}

interface Token {
  readonly start: number;
  readonly end: number;
  readonly text: string;
  readonly hit: boolean;
}

function tokenize(content: string, terms: readonly HighlightTerm[], folding: boolean): Token[] {
  const tokens: Token[] = [];
  for (const m of content.matchAll(/[\p{L}\p{N}_]+/gu)) {
    const text = folding ? fold(m[0].toLowerCase()) : m[0].toLowerCase();
    const hit = terms.some((t) => (t.prefix ? text.startsWith(t.text) : text === t.text));
    tokens.push({ start: m.index, end: m.index + m[0].length, text, hit });
  }
  return tokens;
}

/** Whoosh escapes &, < and >. */
function escapeWhoosh(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Tantivy's `encode_minimal`: &, <, >, " and '. */
function escapeTantivy(text: string): string {
  return escapeWhoosh(text).replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

const WHOOSH_SURROUND = 50;
const WHOOSH_TOP_FRAGMENTS = 3;
const TANTIVY_MAX_CHARS = 150;

/** Up to 3 fragments of ±50 characters around hits, joined by " ... ", `<span class="match termN">`. */
export function whooshHighlights(content: string, terms: readonly HighlightTerm[]): string {
  const tokens = tokenize(content, terms, false);
  const hits = tokens.filter((t) => t.hit);
  if (hits.length === 0) return '';
  const fragments: Array<{ start: number; end: number; score: number }> = [];
  for (const hit of hits) {
    const first = tokens.find((t) => t.start >= hit.start - WHOOSH_SURROUND) ?? hit;
    const last = [...tokens].reverse().find((t) => t.end <= hit.end + WHOOSH_SURROUND) ?? hit;
    const previous = fragments[fragments.length - 1];
    if (previous !== undefined && first.start <= previous.end) {
      previous.end = Math.max(previous.end, last.end);
      previous.score++;
    } else fragments.push({ start: first.start, end: last.end, score: 1 });
  }
  const chosen = fragments
    .map((f, index) => ({ ...f, index }))
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .slice(0, WHOOSH_TOP_FRAGMENTS)
    .sort((a, b) => a.start - b.start);
  const termNumbers = new Map<string, number>();
  return chosen
    .map((fragment) => {
      let out = '';
      let at = fragment.start;
      for (const hit of hits) {
        if (hit.start < fragment.start || hit.end > fragment.end) continue;
        let n = termNumbers.get(hit.text);
        if (n === undefined) {
          n = termNumbers.size;
          termNumbers.set(hit.text, n);
        }
        out += escapeWhoosh(content.slice(at, hit.start));
        out += `<span class="match term${n}">${escapeWhoosh(content.slice(hit.start, hit.end))}</span>`;
        at = hit.end;
      }
      return out + escapeWhoosh(content.slice(at, fragment.end));
    })
    .join(' ... ');
}

/** The best fragment of at most 150 characters, hits in `<b>`, rest escaped; "" without a hit. */
export function tantivySnippet(content: string, terms: readonly HighlightTerm[]): string {
  const tokens = tokenize(content, terms, true);
  const fragments: Array<{ start: number; end: number; score: number; first: number; last: number }> = [];
  let current: { start: number; end: number; score: number; first: number; last: number } | undefined;
  tokens.forEach((token, index) => {
    if (current === undefined || token.end - current.start > TANTIVY_MAX_CHARS) {
      current = { start: token.start, end: token.end, score: 0, first: index, last: index };
      fragments.push(current);
    }
    current.end = token.end;
    current.last = index;
    if (token.hit) current.score++;
  });
  let best: (typeof fragments)[number] | undefined;
  for (const f of fragments) if (f.score > 0 && (best === undefined || f.score > best.score)) best = f;
  if (best === undefined) return '';
  let out = '';
  let at = best.start;
  for (const token of tokens.slice(best.first, best.last + 1)) {
    if (!token.hit) continue;
    out += `${escapeTantivy(content.slice(at, token.start))}<b>${escapeTantivy(content.slice(token.start, token.end))}</b>`;
    at = token.end;
  }
  return out + escapeTantivy(content.slice(at, best.end));
}
