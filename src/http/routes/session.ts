import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { SESSION_COOKIE, throttledLogin, type AuthServices } from '../auth-hooks.js';
import { HttpError, unauthenticated } from '../http-error.js';
import { loginPage } from '../pages/login-page.js';
import { sameServerPath } from '../redirect.js';
import { PAGE_SECURITY_HEADERS } from '../pages/html.js';
import { PUBLIC, requirePrincipal, type RouteAccess } from '../route-config.js';
import { ADMIN_PAGE_PATH } from './admin-page.js';

const loginBody = {
  type: 'object',
  required: ['user', 'password'],
  properties: {
    user: { type: 'string', maxLength: 255 },
    password: { type: 'string', maxLength: 4096 },
    redirect_url: { type: 'string', maxLength: 2048 },
  },
} as const;

const confirmBody = {
  type: 'object',
  required: ['password'],
  properties: { password: { type: 'string', maxLength: 4096 } },
} as const;

/** A session's own calls: any logged-in user, with the session's request token. */
const SESSION_STATE: RouteAccess = { access: 'user', csrf: 'state' };

function cookieOptions(request: FastifyRequest, maxAgeSeconds?: number) {
  // Secure under HTTPS, including behind a trusted proxy that says so (X-Forwarded-Proto).
  return {
    httpOnly: true,
    sameSite: 'strict' as const,
    secure: request.protocol === 'https',
    path: '/',
    ...(maxAgeSeconds === undefined ? {} : { maxAge: maxAgeSeconds }),
  };
}

function sendPage(reply: FastifyReply, status: number, html: string): FastifyReply {
  return reply.status(status).headers(PAGE_SECURITY_HEADERS).type('text/html; charset=utf-8').send(html);
}

/** Login form, cookie session, logout and the password confirmation of the admin page. */
export function registerSessionRoutes(app: FastifyInstance, services: AuthServices): void {
  app.get('/login', { config: { dus: PUBLIC } }, async (request, reply) => {
    const query = request.query as Record<string, unknown>;
    return sendPage(reply, 200, loginPage({ redirectUrl: sameServerPath(query.redirect_url, ADMIN_PAGE_PATH), failed: false }));
  });

  app.post('/login', { config: { dus: PUBLIC }, schema: { body: loginBody } }, async (request, reply) => {
    // Login CSRF (a foreign page logging the browser into another account): a browser names
    // the page's origin; it must be this server's. Our pages use the `same-origin` referrer
    // policy, under which the browser sends the real origin (`no-referrer` would make it "null").
    const origin = request.headers.origin;
    if (origin !== undefined && origin !== `${request.protocol}://${request.host}`) {
      throw new HttpError(403, 'forbidden', "Log in from this server's own login page.");
    }
    const body = request.body as { user: string; password: string; redirect_url?: string };
    const redirectUrl = sameServerPath(body.redirect_url, ADMIN_PAGE_PATH);
    let principal;
    try {
      principal = await throttledLogin(services, request.ip, body.user, body.password);
    } catch (error: unknown) {
      if (error instanceof HttpError && error.status === 429) {
        return sendPage(reply, 429, loginPage({ redirectUrl, failed: true, throttled: true }));
      }
      throw error;
    }
    // The form takes the login password only: app passwords are for clients (HTTP Basic).
    if (principal === null || principal.passwordFingerprint === undefined) return sendPage(reply, 401, loginPage({ redirectUrl, failed: true }));
    if (request.session !== null) await services.sessions.destroy(request.session.id);
    // A fresh id at every login: a session id planted before the login is worth nothing.
    const { id } = await services.sessions.create(principal.uid, principal.passwordFingerprint);
    reply.setCookie(SESSION_COOKIE, id, cookieOptions(request));
    return reply.redirect(redirectUrl, 303);
  });

  app.post('/logout', { config: { dus: SESSION_STATE } }, async (request, reply) => {
    if (request.session !== null) await services.sessions.destroy(request.session.id);
    reply.clearCookie(SESSION_COOKIE, cookieOptions(request));
    return reply.redirect('/login', 303);
  });

  app.post('/login/confirm', { config: { dus: SESSION_STATE }, schema: { body: confirmBody } }, async (request) => {
    const principal = requirePrincipal(request.principal);
    const session = request.session;
    if (session === null)
      throw new HttpError(400, 'usage', 'Password confirmation belongs to a browser session; HTTP Basic callers send their password with every request.');
    const { password } = request.body as { password: string };
    const checked = await throttledLogin(services, request.ip, principal.uid, password);
    if (checked === null || checked.uid !== principal.uid || checked.via !== 'password') {
      throw new HttpError(403, 'forbidden', 'Wrong password.');
    }
    session.record = await services.sessions.confirmPassword(session.id, session.record);
    const at = session.record.passwordConfirmedAt ?? 0;
    return { lastLogin: Math.floor(at / 1000) };
  });

  // The host's `/csrftoken`: the session's request token, readable only same-origin (no CORS).
  app.get('/csrftoken', { config: { dus: { access: 'user', csrf: 'none' } } }, async (request) => {
    if (request.session === null) throw unauthenticated();
    return { token: request.session.record.csrfToken };
  });
}
