import type { FastifyInstance } from 'fastify';
import type { ServiceContext } from '../../core/context-types.js';
import { clearHistory, readHistory } from '../../core/diagnostics/history.js';
import { ADMIN_READ, ADMIN_STATE } from '../route-config.js';
import { both, SETTINGS_PATH } from './settings.js';

/** The problem history (read, Clear history), Try a search and the overview check, for administrators. */
export function registerSettingsTools(app: FastifyInstance, context: ServiceContext): void {
  both(app, 'GET', `${SETTINGS_PATH}/diagnostics`, ADMIN_READ, async () => ({ entries: readHistory(context.settings) }));

  both(app, 'DELETE', `${SETTINGS_PATH}/diagnostics`, ADMIN_STATE, async () => {
    clearHistory(context.settings);
    return { entries: readHistory(context.settings) };
  });
}
