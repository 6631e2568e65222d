import type { ArchiveClient, NewestDocument } from '../archive/types.js';
import type { Cache } from '../cache/types.js';
import { isDusError } from '../errors.js';

/** How long the newest documents, or the failure to get them, are kept for every user. */
export const NEWEST_TTL_MS = 60_000;

/** The shared answer: the 25 newest documents, or the code of why the archive server did not give them. */
export type NewestState =
  | { readonly ok: true; readonly documents: readonly NewestDocument[] }
  | { readonly ok: false; readonly code: string };

/**
 * The 25 newest documents of the archive server, asked at most once a minute for all users
 * (one request in flight, the others wait on it). A failure is cached too: an archive
 * server that does not answer rests for a minute.
 */
export function newestDocuments(cache: Cache, archiveUrl: string, client: ArchiveClient): Promise<NewestState> {
  return cache.getOrProduce<NewestState>(`widget:newest:${archiveUrl}`, NEWEST_TTL_MS, async () => {
    try {
      const page = await client.newest();
      return { ok: true, documents: page.documents };
    } catch (error: unknown) {
      return { ok: false, code: isDusError(error) ? error.code : 'unreachable' };
    }
  });
}
