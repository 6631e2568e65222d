import type { FastifyInstance } from 'fastify';
import type { ServiceContext } from '../../core/context-types.js';
import { APP_ID } from '../../core/version.js';
import { ocsOk } from '../ocs.js';
import { USER_OCS } from '../route-config.js';

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
}
