import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Authenticator } from '../core/auth/authenticator.js';
import { BRIDGE_HEADERS, issueBridgeChallenge, validClientNonce, verifyBridgeCall, type BridgeRefusal } from '../core/bridge/signature.js';
import type { ServiceContext } from '../core/context-types.js';
import { settingsResponse } from '../core/admin/settings-response.js';
import { overviewCheck } from '../core/diagnostics/overview-check.js';
import { HttpError } from './http-error.js';
import { adminSettingsForm } from './pages/admin-page.js';
import { registerDashboardRoutes } from './routes/dashboard.js';
import { registerSearchRoutes } from './routes/search.js';
import { registerSettingsRoutes } from './routes/settings.js';
import { registerSettingsTools } from './routes/settings-tools.js';
import { ADMIN_READ, PUBLIC } from './route-config.js';

/** Every route of the Nextcloud bridge app lives under this prefix, and no other caller's route does. */
export const BRIDGE_PREFIX = '/bridge';
const BODY_LIMIT = 64 * 1024;

export interface BridgeServices {
  readonly context: ServiceContext;
  readonly secret: () => string | null;
  /** The address the app calls this process at, as its `service_url` names it (`serviceAddress`). */
  readonly service: () => string;
  readonly authenticator: () => Promise<Authenticator>;
  readonly now: () => number;
}

/** One answer for every refusal: the caller learns nothing about which check failed (the log says). */
const refused = (): HttpError => new HttpError(401, 'bridge_refused', 'This route answers signed calls of the Nextcloud bridge app only.');

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return typeof value === 'string' ? value : undefined;
}

async function readBody(payload: NodeJS.ReadableStream): Promise<Buffer> {
  const parts: Buffer[] = [];
  let size = 0;
  for await (const chunk of payload) {
    const part = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    size += part.length;
    if (size > BODY_LIMIT) throw new HttpError(413, 'too_large', 'The body is larger than 64 KiB.');
    parts.push(part);
  }
  return Buffer.concat(parts);
}

/**
 * The route family of the Nextcloud bridge app: the search provider, the smart picker, the
 * dashboard widget and the settings routes again, under `/bridge`, admitting only calls
 * signed with the shared secret (docs/bridge.md). The acting user comes from the signed
 * header only and must exist and be enabled in the host database; Nextcloud has done CSRF
 * and the password confirmation, which the signed header reports. Basic auth and sessions
 * count for nothing here, and signed headers count for nothing on the other routes.
 */
export async function registerBridgeRoutes(app: FastifyInstance, services: BridgeServices): Promise<void> {
  const { context } = services;

  // The challenge every signed call is bound to (docs/bridge.md, "The transport"). Anyone may ask:
  // without the secret a challenge is worth nothing, and issuing one stores nothing. The proof
  // over the app's fresh `c` is what tells the app it reached `serve` and not a stranger on its
  // address, before it sends anything signed; the address the challenge names (and its MAC
  // covers) tells the app it reached the process it addressed, not another one sharing the secret.
  app.get(`${BRIDGE_PREFIX}/challenge`, { config: { dus: PUBLIC } }, async (request, reply) => {
    const secret = services.secret();
    const query = request.query as Record<string, unknown>;
    const clientNonce = typeof query.c === 'string' ? query.c : '';
    const reason = secret === null ? 'no_secret' : validClientNonce(clientNonce) ? null : 'malformed';
    if (secret === null || reason !== null) {
      context.logger.warn({ code: 'bridge_refused', reason, route: request.routeOptions.url }, 'a call to the bridge routes was refused');
      throw refused();
    }
    void reply.header('cache-control', 'no-store');
    return issueBridgeChallenge(secret, clientNonce, services.now(), services.service());
  });
  await app.register(
    async (scope) => {
      scope.addHook('onRoute', (route) => {
        route.config = { ...route.config, bridge: true };
      });

      // The body is read here, before fastify parses it, because the signature covers its bytes.
      scope.addHook('preParsing', async (request, _reply, payload) => {
        const body = await readBody(payload);
        const presented = {
          user: header(request, BRIDGE_HEADERS.user),
          time: header(request, BRIDGE_HEADERS.time),
          nonce: header(request, BRIDGE_HEADERS.nonce),
          confirmed: header(request, BRIDGE_HEADERS.confirmed),
          challenge: header(request, BRIDGE_HEADERS.challenge),
          signature: header(request, BRIDGE_HEADERS.signature),
        };
        const verdict = await verifyBridgeCall({
          secret: services.secret(),
          service: services.service(),
          method: request.method,
          pathWithQuery: request.raw.url ?? '',
          headers: presented,
          body,
          nowMs: services.now(),
          cache: context.cache,
        });
        const refuse = (reason: BridgeRefusal | 'unknown_user' | 'system_call'): never => {
          // The route pattern, not the URL: a search URL carries the term.
          context.logger.warn({ code: 'bridge_refused', reason, route: request.routeOptions.url }, 'a call to the bridge routes was refused');
          throw refused();
        };
        if (!verdict.ok) refuse(verdict.reason);
        const uid = presented.user ?? '';
        const access = request.routeOptions.config.dus;
        if (uid === '') {
          // A call without a user (the overview check from `occ setupchecks`) only where a route admits it.
          if (access?.systemCall !== true) refuse('system_call');
          request.principal = { uid: '', admin: true, via: 'bridge' };
        } else {
          const principal = await (await services.authenticator()).bridgePrincipal(uid);
          if (principal === null) refuse('unknown_user');
          request.principal = principal;
        }
        request.bridgeConfirmed = presented.confirmed === '1';
        const replay = Readable.from(body.length === 0 ? [] : [body]) as Readable & { receivedEncodedLength?: number };
        replay.receivedEncodedLength = body.length;
        return replay;
      });

      registerSearchRoutes(scope, context);
      registerDashboardRoutes(scope, context);
      registerSettingsRoutes(scope, context);
      registerSettingsTools(scope, context);
      // The settings section's form, rendered once here and shown by Nextcloud's admin page.
      scope.get('/settings/admin/form', { config: { dus: ADMIN_READ } }, async (request) => ({
        html: adminSettingsForm(
          await settingsResponse(context),
          await overviewCheck(context, request.principal?.language ?? null),
          request.principal?.language ?? null,
        ),
      }));
    },
    { prefix: BRIDGE_PREFIX },
  );
}
