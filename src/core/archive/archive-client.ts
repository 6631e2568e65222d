import { DusError } from '../errors.js';
import { LOG_MESSAGES } from '../log.js';
import { monotonicMs } from '../monotonic.js';
import { isLocalAddress } from '../net/address-guard.js';
import { lookupAll } from '../net/resolve.js';
import { NO_REFUSAL_MESSAGE, notPaperless, searchFault, statusFailure, unsendableToken } from './failures.js';
import { refusalOf } from './refusal.js';
import { cannotBeSyntaxError, hasMinusExclusion, isExclusionsOnly, parsesStrictly, readsMinusAsWord, simpleTextOf, termReaderOf } from './search-terms.js';
import {
  CONNECTION_TEST_QUERY,
  PAGE_SIZE,
  WIDGET_QUERY,
  endpoint,
  nameChunks,
  namesQuery,
  parseBase,
  searchQuery,
  wordIdsQuery,
  type SearchMode,
} from './requests.js';
import { validateDetail, validateIdPage, validateNamePage, validateNewestPage, validateSearchPage } from './schemas.js';
import { createConnectionPool } from './connection-pool.js';
import { getWithRedirects, type RawAnswer, type TransportConfig } from './transport.js';
import { scrubbedFailure, tokenScrubber } from './token-scrub.js';
import type {
  ArchiveClient,
  ArchiveClientOptions,
  ArchiveConnection,
  ArchiveVersions,
  ConnectionTestResult,
  NameKind,
  NewestPage,
  SearchPage,
  SearchRejection,
  SearchRequest,
} from './types.js';

/** The spec's limits; tests shorten them through `ArchiveClientOptions.timeouts`. */
export const DEFAULT_TIMEOUTS = {
  connectMs: 3_000,
  answerMs: 10_000,
  widgetAnswerMs: 5_000,
  retryWindowMs: 3_500,
} as const;

/** Largest answer read: far above a page of 25 plus the `all` id list of a very large archive. */
export const DEFAULT_MAX_BODY_BYTES = 16 * 1024 * 1024;

/** `words`: one word of a search made word by word, whose `all` ids are kept as the connection test's are. */
type Kind = 'search' | 'words' | 'test' | 'widget' | 'names';

/** Visible ASCII only: anything else cannot go into a header as typed (Paperless keys are hex). */
const SENDABLE_TOKEN = /^[\x21-\x7e]+$/;

interface Call {
  readonly kind: Kind;
  readonly url: URL;
  readonly signal?: AbortSignal | undefined;
}

export function createArchiveClient(connection: ArchiveConnection, options: ArchiveClientOptions = {}): ArchiveClient {
  const base = parseBase(connection.url);
  const timeouts = { ...DEFAULT_TIMEOUTS, ...definedOnly(options.timeouts ?? {}) };
  let lastVersions: ArchiveVersions = { version: null, apiVersion: null };
  // Owned by this client: its connections serve only its requests and close with it.
  const pool = createConnectionPool();
  // Every string of every answer and failure passes this before it leaves the client.
  const scrub = tokenScrubber(connection.token);
  const extraCa = options.ca === undefined ? undefined : typeof options.ca === 'string' ? [options.ca] : [...options.ca];
  const config: TransportConfig = {
    token: connection.token,
    allowLocal: connection.allowLocal,
    configuredOrigin: base.origin,
    resolver: options.resolver ?? lookupAll,
    isLocalAddress: options.isLocalAddress ?? isLocalAddress,
    // Extra CAs are trusted besides the usual ones (bundled, NODE_EXTRA_CA_CERTS), not instead of them.
    ca: extraCa === undefined ? undefined : [...defaultCertificates(), ...extraCa],
    connectMs: timeouts.connectMs,
    maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    onVersions: (versions) => {
      lastVersions = versions;
      options.onVersions?.(versions);
    },
    onRefusedVersions: (names) => {
      options.logger?.debug({ headers: names }, 'version headers of the archive server ignored: not a version');
    },
    scrub,
    pool,
  };

  /** What earlier answers named: this client's last answer, else what the caller stored. */
  function known(): ArchiveVersions {
    if (lastVersions.version !== null || lastVersions.apiVersion !== null) return lastVersions;
    return options.knownVersions?.() ?? lastVersions;
  }

  /** The spec's second-try rule around one logical request. */
  async function get(call: Call): Promise<RawAnswer> {
    try {
      return await getOnce(call);
    } catch (error) {
      throw scrubbedFailure(error, scrub);
    }
  }

  async function getOnce(call: Call): Promise<RawAnswer> {
    if (!SENDABLE_TOKEN.test(connection.token)) throw unsendableToken();
    const limits = {
      answerMs: call.kind === 'widget' ? timeouts.widgetAnswerMs : timeouts.answerMs,
      signal: call.signal,
      allIds: call.kind === 'test' || call.kind === 'words' ? 'keep' : 'drop',
    } as const;
    const started = monotonicMs();
    try {
      return await getWithRedirects(call.url, config, limits);
    } catch (error) {
      const secondTry =
        call.kind !== 'widget' &&
        error instanceof DusError &&
        error.beforeConnection &&
        error.code !== 'local_address' &&
        call.signal?.aborted !== true &&
        monotonicMs() - started <= timeouts.retryWindowMs;
      if (!secondTry) throw error;
      return getWithRedirects(call.url, config, limits);
    }
  }

  async function searchOnce(request: SearchRequest, mode: SearchMode, term: string = request.term, ids?: readonly number[]): Promise<RawAnswer> {
    const url = endpoint(base, 'documents', searchQuery({ ...request, term, ids }, mode));
    return get({ kind: 'search', url, signal: request.signal });
  }

  /**
   * Several words on Paperless-ngx 3.0, whose `text` phrase a large archive refuses ("Phrase query
   * exceeded max expansions", paperless-ngx#13673): each word alone is a regex query without that
   * ceiling, so each is asked once for the ids of every document holding it (`all`, API version 9),
   * the lists are intersected (every word somewhere in the title or content, as 3.1's `text` does)
   * in the first word's order, and the page asked for is fetched by id with the longest word, for
   * its highlights. Words + 1 requests. A word alone cannot fail to parse, so a 400 for one is a
   * fault; without an `all` list there is nothing to intersect: the term's own line, no results.
   */
  async function wordByWord(request: SearchRequest, words: readonly string[]): Promise<RawAnswer | SearchPage> {
    let kept: number[] | null = null;
    for (const word of words) {
      const url = endpoint(base, 'documents', wordIdsQuery({ ...request, term: word }));
      const answer = await get({ kind: 'words', url, signal: request.signal });
      if (answer.status === 400) throw searchFault(answer.status);
      if (answer.status !== 200) return answer;
      successBody(answer, '/api/documents/', validateIdPage, known());
      if (answer.allIds === null) return rejected(request, 400, 'words_too_broad');
      const holding = new Set(answer.allIds);
      kept = kept === null ? [...new Set(answer.allIds)] : kept.filter((id) => holding.has(id));
      if (kept.length === 0) break;
    }
    const ids = kept ?? [];
    const start = (request.page - 1) * PAGE_SIZE;
    const slice = ids.slice(start, start + PAGE_SIZE);
    if (slice.length === 0) {
      // As Paperless answers a page past the last; page 1 of nothing is an empty page.
      if (request.page > 1) return rejected(request, 404, 'page');
      return { versions: lastVersions, count: 0, page: request.page, hits: [], hasMore: false, rejectedStatus: null, rejection: null, refusal: null };
    }
    const longest = words.reduce((best, word) => ([...word].length > [...best].length ? word : best), '');
    const answer = await searchOnce({ ...request, page: 1 }, 'text', longest, slice);
    if (answer.status === 400) throw searchFault(answer.status);
    if (answer.status !== 200) return answer;
    const page = hitsOf(answer, request);
    const order = new Map(slice.map((id, at) => [id, at]));
    const hits = page.hits.filter((hit) => order.has(hit.id)).sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0));
    return { ...page, count: ids.length, hits, hasMore: request.page * PAGE_SIZE < ids.length };
  }

  /** A 200 search answer as the page the caller asked for. */
  function hitsOf(answer: RawAnswer, request: SearchRequest): SearchPage {
    const page = successBody(answer, '/api/documents/', validateSearchPage, known());
    return {
      versions: answer.versions,
      count: page.count,
      page: request.page,
      hits: page.results.map((hit) => ({
        id: hit.id,
        title: scrub(hit.title),
        created: nullable(hit.created, scrub),
        correspondent: hit.correspondent ?? null,
        documentType: hit.document_type ?? null,
        highlights: nullable(hit.__search_hit__?.highlights, scrub),
      })),
      hasMore: request.page * PAGE_SIZE < page.count,
      rejectedStatus: null,
      rejection: null,
      refusal: null,
    };
  }

  function rejected(request: SearchRequest, status: number, rejection: SearchRejection, refusal: string | null = null): SearchPage {
    // The spec's debug line names the status only: a refusal quotes pieces of the term.
    options.logger?.debug(LOG_MESSAGES.queryRejected(status));
    return { versions: lastVersions, count: 0, page: request.page, hits: [], hasMore: false, rejectedStatus: status, rejection, refusal };
  }

  /**
   * The answer to a search, with the spec's one repeat on Paperless-ngx 3.0 and 3.1. A 400 with
   * Paperless's own message about the term (its SearchQueryError) is the term's problem on every
   * release. Another 400 is a query still being typed only when the term can be a syntax error
   * for the release's parser; the repeat's `text` value cannot be one, so a 400 for it is a fault
   * (docs/archive-client.md "Terms with punctuation" and "Releases").
   */
  async function searchAnswer(request: SearchRequest): Promise<RawAnswer | SearchPage> {
    const answer = await searchOnce(request, 'query');
    // The answer itself names the versions (the token was accepted); else an earlier answer did.
    const reader = termReaderOf(known());
    if (answer.status === 200 && hasMinusExclusion(request.term) && readsMinusAsWord(reader)) {
      // Whoosh and whoosh-compat searched for the excluded words themselves: never shown as the answer.
      return rejected(request, answer.status, 'minus_exclusion');
    }
    if (answer.status !== 400) return answer;
    const refusal = refusalOf(answer.contentType, answer.body, scrub);
    if (refusal !== null) return rejected(request, 400, 'refused', refusal);
    if (reader === 'whoosh-compat') throw searchFault(answer.status, NO_REFUSAL_MESSAGE);
    if (!parsesStrictly(reader)) {
      if (cannotBeSyntaxError(request.term)) throw searchFault(answer.status);
      return rejected(request, 400, 'query');
    }
    // Repeated as words, a term that only excludes would find what it excludes.
    if (isExclusionsOnly(request.term)) return rejected(request, 400, 'exclusions_only');
    const text = simpleTextOf(request.term, reader);
    if (text === '') return rejected(request, 400, 'query');
    const repeated = await searchOnce(request, 'text', text);
    if (repeated.status !== 400) return repeated;
    // 3.0 asked several words as one phrase, which a large archive refuses: each word alone cannot be.
    const words = [...new Set(text.split(' '))];
    if (reader === 'tantivy' && words.length > 1) return wordByWord(request, words);
    throw searchFault(repeated.status);
  }

  return {
    async testConnection(): Promise<ConnectionTestResult> {
      const answer = await get({ kind: 'test', url: endpoint(base, 'documents', CONNECTION_TEST_QUERY) });
      const page = successBody(answer, '/api/documents/', validateIdPage, known());
      return { versions: answer.versions, count: page.count, allIds: answer.allIds };
    },

    async search(request: SearchRequest): Promise<SearchPage> {
      if (!Number.isSafeInteger(request.page) || request.page < 1) {
        throw new DusError('usage', 'The archive page of a search must be a whole number from 1.');
      }
      const answer = await searchAnswer(request);
      if (!('body' in answer)) return answer;
      if (answer.status === 404 && isApiDetail(answer)) return rejected(request, 404, 'page');
      return hitsOf(answer, request);
    },

    async newest(): Promise<NewestPage> {
      const answer = await get({ kind: 'widget', url: endpoint(base, 'documents', WIDGET_QUERY) });
      const page = successBody(answer, '/api/documents/', validateNewestPage, known());
      return {
        versions: answer.versions,
        documents: page.results.map((document) => ({
          id: document.id,
          title: scrub(document.title),
          added: scrub(document.added),
          correspondent: document.correspondent ?? null,
          documentType: document.document_type ?? null,
        })),
      };
    },

    async names(kind: NameKind, ids: readonly number[], signal?: AbortSignal): Promise<ReadonlyMap<number, string>> {
      const names = new Map<number, string>();
      for (const chunk of nameChunks(ids)) {
        const answer = await get({ kind: 'names', url: endpoint(base, kind, namesQuery(chunk)), signal });
        const page = successBody(answer, `/api/${kind}/`, validateNamePage, known());
        for (const object of page.results) names.set(object.id, scrub(object.name));
      }
      return names;
    },

    close(): Promise<void> {
      return pool.close();
    },
  };
}

/** Node's default trust store; `getCACertificates` (Node 22.15+) also has NODE_EXTRA_CA_CERTS. */
function defaultCertificates(): readonly string[] {
  // node:tls is loaded where it is used (here, and for an https:// connection): an http:// one never needs it.
  const tls = process.getBuiltinModule('node:tls');
  return typeof tls.getCACertificates === 'function' ? tls.getCACertificates('default') : tls.rootCertificates;
}

function successBody<T>(answer: RawAnswer, path: string, validate: (data: unknown) => data is T, known: ArchiveVersions): T {
  if (answer.status !== 200) {
    if (answer.status >= 200 && answer.status < 300) throw notPaperless(`HTTP ${answer.status} instead of a list`, answer.status);
    throw statusFailure(answer.status, path, answer.foreignHost, known);
  }
  const data = jsonOf(answer);
  if (data === undefined) throw notPaperless('not JSON', answer.status);
  if (!validate(data)) throw notPaperless('not a page of the expected objects', answer.status);
  return data;
}

/** The parsed body when the answer declares and is JSON; undefined otherwise. */
function jsonOf(answer: RawAnswer): unknown {
  if (!/^application\/json\b/i.test(answer.contentType.trim())) return undefined;
  try {
    return JSON.parse(answer.body.toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}

/** A 404 of the archive server's API itself (`{"detail": …}`), not of a wrong path. */
function isApiDetail(answer: RawAnswer): boolean {
  return validateDetail(jsonOf(answer));
}

function nullable(value: string | null | undefined, scrub: (text: string) => string): string | null {
  return value === null || value === undefined ? null : scrub(value);
}

function definedOnly<T extends object>(values: T): Partial<T> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined)) as Partial<T>;
}
