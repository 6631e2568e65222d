import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Cache } from '../cache/types.js';

/**
 * The signed channel between the Nextcloud bridge app and `serve` (docs/bridge.md). Each call
 * carries the acting user, the time, a nonce and whether Nextcloud confirmed the password,
 * and an HMAC-SHA256 with the shared secret over those and the method, the path with its
 * query and the SHA-256 of the body. The PHP side builds the same canonical text.
 */
export const BRIDGE_HEADERS = {
  user: 'x-dus-bridge-user',
  time: 'x-dus-bridge-time',
  nonce: 'x-dus-bridge-nonce',
  confirmed: 'x-dus-bridge-confirmed',
  challenge: 'x-dus-bridge-challenge',
  signature: 'x-dus-bridge-signature',
} as const;

/** A call older or newer than this (seconds) is refused: a short window against replays. */
export const BRIDGE_WINDOW_SECONDS = 60;
/**
 * How far apart the clocks of the `serve` processes sharing one cache may be (seconds). A
 * process whose clock lags accepts a call later in real time than the one that first took its
 * nonce, so the nonce is kept until no process within this skew could still accept the call.
 */
export const BRIDGE_ALLOWED_SKEW_SECONDS = 300;
/**
 * How long a challenge of `serve` may be used (seconds): the app asks for one right before its
 * call, so a few seconds would do; this leaves room for a slow Nextcloud request, not for a
 * listener to wait for `serve` to come back.
 */
export const BRIDGE_CHALLENGE_SECONDS = 30;

const SIGNATURE_PREFIX = 'v2=';
const NONCE_PATTERN = /^[A-Za-z0-9_-]{16,64}$/;
/** `<expiry, Unix seconds>.<32 hex random>.<64 hex HMAC of both>`: issued by `serve`, stored nowhere until used. */
const CHALLENGE_PATTERN = /^(\d{1,12})\.([0-9a-f]{32})\.([0-9a-f]{64})$/;
/** Nextcloud user ids: letters, digits and `_.@-' ` (no control characters); empty for a system call. */
const USER_PATTERN = /^[^\x00-\x1f\x7f]{0,64}$/;

export interface BridgeCall {
  readonly method: string;
  /** The path with its query exactly as sent, starting at `/bridge/`. */
  readonly pathWithQuery: string;
  readonly user: string;
  readonly time: string;
  readonly nonce: string;
  /** The challenge `serve` issued for this call (issueBridgeChallenge). */
  readonly challenge: string;
  readonly confirmed: boolean;
  readonly body: Buffer;
}

export function canonicalText(call: BridgeCall): string {
  const bodyHash = createHash('sha256').update(call.body).digest('hex');
  return [
    'dus-bridge-v2',
    call.method.toUpperCase(),
    call.pathWithQuery,
    call.user,
    call.time,
    call.nonce,
    call.challenge,
    call.confirmed ? '1' : '0',
    bodyHash,
  ].join('\n');
}

const hmacHex = (secret: string, text: string): string => createHmac('sha256', secret).update(text).digest('hex');

/**
 * The MAC of an issued challenge: over the address of the `serve` that issued it (its
 * `service_url`, `serviceAddress`), its expiry and its random part. A process accepts only
 * challenges it could have issued itself, and the app only challenges issued for its own
 * `service_url`: a listener on a stopped process's address cannot pass the app a challenge
 * of another process sharing the secret and the cache (issue 36).
 */
const issuedMac = (secret: string, service: string, expires: string, random: string): string =>
  hmacHex(secret, `dus-bridge-issued\n${service}\n${expires}\n${random}`);

/**
 * What proves to the app that the challenge comes from a holder of the secret, bound to the
 * app's own fresh value and to the address the issuer serves, which the app compares with its
 * `service_url`.
 */
export function challengeProof(secret: string, clientNonce: string, challenge: string, service: string): string {
  return hmacHex(secret, `dus-bridge-challenge\n${clientNonce}\n${challenge}\n${service}`);
}

/**
 * The address a `serve` process answers the bridge at, written as the app's `service_url`
 * is compared: no trailing `/` (the app drops it too). `http://127.0.0.1:8080`,
 * `unix:///run/docs-unified-search/serve.sock`, or what `--service-url` says behind a proxy.
 */
export function serviceAddress(url: string): string {
  return url.replace(/\/+$/, '');
}

export function validClientNonce(value: string): boolean {
  return NONCE_PATTERN.test(value);
}

export interface BridgeChallenge {
  readonly challenge: string;
  readonly proof: string;
  /** The address of the issuing process (`serviceAddress`): the app sends nothing signed unless it is its `service_url`. */
  readonly service: string;
}

/**
 * A challenge for one bridge call, and the proof for the app's fresh value `clientNonce`. The
 * challenge carries its expiry and a MAC instead of being stored, so callers without the secret
 * (anyone may ask) fill no cache; it is taken in the shared cache when a call uses it, which
 * makes it single-use across every process sharing that cache.
 */
export function issueBridgeChallenge(secret: string, clientNonce: string, nowMs: number, service: string): BridgeChallenge {
  const expires = String(Math.floor(nowMs / 1000) + BRIDGE_CHALLENGE_SECONDS);
  const random = randomBytes(16).toString('hex');
  const challenge = `${expires}.${random}.${issuedMac(secret, service, expires, random)}`;
  return { challenge, proof: challengeProof(secret, clientNonce, challenge, service), service };
}

export function signBridgeCall(secret: string, call: BridgeCall): string {
  return SIGNATURE_PREFIX + createHmac('sha256', secret).update(canonicalText(call)).digest('hex');
}

/** The headers a bridge call carries (the PHP app sets the same; tests and scripts use this). */
export function bridgeHeaders(
  secret: string,
  call: Omit<BridgeCall, 'time' | 'nonce' | 'challenge'> & { readonly time?: string; readonly nonce?: string; readonly challenge: string },
): Record<string, string> {
  const full: BridgeCall = { ...call, time: call.time ?? String(Math.floor(Date.now() / 1000)), nonce: call.nonce ?? randomBytes(16).toString('hex') };
  return {
    [BRIDGE_HEADERS.user]: full.user,
    [BRIDGE_HEADERS.time]: full.time,
    [BRIDGE_HEADERS.nonce]: full.nonce,
    [BRIDGE_HEADERS.confirmed]: full.confirmed ? '1' : '0',
    [BRIDGE_HEADERS.challenge]: full.challenge,
    [BRIDGE_HEADERS.signature]: signBridgeCall(secret, full),
  };
}

/** Why a call was refused; logged (never the secret, the signature or the query). */
export type BridgeRefusal = 'no_secret' | 'unsigned' | 'malformed' | 'stale' | 'bad_signature' | 'bad_challenge' | 'challenge_expired' | 'replayed';

export type BridgeVerdict = { readonly ok: true } | { readonly ok: false; readonly reason: BridgeRefusal };

export interface PresentedHeaders {
  readonly user?: string;
  readonly time?: string;
  readonly nonce?: string;
  readonly confirmed?: string;
  readonly challenge?: string;
  readonly signature?: string;
}

/**
 * Checks a call: all headers present and well formed, the time inside the window, the
 * signature right (constant-time compare), the challenge issued by a holder of the secret for
 * this process's address and not expired, and neither the nonce nor the challenge seen before.
 * Both are taken in the shared cache only after the signature holds, so unsigned noise cannot fill it;
 * `getOrProduce` runs once per key across the processes sharing the cache, so two processes
 * receiving the same call agree that one of them is a replay.
 */
export async function verifyBridgeCall(options: {
  readonly secret: string | null;
  /** This process's address (`serviceAddress`): a challenge issued for another is `bad_challenge`. */
  readonly service: string;
  readonly method: string;
  readonly pathWithQuery: string;
  readonly headers: PresentedHeaders;
  readonly body: Buffer;
  readonly nowMs: number;
  readonly cache: Cache;
}): Promise<BridgeVerdict> {
  const { headers } = options;
  if (options.secret === null) return { ok: false, reason: 'no_secret' };
  if (headers.signature === undefined) return { ok: false, reason: 'unsigned' };
  const { user, time, nonce, confirmed, challenge, signature } = headers;
  if (user === undefined || time === undefined || nonce === undefined || confirmed === undefined || challenge === undefined) {
    return { ok: false, reason: 'malformed' };
  }
  const issued = CHALLENGE_PATTERN.exec(challenge);
  if (!USER_PATTERN.test(user) || !/^\d{1,12}$/.test(time) || !NONCE_PATTERN.test(nonce) || (confirmed !== '0' && confirmed !== '1') || issued === null) {
    return { ok: false, reason: 'malformed' };
  }
  if (Math.abs(Number(time) - options.nowMs / 1000) > BRIDGE_WINDOW_SECONDS) return { ok: false, reason: 'stale' };
  const expected = Buffer.from(
    signBridgeCall(options.secret, {
      method: options.method,
      pathWithQuery: options.pathWithQuery,
      user,
      time,
      nonce,
      challenge,
      confirmed: confirmed === '1',
      body: options.body,
    }),
  );
  const presented = Buffer.from(signature);
  if (presented.length !== expected.length || !timingSafeEqual(presented, expected)) return { ok: false, reason: 'bad_signature' };
  const [, expires = '', random = '', mac = ''] = issued;
  const expectedMac = Buffer.from(issuedMac(options.secret, options.service, expires, random));
  if (!timingSafeEqual(Buffer.from(mac), expectedMac)) return { ok: false, reason: 'bad_challenge' };
  if (options.nowMs / 1000 > Number(expires)) return { ok: false, reason: 'challenge_expired' };
  const mine = randomBytes(12).toString('hex');
  // Kept until the signed time + the window + the allowed skew, by this process's clock: a process
  // whose clock lags this one's by up to the skew accepts the call until then, and must find the
  // nonce taken. Two windows from first use was too short for clocks 70 s apart (issue 23).
  const keptMs = (Number(time) + BRIDGE_WINDOW_SECONDS + BRIDGE_ALLOWED_SKEW_SECONDS) * 1000 - options.nowMs;
  const holder = await options.cache.getOrProduce(`bridge-nonce:${nonce}`, keptMs, async () => mine);
  if (holder !== mine) return { ok: false, reason: 'replayed' };
  // A challenge is single-use, whatever nonce comes with it: kept until no process within the
  // allowed skew would still take it.
  const challengeKeptMs = (Number(expires) + BRIDGE_ALLOWED_SKEW_SECONDS) * 1000 - options.nowMs;
  const challengeHolder = await options.cache.getOrProduce(`bridge-challenge:${random}`, challengeKeptMs, async () => mine);
  if (challengeHolder !== mine) return { ok: false, reason: 'replayed' };
  return { ok: true };
}
