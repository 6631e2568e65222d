import { removeQueryParam, replaceQueryParam, type QueryPairs } from './pyquery.js';

export const DEFAULT_PAGE_SIZE = 25;
export const MAX_PAGE_SIZE = 100_000;

/** The request's absolute URL parts DRF uses for links: `build_absolute_uri()`. */
export interface LinkBase {
  /** scheme://host/path, no query. */
  readonly base: string;
  readonly pairs: QueryPairs;
}

export type PageOutcome<T> =
  | {
      readonly ok: true;
      readonly items: T[];
      /** 0-based offset of the first item in the whole result. */
      readonly offset: number;
      readonly next: string | null;
      readonly previous: string | null;
    }
  | { readonly ok: false };

/** DRF `_positive_int(strict=True, cutoff=100000)`; anything unusable falls back to 25. */
export function pageSizeOf(value: string | undefined): number {
  if (value === undefined || !/^\s*[+-]?\d+\s*$/.test(value)) return DEFAULT_PAGE_SIZE;
  const n = Number(value);
  if (n <= 0) return DEFAULT_PAGE_SIZE;
  return Math.min(n, MAX_PAGE_SIZE);
}

/**
 * PageNumberPagination over Django's Paginator: `page=last`, an empty first page is
 * allowed, anything else unusable is "Invalid page." (the caller answers 404).
 */
export function paginate<T>(items: readonly T[], params: ReadonlyMap<string, string>, link: LinkBase): PageOutcome<T> {
  const size = pageSizeOf(params.get('page_size'));
  const pages = Math.max(1, Math.ceil(items.length / size));
  const raw = params.get('page') || '1';
  let page: number;
  if (raw === 'last') page = pages;
  else if (/^\s*[+-]?\d+\s*$/.test(raw)) page = Number(raw);
  else return { ok: false };
  if (page < 1 || page > pages) return { ok: false };
  const offset = (page - 1) * size;
  const next = page < pages ? replaceQueryParam(link.base, link.pairs, 'page', String(page + 1)) : null;
  let previous: string | null = null;
  if (page > 1)
    previous = page - 1 === 1 ? removeQueryParam(link.base, link.pairs, 'page') : replaceQueryParam(link.base, link.pairs, 'page', String(page - 1));
  return { ok: true, items: items.slice(offset, offset + size), offset, next, previous };
}
