import { DusError } from '../errors.js';
import { msg, type Message } from '../i18n/catalog.js';

/**
 * The spec's rules for the archive server URL ("Settings", "Errors"). The stored form has no
 * trailing slash, keeps a path prefix, and names the host in ASCII form.
 *
 * A host typed in Unicode (an internationalised domain name such as `bücher.example`) is
 * refused with `host_not_ascii` rather than converted: the administrator then enters the
 * `xn--` form the archive server's certificate and logs will show. Any character above U+007F
 * in the host part counts, including full-width dots.
 */

const SCHEME = /^([A-Za-z][A-Za-z0-9+.-]*):/;
const DEFAULT_PORTS: Readonly<Record<string, string>> = { 'http:': '80', 'https:': '443' };

function fail(code: 'invalid_url' | 'unsupported_scheme' | 'url_extras' | 'host_not_ascii', message: Message): never {
  throw new DusError(code, message);
}

/** The raw authority (`user@host:port`) of an input that starts with `scheme://`. */
function rawAuthority(afterScheme: string): string {
  const rest = afterScheme.slice(2);
  const end = rest.search(/[/\\?#]/);
  return end === -1 ? rest : rest.slice(0, end);
}

export function normalizeArchiveUrl(input: string): string {
  const text = input.trim();
  const scheme = SCHEME.exec(text);
  if (scheme === null || scheme[1] === undefined) {
    fail('invalid_url', msg('invalid_url.no_scheme'));
  }
  const name = scheme[1].toLowerCase();
  if (name !== 'http' && name !== 'https') {
    fail('unsupported_scheme', msg('unsupported_scheme.scheme', { scheme: name }));
  }
  const afterScheme = text.slice(scheme[0].length);
  if (!afterScheme.startsWith('//')) {
    fail('invalid_url', msg('invalid_url.no_authority'));
  }
  if (text.includes('?') || text.includes('#')) {
    fail('url_extras', msg('url_extras.query'));
  }
  const authority = rawAuthority(afterScheme);
  if (authority.includes('@')) {
    fail('url_extras', msg('url_extras.credentials'));
  }
  const host = authority.replace(/:[^:\]]*$/, '');
  if (host === '') fail('invalid_url', msg('invalid_url.no_host'));
  if (/[^\x00-\x7f]/.test(host)) {
    fail('host_not_ascii', msg('host_not_ascii.host'));
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    fail('invalid_url', msg('invalid_url.unparsable'));
  }
  const path = url.pathname.replace(/\/+$/, '');
  return `${url.protocol}//${url.host}${path}`;
}

/** `scheme://host:port` with the default port written out, so that only a real change of port differs. */
export function originOf(url: string): string {
  const parsed = new URL(url);
  const port = parsed.port === '' ? (DEFAULT_PORTS[parsed.protocol] ?? '') : parsed.port;
  return `${parsed.protocol}//${parsed.hostname}:${port}`;
}
