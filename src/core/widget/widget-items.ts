import type { ArchiveClient } from '../archive/types.js';
import type { Cache } from '../cache/types.js';
import type { HostAdapter } from '../host/types.js';
import { fileLink, formatDay, previewUrl } from '../search/entry-format.js';
import { clampLimit } from '../search/inputs.js';
import { newestDocuments } from './newest-documents.js';

export const WIDGET_ID = 'docs_unified_search-recent';
export const WIDGET_LIMIT_DEFAULT = 7;
export const WIDGET_LIMIT_MAX = 30;

export const MESSAGE_UNREACHABLE = 'The archive server is currently unreachable.';
export const MESSAGE_EMPTY = 'No new documents in the archive that you can open.';

/** The host's WidgetItem (title, subtitle, link, iconUrl, sinceId, overlayIconUrl). */
export interface WidgetItem {
  readonly title: string;
  /** Added day, correspondent and type on one line. */
  readonly subtitle: string;
  readonly link: string;
  readonly iconUrl: string;
  /** The moment the archive server added the document (ISO 8601). */
  readonly sinceId: string;
  readonly overlayIconUrl: string;
}

/** The host's WidgetItems, plus where the list-full link points (null: no link). */
export interface WidgetItems {
  readonly items: readonly WidgetItem[];
  readonly emptyContentMessage: string;
  readonly halfEmptyContentMessage: string;
  readonly moreUrl: string | null;
}

export interface WidgetRequest {
  readonly user: string;
  /** `sinceIds[docs_unified_search-recent]`: only documents added after this moment. */
  readonly sinceId?: string;
  readonly limit?: number;
}

export interface WidgetSources {
  readonly cache: Cache;
  readonly host: HostAdapter;
  readonly archiveAccount: string;
  readonly archiveUrl: string;
  /** Null when no token can be read: the widget then says the archive server is unreachable. */
  readonly client: ArchiveClient | null;
}

/** The dashboard widget's items for one user: the newest documents whose file this user can open. */
export async function widgetItems(request: WidgetRequest, sources: WidgetSources): Promise<WidgetItems> {
  const limit = clampLimit(request.limit, WIDGET_LIMIT_DEFAULT, WIDGET_LIMIT_MAX);
  if (sources.client === null) return unreachable();
  const newest = await newestDocuments(sources.cache, sources.archiveUrl, sources.client);
  if (!newest.ok) return unreachable();

  const since = request.sinceId === undefined ? null : Date.parse(request.sinceId);
  const candidates = newest.documents.filter((d) => since === null || Date.parse(d.added) > since);
  if (candidates.length === 0) return listOf([], limit, request.user, sources);

  const visible = await sources.host.visibleArchiveFiles(
    request.user,
    sources.archiveAccount,
    candidates.map((d) => d.id),
  );
  const shown = candidates.filter((d) => visible.has(d.id)).slice(0, limit);
  const account = await sources.host.findAccount(request.user);
  const hostUrl = sources.host.hostUrl;
  const items = shown.flatMap((document): WidgetItem[] => {
    const file = visible.get(document.id);
    if (file === undefined) return [];
    const line = [
      formatDay(document.added, account?.language),
      document.correspondent === null ? undefined : newest.correspondents[String(document.correspondent)],
      document.documentType === null ? undefined : newest.documentTypes[String(document.documentType)],
    ].filter((part): part is string => part !== undefined && part !== null && part !== '');
    return [
      {
        title: document.title,
        subtitle: line.join(' · '),
        link: fileLink(hostUrl, file.fileId),
        iconUrl: previewUrl(hostUrl, file.fileId),
        sinceId: document.added,
        overlayIconUrl: '',
      },
    ];
  });
  return listOf(items, limit, request.user, sources);
}

function listOf(items: readonly WidgetItem[], limit: number, user: string, sources: WidgetSources): WidgetItems {
  // The archive account owns every listed file: "shared with you" would be empty for it.
  const full = items.length >= limit && user !== sources.archiveAccount;
  return {
    items,
    emptyContentMessage: MESSAGE_EMPTY,
    halfEmptyContentMessage: '',
    moreUrl: full ? `${sources.host.hostUrl ?? ''}/apps/files/sharingin` : null,
  };
}

function unreachable(): WidgetItems {
  return { items: [], emptyContentMessage: MESSAGE_UNREACHABLE, halfEmptyContentMessage: '', moreUrl: null };
}
