import { setTimeout as delay } from 'node:timers/promises';
import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import multipart from '@fastify/multipart';
import Fastify, { type FastifyInstance } from 'fastify';
import { Authenticator } from '../core/auth/authenticator.js';
import { SessionStore } from '../core/auth/sessions.js';
import { LoginThrottle } from '../core/auth/throttle.js';
import type { ServiceContext } from '../core/context-types.js';
import { registerAuthHooks, type AuthServices } from './auth-hooks.js';
import { serviceAddress } from '../core/bridge/signature.js';
import { registerBridgeRoutes } from './bridge.js';
import { clientErrorHandler, frameworkErrors, registerErrorHandling } from './error-handling.js';
import { limitedServer, type ServerLimits } from './server-limits.js';
import { registerAdminPage } from './routes/admin-page.js';
import { registerDashboardRoutes } from './routes/dashboard.js';
import { registerHealthRoute } from './routes/health.js';
import { registerSessionRoutes } from './routes/session.js';
import { registerSettingsRoutes } from './routes/settings.js';
import { registerSettingsTools } from './routes/settings-tools.js';
import { registerSearchRoutes } from './routes/search.js';

export interface WrapperOptions {
  readonly context: ServiceContext;
  /** fastify's `trustProxy`: true, a hop count, or addresses/CIDRs of the trusted proxies. */
  readonly trustProxy?: boolean | number | string | readonly string[];
  /** Clock for sessions, password confirmation, throttling and token expiry (tests move it). */
  readonly now?: () => number;
  /** How a throttled login waits (tests record the delay instead of sleeping). */
  readonly sleep?: (ms: number) => Promise<void>;
  /** Timeouts and the connection cap (tests shorten them); default `SERVER_LIMITS`. */
  readonly limits?: Partial<ServerLimits>;
  /** config.php `passwordsalt`, for legacy 60-character password hashes only. */
  readonly legacySalt?: string;
  /** The bridge's shared secret (`bridge:secret`), read at each call; without one every bridge call is refused. */
  readonly bridgeSecret?: () => string | null;
  /**
   * The bridge's `service_url` for this process (`serve --service-url`): what its challenges are
   * bound to. Default: the address it listens on, as `serve` prints it (`http://127.0.0.1:8080`,
   * `unix:///run/…/serve.sock`).
   */
  readonly serviceUrl?: string;
}

/** The address a listening server answers at, as `serve` prints it and the app's `service_url` names it. */
export function listeningAddress(address: ReturnType<FastifyInstance['server']['address']>): string {
  if (typeof address === 'string') return `unix://${address}`;
  if (address === null) return '';
  return `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`;
}

/** A hop count becomes the function fastify takes for it: trust the nearest `hops` proxies. */
function trustProxyOf(given: WrapperOptions['trustProxy']): boolean | string | string[] | ((address: string, hop: number) => boolean) {
  if (given === undefined) return false;
  if (typeof given === 'number') return (_address: string, hop: number) => hop < given;
  if (typeof given === 'string' || typeof given === 'boolean') return given;
  return [...given];
}

/**
 * The HTTP wrapper: the host's URLs for the provider calls, the dashboard widget, the smart
 * picker, the settings routes and the admin page, each a thin route over src/core. fastify's
 * own logger stays off (it would log URLs and bodies); failures go to the host log by code.
 */
export async function buildServer(options: WrapperOptions): Promise<FastifyInstance> {
  const context = options.context;
  const now = options.now ?? Date.now;
  const app = Fastify({
    logger: false,
    bodyLimit: 64 * 1024,
    trustProxy: trustProxyOf(options.trustProxy),
    // The host's routes take the same path with or without a trailing slash.
    routerOptions: { ignoreTrailingSlash: true },
    frameworkErrors,
    clientErrorHandler,
    serverFactory: limitedServer(options.limits),
  });

  let authenticator: Promise<Authenticator> | undefined;
  const services: AuthServices = {
    authenticator: () =>
      (authenticator ??= context
        .host()
        .then((host) => new Authenticator(host, { now, ...(options.legacySalt === undefined ? {} : { legacySalt: options.legacySalt }) }))),
    sessions: new SessionStore(context.cache, now),
    throttle: new LoginThrottle(context.cache, now),
    sleep: options.sleep ?? ((ms) => delay(ms)),
  };

  await app.register(cookie);
  await app.register(formbody);
  await app.register(multipart, { attachFieldsToBody: 'keyValues', limits: { fileSize: 16 * 1024, files: 1, fields: 20, parts: 21 } });

  registerErrorHandling(app, context);

  // Answers carry user data and settings: never cached by a proxy or the browser, never sniffed.
  app.addHook('onSend', async (_request, reply, payload) => {
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    reply.header('x-content-type-options', 'nosniff');
    return payload;
  });

  registerAuthHooks(app, services);
  registerSessionRoutes(app, services);
  registerAdminPage(app, context);
  registerSearchRoutes(app, context);
  registerDashboardRoutes(app, context);
  registerSettingsRoutes(app, context);
  registerSettingsTools(app, context);
  registerHealthRoute(app, context);
  const given = options.serviceUrl === undefined ? undefined : serviceAddress(options.serviceUrl);
  await registerBridgeRoutes(app, {
    context,
    now,
    authenticator: services.authenticator,
    secret: options.bridgeSecret ?? (() => null),
    service: () => given ?? listeningAddress(app.server.address()),
  });
  return app;
}
