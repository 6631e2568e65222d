import type { FastifyInstance } from 'fastify';
import type { ServiceContext } from '../../core/context-types.js';
import { clearHistory, readHistory } from '../../core/diagnostics/history.js';
import { overviewCheck } from '../../core/diagnostics/overview-check.js';
import { decideVerdicts, explanationOf, VERDICT_LIMIT_DEFAULT } from '../../core/search/verdicts.js';
import { badInput } from '../http-error.js';
import { ADMIN_OVERVIEW, ADMIN_READ, ADMIN_STATE, requirePrincipal } from '../route-config.js';
import { both, SETTINGS_PATH } from './settings.js';

function field(body: unknown, name: string, max: number): string {
  const value = typeof body === 'object' && body !== null ? (body as Record<string, unknown>)[name] : undefined;
  if (typeof value !== 'string' || value.trim() === '') throw badInput(`The field ${name} is required.`);
  if (value.length > max) throw badInput(`The field ${name} is longer than ${max} characters.`);
  return value.trim();
}

/** The problem history (read, Clear history), Try a search and the overview check, for administrators. */
export function registerSettingsTools(app: FastifyInstance, context: ServiceContext): void {
  both(app, 'GET', `${SETTINGS_PATH}/diagnostics`, ADMIN_READ, async () => ({ entries: readHistory(context.settings) }));

  // The administration overview check: stored data only, no request to the archive server.
  both(app, 'GET', `${SETTINGS_PATH}/overview`, ADMIN_OVERVIEW, async () => overviewCheck(context));

  both(app, 'DELETE', `${SETTINGS_PATH}/diagnostics`, ADMIN_STATE, async () => {
    clearHistory(context.settings);
    return { entries: readHistory(context.settings) };
  });

  /**
   * Try a search: per document its id, title, whether it shows to the named user and why not.
   * No content, excerpt or file path: the reasons are written without the file. The audit log
   * and the host log record which administrator searched as which user, never the term.
   */
  both(app, 'POST', `${SETTINGS_PATH}/try`, ADMIN_STATE, async (request) => {
    const principal = requirePrincipal(request.principal);
    const term = field(request.body, 'term', 1000);
    const user = field(request.body, 'user', 255);
    const report = await decideVerdicts(context, { user, term, explain: true, limit: VERDICT_LIMIT_DEFAULT, admin: principal.uid });
    return {
      user: report.user,
      found: report.found,
      rejected: report.rejected,
      rejection: report.rejection,
      note: report.caveat,
      documents: report.items.map((item) => ({
        id: item.id,
        title: item.title,
        shown: item.verdict === 'shown',
        verdict: item.verdict,
        whyNot: item.verdict === 'shown' ? null : explanationOf(item.verdict, item.id, report.user, report.archiveAccount, undefined, item.cause, false),
      })),
    };
  });
}
