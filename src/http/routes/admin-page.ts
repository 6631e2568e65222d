import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ServiceContext } from '../../core/context-types.js';
import { settingsResponse } from '../../core/admin/settings-response.js';
import { overviewCheck } from '../../core/diagnostics/overview-check.js';
import { catalogLanguage, msg, render, textIn } from '../../core/i18n/catalog.js';
import { ADMIN_SCRIPT } from '../pages/admin-script.js';
import { adminPage, ADMIN_SCRIPT_PATH } from '../pages/admin-page.js';
import { escapeHtml, layout, PAGE_SECURITY_HEADERS } from '../pages/html.js';
import { PUBLIC, requirePrincipal, type RouteAccess } from '../route-config.js';

export const ADMIN_PAGE_PATH = '/settings/admin/docs_unified_search';

/** A browser page for administrators with a session; others go to the login form. */
const ADMIN_PAGE: RouteAccess = { access: 'user', csrf: 'none', page: true };

export function registerAdminPage(app: FastifyInstance, context: ServiceContext): void {
  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    const principal = requirePrincipal(request.principal);
    const language = principal.language ?? null;
    if (!principal.admin) {
      const title = escapeHtml(textIn('page.admins_only', language));
      const body = `<main><section><h2>${title}</h2><p>${escapeHtml(render(msg('page.admins_only_text', { uid: principal.uid }), language))}</p></section></main>`;
      return reply
        .status(403)
        .headers(PAGE_SECURITY_HEADERS)
        .type('text/html; charset=utf-8')
        .send(layout(textIn('page.admins_only', language), body, '', catalogLanguage(language) ?? 'en'));
    }
    const session = request.session;
    if (session === null) {
      // The page's calls need a session's request token: Basic-auth visitors log in first.
      return reply.redirect(`/login?redirect_url=${encodeURIComponent(ADMIN_PAGE_PATH)}`, 303);
    }
    const html = adminPage({
      uid: principal.uid,
      requestToken: session.record.csrfToken,
      settings: await settingsResponse(context),
      connection: await overviewCheck(context, language),
      language,
    });
    return reply.headers(PAGE_SECURITY_HEADERS).type('text/html; charset=utf-8').send(html);
  };
  app.get(ADMIN_PAGE_PATH, { config: { dus: ADMIN_PAGE } }, handler);
  app.get(`/index.php${ADMIN_PAGE_PATH}`, { config: { dus: ADMIN_PAGE } }, handler);
  app.get('/', { config: { dus: PUBLIC } }, async (_request, reply) => reply.redirect(ADMIN_PAGE_PATH, 303));
  app.get(ADMIN_SCRIPT_PATH, { config: { dus: PUBLIC } }, async (_request, reply) =>
    reply.headers({ 'cache-control': 'no-cache', 'x-content-type-options': 'nosniff' }).type('text/javascript; charset=utf-8').send(ADMIN_SCRIPT),
  );
}
