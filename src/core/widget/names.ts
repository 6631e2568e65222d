import type { ArchiveClient, NameKind } from '../archive/types.js';
import type { Cache } from '../cache/types.js';

/** The spec's names cache lifetime. */
export const NAMES_TTL_MS = 10 * 60_000;

/**
 * Correspondent or document-type names by id: cached ones from the shared cache, the rest in
 * one request. A failing names request gives no names rather than no widget.
 */
export async function cachedNames(
  cache: Cache,
  archiveUrl: string,
  client: ArchiveClient,
  kind: NameKind,
  ids: readonly number[],
): Promise<ReadonlyMap<number, string>> {
  const names = new Map<number, string>();
  const missing: number[] = [];
  for (const id of new Set(ids)) {
    const name = await cache.get<string>(keyOf(archiveUrl, kind, id));
    if (name === undefined) missing.push(id);
    else names.set(id, name);
  }
  if (missing.length === 0) return names;
  try {
    const fetched = await client.names(kind, missing);
    for (const [id, name] of fetched) {
      names.set(id, name);
      await cache.set(keyOf(archiveUrl, kind, id), name, NAMES_TTL_MS);
    }
  } catch {
    // Names are decoration: the list still shows title and day.
  }
  return names;
}

function keyOf(archiveUrl: string, kind: NameKind, id: number): string {
  return `names:${archiveUrl}:${kind}:${id}`;
}
