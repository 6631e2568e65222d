import type { FastifyInstance, FastifyRequest } from 'fastify';
import { archiveFileAccess, fileIdOfLink } from '../../core/auth/file-access.js';
import type { ServiceContext } from '../../core/context-types.js';
import { fileLink, previewUrl } from '../../core/search/entry-format.js';
import { PROVIDER_LIMIT_MAX } from '../../core/search/inputs.js';
import { runSearch, type SearchEntry } from '../../core/search/pipeline.js';
import { APP_ID } from '../../core/version.js';
import { widgetOffer } from '../../core/widget/offer.js';
import { textIn } from '../../core/i18n/catalog.js';
import { badInput } from '../http-error.js';
import { ocsOk } from '../ocs.js';
import { requirePrincipal, USER_OCS } from '../route-config.js';

export const PROVIDER_ID = 'docs_unified_search_documents';
export const REFERENCE_PROVIDER_ID = 'docs_unified_search-documents';

const searchQuery = {
  type: 'object',
  properties: {
    term: { type: 'string', maxLength: 1000 },
    // Out of range is refused rather than clamped: a caller asking for 500 learns the maximum.
    limit: { type: 'integer', minimum: 1, maximum: PROVIDER_LIMIT_MAX },
    cursor: { type: 'string', maxLength: 20 },
    since: { type: 'string', maxLength: 64 },
    until: { type: 'string', maxLength: 64 },
    from: { type: 'string', maxLength: 2048 },
    sortOrder: { type: 'string', maxLength: 8 },
  },
} as const;

/**
 * The host's SearchResultEntry. The subline carries day, correspondent, type and the
 * excerpt (the host's search box shows title and subline only); attributes repeat each part
 * for clients that lay them out themselves (strings only, as the host requires).
 */
function resultEntry(entry: SearchEntry) {
  const meta = [entry.date, entry.correspondent, entry.documentType].filter((part): part is string => part !== null && part !== '').join(' · ');
  const subline = entry.excerpt === '' ? meta : meta === '' ? entry.excerpt : `${meta} — ${entry.excerpt}`;
  return {
    thumbnailUrl: entry.previewUrl,
    title: entry.title,
    subline,
    resourceUrl: entry.link,
    icon: entry.iconUrl,
    rounded: false,
    attributes: {
      documentId: String(entry.documentId),
      fileId: String(entry.fileId),
      path: entry.path,
      date: entry.created ?? '',
      correspondent: entry.correspondent ?? '',
      documentType: entry.documentType ?? '',
      excerpt: entry.excerpt,
      mimetype: entry.mimetype,
    },
  };
}

/**
 * The unified-search provider and the smart picker's reference provider. The term gate of
 * the spec (Authentication 10) is the host's client-side switch: a provider flagged external
 * is searched by the host's search box only with "connected services" on, while a client
 * that asks the provider by its ID (this endpoint, the smart picker) is answered. With
 * always-search on the provider is not flagged external, so every search box includes it.
 */
export function registerSearchRoutes(app: FastifyInstance, context: ServiceContext): void {
  // The provider's name in the searching user's language, as the dates of its entries.
  const nameFor = (request: FastifyRequest): string => textIn('names.provider', requirePrincipal(request.principal).language ?? null);

  app.get('/ocs/v2.php/search/providers', { config: { dus: USER_OCS } }, async (request) => {
    // Offered as the widget is: only when settings name an archive server and an existing archive account.
    if ((await widgetOffer(context)) === null) return ocsOk([]);
    const alwaysSearch = context.settings.get('always_search') === true;
    return ocsOk([
      {
        id: PROVIDER_ID,
        appId: APP_ID,
        name: nameFor(request),
        icon: '',
        order: 50,
        triggers: [PROVIDER_ID],
        filters: { term: 'string', since: 'datetime', until: 'datetime' },
        inAppSearch: false,
        isExternalProvider: !alwaysSearch,
      },
    ]);
  });

  app.get(`/ocs/v2.php/search/providers/${PROVIDER_ID}/search`, { config: { dus: USER_OCS }, schema: { querystring: searchQuery } }, async (request) => {
    const principal = requirePrincipal(request.principal);
    const query = request.query as { term?: string; limit?: number; cursor?: string; since?: string; until?: string };
    // A failing archive server or host gives no results here (logged, in the history), as in the host.
    const outcome = await runSearch(context, {
      user: principal.uid,
      term: query.term ?? '',
      ...(query.cursor === undefined ? {} : { cursor: query.cursor }),
      ...(query.limit === undefined ? {} : { limit: query.limit }),
      ...(query.since === undefined ? {} : { since: query.since }),
      ...(query.until === undefined ? {} : { until: query.until }),
    });
    return ocsOk({ name: nameFor(request), isPaginated: true, entries: outcome.entries.map(resultEntry), cursor: outcome.cursor });
  });

  app.get('/ocs/v2.php/references/providers', { config: { dus: USER_OCS } }, async (request) =>
    ocsOk([{ id: REFERENCE_PROVIDER_ID, title: nameFor(request), icon_url: '', order: 50, search_providers_ids: [PROVIDER_ID] }]),
  );

  /**
   * Resolving an inserted link: a rich `file` object only for a reader who can open that
   * archive file; anyone else gets `accessible: false` and no object, like the host's Files
   * reference provider. Links that are not archive files (other files too) resolve to null:
   * they are the host's Files provider's, which checks access itself.
   */
  app.get('/ocs/v2.php/references/resolve', { config: { dus: USER_OCS } }, async (request) => {
    const principal = requirePrincipal(request.principal);
    const reference = (request.query as Record<string, unknown>).reference;
    if (typeof reference !== 'string' || reference === '' || reference.length > 2048) throw badInput('Give the link to resolve as reference.');
    const host = await context.host();
    const fileId = fileIdOfLink(reference, host.hostUrl);
    const archiveAccount = fileId === null ? null : await context.archiveAccount();
    if (fileId === null || archiveAccount === null) return ocsOk({ references: { [reference]: null } });
    const access = await archiveFileAccess(host, principal.uid, archiveAccount, fileId);
    if (!access.archiveFile) return ocsOk({ references: { [reference]: null } });
    const file = access.file;
    const link = fileLink(host.hostUrl, fileId);
    const resolved =
      file === null
        ? {
            richObjectType: 'file',
            richObject: null,
            openGraphObject: { id: reference, name: '', description: null, thumb: null, link: reference },
            accessible: false,
          }
        : {
            richObjectType: 'file',
            richObject: { id: String(file.fileId), name: file.name, path: file.path, link, mimetype: file.mimetype, 'preview-available': true },
            openGraphObject: { id: reference, name: file.name, description: file.path, thumb: previewUrl(host.hostUrl, file.fileId), link },
            accessible: true,
          };
    return ocsOk({ references: { [reference]: resolved } });
  });
}
