import type { EmulatorDocument, NamedObject } from './types.js';

/** One request's view of the archive: documents plus the names they point at. */
export interface Dataset {
  readonly documents: readonly EmulatorDocument[];
  readonly correspondents: readonly NamedObject[];
  readonly documentTypes: readonly NamedObject[];
  /** Ids of documents that exist but the requesting account may not see. */
  readonly hiddenIds: ReadonlySet<number>;
  correspondentName(id: number | null): string | null;
  documentTypeName(id: number | null): string | null;
}

export function dataset(
  documents: readonly EmulatorDocument[],
  correspondents: readonly NamedObject[],
  documentTypes: readonly NamedObject[],
  hiddenIds: ReadonlySet<number> = new Set(),
): Dataset {
  const correspondentNames = new Map(correspondents.map((c) => [c.id, c.name]));
  const typeNames = new Map(documentTypes.map((t) => [t.id, t.name]));
  return {
    documents,
    correspondents,
    documentTypes,
    hiddenIds,
    correspondentName: (id) => (id === null ? null : (correspondentNames.get(id) ?? null)),
    documentTypeName: (id) => (id === null ? null : (typeNames.get(id) ?? null)),
  };
}

/**
 * What an account sees (`permitted_document_ids`, `src/documents/permissions.py` @v3.0.5; the same
 * rule in the search index's owner_id / viewer_id / viewer_group_id): unowned documents, its own,
 * and those granted `view_document` to it or to a group it belongs to now; a superuser (null) sees all.
 */
export function visibleTo(data: Dataset, userId: number | null, groups: readonly number[] = []): Dataset {
  if (userId === null) return data;
  const visible = (d: EmulatorDocument): boolean =>
    d.owner === undefined ||
    d.owner === null ||
    d.owner === userId ||
    (d.viewUsers ?? []).includes(userId) ||
    (d.viewGroups ?? []).some((group) => groups.includes(group));
  const hidden = new Set(data.documents.filter((d) => !visible(d)).map((d) => d.id));
  if (hidden.size === 0) return data;
  return dataset(data.documents.filter(visible), data.correspondents, data.documentTypes, hidden);
}
