import { DusError } from '../errors.js';
import { msg } from '../i18n/catalog.js';
import type { ConnectProgress } from '../net/pinned-connector.js';
import type { ArchiveVersions } from './types.js';

/**
 * Turns every way a request to the archive server can fail into exactly one of the spec's
 * error codes, with a message that says what to correct. Messages name at most the host and
 * port: never the token, never a URL query.
 */

/** Certificate problems: the server was reached and spoke TLS, but is not trusted. */
const UNTRUSTED_CERTIFICATE_CODES: ReadonlySet<string> = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_DECRYPT_CERT_SIGNATURE',
  'UNABLE_TO_DECODE_ISSUER_PUBLIC_KEY',
  'CERT_SIGNATURE_FAILURE',
  'CERT_NOT_YET_VALID',
  'CERT_HAS_EXPIRED',
  'ERROR_IN_CERT_NOT_BEFORE_FIELD',
  'ERROR_IN_CERT_NOT_AFTER_FIELD',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'CERT_CHAIN_TOO_LONG',
  'CERT_REVOKED',
  'INVALID_CA',
  'PATH_LENGTH_EXCEEDED',
  'INVALID_PURPOSE',
  'CERT_UNTRUSTED',
  'CERT_REJECTED',
  'HOSTNAME_MISMATCH',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'ERR_TLS_CERT_ALTNAME_FORMAT',
]);

const UNKNOWN_HOST_CODES: ReadonlySet<string> = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_NONAME', 'EAI_NODATA', 'EAI_FAIL', 'ENODATA', 'ESERVFAIL', 'ENONAME']);

const TIMEOUT_CODES: ReadonlySet<string> = new Set([
  'ETIMEDOUT',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'DUS_CONNECT_TIMEOUT',
]);

export interface Where {
  readonly host: string;
  readonly port: string;
}

/** The first error code found along an error's cause chain. */
export function errorCodeOf(error: unknown): string | null {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth += 1) {
    if ('code' in current && typeof current.code === 'string') return current.code;
    current = 'cause' in current ? current.cause : null;
  }
  return null;
}

/** A failure of the transport (no HTTP answer) as a spec error. */
export function networkFailure(error: unknown, progress: ConnectProgress, where: Where): DusError {
  const code = errorCodeOf(error);
  const beforeConnection = !progress.tcpConnected;
  const options = { beforeConnection, cause: error };
  if (progress.timedOut || (code !== null && TIMEOUT_CODES.has(code))) {
    return timeoutFailure(beforeConnection);
  }
  if (code !== null && UNTRUSTED_CERTIFICATE_CODES.has(code)) {
    return new DusError('tls', msg('tls.untrusted', { host: where.host, code }), options);
  }
  if (progress.tlsStarted && !progress.ready) {
    const message =
      code === null
        ? msg('tls_handshake.failed', { host: where.host, port: where.port })
        : msg('tls_handshake.failed_code', { host: where.host, port: where.port, code });
    return new DusError('tls_handshake', message, options);
  }
  if (code !== null && UNKNOWN_HOST_CODES.has(code)) {
    return unknownHost(where.host, error);
  }
  const message =
    code === null
      ? msg('unreachable.failed', { host: where.host, port: where.port })
      : msg('unreachable.failed_code', { host: where.host, port: where.port, code });
  return new DusError('unreachable', message, options);
}

export function timeoutFailure(beforeConnection: boolean): DusError {
  return new DusError('timeout', msg('timeout.archive'), { beforeConnection });
}

export function unknownHost(host: string, cause?: unknown): DusError {
  return new DusError('unknown_host', msg('unknown_host.host', { host }), { beforeConnection: true, cause });
}

/**
 * The local-network setting as each surface names it: the admin page's switch, the flag of
 * `setup` on the command line. The core words its messages for the page; `wordedFor` turns
 * them into the command line's words, so the refusal and its advice are written once.
 */
const LOCAL_SWITCH = {
  page: { turnOn: 'switch on "archive server runs in my local network"', whenOn: 'with "archive server runs in my local network" on' },
  cli: { turnOn: 'run setup again with --allow-local', whenOn: 'with --allow-local' },
} as const;

export type Surface = keyof typeof LOCAL_SWITCH;

/** A message of the core in the words of `surface` (the setting's name differs between the page and the command line). */
export function wordedFor(surface: Surface, message: string): string {
  const page = LOCAL_SWITCH.page;
  const own = LOCAL_SWITCH[surface];
  return message.replace(page.turnOn, own.turnOn).replace(page.whenOn, own.whenOn);
}

export function localAddressRefused(host: string, byRedirect: boolean): DusError {
  const message = byRedirect ? msg('local_address.forward', { host }) : msg('local_address.address', { host, turnOn: msg('local_switch.page.turn_on') });
  return new DusError('local_address', message, { beforeConnection: true });
}

export function redirectRefused(reason: 'local_switch' | 'too_many' | 'bad_target', status: number): DusError {
  const messages = {
    local_switch: msg('redirect.local_switch', { status, whenOn: msg('local_switch.page.when_on') }),
    too_many: msg('redirect.too_many', { status }),
    bad_target: msg('redirect.bad_target', { status }),
  } as const;
  return new DusError('redirect', messages[reason], { status });
}

/** The only API version this release speaks (the spec fixes it for every request). */
export const SPOKEN_API_VERSION = '9';

export function statusFailure(status: number, path: string, foreignHost: string | null = null, known: ArchiveVersions = NO_VERSIONS): DusError {
  if ((status === 401 || status === 403) && foreignHost !== null) {
    // The token was left out on the way: a new token would not help, the address would.
    return new DusError('unauthorized', msg('unauthorized.foreign_host', { host: foreignHost, status }), { status });
  }
  if (status === 401 || status === 403) {
    return new DusError('unauthorized', msg('unauthorized.token', { status }), { status });
  }
  if (status === 404) {
    return new DusError('not_found', msg('not_found.path', { path }), { status });
  }
  if (status === 406) return versionRefused(known);
  return new DusError('http', msg('http.status', { status }), { status });
}

export function notPaperless(reason: string, status?: number): DusError {
  return new DusError('not_paperless', msg('not_paperless.answer', { reason }), status === undefined ? {} : { status });
}

/** A token no archive server could accept: refused here, before anything is sent. */
export function unsendableToken(): DusError {
  return new DusError('unauthorized', msg('unauthorized.unsendable'));
}

const NO_VERSIONS: ArchiveVersions = { version: null, apiVersion: null };

/**
 * HTTP 406: the server does not accept version 9. The 406 itself names no versions (DRF checks
 * the version before authentication, and the version headers come only after it), so the
 * versions an earlier answer named decide: a server that announced API version 10 or later, or
 * release 3 or later, has dropped version 9 and is newer than this release supports.
 */
function versionRefused(known: ArchiveVersions): DusError {
  const api = known.apiVersion === null ? Number.NaN : Number.parseInt(known.apiVersion, 10);
  const major = known.version === null ? Number.NaN : Number.parseInt(known.version, 10);
  if (api > Number(SPOKEN_API_VERSION) || major >= 3) {
    const announced = [known.apiVersion === null ? null : `API version ${known.apiVersion}`, known.version === null ? null : `Paperless-ngx ${known.version}`]
      .filter((part) => part !== null)
      .join(', ');
    return new DusError('unsupported_version', msg('unsupported_version.newer', { announced, version: SPOKEN_API_VERSION }), { status: 406 });
  }
  if (known.apiVersion !== null || known.version !== null) {
    return new DusError('unsupported_version', msg('unsupported_version.older', { version: SPOKEN_API_VERSION }), { status: 406 });
  }
  return new DusError('unsupported_version', msg('unsupported_version.unknown', { version: SPOKEN_API_VERSION }), { status: 406 });
}

/**
 * A 400 for a search the archive server cannot have refused as syntax: Paperless answers 400 for
 * any exception while searching (a broken or stale search index, say), so this is a failure.
 * `why` says why the term cannot be the cause on this release.
 */
export function searchFault(status: number, why = 'for a term that cannot be a syntax error'): DusError {
  return new DusError(
    'http',
    `The archive server failed to search (HTTP ${status} ${why}). Its log names the cause ("Error listing search results"); a stale search index is rebuilt with Paperless-ngx's document_index reindex.`,
    { status },
  );
}

/** The reason of `searchFault` on Paperless-ngx 3.2 and later, whose parser refuses a term only with a message of its own. */
export const NO_REFUSAL_MESSAGE = 'without a message about the term, the only way Paperless-ngx 3.2 refuses one';
