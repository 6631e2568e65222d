import type { FastifyInstance } from 'fastify';
import type { ServiceContext } from '../../core/context-types.js';
import { clearHistory, readHistory } from '../../core/diagnostics/history.js';
import { overviewCheck } from '../../core/diagnostics/overview-check.js';
import { decideVerdicts, explanationIn, explanationMessage, rejectionMessage, VERDICT_LIMIT_DEFAULT } from '../../core/search/verdicts.js';
import { chainText, whoCanOpen } from '../../core/search/who.js';
import { msg } from '../../core/i18n/catalog.js';
import { badInput } from '../http-error.js';
import { ADMIN_OVERVIEW, ADMIN_READ, ADMIN_STATE, requirePrincipal } from '../route-config.js';
import { both, SETTINGS_PATH } from './settings.js';

function field(body: unknown, name: string, max: number): string {
  const value = typeof body === 'object' && body !== null ? (body as Record<string, unknown>)[name] : undefined;
  if (typeof value !== 'string' || value.trim() === '') throw badInput(msg('usage.field_required', { field: name }));
  if (value.length > max) throw badInput(msg('usage.field_too_long', { field: name, max }));
  return value.trim();
}

/** The problem history (read, Clear history), Try a search, Who can open and the overview check, for administrators. */
export function registerSettingsTools(app: FastifyInstance, context: ServiceContext): void {
  both(app, 'GET', `${SETTINGS_PATH}/diagnostics`, ADMIN_READ, async () => ({ entries: readHistory(context.settings) }));

  // The administration overview check: stored data only, no request to the archive server.
  both(app, 'GET', `${SETTINGS_PATH}/overview`, ADMIN_OVERVIEW, async (request) => overviewCheck(context, request.principal?.language ?? null));

  both(app, 'DELETE', `${SETTINGS_PATH}/diagnostics`, ADMIN_STATE, async () => {
    clearHistory(context.settings);
    return { entries: readHistory(context.settings) };
  });

  /**
   * Try a search: per document its id, title, whether it shows to the named user and why not.
   * No content, excerpt or file path: the reasons are written without the file, in the
   * administrator's language. The audit log and the host log record which administrator
   * searched as which user, never the term.
   */
  both(app, 'POST', `${SETTINGS_PATH}/try`, ADMIN_STATE, async (request) => {
    const principal = requirePrincipal(request.principal);
    const term = field(request.body, 'term', 1000);
    const user = field(request.body, 'user', 255);
    const report = await decideVerdicts(context, { user, term, explain: true, limit: VERDICT_LIMIT_DEFAULT, admin: principal.uid });
    const language = principal.language ?? null;
    return {
      user: report.user,
      found: report.found,
      rejected: report.rejected,
      rejection: report.rejection,
      // The line the CLI prints for a rejected term: with Paperless's own message when it gave one.
      rejectionMessage: report.rejected ? rejectionMessage(report.rejection, report.refusal) : null,
      note: report.caveat,
      documents: report.items.map((item) => ({
        id: item.id,
        title: item.title,
        shown: item.verdict === 'shown',
        verdict: item.verdict,
        whyNot:
          item.verdict === 'shown'
            ? null
            : explanationIn(explanationMessage(item.verdict, item.id, report.user, report.archiveAccount, undefined, item.cause, false), language),
      })),
    };
  });

  /**
   * Who can open document N (`who`): every account that opens its file, the path and the share
   * that gives it, and with `includeBlocked` those a share reaches that cannot. Paths are the
   * answer here (an administrator audits access); the audit log records who asked, for which
   * document. Chains and causes are in the administrator's language.
   */
  both(app, 'POST', `${SETTINGS_PATH}/who`, ADMIN_STATE, async (request) => {
    const principal = requirePrincipal(request.principal);
    const id = field(request.body, 'document', 32).replace(/^\[?P/i, '').replace(/\]$/, '');
    if (!/^\d{1,15}$/.test(id) || Number(id) < 1) throw badInput(msg('usage.document_id'));
    const body = typeof request.body === 'object' && request.body !== null ? (request.body as Record<string, unknown>) : {};
    const includeBlocked = body.includeBlocked === true || body.includeBlocked === 'true' || body.includeBlocked === '1';
    const answer = await whoCanOpen(context, Number(id), { includeBlocked }, principal.uid);
    const language = principal.language ?? null;
    return {
      document: answer.documentId,
      files: answer.files,
      noFile: explanationIn(answer.noFileMessage, language),
      accounts: answer.accounts.map((entry) => ({
        account: entry.account,
        path: entry.path,
        through: entry.chain === null ? null : chainText(entry.chain, language),
        blocked: entry.blockedMessage === null ? entry.blocked : explanationIn(entry.blockedMessage, language),
      })),
    };
  });
}
