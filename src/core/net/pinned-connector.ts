import net from 'node:net';
import type { buildConnector } from 'undici';
import type { ResolvedAddress } from './resolve.js';

/**
 * An undici connector that opens its socket only to addresses checked beforehand, whatever
 * name the URL carries: no DNS lookup happens here, so a second DNS answer can never be used
 * (DNS rebinding). TLS still names and verifies the URL's host.
 */

/** What happened on the way to a connection for one request; the error classification reads it. */
export interface ConnectProgress {
  /**
   * The connector ran for this request. A request on a kept-alive connection never calls it:
   * the transport then counts the request as connected (it rode an established connection).
   */
  attempted: boolean;
  /** The TCP connection was established (second-try rule: no second try after this). */
  tcpConnected: boolean;
  /** TLS was being negotiated on an established TCP connection. */
  tlsStarted: boolean;
  /** The connection (TCP and TLS where used) was ready to carry the request. */
  ready: boolean;
  /** The connect timeout fired. */
  timedOut: boolean;
}

export interface PinnedConnectorOptions {
  /** The checked addresses, tried in order while a connection is refused or unroutable. */
  readonly addresses: readonly [ResolvedAddress, ...ResolvedAddress[]];
  /** The URL's host as the URL parser gives it (IPv6 without brackets). */
  readonly hostname: string;
  /** Whether the host is an IP literal: then the certificate is checked for the IP, no SNI is sent. */
  readonly hostIsAddress: boolean;
  /** Trusted certificates in PEM; undefined keeps Node's default store. */
  readonly ca: readonly string[] | undefined;
  /** Time for TCP and TLS set-up together. */
  readonly connectMs: number;
  /**
   * Where to report: read when a connect starts, not when the connector is built, because a
   * kept-alive client outlives one request and may reconnect for a later one; that request's
   * own progress must say whether it connected (the second-try rule).
   */
  readonly watch: ConnectWatch;
}

/** The request a reusable connection currently serves; the transport sets `current` before each request. */
export interface ConnectWatch {
  current: ConnectProgress;
}

export function newConnectProgress(): ConnectProgress {
  return { attempted: false, tcpConnected: false, tlsStarted: false, ready: false, timedOut: false };
}

export class ConnectTimeoutError extends Error {
  readonly code = 'DUS_CONNECT_TIMEOUT';
  constructor() {
    super('The connection could not be set up in time');
    this.name = 'ConnectTimeoutError';
  }
}

/** Errors on which the next checked address is tried at once (it may be another family or host). */
const NEXT_ADDRESS_CODES: ReadonlySet<string> = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL', 'EAFNOSUPPORT']);

/**
 * How long an address may stay silent before the next checked one is tried beside it (RFC 8305's
 * connection attempt delay): a filtered route (often IPv6) must not use up the whole connect
 * timeout while another address would answer at once.
 */
export const ATTEMPT_DELAY_MS = 250;

export function createPinnedConnector(options: PinnedConnectorOptions): buildConnector.connector {
  const { addresses, watch } = options;
  return (target, callback) => {
    const progress = watch.current;
    progress.attempted = true;
    const secure = target.protocol === 'https:';
    const port = target.port === '' ? (secure ? 443 : 80) : Number(target.port);
    let settled = false;
    /** TCP attempts still under way, before one connects. */
    const pending = new Set<net.Socket>();
    let started = 0;
    let stagger: NodeJS.Timeout | undefined;
    let current: net.Socket | undefined;

    const finish = (error: Error | null): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(stagger);
      for (const socket of pending) socket.destroy();
      pending.clear();
      current?.off('error', finish);
      if (error === null && current !== undefined) {
        progress.ready = true;
        callback(null, current);
      } else {
        current?.destroy();
        callback(error ?? new Error('no connection'), null);
      }
    };
    const timer = setTimeout(() => {
      progress.timedOut = true;
      finish(new ConnectTimeoutError());
    }, options.connectMs);

    const startTls = (tcp: net.Socket): void => {
      progress.tlsStarted = true;
      // Errors of the raw socket now surface on the TLS socket; its listener stays so none goes unhandled.
      // Loaded here, not at start: a server reached over http:// never needs node:tls.
      const secured = process.getBuiltinModule('node:tls').connect({
        socket: tcp,
        ...(options.hostIsAddress ? { host: options.hostname } : { servername: options.hostname, host: options.hostname }),
        ...(options.ca === undefined ? {} : { ca: [...options.ca] }),
        ALPNProtocols: ['http/1.1'],
      });
      current = secured;
      secured.once('error', finish);
      secured.once('secureConnect', () => finish(null));
    };

    /** Starts the next checked address, and the one after it if this one stays silent. */
    const startNext = (): void => {
      clearTimeout(stagger);
      const address = addresses[started];
      if (settled || address === undefined) return;
      started += 1;
      const tcp = net.connect({ host: address.address, port, family: address.family });
      pending.add(tcp);
      // Kept for the socket's life: after success it only swallows what undici's own listener also sees.
      tcp.on('error', (error: Error) => {
        if (settled || !pending.has(tcp)) return;
        pending.delete(tcp);
        tcp.destroy();
        const code = 'code' in error && typeof error.code === 'string' ? error.code : '';
        if (NEXT_ADDRESS_CODES.has(code) && started < addresses.length) {
          startNext();
          return;
        }
        // The last attempt under way decides; earlier ones that fail leave the others running.
        if (pending.size === 0 && (started >= addresses.length || !NEXT_ADDRESS_CODES.has(code))) {
          current = tcp;
          finish(error);
        }
      });
      tcp.once('connect', () => {
        if (settled || !pending.has(tcp)) return;
        pending.delete(tcp);
        clearTimeout(stagger);
        for (const other of pending) other.destroy();
        pending.clear();
        progress.tcpConnected = true;
        current = tcp;
        if (secure) startTls(tcp);
        else finish(null);
      });
      if (started < addresses.length) stagger = setTimeout(startNext, ATTEMPT_DELAY_MS);
    };
    startNext();
  };
}
