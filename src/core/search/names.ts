import type { ArchiveClient, NameKind } from '../archive/types.js';
import type { Cache } from '../cache/types.js';

/** The spec's names cache lifetime. */
export const NAMES_TTL_MS = 10 * 60_000;

/** Same key as the widget's names so that both share what either fetched. */
export function nameKey(archiveUrl: string, kind: NameKind, id: number): string {
  return `names:${archiveUrl}:${kind}:${id}`;
}

/**
 * Names of one kind: cached ones from the shared cache, the missing ones in one request.
 * Throws when that request fails (the caller decides what a missing name means).
 */
export async function namesOf(
  cache: Cache,
  archiveUrl: string,
  client: ArchiveClient,
  kind: NameKind,
  ids: readonly number[],
  signal?: AbortSignal,
): Promise<Map<number, string>> {
  const names = new Map<number, string>();
  const missing: number[] = [];
  for (const id of new Set(ids)) {
    const name = await cache.get<string>(nameKey(archiveUrl, kind, id));
    if (name === undefined) missing.push(id);
    else names.set(id, name);
  }
  if (missing.length === 0) return names;
  const fetched = await client.names(kind, missing, signal);
  for (const [id, name] of fetched) {
    names.set(id, name);
    await cache.set(nameKey(archiveUrl, kind, id), name, NAMES_TTL_MS);
  }
  return names;
}
