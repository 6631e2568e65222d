import { DusError } from '../errors.js';
import { USER_AGENT } from '../version.js';
import { chooseDestination } from '../net/destination.js';
import { newConnectProgress, type ConnectProgress } from '../net/pinned-connector.js';
import { AllIdsFilter } from './all-ids.js';
import type { ConnectionPool } from './connection-pool.js';
import { localAddressRefused, networkFailure, notPaperless, redirectRefused, timeoutFailure, unknownHost, type Where } from './failures.js';
import type { Scrubber } from './token-scrub.js';
import type { ArchiveVersions, ResolvedAddress } from './types.js';
import { readVersionHeaders } from './versions.js';

/**
 * One GET to the archive server as the host's HTTP client would make it: the local-address
 * guard on every hop, the connection pinned to the checked addresses, redirects followed by
 * hand under the spec's rules, one deadline for the answer, a cap on the body. Statuses are
 * returned as they are; what they mean depends on the request and is decided by the caller.
 */

export const MAX_REDIRECTS = 5;

/**
 * A JSON answer may be this many times the body cap on the wire: what goes beyond the cap can only
 * be the `all` list, which is not kept (at the 16 MiB default: 128 MiB, some 11 million ids).
 */
export const WIRE_FACTOR = 8;

export interface TransportConfig {
  readonly token: string;
  readonly allowLocal: boolean;
  /** `scheme://host:port` of the stored URL: the token goes only there, the switch applies only there. */
  readonly configuredOrigin: string;
  readonly resolver: (hostname: string) => Promise<readonly ResolvedAddress[]>;
  readonly isLocalAddress: (address: string) => boolean;
  readonly ca: readonly string[] | undefined;
  readonly connectMs: number;
  readonly maxBodyBytes: number;
  readonly onVersions: (versions: ArchiveVersions) => void;
  /** Told the names of version headers that were present but refused. */
  readonly onRefusedVersions: (names: readonly string[]) => void;
  /** The token step (`token-scrub.ts`): host names and messages a forward chose pass it. */
  readonly scrub: Scrubber;
  /** Kept-alive connections, reused only for the same origin and the same checked addresses. */
  readonly pool: ConnectionPool;
}

export interface RawAnswer {
  readonly status: number;
  readonly contentType: string;
  readonly body: Buffer;
  readonly versions: ArchiveVersions;
  /** The host of the answer when redirects led away from the configured origin (the token was not sent there). */
  readonly foreignHost: string | null;
  /** The ids of the page's `all` array, taken out of `body` while it streamed (see `all-ids.ts`); null when not kept. */
  readonly allIds: number[] | null;
}

export interface CallLimits {
  readonly answerMs: number;
  readonly signal: AbortSignal | undefined;
  /** `keep`: the ids of `all` are wanted; `drop`: not. Either way `all` is neither buffered nor parsed. */
  readonly allIds: 'keep' | 'drop';
}

interface HopResult {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: Buffer;
  readonly allIds: number[] | null;
}

export async function getWithRedirects(start: URL, config: TransportConfig, limits: CallLimits): Promise<RawAnswer> {
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), limits.answerMs);
  const signal = limits.signal === undefined ? deadline.signal : AbortSignal.any([deadline.signal, limits.signal]);
  let connectedOnce = false;
  try {
    let url = start;
    for (let redirects = 0; ; redirects += 1) {
      const progress = newConnectProgress();
      let hop: HopResult;
      try {
        hop = await oneHop(url, config, signal, progress, redirects > 0, limits.allIds);
      } catch (error) {
        throw asFailure(error, progress, url, signal, connectedOnce, config.scrub);
      } finally {
        connectedOnce ||= progress.tcpConnected;
      }
      const { versions, refused } = readVersionHeaders(hop.headers, config.scrub);
      if (refused.length > 0) config.onRefusedVersions(refused);
      if (versions.version !== null || versions.apiVersion !== null) config.onVersions(versions);
      if (hop.status < 300 || hop.status > 399) {
        const foreignHost = url.origin === config.configuredOrigin ? null : config.scrub(url.host);
        return { status: hop.status, contentType: headerText(hop.headers['content-type']), body: hop.body, versions, foreignHost, allIds: hop.allIds };
      }
      const location = headerText(hop.headers.location);
      if (location === '') throw notPaperless(`HTTP ${hop.status} without a target`, hop.status);
      if (config.allowLocal) throw redirectRefused('local_switch', hop.status);
      if (redirects >= MAX_REDIRECTS) throw redirectRefused('too_many', hop.status);
      let next: URL;
      try {
        next = new URL(location, url);
      } catch {
        throw redirectRefused('bad_target', hop.status);
      }
      if ((next.protocol !== 'http:' && next.protocol !== 'https:') || next.username !== '' || next.password !== '') {
        throw redirectRefused('bad_target', hop.status);
      }
      url = next;
    }
  } finally {
    clearTimeout(timer);
  }
}

async function oneHop(
  url: URL,
  config: TransportConfig,
  signal: AbortSignal,
  progress: ConnectProgress,
  redirected: boolean,
  allIds: 'keep' | 'drop',
): Promise<HopResult> {
  const sameOrigin = url.origin === config.configuredOrigin;
  // With the switch on no redirect is followed, so only the first hop can be local.
  const destination = await abortable(
    chooseDestination(url, { localAllowed: config.allowLocal && sameOrigin && !redirected, isLocalAddress: config.isLocalAddress, resolver: config.resolver }),
    signal,
  );
  if (destination.kind === 'local') throw localAddressRefused(url.hostname, redirected);
  if (destination.kind === 'unresolved') throw unknownHost(url.hostname, destination.cause);

  const lease = config.pool.acquire(
    {
      origin: url.origin,
      addresses: destination.addresses,
      hostname: destination.hostname,
      hostIsAddress: destination.hostIsAddress,
      ca: config.ca,
      connectMs: config.connectMs,
    },
    progress,
  );
  let complete = false;
  try {
    const headers: Record<string, string> = {
      accept: 'application/json; version=9',
      'user-agent': USER_AGENT,
    };
    // The token goes only to the server it was saved for (scheme, host and port).
    if (sameOrigin) headers.authorization = `Token ${config.token}`;
    const answer = await lease.request({ path: `${url.pathname}${url.search}`, method: 'GET', headers, signal });
    // A page's `all` (every id of the archive with API version 9) is taken out while it streams:
    // the cap then bounds what is kept, whatever the size of the archive.
    const filter =
      answer.statusCode === 200 && /^application\/json\b/i.test(headerText(answer.headers['content-type']).trim()) ? new AllIdsFilter(allIds === 'keep') : null;
    const wireLimit = filter === null ? config.maxBodyBytes : config.maxBodyBytes * WIRE_FACTOR;
    const declared = Number(headerText(answer.headers['content-length']));
    if (Number.isFinite(declared) && declared > wireLimit) {
      answer.body.destroy();
      throw tooLarge(wireLimit, answer.statusCode);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let wire = 0;
    for await (const chunk of answer.body) {
      const raw = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
      wire += raw.length;
      if (wire > wireLimit) {
        answer.body.destroy();
        throw tooLarge(wireLimit, answer.statusCode);
      }
      const buffer = filter === null ? raw : filter.push(raw);
      size += buffer.length;
      if (size > config.maxBodyBytes) {
        answer.body.destroy();
        throw tooLarge(config.maxBodyBytes, answer.statusCode);
      }
      chunks.push(buffer);
    }
    complete = true;
    return { status: answer.statusCode, headers: answer.headers, body: Buffer.concat(chunks), allIds: filter?.allIds() ?? null };
  } finally {
    if (lease.reused && !progress.attempted) {
      // The request rode a connection established for an earlier one: it had a connection (no second try).
      progress.tcpConnected = true;
      progress.ready = true;
    }
    // Only a connection whose answer was read to the end is in a known state for the next request.
    if (complete) lease.release();
    else lease.discard();
  }
}

function tooLarge(limit: number, status: number): DusError {
  return notPaperless(`the answer is larger than ${limit} bytes`, status);
}

function asFailure(error: unknown, progress: ConnectProgress, url: URL, signal: AbortSignal, connectedOnce: boolean, scrub: Scrubber): DusError {
  const failure = classify(error, progress, url, signal);
  // A failure on a later hop still comes after a connection: no second try for it.
  const beforeConnection = failure.beforeConnection && !connectedOnce;
  // A forward chosen by the server may carry the token in its host name, which messages and causes name.
  const named = scrub(url.hostname) !== url.hostname;
  if (beforeConnection === failure.beforeConnection && !named) return failure;
  const message = named ? scrub(failure.message) : failure.message;
  return new DusError(failure.code, message, { status: failure.status, beforeConnection, ...(named ? {} : { cause: error }) });
}

function classify(error: unknown, progress: ConnectProgress, url: URL, signal: AbortSignal): DusError {
  if (error instanceof DusError) return error;
  if (signal.aborted) return timeoutFailure(!progress.tcpConnected);
  const where: Where = { host: url.hostname, port: url.port === '' ? (url.protocol === 'https:' ? '443' : '80') : url.port };
  return networkFailure(error, progress, where);
}

/** Lets the deadline cut a slow name lookup short. */
async function abortable<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) throw new DOMException('aborted', 'AbortError');
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(new DOMException('aborted', 'AbortError'));
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([work, aborted]);
  } finally {
    if (onAbort !== undefined) signal.removeEventListener('abort', onAbort);
  }
}

function headerText(value: string | string[] | undefined): string {
  if (value === undefined) return '';
  return Array.isArray(value) ? (value[0] ?? '') : value;
}
