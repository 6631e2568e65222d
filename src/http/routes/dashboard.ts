import type { FastifyInstance } from 'fastify';
import type { ServiceContext } from '../../core/context-types.js';
import { MESSAGE_EMPTY, MESSAGE_UNREACHABLE, WIDGET_ID, WIDGET_LIMIT_MAX, widgetItems, type WidgetItems } from '../../core/widget/widget-items.js';
import { widgetOffer } from '../../core/widget/offer.js';
import { textIn } from '../../core/i18n/catalog.js';
import { badInput } from '../http-error.js';
import { ocsOk } from '../ocs.js';
import { requirePrincipal, USER_OCS } from '../route-config.js';

const itemsQuery = {
  type: 'object',
  properties: {
    'widgets[]': { anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] },
    limit: { type: 'integer', minimum: 1, maximum: WIDGET_LIMIT_MAX },
  },
} as const;

function requestedWidgets(query: Record<string, unknown>): readonly string[] | null {
  const raw = query['widgets[]'] ?? query.widgets;
  if (raw === undefined) return null;
  return Array.isArray(raw) ? raw.filter((v): v is string => typeof v === 'string') : typeof raw === 'string' ? [raw] : [];
}

function sinceIdOf(query: Record<string, unknown>): string | undefined {
  const raw = query[`sinceIds[${WIDGET_ID}]`];
  if (raw === undefined || raw === '') return undefined;
  if (typeof raw !== 'string' || Number.isNaN(Date.parse(raw))) {
    throw badInput(`sinceIds[${WIDGET_ID}] must be a sinceId this widget gave: the moment a document was added.`);
  }
  return raw;
}

/** The widget's two messages in the user's language. */
function inLanguage(message: string, language: string | null): string {
  if (message === MESSAGE_EMPTY) return textIn('names.widget_empty', language);
  if (message === MESSAGE_UNREACHABLE) return textIn('names.widget_unreachable', language);
  return message;
}

/**
 * The dashboard API for the widget `docs_unified_search-recent`: the widgets list (v1) and
 * the items (v1 and v2). Without `widgets[]` the host returns the widgets of the user's
 * layout; this wrapper has no layouts, so it then returns this widget when it is offered.
 */
export function registerDashboardRoutes(app: FastifyInstance, context: ServiceContext): void {
  app.get('/ocs/v2.php/apps/dashboard/api/v1/widgets', { config: { dus: USER_OCS } }, async (request) => {
    const principal = requirePrincipal(request.principal);
    const offer = await widgetOffer(context);
    if (offer === null) return ocsOk({});
    const host = await context.host();
    const language = principal.language ?? null;
    const more = textIn('names.widget_more', language);
    const buttons = principal.uid === offer.archiveAccount ? [] : [{ type: 'more', text: more, link: `${host.hostUrl ?? ''}/apps/files/sharingin` }];
    return ocsOk({
      [WIDGET_ID]: {
        id: WIDGET_ID,
        title: textIn('names.widget', language),
        order: 50,
        icon_class: 'icon-docs_unified_search',
        icon_url: '',
        widget_url: null,
        item_icons_round: false,
        item_api_versions: [1, 2],
        reload_interval: 60,
        buttons,
      },
    });
  });

  const items = async (query: Record<string, unknown>, uid: string, language: string | null): Promise<Record<string, WidgetItems>> => {
    const wanted = requestedWidgets(query);
    if (wanted !== null && !wanted.includes(WIDGET_ID)) return {};
    const offer = await widgetOffer(context);
    if (offer === null) return {};
    const limit = typeof query.limit === 'number' ? query.limit : undefined;
    const sinceId = sinceIdOf(query);
    const result = await widgetItems(
      { user: uid, limit, ...(sinceId === undefined ? {} : { sinceId }) },
      { cache: context.cache, host: await context.host(), archiveAccount: offer.archiveAccount, archiveUrl: offer.archiveUrl, client: context.archiveClient() },
    );
    // The core's lists are kept per user in the cache: their messages are written per request.
    return { [WIDGET_ID]: { ...result, emptyContentMessage: inLanguage(result.emptyContentMessage, language) } };
  };

  app.get('/ocs/v2.php/apps/dashboard/api/v2/widget-items', { config: { dus: USER_OCS }, schema: { querystring: itemsQuery } }, async (request) => {
    const principal = requirePrincipal(request.principal);
    return ocsOk(await items(request.query as Record<string, unknown>, principal.uid, principal.language ?? null));
  });

  app.get('/ocs/v2.php/apps/dashboard/api/v1/widget-items', { config: { dus: USER_OCS }, schema: { querystring: itemsQuery } }, async (request) => {
    const principal = requirePrincipal(request.principal);
    const all = await items(request.query as Record<string, unknown>, principal.uid, principal.language ?? null);
    return ocsOk(Object.fromEntries(Object.entries(all).map(([id, list]) => [id, list.items])));
  });
}
