import { DusError } from '../../errors.js';
import { msg, type Message } from '../../i18n/catalog.js';

const SCHEME = /^([A-Za-z][A-Za-z0-9+.-]*):/;

function fail(code: 'invalid_url' | 'unsupported_scheme' | 'url_extras', message: Message): never {
  throw new DusError(code, message);
}

/**
 * The host's base URL for links (`--host-url`, the stored `host_url`, config.php's
 * `overwrite.cli.url`), checked where it enters by the archive server URL's rules
 * (settings/url-rules.ts, a room the host adapter may not import, so the few lines are its own
 * here): absolute http or https with a host, no credentials, query or fragment, and nothing a
 * browser would not take as written (spaces, control characters). Links the CLI and `serve` build start with it, so a
 * `javascript:` value or a stray word would reach every result and widget. `source` names
 * where it came from in the refusal. A host in Unicode is kept in its ASCII (punycode) form.
 */
export function normalizeHostUrl(input: string, source: string): string {
  const text = input.trim();
  const scheme = SCHEME.exec(text);
  if (scheme === null || scheme[1] === undefined || /[\s\x00-\x1f\x7f]/.test(text)) fail('invalid_url', msg('invalid_url.host_url', { source }));
  const name = scheme[1].toLowerCase();
  if (name !== 'http' && name !== 'https') fail('unsupported_scheme', msg('unsupported_scheme.host_url', { source, scheme: name }));
  const afterScheme = text.slice(scheme[0].length);
  if (!afterScheme.startsWith('//')) fail('invalid_url', msg('invalid_url.host_url', { source }));
  if (text.includes('?') || text.includes('#') || authorityOf(afterScheme).includes('@')) fail('url_extras', msg('url_extras.host_url', { source }));
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    fail('invalid_url', msg('invalid_url.host_url', { source }));
  }
  if (url.hostname === '') fail('invalid_url', msg('invalid_url.host_url', { source }));
  return `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, '')}`;
}

/** The raw authority (`user@host:port`) after `//`. */
function authorityOf(afterScheme: string): string {
  const rest = afterScheme.slice(2);
  const end = rest.search(/[/\\?#]/);
  return end === -1 ? rest : rest.slice(0, end);
}
