import { setTimeout as delay } from 'node:timers/promises';
import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import multipart from '@fastify/multipart';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyRequest } from 'fastify';
import { Authenticator } from '../core/auth/authenticator.js';
import { SessionStore } from '../core/auth/sessions.js';
import { LoginThrottle } from '../core/auth/throttle.js';
import type { ServiceContext } from '../core/context-types.js';
import { isDusError, messageOf } from '../core/errors.js';
import { registerAuthHooks, type AuthServices } from './auth-hooks.js';
import { registerBridgeRoutes } from './bridge.js';
import { HttpError } from './http-error.js';
import { isOcsPath, ocsFailure } from './ocs.js';
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
  /** config.php `passwordsalt`, for legacy 60-character password hashes only. */
  readonly legacySalt?: string;
  /** The bridge's shared secret (`bridge:secret`), read at each call; without one every bridge call is refused. */
  readonly bridgeSecret?: () => string | null;
}

/** A hop count becomes the function fastify takes for it: trust the nearest `hops` proxies. */
function trustProxyOf(given: WrapperOptions['trustProxy']): boolean | string | string[] | ((address: string, hop: number) => boolean) {
  if (given === undefined) return false;
  if (typeof given === 'number') return (_address: string, hop: number) => hop < given;
  if (typeof given === 'string' || typeof given === 'boolean') return given;
  return [...given];
}

interface Failure {
  readonly status: number;
  readonly code: string;
  readonly message: string;
}

/** Status for the core's codes: settings and archive refusals are the caller's to correct (400). */
function statusOfCore(code: string): number {
  if (code === 'internal' || code === 'host_unreachable' || code === 'host_schema' || code === 'host_config' || code === 'config_access') return 500;
  return 400;
}

function classify(error: unknown): Failure {
  if (error instanceof HttpError) return { status: error.status, code: error.code, message: error.message };
  if (isDusError(error)) return { status: statusOfCore(error.code), code: error.code, message: error.message };
  const fastifyError = error as Partial<FastifyError>;
  if (fastifyError.validation !== undefined) return { status: 400, code: 'usage', message: `Invalid input: ${fastifyError.message ?? 'see the route description'}` };
  const status = fastifyError.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return { status, code: status === 413 ? 'too_large' : 'usage', message: fastifyError.message ?? 'Bad request' };
  }
  return { status: 500, code: 'internal', message: 'Internal error; the host log has the detail.' };
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
  });

  let authenticator: Promise<Authenticator> | undefined;
  const services: AuthServices = {
    authenticator: () => (authenticator ??= context.host().then((host) => new Authenticator(host, { now, ...(options.legacySalt === undefined ? {} : { legacySalt: options.legacySalt }) }))),
    sessions: new SessionStore(context.cache, now),
    throttle: new LoginThrottle(context.cache, now),
    sleep: options.sleep ?? ((ms) => delay(ms)),
  };

  await app.register(cookie);
  await app.register(formbody);
  await app.register(multipart, { attachFieldsToBody: 'keyValues', limits: { fileSize: 16 * 1024, files: 1, fields: 20, parts: 21 } });

  // Between the end of authentication (preParsing) and the preHandler stage a request's body
  // is being read. A multipart form the parser could not read (cut off, a broken part header)
  // fails there without a status of its own: the caller's input, not a server failure.
  const readingBody = new WeakSet<FastifyRequest>();
  app.addHook('preParsing', async (request, _reply, payload) => {
    readingBody.add(request);
    return payload;
  });
  app.addHook('preHandler', async (request) => {
    readingBody.delete(request);
  });

  app.setErrorHandler((error, request, reply) => {
    const classified = classify(error);
    const failure =
      classified.status === 500 && readingBody.has(request) && request.isMultipart()
        ? { status: 400, code: 'usage', message: 'The multipart form could not be read.' }
        : classified;
    if (failure.status >= 500) {
      const detail = messageOf(error);
      context.logger.error({ code: failure.code, route: request.routeOptions.url, detail }, 'request of the HTTP wrapper failed');
    }
    const body = isOcsPath(request.url) ? ocsFailure(failure.status, failure.code, failure.message) : { message: failure.message, code: failure.code };
    return reply.status(failure.status).send(body);
  });
  app.setNotFoundHandler((request, reply) => {
    const message = 'No such route.';
    return reply.status(404).send(isOcsPath(request.url) ? ocsFailure(404, 'not_found', message) : { message, code: 'not_found' });
  });

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
  await registerBridgeRoutes(app, { context, now, authenticator: services.authenticator, secret: options.bridgeSecret ?? (() => null) });
  return app;
}
