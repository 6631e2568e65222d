import { DusError } from '../errors.js';
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
    return new DusError(
      'tls',
      `The certificate of ${where.host} is not trusted (${code}). Give the archive server a certificate the host trusts, or import its CA certificate.`,
      options,
    );
  }
  if (progress.tlsStarted && !progress.ready) {
    return new DusError(
      'tls_handshake',
      `An encrypted connection to ${where.host}:${where.port} could not be set up${code === null ? '' : ` (${code})`}. Check that the archive server speaks HTTPS on this port, or use http:// if it does not.`,
      options,
    );
  }
  if (code !== null && UNKNOWN_HOST_CODES.has(code)) {
    return unknownHost(where.host, error);
  }
  return new DusError(
    'unreachable',
    `The connection to ${where.host}:${where.port} failed${code === null ? '' : ` (${code})`}. Check that the archive server runs and that the host can reach it.`,
    options,
  );
}

export function timeoutFailure(beforeConnection: boolean): DusError {
  return new DusError('timeout', 'The archive server did not answer in time. Check that it runs and is not overloaded, then try again.', { beforeConnection });
}

export function unknownHost(host: string, cause?: unknown): DusError {
  return new DusError('unknown_host', `The host name ${host} of the archive server does not resolve. Check the URL.`, { beforeConnection: true, cause });
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
  const message = byRedirect
    ? `The archive server forwards the request to ${host}, an address in the local network; the host never follows a forward there.`
    : `The address of ${host} is in the local network, which the host refuses. If the archive server runs in your local network, ${LOCAL_SWITCH.page.turnOn}.`;
  return new DusError('local_address', message, { beforeConnection: true });
}

export function redirectRefused(reason: 'local_switch' | 'too_many' | 'bad_target', status: number): DusError {
  const messages = {
    local_switch: `The URL forwards elsewhere (HTTP ${status}); ${LOCAL_SWITCH.page.whenOn}, no forward is followed. Enter the address the archive server forwards to.`,
    too_many: `The URL forwards more than 5 times (HTTP ${status}). Enter the final address of the archive server.`,
    bad_target: `The URL forwards to an address that is not plain HTTP or HTTPS, or carries credentials (HTTP ${status}). Enter the final address of the archive server.`,
  } as const;
  return new DusError('redirect', messages[reason], { status });
}

/** The only API version this release speaks (the spec fixes it for every request). */
export const SPOKEN_API_VERSION = '9';

export function statusFailure(status: number, path: string, foreignHost: string | null = null, known: ArchiveVersions = NO_VERSIONS): DusError {
  if ((status === 401 || status === 403) && foreignHost !== null) {
    // The token was left out on the way: a new token would not help, the address would.
    return new DusError(
      'unauthorized',
      `The URL forwards to ${foreignHost}, another server (scheme, host or port), which gets no token and refused the request (HTTP ${status}). Enter the address the archive server forwards to.`,
      { status },
    );
  }
  if (status === 401 || status === 403) {
    return new DusError(
      'unauthorized',
      `The archive server refused the API token (HTTP ${status}). Enter the token of an archive-server account that may view documents.`,
      { status },
    );
  }
  if (status === 404) {
    return new DusError(
      'not_found',
      `The archive server answered HTTP 404 for ${path}: the path of the URL is wrong. Enter the address under which the archive server's web interface opens.`,
      { status },
    );
  }
  if (status === 406) return versionRefused(known);
  return new DusError('http', `The archive server answered HTTP ${status}. Check that it runs properly, then try again.`, { status });
}

export function notPaperless(reason: string, status?: number): DusError {
  return new DusError(
    'not_paperless',
    `The answer is not a list of documents of the archive server (${reason}). Check that the URL is the address of Paperless-ngx.`,
    status === undefined ? {} : { status },
  );
}

/** A token no archive server could accept: refused here, before anything is sent. */
export function unsendableToken(): DusError {
  return new DusError(
    'unauthorized',
    'The API token contains spaces, line breaks or other characters an archive-server token never has. Enter the token again.',
  );
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
    return new DusError(
      'unsupported_version',
      `The archive server is newer than this release supports: it announced ${announced} and no longer accepts API version ${SPOKEN_API_VERSION}, the version this release speaks (HTTP 406). Update docs-unified-search.`,
      { status: 406 },
    );
  }
  if (known.apiVersion !== null || known.version !== null) {
    return new DusError(
      'unsupported_version',
      `The archive server does not speak version ${SPOKEN_API_VERSION} of its API (HTTP 406): it is older than Paperless-ngx 2.16. Update the archive server.`,
      { status: 406 },
    );
  }
  return new DusError(
    'unsupported_version',
    `The archive server does not accept version ${SPOKEN_API_VERSION} of its API (HTTP 406): it is older than Paperless-ngx 2.16 (update the archive server), or newer than this release supports and no longer speaks version ${SPOKEN_API_VERSION} (update docs-unified-search).`,
    { status: 406 },
  );
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
