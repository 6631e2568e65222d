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
      const names = async (kind: NameKind, ids: readonly (number | null)[]): Promise<Record<string, string>> => {
        const wanted = ids.filter((id): id is number => id !== null);
        if (wanted.length === 0) return {};
        // Names are decoration: when their request fails the list still shows title and day.
        const found = await namesOf(cache, archiveUrl, client, kind, wanted).catch(() => new Map<number, string>());
        return Object.fromEntries([...found].map(([id, name]) => [String(id), name]));
      };
      const [correspondents, documentTypes] = await Promise.all([
        names('correspondents', page.documents.map((d) => d.correspondent)),
        names('document_types', page.documents.map((d) => d.documentType)),
      ]);
      return { ok: true, documents: page.documents, correspondents, documentTypes };
    } catch (error: unknown) {
      return { ok: false, code: isDusError(error) ? error.code : 'unreachable' };
    }
  });
}
