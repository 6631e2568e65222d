import type { EmulatorDocument, NamedObject } from './types.js';

/** One request's view of the archive: documents plus the names they point at. */
export interface Dataset {
  readonly documents: readonly EmulatorDocument[];
  readonly correspondents: readonly NamedObject[];
  readonly documentTypes: readonly NamedObject[];
  correspondentName(id: number | null): string | null;
  documentTypeName(id: number | null): string | null;
}

export function dataset(documents: readonly EmulatorDocument[], correspondents: readonly NamedObject[], documentTypes: readonly NamedObject[]): Dataset {
  const correspondentNames = new Map(correspondents.map((c) => [c.id, c.name]));
  const typeNames = new Map(documentTypes.map((t) => [t.id, t.name]));
  return {
    documents,
    correspondents,
    documentTypes,
    correspondentName: (id) => (id === null ? null : (correspondentNames.get(id) ?? null)),
    documentTypeName: (id) => (id === null ? null : (typeNames.get(id) ?? null)),
  };
}
