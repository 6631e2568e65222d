import type { Dataset } from './dataset.js';
import type { EmulatorDocument } from './types.js';

export type SortKey = string | number | null;

export interface OrderingTerm {
  readonly field: string;
  readonly descending: boolean;
}

/** Document ordering fields (views.py ordering_fields); constant ones sort as ties. */
const DOCUMENT_SORT_KEYS: Record<string, (d: EmulatorDocument, data: Dataset) => SortKey> = {
  id: (d) => d.id,
  title: (d) => d.title.toLowerCase(),
  correspondent__name: (d, data) => data.correspondentName(d.correspondent)?.toLowerCase() ?? null,
  document_type__name: (d, data) => data.documentTypeName(d.documentType)?.toLowerCase() ?? null,
  storage_path__name: () => null,
  created: (d) => d.created,
  modified: (d) => Date.parse(d.modified ?? d.added),
  added: (d) => Date.parse(d.added),
  archive_serial_number: () => null,
  num_notes: () => 0,
  owner: () => null,
  page_count: () => 1,
};

/** DRF OrderingFilter: comma list, leading `-` descends, unknown fields are dropped. */
export function parseOrdering(value: string | undefined, known: ReadonlySet<string>): OrderingTerm[] {
  if (value === undefined) return [];
  return value
    .split(',')
    .map((raw) => raw.trim())
    .map((raw) => ({ field: raw.replace(/^-/, ''), descending: raw.startsWith('-') }))
    .filter((term) => known.has(term.field));
}

export const DOCUMENT_ORDERING_FIELDS: ReadonlySet<string> = new Set(Object.keys(DOCUMENT_SORT_KEYS));

/** PostgreSQL places NULLs last ascending and first descending. */
export function compareKeys(a: SortKey, b: SortKey, descending: boolean): number {
  if (a === b) return 0;
  if (a === null) return descending ? -1 : 1;
  if (b === null) return descending ? 1 : -1;
  const order = a < b ? -1 : 1;
  return descending ? -order : order;
}

/**
 * Sorts by the terms, then by `-id` so pages never overlap (the default ordering is
 * `-created, -id`; the emulator keeps `-id` as the tiebreaker of every ordering).
 */
export function sortDocuments(documents: readonly EmulatorDocument[], terms: readonly OrderingTerm[], data: Dataset): EmulatorDocument[] {
  const effective = terms.length > 0 ? terms : [{ field: 'created', descending: true }];
  return [...documents].sort((a, b) => {
    for (const term of effective) {
      const key = DOCUMENT_SORT_KEYS[term.field];
      if (key === undefined) continue;
      const c = compareKeys(key(a, data), key(b, data), term.descending);
      if (c !== 0) return c;
    }
    return b.id - a.id;
  });
}

/** `custom_field_<id>` orderings need an existing custom field; the emulator has none. */
export function unknownCustomFieldOrdering(value: string | undefined): string | null {
  if (value === undefined) return null;
  for (const raw of value.split(',')) {
    const m = /^-?(custom_field_\d+)$/.exec(raw.trim());
    if (m !== null) return m[1] ?? null;
  }
  return null;
}
