/**
 * Where the wrapper sends a browser. A `Location` header must be ASCII: Node refuses a value
 * outside Latin-1 (and browsers read Latin-1 bytes as they like), so every Location is
 * percent-encoded UTF-8 before it is sent, and a redirect target taken from a caller must be a
 * path of this server.
 */

/** Each character outside visible ASCII as percent-encoded UTF-8 (a lone surrogate as U+FFFD); `%XX` already there is kept. */
export function asciiLocation(location: string): string {
  let ascii = '';
  for (const character of location) {
    const code = character.codePointAt(0) ?? 0;
    if (code > 0x20 && code < 0x7f) {
      ascii += character;
      continue;
    }
    for (const byte of Buffer.from(character, 'utf8')) ascii += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return ascii;
}

/** Stands for this server while a target is resolved; never sent anywhere. */
const HERE = 'http://this-server.invalid';

/**
 * A caller's redirect target (the login form's `redirect_url`) when it is a path of this
 * server, as ASCII; else the fallback. Refused: no leading `/`, `//host`, a backslash, and a
 * tab, line end or other control character (a browser drops those from a URL, so `/<tab>/host`
 * would become `//host`, another server). Characters outside ASCII are kept, percent-encoded as
 * a browser would send them.
 */
export function sameServerPath(target: unknown, fallback: string): string {
  if (typeof target !== 'string' || !target.startsWith('/') || target.startsWith('//') || /[\\\u0000-\u0020\u007f-\u009f]/.test(target)) return fallback;
  let resolved: URL;
  try {
    resolved = new URL(asciiLocation(target), HERE);
  } catch {
    return fallback;
  }
  const path = `${resolved.pathname}${resolved.search}${resolved.hash}`;
  if (resolved.origin !== HERE || !path.startsWith('/') || path.startsWith('//')) return fallback;
  return path;
}
