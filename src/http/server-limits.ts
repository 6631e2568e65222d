import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

/**
 * How long a connection may take and how many may be open: what a reverse proxy in front
 * expects of its upstream, and what keeps a client that dribbles its headers a byte at a time
 * from holding a connection (Node's defaults let 1000 of them stay open for more than 70 s).
 */
export interface ServerLimits {
  /** The whole request head must have arrived within this (Node's `headersTimeout`). */
  readonly headersMs: number;
  /** The whole request, body included, must have arrived within this (`requestTimeout`). */
  readonly requestMs: number;
  /** A kept-alive connection waits this long for its next request (`keepAliveTimeout`). */
  readonly idleMs: number;
  /** A connection silent this long in either direction is closed (`server.timeout`): an answer nobody reads. */
  readonly inactivityMs: number;
  /** Connections open at once; a further one is closed as it arrives (`maxConnections`). */
  readonly maxConnections: number;
  /** How often Node looks for requests past their time (`connectionsCheckingInterval`, default 30 s). */
  readonly checkEveryMs: number;
}

export const SERVER_LIMITS: ServerLimits = {
  // A proxy sends a request head at once; a person's client on a slow line needs a few seconds.
  headersMs: 10_000,
  // Bodies are at most 64 KiB.
  requestMs: 30_000,
  // Longer than the idle time of a proxy's pooled upstream connections (nginx and most load
  // balancers: 60 s), so the proxy, not this server, closes an idle one: no request is sent on
  // a connection this server is closing.
  idleMs: 65_000,
  inactivityMs: 120_000,
  maxConnections: 1024,
  checkEveryMs: 1_000,
};

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

/** fastify's `serverFactory`: Node's HTTP server with these limits. */
export function limitedServer(given: Partial<ServerLimits> = {}): (handler: Handler) => Server {
  const limits = { ...SERVER_LIMITS, ...given };
  return (handler) => {
    const server = createServer(
      { headersTimeout: limits.headersMs, requestTimeout: limits.requestMs, keepAliveTimeout: limits.idleMs, connectionsCheckingInterval: limits.checkEveryMs },
      handler,
    );
    server.maxConnections = limits.maxConnections;
    server.setTimeout(limits.inactivityMs);
    return server;
  };
}
