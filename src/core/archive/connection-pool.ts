import type { Client as UndiciClient, Dispatcher } from 'undici';
import Client from 'undici/lib/dispatcher/client.js';
import undiciRequest from 'undici/lib/api/api-request.js';
import { createPinnedConnector, type ConnectProgress, type ConnectWatch } from '../net/pinned-connector.js';
import type { ResolvedAddress } from './types.js';

/*
 * undici's Client and its request function, from their own files, not the package's index,
 * which loads every dispatcher, fetch, WebSocket, the cache stores and the mock agent (111 files
 * against 19; about a third of a one-shot search's start), and then gives every dispatcher the
 * request API by assigning it to their prototype: the request function is called on the client
 * here instead. undici has no `exports` map, so these paths are reachable; its version is pinned
 * by the lock file, and test/archive-client*.test.ts run through them. This module is reached
 * only through the archive client's import() (lazy-archive-client.ts): commands that never ask
 * the archive server (why, --help) do not load it. scripts/build-bundle.mjs puts these files in
 * the bundle, with HTTP/2 (which this client never speaks) and llhttp's WebAssembly loaded on first use.
 */

/**
 * Kept-alive connections to the archive server, so a request need not pay a new TCP (and TLS)
 * set-up. Safety comes from the key: a connection is reused only for the same origin
 * (scheme, host, port), the same list of addresses checked for THIS request, the same CA set
 * and the same connect timeout. The guard still resolves and checks every request; when DNS
 * answers differently, the key differs and the request gets a new connection to the newly
 * checked addresses, never an old socket.
 *
 * Each undici `Client` holds one connection and serves one request at a time: it is taken out
 * while in use and put back only after its answer was read completely. Any failure or an
 * answer cut short discards it. An idle client whose connection closes (its keep-alive ran
 * out, or the server closed it) is dropped at once, so the pool holds only live connections.
 */

/**
 * Idle time after which the client closes a kept-alive connection. Paperless-ngx is served by
 * granian (since 2.15), which sets no short idle limit of its own (only `--http1-keep-alive` on or
 * off); the proxies usually in front of it do (Apache 5 s, Node 5 s, nginx 75 s). 1 s stays below
 * all of them, so a request practically never meets a socket the server has just closed (such a
 * request fails after having a connection, which gets no second try).
 */
export const KEEP_ALIVE_MS = 1_000;

/**
 * Kept below what a server announces (`Keep-Alive: timeout=n`) by this much, so an announced
 * 1 s or less means the connection is not kept at all.
 */
const KEEP_ALIVE_MARGIN_MS = 1_000;
/**
 * Bytes of an answer's header block the client reads: Node's own default, given here because
 * undici would otherwise read Node's from node:http, which the program's bundle does not load
 * for the archive client (scripts/build-bundle.mjs).
 */
export const MAX_HEADER_BYTES = 16 * 1024;

/** Idle connections kept per key; more concurrent requests than this open and then close extra ones. */
export const MAX_IDLE_PER_KEY = 16;

export interface PinnedTarget {
  /** `scheme://host:port` of the request's URL. */
  readonly origin: string;
  /** Every address checked for this request, in the resolver's order. */
  readonly addresses: readonly [ResolvedAddress, ...ResolvedAddress[]];
  readonly hostname: string;
  readonly hostIsAddress: boolean;
  readonly ca: readonly string[] | undefined;
  readonly connectMs: number;
}

/** One client lent to one request. */
export interface Lease {
  /** undici's `request` on the lent client. */
  request(options: Dispatcher.RequestOptions): Promise<Dispatcher.ResponseData>;
  /** The client served an earlier request: its connection may already be established. */
  readonly reused: boolean;
  /** The answer was read completely: the connection may serve the next request. */
  release(): void;
  /** Something went wrong or the answer was cut short: the connection is closed. */
  discard(): void;
}

export interface ConnectionPool {
  /** A client for the target; should it (re)connect for this request, its connector reports into `progress`. */
  acquire(target: PinnedTarget, progress: ConnectProgress): Lease;
  /** Closes every connection, idle or in use; later requests still work, on connections closed after use. */
  close(): Promise<void>;
}

interface Entry {
  readonly key: string;
  readonly client: UndiciClient;
  readonly watch: ConnectWatch;
  idle: boolean;
  used: boolean;
  /** The client's connection is open (undici's `connect` and `disconnect` events). */
  connected: boolean;
}

export function createConnectionPool(): ConnectionPool {
  const idleByKey = new Map<string, Entry[]>();
  const everyEntry = new Set<Entry>();
  const caIds = new WeakMap<readonly string[], number>();
  let lastCaId = 0;
  let closed = false;

  function caId(ca: readonly string[] | undefined): number {
    if (ca === undefined) return 0;
    // By identity: the archive client builds its CA list once, and hashing it per request would cost more than a handshake.
    let id = caIds.get(ca);
    if (id === undefined) {
      lastCaId += 1;
      id = lastCaId;
      caIds.set(ca, id);
    }
    return id;
  }

  function keyOf(target: PinnedTarget): string {
    const addresses = target.addresses.map((address) => `${address.family}/${address.address}`).join(',');
    return JSON.stringify([target.origin, addresses, caId(target.ca), target.connectMs]);
  }

  function takeIdle(key: string): Entry | undefined {
    const list = idleByKey.get(key);
    const entry = list?.pop();
    if (list !== undefined && list.length === 0) idleByKey.delete(key);
    if (entry !== undefined) entry.idle = false;
    return entry;
  }

  function removeIdle(entry: Entry): void {
    const list = idleByKey.get(entry.key);
    if (list === undefined) return;
    const at = list.indexOf(entry);
    if (at !== -1) list.splice(at, 1);
    if (list.length === 0) idleByKey.delete(entry.key);
    entry.idle = false;
  }

  function destroy(entry: Entry): void {
    removeIdle(entry);
    everyEntry.delete(entry);
    entry.client.destroy().catch(() => undefined);
  }

  function create(key: string, target: PinnedTarget, progress: ConnectProgress): Entry {
    const watch: ConnectWatch = { current: progress };
    const client = new Client(target.origin, {
      connect: createPinnedConnector({
        addresses: target.addresses,
        hostname: target.hostname,
        hostIsAddress: target.hostIsAddress,
        ca: target.ca,
        connectMs: target.connectMs,
        watch,
      }),
      pipelining: 1,
      // The caller's deadline governs; undici's own (minutes) would only hide it.
      headersTimeout: 0,
      bodyTimeout: 0,
      keepAliveTimeout: KEEP_ALIVE_MS,
      keepAliveMaxTimeout: KEEP_ALIVE_MS,
      keepAliveTimeoutThreshold: KEEP_ALIVE_MARGIN_MS,
      maxHeaderSize: MAX_HEADER_BYTES,
    });
    const entry: Entry = { key, client, watch, idle: false, used: false, connected: false };
    client.on('connect', () => {
      entry.connected = true;
    });
    // An idle client without its connection would only connect anew: dropping it keeps the pool to live connections.
    client.on('disconnect', () => {
      entry.connected = false;
      if (entry.idle) destroy(entry);
    });
    everyEntry.add(entry);
    return entry;
  }

  return {
    acquire(target: PinnedTarget, progress: ConnectProgress): Lease {
      const key = keyOf(target);
      const entry = takeIdle(key) ?? create(key, target, progress);
      const reused = entry.used;
      entry.used = true;
      entry.watch.current = progress;
      let settled = false;
      return {
        request: (options) => undiciRequest.call(entry.client, options),
        reused,
        release(): void {
          if (settled) return;
          settled = true;
          const list = idleByKey.get(key) ?? [];
          // A server that closes after its answer (`Connection: close`) may have done so before the body was read out.
          if (closed || !entry.connected || entry.client.destroyed || entry.client.closed || list.length >= MAX_IDLE_PER_KEY) {
            destroy(entry);
            return;
          }
          list.push(entry);
          idleByKey.set(key, list);
          entry.idle = true;
        },
        discard(): void {
          if (settled) return;
          settled = true;
          destroy(entry);
        },
      };
    },

    async close(): Promise<void> {
      closed = true;
      const entries = [...everyEntry];
      everyEntry.clear();
      idleByKey.clear();
      await Promise.all(entries.map((entry) => entry.client.destroy().catch(() => undefined)));
    },
  };
}
