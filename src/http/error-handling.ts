import { STATUS_CODES, validateHeaderValue } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ServiceContext } from '../core/context-types.js';
import { isDusError, localizedMessage, messageOf } from '../core/errors.js';
import { render, textIn } from '../core/i18n/catalog.js';
import { HttpError } from './http-error.js';
import { isOcsPath, ocsFailure } from './ocs.js';
import { asciiLocation } from './redirect.js';

/**
 * Every failure of the wrapper answers in the product's shape — `{message, code}`, or the OCS
 * envelope on OCS paths — whichever layer it comes from: a route, the core, fastify's body
 * parsers and router, Node's HTTP parser (a request it cannot read), or a header the answer
 * could not carry. fastify's own shapes (`{statusCode, error}`) and Node's bare answers never
 * reach a caller.
 */

interface Failure {
  readonly status: number;
  readonly code: string;
  readonly message: string;
}

/** Status for the core's codes: settings and archive refusals are the caller's to correct (400). */
function statusOfCore(code: string): number {
  if (
    code === 'internal' ||
    code === 'host_unreachable' ||
    code === 'host_schema' ||
    code === 'host_config' ||
    code === 'config_access' ||
    code === 'cache_unreachable'
  )
    return 500;
  return 400;
}

/**
 * A failure is answered in the caller's language (the account's Nextcloud language, as the
 * host stores it), where its message has a catalog entry; an unknown caller gets English.
 */
function classify(error: unknown, language: string | null = null): Failure {
  if (error instanceof HttpError)
    return { status: error.status, code: error.code, message: error.localizable === undefined ? error.message : render(error.localizable, language) };
  if (isDusError(error)) return { status: statusOfCore(error.code), code: error.code, message: localizedMessage(error, language) };
  const fastifyError = error as Partial<FastifyError>;
  if (fastifyError.validation !== undefined)
    return { status: 400, code: 'usage', message: `Invalid input: ${fastifyError.message ?? 'see the route description'}` };
  const status = fastifyError.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return { status, code: status === 413 ? 'too_large' : 'usage', message: fastifyError.message ?? 'Bad request' };
  }
  return { status: 500, code: 'internal', message: textIn('internal.wrapper', language) };
}

function bodyOf(url: string, failure: Failure): unknown {
  return isOcsPath(url) ? ocsFailure(failure.status, failure.code, failure.message) : { message: failure.message, code: failure.code };
}

export function registerErrorHandling(app: FastifyInstance, context: ServiceContext): void {
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
    const language = request.principal?.language ?? null;
    const classified = classify(error, language);
    const failure =
      classified.status === 500 && readingBody.has(request) && request.isMultipart()
        ? { status: 400, code: 'usage', message: textIn('usage.multipart', language) }
        : classified;
    if (failure.status >= 500) {
      context.logger.error({ code: failure.code, route: request.routeOptions.url, detail: messageOf(error) }, 'request of the HTTP wrapper failed');
    }
    // Headers a route set before it failed (a redirect's Location, say) do not belong to the failure.
    reply.removeHeader('location');
    return reply.status(failure.status).send(bodyOf(request.url, failure));
  });
  app.setNotFoundHandler((request, reply) =>
    reply.status(404).send(bodyOf(request.url, { status: 404, code: 'not_found', message: textIn('not_found.route', null) })),
  );

  // The last look before Node writes the head: a header value Node would refuse makes it throw
  // inside fastify's send, and the request then never gets an answer. A Location is made ASCII
  // (percent-encoded UTF-8); any other such header is left out and logged.
  app.addHook('onSend', async (request, reply, payload) => {
    const location = reply.getHeader('location');
    if (typeof location === 'string') reply.header('location', asciiLocation(location));
    for (const [name, value] of Object.entries(reply.getHeaders())) {
      if (value === undefined) continue;
      try {
        for (const one of Array.isArray(value) ? value : [String(value)]) validateHeaderValue(name, one);
      } catch {
        reply.removeHeader(name);
        context.logger.error(
          { code: 'internal', route: request.routeOptions.url, header: name },
          'a header of the HTTP wrapper could not be sent and was left out',
        );
      }
    }
    return payload;
  });
}

/** fastify's `frameworkErrors`: a URL it cannot decode, a parameter too long, a content type it cannot parse. */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const failure = classify(error);
  reply.status(failure.status).send(bodyOf(request.url, failure));
}

/**
 * fastify's `clientErrorHandler`: Node could not read the request (a malformed head, headers
 * too large, the request timeout). The connection is closed after the answer, as Node does.
 */
export function clientErrorHandler(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const failure: Failure =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? { status: 408, code: 'timeout', message: 'The request was not complete in time.' }
      : error.code === 'HPE_HEADER_OVERFLOW'
        ? { status: 431, code: 'too_large', message: 'The request headers are too large.' }
        : { status: 400, code: 'usage', message: 'The request could not be read as HTTP.' };
  if (socket.writable) {
    const body = JSON.stringify({ message: failure.message, code: failure.code });
    socket.write(
      `HTTP/1.1 ${failure.status} ${STATUS_CODES[failure.status] ?? 'Error'}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}
