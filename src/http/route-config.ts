import type { SessionRecord } from '../core/auth/sessions.js';
import type { Principal } from '../core/auth/authenticator.js';

/**
 * What a route asks of its caller; checked by the authentication hooks before the handler.
 * - `access`: `public`, `user` (any enabled host account) or `admin` (group `admin`).
 * - `csrf`: whether a cookie session must present its request token (state-changing and OCS
 *   routes); Basic-auth callers of a `state` route must send `OCS-APIRequest: true` instead.
 * - `confirm`: the password must have been confirmed in the last 30 minutes (Save, Disconnect).
 */
export interface RouteAccess {
  readonly access: 'public' | 'user' | 'admin';
  readonly csrf: 'none' | 'ocs' | 'state';
  readonly confirm?: boolean;
  /** Browser pages: an anonymous caller is sent to the login page instead of a 401. */
  readonly page?: boolean;
  /** The bridge may call it without a user (the overview check run by `occ setupchecks`). */
  readonly systemCall?: boolean;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    readonly dus?: RouteAccess;
    /** Set on the bridge's routes (src/http/bridge.ts): signed calls only. */
    readonly bridge?: boolean;
  }
  interface FastifyRequest {
    principal: Principal | null;
    session: { readonly id: string; record: SessionRecord } | null;
    /** A bridge call on which Nextcloud confirmed the password (the signed header says so). */
    bridgeConfirmed: boolean;
  }
}

export const PUBLIC: RouteAccess = { access: 'public', csrf: 'none' };
export const USER_OCS: RouteAccess = { access: 'user', csrf: 'ocs' };
export const ADMIN_READ: RouteAccess = { access: 'admin', csrf: 'none' };
export const ADMIN_OVERVIEW: RouteAccess = { access: 'admin', csrf: 'none', systemCall: true };
export const ADMIN_STATE: RouteAccess = { access: 'admin', csrf: 'state' };
export const ADMIN_STATE_CONFIRMED: RouteAccess = { access: 'admin', csrf: 'state', confirm: true };

export function requirePrincipal(principal: Principal | null): Principal {
  if (principal === null) throw new Error('route reached without a principal: its access rule is missing');
  return principal;
}
