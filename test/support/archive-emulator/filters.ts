import type { Dataset } from './dataset.js';
import type { EmulatorDocument } from './types.js';
import { parseFormDate, parseFormDateTime, parseFormNumber, utcDay } from './values.js';

/** django-filter validation errors: field name → messages (answered as 400 JSON). */
export type FilterErrors = Record<string, string[]>;

export type FilterOutcome = { readonly ok: true; readonly documents: EmulatorDocument[] } | { readonly ok: false; readonly errors: FilterErrors };

type Predicate = (doc: EmulatorDocument) => boolean;
type Compare = 'gt' | 'gte' | 'lt' | 'lte' | 'exact';

function compare<T>(op: Compare, a: T, b: T): boolean {
  switch (op) {
    case 'gt':
      return a > b;
    case 'gte':
      return a >= b;
    case 'lt':
      return a < b;
    case 'lte':
      return a <= b;
    case 'exact':
      return a === b;
  }
}

const COMPARES: readonly Compare[] = ['gt', 'gte', 'lt', 'lte'];

function parseNumberList(value: string): number[] | null {
  const items = value.split(',').filter((v) => v !== '');
  const numbers = items.map(parseFormNumber);
  return numbers.every((n): n is number => n !== null) ? numbers : null;
}

/** Lenient id lists of Paperless's ObjectFilter: a malformed list applies no filter. */
function lenientIds(value: string): number[] | null {
  const items = value.split(',').filter((v) => v !== '');
  if (!items.every((v) => /^\s*[+-]?\d+\s*$/.test(v))) return null;
  return items.map(Number);
}

function parseBoolean(value: string): boolean | null {
  const v = value.toLowerCase();
  if (v === 'true' || v === '1') return true;
  if (v === 'false' || v === '0') return false;
  return null;
}

function objectFilters(
  prefix: 'correspondent' | 'document_type',
  pick: (d: EmulatorDocument) => number | null,
): Array<[string, (value: string) => Predicate | string | null]> {
  return [
    [
      `${prefix}__id`,
      (v) => {
        const n = parseFormNumber(v);
        return n === null ? 'Enter a number.' : (d) => pick(d) === n;
      },
    ],
    [
      `${prefix}__id__in`,
      (v) => {
        const ids = parseNumberList(v);
        if (ids === null) return 'Enter a number.';
        return ids.length === 0 ? null : (d) => ids.includes(pick(d) ?? Number.NaN);
      },
    ],
    [
      `${prefix}__id__none`,
      (v) => {
        const ids = lenientIds(v);
        return ids === null ? null : (d) => !ids.includes(pick(d) ?? Number.NaN);
      },
    ],
    [
      `${prefix}__isnull`,
      (v) => {
        const b = parseBoolean(v);
        return b === null ? null : (d) => (pick(d) === null) === b;
      },
    ],
  ];
}

function textFilter(pick: (d: EmulatorDocument) => string, test: (haystack: string, needle: string) => boolean): (value: string) => Predicate {
  return (v) => (d) => test(pick(d).toLowerCase(), v.toLowerCase());
}

/**
 * The DocumentFilterSet parameters a client plausibly sends. Each parser returns a
 * predicate, an error message, or null for "no filter" (django-filter skips empty values).
 */
function documentFilterTable(): Map<string, (value: string) => Predicate | string | null> {
  const table = new Map<string, (value: string) => Predicate | string | null>();
  table.set('id', (v) => {
    const n = parseFormNumber(v);
    return n === null ? 'Enter a number.' : (d) => d.id === n;
  });
  table.set('id__in', (v) => {
    const ids = parseNumberList(v);
    if (ids === null) return 'Enter a number.';
    return ids.length === 0 ? null : (d) => ids.includes(d.id);
  });
  for (const op of COMPARES) {
    const onCreated = (v: string): Predicate | string => {
      const day = parseFormDate(v);
      return day === null ? 'Enter a valid date.' : (d) => compare(op, d.created, day);
    };
    table.set(`created__${op}`, onCreated);
    table.set(`created__date__${op}`, onCreated);
    for (const field of ['added', 'modified'] as const) {
      const moment = (d: EmulatorDocument): string => (field === 'modified' ? (d.modified ?? d.added) : d.added);
      table.set(`${field}__date__${op}`, (v) => {
        const day = parseFormDate(v);
        return day === null ? 'Enter a valid date.' : (d) => compare(op, utcDay(moment(d)), day);
      });
      table.set(`${field}__${op}`, (v) => {
        const ms = parseFormDateTime(v);
        return ms === null ? 'Enter a valid date/time.' : (d) => compare(op, Date.parse(moment(d)), ms);
      });
    }
  }
  const parts: Array<['year' | 'month' | 'day', (day: string) => number]> = [
    ['year', (day) => Number(day.slice(0, 4))],
    ['month', (day) => Number(day.slice(5, 7))],
    ['day', (day) => Number(day.slice(8, 10))],
  ];
  for (const [part, extract] of parts) {
    table.set(`created__${part}`, (v) => {
      const n = parseFormNumber(v);
      return n === null ? 'Enter a number.' : (d) => extract(d.created) === n;
    });
    table.set(`added__${part}`, (v) => {
      const n = parseFormNumber(v);
      return n === null ? 'Enter a number.' : (d) => extract(utcDay(d.added)) === n;
    });
  }
  for (const [key, parse] of objectFilters('correspondent', (d) => d.correspondent)) table.set(key, parse);
  for (const [key, parse] of objectFilters('document_type', (d) => d.documentType)) table.set(key, parse);
  table.set(
    'title__icontains',
    textFilter(
      (d) => d.title,
      (h, n) => h.includes(n),
    ),
  );
  table.set(
    'title__istartswith',
    textFilter(
      (d) => d.title,
      (h, n) => h.startsWith(n),
    ),
  );
  table.set(
    'title__iendswith',
    textFilter(
      (d) => d.title,
      (h, n) => h.endsWith(n),
    ),
  );
  table.set(
    'title__iexact',
    textFilter(
      (d) => d.title,
      (h, n) => h === n,
    ),
  );
  table.set(
    'content__icontains',
    textFilter(
      (d) => d.content,
      (h, n) => h.includes(n),
    ),
  );
  table.set('title_content', (v) => (d) => d.title.toLowerCase().includes(v.toLowerCase()) || d.content.toLowerCase().includes(v.toLowerCase()));
  return table;
}

const DOCUMENT_FILTERS = documentFilterTable();

/** Unknown parameters are ignored; all validation errors are collected, as django-filter does. */
export function filterDocuments(data: Dataset, params: ReadonlyMap<string, string>): FilterOutcome {
  const predicates: Predicate[] = [];
  const errors: FilterErrors = {};
  for (const [key, value] of params) {
    const parse = DOCUMENT_FILTERS.get(key);
    if (parse === undefined || value === '') continue;
    const result = parse(value);
    if (typeof result === 'string') errors[key] = [result];
    else if (result !== null) predicates.push(result);
  }
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, documents: data.documents.filter((d) => predicates.every((p) => p(d))) };
}
