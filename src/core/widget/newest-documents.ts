import type { ArchiveClient, NameKind, NewestDocument } from '../archive/types.js';
import type { Cache } from '../cache/types.js';
import { isDusError } from '../errors.js';
import { namesOf } from '../search/names.js';

/** How long the newest documents, or the failure to get them, are kept for every user. */
export const NEWEST_TTL_MS = 60_000;

/**
 * The shared answer: the 25 newest documents with the names of their correspondents and
 * types (JSON-safe: ids as object keys), or the code of why the archive server did not answer.
 */
export type NewestState =
  | {
      readonly ok: true;
      readonly documents: readonly NewestDocument[];
      readonly correspondents: Readonly<Record<string, string>>;
      readonly documentTypes: Readonly<Record<string, string>>;
    }
  | { readonly ok: false; readonly code: string };

/**
 * The 25 newest documents of the archive server, asked at most once a minute for all users
 * (one request in flight, the others wait on it). A failure is cached too: an archive
 * server that does not answer rests for a minute. The names are fetched inside the same
 * single flight, so a full dashboard reload does not turn into one names request per user.
 */
export function newestDocuments(cache: Cache, archiveUrl: string, client: ArchiveClient): Promise<NewestState> {
  return cache.getOrProduce<NewestState>(`widget:newest:${archiveUrl}`, NEWEST_TTL_MS, async () => {
    try {
      const page = await client.newest();
      const present = (ids: readonly (number | null)[]): number[] => ids.filter((id): id is number => id !== null);
      // Names are decoration: when their request fails the list still shows title and day.
      const found = await namesOf(
        cache,
        archiveUrl,
        client,
        new Map<NameKind, number[]>([
          ['correspondents', present(page.documents.map((d) => d.correspondent))],
          ['document_types', present(page.documents.map((d) => d.documentType))],
        ]),
      ).catch(() => new Map<NameKind, ReadonlyMap<number, string>>());
      const record = (kind: NameKind): Record<string, string> => Object.fromEntries([...(found.get(kind) ?? [])].map(([id, name]) => [String(id), name]));
      const correspondents = record('correspondents');
      const documentTypes = record('document_types');
      return { ok: true, documents: page.documents, correspondents, documentTypes };
    } catch (error: unknown) {
      return { ok: false, code: isDusError(error) ? error.code : 'unreachable' };
    }
  });
}
