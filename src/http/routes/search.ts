import type { FastifyInstance } from 'fastify';
import { fileIdOfLink, openableArchiveFile } from '../../core/auth/file-access.js';
import type { ServiceContext } from '../../core/context-types.js';
import { fileLink, previewUrl } from '../../core/search/entry-format.js';
import { APP_ID } from '../../core/version.js';
import { badInput } from '../http-error.js';
import { ocsOk } from '../ocs.js';
import { requirePrincipal, USER_OCS } from '../route-config.js';

export const PROVIDER_ID = 'docs_unified_search_documents';
export const REFERENCE_PROVIDER_ID = 'docs_unified_search-documents';
export const PROVIDER_NAME = 'Archive documents';

/**
 * The unified-search provider and the smart picker's reference provider. The term gate of
 * the spec (Authentication 10) is the host's client-side switch: a provider flagged external
 * is searched by the host's search box only with "connected services" on, while a client
 * that asks the provider by its ID (this endpoint, the smart picker) is answered. With
 * always-search on the provider is not flagged external, so every search box includes it.
 */
export function registerSearchRoutes(app: FastifyInstance, context: ServiceContext): void {
  app.get('/ocs/v2.php/search/providers', { config: { dus: USER_OCS } }, async () => {
    const alwaysSearch = context.settings.get('always_search') === true;
    return ocsOk([
      {
        id: PROVIDER_ID,
        appId: APP_ID,
        name: PROVIDER_NAME,
        icon: '',
        order: 50,
        triggers: [PROVIDER_ID],
        filters: { term: 'string', since: 'datetime', until: 'datetime' },
        inAppSearch: false,
        isExternalProvider: !alwaysSearch,
      },
    ]);
  });

  app.get('/ocs/v2.php/references/providers', { config: { dus: USER_OCS } }, async () =>
    ocsOk([{ id: REFERENCE_PROVIDER_ID, title: PROVIDER_NAME, icon_url: '', order: 50, search_providers_ids: [PROVIDER_ID] }]),
  );

  /**
   * Resolving an inserted link: a rich `file` object only for a reader who can open that
   * archive file; anyone else gets `accessible: false` and no object, like the host's Files
   * reference provider. Links that are not archive files resolve to null (not this app's).
   */
  app.get('/ocs/v2.php/references/resolve', { config: { dus: USER_OCS } }, async (request) => {
    const principal = requirePrincipal(request.principal);
    const reference = (request.query as Record<string, unknown>).reference;
    if (typeof reference !== 'string' || reference === '' || reference.length > 2048) throw badInput('Give the link to resolve as reference.');
    const host = await context.host();
    const fileId = fileIdOfLink(reference, host.hostUrl);
    const archiveAccount = fileId === null ? null : await context.archiveAccount();
    if (fileId === null || archiveAccount === null) return ocsOk({ references: { [reference]: null } });
    const file = await openableArchiveFile(host, principal.uid, archiveAccount, fileId);
    const link = fileLink(host.hostUrl, fileId);
    const resolved =
      file === null
        ? { richObjectType: 'file', richObject: null, openGraphObject: { id: reference, name: '', description: null, thumb: null, link: reference }, accessible: false }
        : {
            richObjectType: 'file',
            richObject: { id: String(file.fileId), name: file.name, path: file.path, link, mimetype: file.mimetype, 'preview-available': true },
            openGraphObject: { id: reference, name: file.name, description: file.path, thumb: previewUrl(host.hostUrl, file.fileId), link },
            accessible: true,
          };
    return ocsOk({ references: { [reference]: resolved } });
  });
}
