import type { ArchiveClient, NameKind } from '../archive/types.js';
import type { Cache } from '../cache/types.js';

/** The spec's names cache lifetime. */
export const NAMES_TTL_MS = 10 * 60_000;

/** Same key as the widget's names so that both share what either fetched. */
export function nameKey(archiveUrl: string, kind: NameKind, id: number): string {
  return `names:${archiveUrl}:${kind}:${id}`;
}

export type NamesByKind = ReadonlyMap<NameKind, ReadonlyMap<number, string>>;

/**
 * Names of several kinds: the cached ones read from the shared cache in one round trip (one
 * Redis MGET for a whole search), the missing ones in one request per kind, the kinds at once.
 * Names are decoration: a kind whose request fails keeps its cached names and `onFailure` is told.
 */
export async function namesOf(
  cache: Cache,
  archiveUrl: string,
  client: ArchiveClient,
  wanted: ReadonlyMap<NameKind, readonly number[]>,
  options: { signal?: AbortSignal; onFailure?: (kind: NameKind, error: unknown) => void } = {},
): Promise<NamesByKind> {
  const asked = [...wanted].map(([kind, ids]) => ({ kind, ids: [...new Set(ids)] }));
  const keys = asked.flatMap(({ kind, ids }) => ids.map((id) => nameKey(archiveUrl, kind, id)));
  const cached = await cache.getMany<string>(keys);
  const result = new Map<NameKind, Map<number, string>>();
  let offset = 0;
  const perKind = asked.map(({ kind, ids }) => {
    const names = new Map<number, string>();
    const missing: number[] = [];
    ids.forEach((id, i) => {
      const name = cached[offset + i];
      if (name === undefined) missing.push(id);
      else names.set(id, name);
    });
    offset += ids.length;
    result.set(kind, names);
    return { kind, names, missing };
  });
  await Promise.all(
    perKind.map(async ({ kind, names, missing }) => {
      if (missing.length === 0) return;
      try {
        const fetched = await client.names(kind, missing, options.signal);
        for (const [id, name] of fetched) names.set(id, name);
        await Promise.all([...fetched].map(([id, name]) => cache.set(nameKey(archiveUrl, kind, id), name, NAMES_TTL_MS)));
      } catch (error: unknown) {
        options.onFailure?.(kind, error);
      }
    }),
  );
  return result;
}
