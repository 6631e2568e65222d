import { DusError } from '../errors.js';

/**
 * The URLs of the spec's requests to the archive server, built from the stored base URL
 * (its path prefix kept, Paperless' trailing slashes added). The server's own `next` links
 * are never used: behind a proxy they can name an internal host.
 */

export const PAGE_SIZE = 25;
export const SEARCH_FIELDS = 'id,title,created,correspondent,document_type,__search_hit__';
export const WIDGET_FIELDS = 'id,title,added,correspondent,document_type';
/** Ids per names request; a names page holds 25 objects by default, so no `page_size` is needed. */
export const NAMES_PER_REQUEST = 25;

export type SearchMode = 'query' | 'text';

/** Parses the stored URL; the settings layer has validated it, so a failure here is a stored value gone bad. */
export function parseBase(url: string): URL {
  let base: URL;
  try {
    base = new URL(url);
  } catch {
    throw new DusError('invalid_url', 'The stored archive server URL is not a URL. Enter the address of the archive server again.');
  }
  if (base.protocol !== 'http:' && base.protocol !== 'https:') {
    throw new DusError('unsupported_scheme', 'The archive server URL must start with http:// or https://.');
  }
  if (base.username !== '' || base.password !== '' || base.search !== '' || base.hash !== '') {
    throw new DusError('url_extras', 'The archive server URL must not contain credentials, a query or a fragment.');
  }
  return base;
}

export function endpoint(base: URL, path: 'documents' | 'correspondents' | 'document_types', query: ReadonlyArray<readonly [string, string]>): URL {
  const prefix = base.pathname.replace(/\/+$/, '');
  const url = new URL(base.origin);
  url.pathname = `${prefix}/api/${path}/`;
  const params = new URLSearchParams();
  for (const [name, value] of query) params.append(name, value);
  // Commas stay literal as in the spec's table and the archive server's own web client;
  // Django splits a query on `&` only, so a literal comma means the same as `%2C`.
  url.search = params.toString().replaceAll('%2C', ',');
  return url;
}

export interface SearchQuery {
  readonly term: string;
  readonly page: number;
  readonly since?: string | undefined;
  readonly until?: string | undefined;
  /** Only these documents (`id__in`, never empty): the page of a search made word by word. */
  readonly ids?: readonly number[] | undefined;
}

export function searchQuery(request: SearchQuery, mode: SearchMode): Array<[string, string]> {
  const query: Array<[string, string]> = [
    [mode, request.term],
    ['page', String(request.page)],
    ['page_size', String(PAGE_SIZE)],
    ['fields', SEARCH_FIELDS],
  ];
  if (request.since !== undefined) query.push(['created__date__gte', checkedDay(request.since, 'since')]);
  if (request.until !== undefined) query.push(['created__date__lt', dayAfter(checkedDay(request.until, 'until'))]);
  if (request.ids !== undefined && request.ids.length > 0) query.push(['id__in', request.ids.join(',')]);
  return query;
}

/**
 * One word of a search made word by word: only `all` (every matching id, sent with API version 9)
 * is read, so a page of one id is asked for.
 */
export function wordIdsQuery(request: SearchQuery): Array<[string, string]> {
  return searchQuery({ ...request, page: 1 }, 'text').map(([name, value]) =>
    name === 'page_size' ? [name, '1'] : name === 'fields' ? [name, 'id'] : [name, value],
  );
}

export const CONNECTION_TEST_QUERY: ReadonlyArray<readonly [string, string]> = [
  ['page_size', '1'],
  ['fields', 'id'],
];

export const WIDGET_QUERY: ReadonlyArray<readonly [string, string]> = [
  ['ordering', '-added'],
  ['page', '1'],
  ['page_size', String(PAGE_SIZE)],
  ['fields', WIDGET_FIELDS],
];

export function namesQuery(ids: readonly number[]): Array<[string, string]> {
  return [['id__in', ids.join(',')]];
}

/** Distinct positive ids in chunks the server answers in one page; empty for no ids (never an empty `id__in`). */
export function nameChunks(ids: readonly number[]): number[][] {
  const distinct = [...new Set(ids.filter((id) => Number.isSafeInteger(id) && id > 0))];
  const chunks: number[][] = [];
  for (let start = 0; start < distinct.length; start += NAMES_PER_REQUEST) {
    chunks.push(distinct.slice(start, start + NAMES_PER_REQUEST));
  }
  return chunks;
}

function checkedDay(day: string, name: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  const parsed = match === null ? Number.NaN : Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  if (Number.isNaN(parsed) || new Date(parsed).toISOString().slice(0, 10) !== day) {
    throw new DusError('usage', `The date filter "${name}" must be a day written YYYY-MM-DD.`);
  }
  return day;
}

/** `until` is inclusive; the archive server's `created__date__lt` is not. */
export function dayAfter(day: string): string {
  const [year, month, date] = day.split('-').map(Number);
  const next = new Date(Date.UTC(year ?? 0, (month ?? 1) - 1, (date ?? 1) + 1));
  return next.toISOString().slice(0, 10);
}
