import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Authenticator, Principal } from '../core/auth/authenticator.js';
import { csrfTokenMatches, type SessionStore } from '../core/auth/sessions.js';
import type { LoginThrottle } from '../core/auth/throttle.js';
import { confirmationRequired, csrfFailed, forbidden, throttled, unauthenticated } from './http-error.js';
import type { RouteAccess } from './route-config.js';

export const SESSION_COOKIE = 'dus_session';

export interface AuthServices {
  readonly authenticator: () => Promise<Authenticator>;
  readonly sessions: SessionStore;
  readonly throttle: LoginThrottle;
  readonly sleep: (ms: number) => Promise<void>;
}

/**
 * Checks a login and password for a client address with the throttle around it: a refused
 * address gets 429, others wait their delay; failures count, a success clears the count.
 * From an address without failures, an app password or a password verified in the last
 * minute passes at once (scripts send Basic auth on every call, many at a time); every other
 * check waits its turn behind the address's earlier checks, and reads their failures.
 */
export async function throttledLogin(services: AuthServices, address: string, login: string, password: string): Promise<Principal | null> {
  const first = await services.throttle.verdict(address);
  if (first.refused) throw throttled();
  const authenticator = await services.authenticator();
  if (first.delayMs === 0) {
    const quick = await authenticator.quickLogin(login, password);
    if (quick !== null) return quick;
  }
  return services.throttle.oneAtATime(address, async () => {
    const verdict = await services.throttle.verdict(address);
    if (verdict.refused) throw throttled();
    if (verdict.delayMs > 0) await services.sleep(verdict.delayMs);
    const principal = await authenticator.authenticate(login, password);
    if (principal === null) await services.throttle.registerFailure(address);
    // Only an address with failures has a count to clear: no write for every good Basic call.
    else if (verdict.delayMs > 0) await services.throttle.reset(address);
    return principal;
  });
}

function basicCredentials(header: string | undefined): { login: string; password: string } | null {
  if (header === undefined || !/^Basic /i.test(header)) return null;
  const decoded = Buffer.from(header.slice(6).trim(), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return null;
  return { login: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

/** The request token a cookie-session caller presents: header like the host's, or form field. */
function presentedRequestToken(request: FastifyRequest): string | undefined {
  const header = request.headers.requesttoken;
  if (typeof header === 'string') return header;
  const body = request.body;
  if (typeof body === 'object' && body !== null && 'requesttoken' in body) {
    const field = body.requesttoken;
    if (typeof field === 'string') return field;
  }
  return undefined;
}

function accessOf(request: FastifyRequest): RouteAccess | undefined {
  return request.routeOptions.config.dus;
}

/**
 * Identifies the caller (HTTP Basic with password or app password, else the session cookie)
 * before the body is read, and refuses callers the route does not admit; the CSRF and
 * password-confirmation rules run once the body (which may carry the request token) is parsed.
 */
export function registerAuthHooks(app: FastifyInstance, services: AuthServices): void {
  app.decorateRequest('principal', null);
  app.decorateRequest('session', null);
  app.decorateRequest('bridgeConfirmed', false);

  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    const access = accessOf(request);
    // Bridge routes identify their caller from the signature, once the body is read (src/http/bridge.ts).
    if (access === undefined || request.routeOptions.config.bridge === true) return;
    // Public routes (the login form, the page script) check no password: a stale Basic header
    // must not lock a browser out of the login form, nor buy an anonymous caller a hash check.
    const basic = access.access === 'public' ? null : basicCredentials(request.headers.authorization);
    if (basic !== null) {
      const principal = await throttledLogin(services, request.ip, basic.login, basic.password);
      if (principal === null) throw unauthenticated();
      request.principal = principal;
    } else {
      const id = request.cookies[SESSION_COOKIE];
      const record = id === undefined ? undefined : await services.sessions.get(id);
      if (id !== undefined && record !== undefined) {
        const principal = await (await services.authenticator()).sessionPrincipal(record.uid, record.passwordFingerprint);
        if (principal !== null) {
          request.principal = principal;
          request.session = { id, record };
        } else {
          // Refused once, ended for good: an account enabled again (or a password set back) does
          // not bring the session back, as the host invalidates the session token it refused.
          await services.sessions.destroy(id);
        }
      }
    }
    if (access.access === 'public') return;
    if (request.principal === null) {
      if (access.page === true) {
        const target = encodeURIComponent(request.url);
        await reply.redirect(`/login?redirect_url=${target}`, 303);
        return reply;
      }
      throw unauthenticated();
    }
    if (access.access === 'admin' && !request.principal.admin) throw forbidden();
    return undefined;
  });

  app.addHook('preHandler', async (request: FastifyRequest) => {
    const access = accessOf(request);
    const principal = request.principal;
    if (access === undefined || principal === null || access.access === 'public') return;
    if (request.routeOptions.config.bridge === true) {
      // Nextcloud checked its own CSRF token and confirmed the password; the signed header reports the latter.
      if (access.access === 'admin' && !principal.admin) throw forbidden();
      if (access.confirm === true && !request.bridgeConfirmed) throw confirmationRequired();
      return;
    }
    if (request.session !== null) {
      const needsToken = access.csrf === 'state' || access.csrf === 'ocs';
      if (needsToken && !csrfTokenMatches(request.session.record, presentedRequestToken(request))) throw csrfFailed();
    } else if (access.csrf === 'state' && request.headers['ocs-apirequest'] !== 'true') {
      throw csrfFailed();
    }
    if (access.confirm === true && !passwordConfirmed(services, request)) throw confirmationRequired();
  });
}

/** Basic auth with the login password counts as confirmed (the host's rule); app passwords do not. */
function passwordConfirmed(services: AuthServices, request: FastifyRequest): boolean {
  const principal = request.principal;
  if (principal === null) return false;
  if (principal.via === 'password') return true;
  if (principal.via === 'app-password') return false;
  return request.session !== null && services.sessions.isConfirmed(request.session.record);
}
