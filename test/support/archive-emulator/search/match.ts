import type { Dataset } from '../dataset.js';
import type { EmulatorDocument } from '../types.js';
import { utcDay } from '../values.js';
import { analyze, type QueryDialect, type QueryNode, type TextField } from './query-parser.js';

/** A document's searchable text, analysed once per request. */
export interface IndexedDocument {
  readonly doc: EmulatorDocument;
  readonly fields: Readonly<Record<TextField, readonly string[]>>;
}

const DEFAULT_FIELDS: readonly TextField[] = ['title', 'content', 'correspondent', 'type'];
/** Tantivy boosts title ×2 (`_FIELD_BOOSTS`); Whoosh's MultifieldParser weighs every field alike. */
const TANTIVY_BOOST: Record<TextField, number> = { title: 2, content: 1, correspondent: 1, type: 1 };
const WHOOSH_BOOST: Record<TextField, number> = { title: 1, content: 1, correspondent: 1, type: 1 };

interface CachedAnalysis {
  readonly title: string;
  readonly content: string;
  readonly correspondent: string;
  readonly type: string;
  readonly fields: IndexedDocument['fields'];
}

/**
 * Analysis is cached per document object and engine, and reused only while the texts it
 * came from are unchanged, so tests may still edit documents in place. Without it a
 * benchmark archive of 10 000 documents would be re-analysed on every request.
 */
const analysisCache = new WeakMap<EmulatorDocument, Map<boolean, CachedAnalysis>>();

export function indexDocument(doc: EmulatorDocument, data: Dataset, folding: boolean): IndexedDocument {
  const correspondent = data.correspondentName(doc.correspondent) ?? '';
  const type = data.documentTypeName(doc.documentType) ?? '';
  let byEngine = analysisCache.get(doc);
  const cached = byEngine?.get(folding);
  if (cached !== undefined && cached.title === doc.title && cached.content === doc.content && cached.correspondent === correspondent && cached.type === type) {
    return { doc, fields: cached.fields };
  }
  const fields = {
    title: analyze(doc.title, folding),
    content: analyze(doc.content, folding),
    correspondent: analyze(correspondent, folding),
    type: analyze(type, folding),
  };
  if (byEngine === undefined) {
    byEngine = new Map();
    analysisCache.set(doc, byEngine);
  }
  byEngine.set(folding, { title: doc.title, content: doc.content, correspondent, type, fields });
  return { doc, fields };
}

function termMatches(token: string, text: string, prefix: boolean): boolean {
  return prefix ? token.startsWith(text) : token === text;
}

function countTerm(tokens: readonly string[], text: string, prefix: boolean): number {
  let n = 0;
  for (const token of tokens) if (termMatches(token, text, prefix)) n++;
  return n;
}

function countPhrase(tokens: readonly string[], words: readonly string[]): number {
  let n = 0;
  for (let i = 0; i + words.length <= tokens.length; i++) {
    if (words.every((w, k) => tokens[i + k] === w)) n++;
  }
  return n;
}

type Leaf = Extract<QueryNode, { kind: 'term' } | { kind: 'phrase' }>;

function leafFrequencies(leaf: Leaf, indexed: IndexedDocument): Array<[TextField, number]> {
  return (leaf.fields ?? DEFAULT_FIELDS).map((field) => {
    const tokens = indexed.fields[field];
    return [field, leaf.kind === 'term' ? countTerm(tokens, leaf.text, leaf.prefix) : countPhrase(tokens, leaf.words)];
  });
}

/** Evaluates a parsed query over a set of documents with a BM25-like score. */
export class Matcher {
  /** Keyed by the parsed node: the same leaf object is scored against every document. */
  private readonly documentFrequency = new Map<Leaf, number>();

  private readonly boost: Record<TextField, number>;
  /** Whoosh and whoosh-compat answer a query of only negations with every other document; Tantivy's parser refuses it. */
  private readonly negativeOnlyMatchesAll: boolean;

  constructor(
    private readonly corpus: readonly IndexedDocument[],
    dialect: QueryDialect,
  ) {
    this.negativeOnlyMatchesAll = dialect !== 'tantivy';
    // whoosh-compat gets Paperless's field boosts (`field_boosts=_FIELD_BOOSTS`), as Tantivy's parser did.
    this.boost = dialect === 'whoosh' ? WHOOSH_BOOST : TANTIVY_BOOST;
  }

  private idf(leaf: Leaf): number {
    let df = this.documentFrequency.get(leaf);
    if (df === undefined) {
      df = this.corpus.filter((d) => leafFrequencies(leaf, d).some(([, n]) => n > 0)).length;
      this.documentFrequency.set(leaf, df);
    }
    const n = this.corpus.length;
    return Math.log(1 + (n - df + 0.5) / (df + 0.5));
  }

  /** Score of a matching document, or null when it does not match. */
  score(node: QueryNode, indexed: IndexedDocument): number | null {
    switch (node.kind) {
      case 'term':
      case 'phrase': {
        const freqs = leafFrequencies(node, indexed);
        if (!freqs.some(([, n]) => n > 0)) return null;
        const idf = this.idf(node);
        return freqs.reduce((sum, [field, tf]) => sum + (this.boost[field] * idf * tf * 2.2) / (tf + 1.2), 0);
      }
      case 'date': {
        const doc = indexed.doc;
        const day = node.field === 'created' ? doc.created : utcDay(node.field === 'modified' ? (doc.modified ?? doc.added) : doc.added);
        return day >= node.from && day < node.to ? 1 : null;
      }
      case 'nothing':
        return null;
      case 'bool': {
        for (const child of node.mustNot) if (this.score(child, indexed) !== null) return null;
        let total = 0;
        for (const child of node.must) {
          const s = this.score(child, indexed);
          if (s === null) return null;
          total += s;
        }
        let anyShould = false;
        for (const child of node.should) {
          const s = this.score(child, indexed);
          if (s !== null) {
            anyShould = true;
            total += s;
          }
        }
        if (node.must.length === 0 && node.should.length === 0) return this.negativeOnlyMatchesAll ? 0 : null;
        if (node.must.length === 0 && !anyShould) return null;
        return total;
      }
      case 'or': {
        let total: number | null = null;
        for (const child of node.children) {
          const s = this.score(child, indexed);
          if (s !== null) total = (total ?? 0) + s;
        }
        return total;
      }
    }
  }
}

/** Content terms to highlight: positive term and phrase words aimed at content or the default fields. */
export function highlightTerms(node: QueryNode): Array<{ text: string; prefix: boolean }> {
  switch (node.kind) {
    case 'term':
      return node.fields === null || node.fields.includes('content') ? [{ text: node.text, prefix: node.prefix }] : [];
    case 'phrase':
      return node.fields === null || node.fields.includes('content') ? node.words.map((w) => ({ text: w, prefix: false })) : [];
    case 'bool':
      return [...node.must, ...node.should].flatMap(highlightTerms);
    case 'or':
      return node.children.flatMap(highlightTerms);
    default:
      return [];
  }
}

/** Spelling suggestion over the index vocabulary (Whoosh `correct_query`), used on 2.x only. */
export function correctQuery(query: string, node: QueryNode, corpus: readonly IndexedDocument[]): string | null {
  const vocabulary = new Map<string, number>();
  for (const d of corpus) for (const field of DEFAULT_FIELDS) for (const t of d.fields[field]) vocabulary.set(t, (vocabulary.get(t) ?? 0) + 1);
  const unknown = highlightTerms(node).filter((t) => !t.prefix && !vocabulary.has(t.text));
  if (unknown.length === 0) return null;
  let corrected = query;
  let changed = false;
  for (const term of unknown) {
    let best: string | null = null;
    let bestDistance = 3;
    let bestFrequency = 0;
    for (const [word, frequency] of vocabulary) {
      const d = editDistance(term.text, word, bestDistance);
      if (d < bestDistance || (d === bestDistance && best !== null && frequency > bestFrequency)) {
        best = word;
        bestDistance = d;
        bestFrequency = frequency;
      }
    }
    if (best !== null && bestDistance <= 2) {
      corrected = corrected.replace(new RegExp(`(?<![\\p{L}\\p{N}_])${escapeRegExp(term.text)}(?![\\p{L}\\p{N}_])`, 'iu'), best);
      changed = true;
    }
  }
  return changed ? corrected : null;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) >= limit) return limit;
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current.push(Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost));
    }
    previous = current;
  }
  return previous[b.length] ?? limit;
}
