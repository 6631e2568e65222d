import type { FastifyInstance, RouteHandlerMethod } from 'fastify';
import type { ServiceContext } from '../../core/context-types.js';
import { disconnect } from '../../core/admin/disconnect.js';
import { saveSettings } from '../../core/admin/save-settings.js';
import { settingsResponse } from '../../core/admin/settings-response.js';
import { ADMIN_READ, ADMIN_STATE_CONFIRMED, type RouteAccess } from '../route-config.js';
import { saveInputOf } from './settings-input.js';

export const SETTINGS_PATH = '/apps/docs_unified_search/settings';

/** Registers a route under both of the host's forms: with and without `/index.php`. */
export function both(app: FastifyInstance, method: 'GET' | 'POST' | 'DELETE', path: string, access: RouteAccess, handler: RouteHandlerMethod): void {
  for (const url of [path, `/index.php${path}`]) app.route({ method, url, config: { dus: access }, handler });
}

/** Save (test, then store) and Disconnect: administrators, request token, password confirmed. */
export function registerSettingsRoutes(app: FastifyInstance, context: ServiceContext): void {
  both(app, 'GET', SETTINGS_PATH, ADMIN_READ, async () => settingsResponse(context));

  both(app, 'POST', SETTINGS_PATH, ADMIN_STATE_CONFIRMED, async (request) => saveSettings(context, saveInputOf(request.body)));

  both(app, 'DELETE', SETTINGS_PATH, ADMIN_STATE_CONFIRMED, async () => {
    disconnect(context);
    return settingsResponse(context);
  });
}
