/**
 * Query strings the way Django and Python's urllib read and write them, so `next` and
 * `previous` links come out byte for byte as DRF builds them (reference §3.5).
 */

export type QueryPairs = Array<[string, string]>;

/** Percent-decoding that never throws; bad UTF-8 becomes U+FFFD as Python's `unquote` does. */
function unquote(text: string): string {
  const bytes: number[] = [];
  let i = 0;
  while (i < text.length) {
    const pair = text.slice(i + 1, i + 3);
    if (text[i] === '%' && /^[0-9a-fA-F]{2}$/.test(pair)) {
      bytes.push(parseInt(pair, 16));
      i += 3;
      continue;
    }
    const codePoint = text.codePointAt(i) ?? 0;
    const char = String.fromCodePoint(codePoint);
    for (const b of Buffer.from(char, 'utf8')) bytes.push(b);
    i += char.length;
  }
  return Buffer.from(bytes).toString('utf8');
}

/** `urllib.parse.parse_qsl(query, keep_blank_values=True)`. */
export function parseQuery(query: string): QueryPairs {
  const pairs: QueryPairs = [];
  for (const part of query.split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const rawKey = eq === -1 ? part : part.slice(0, eq);
    const rawValue = eq === -1 ? '' : part.slice(eq + 1);
    pairs.push([unquote(rawKey.replace(/\+/g, ' ')), unquote(rawValue.replace(/\+/g, ' '))]);
  }
  return pairs;
}

/** Django's `QueryDict.get`: the last value of a repeated key. */
export function lastValues(pairs: QueryPairs): Map<string, string> {
  const map = new Map<string, string>();
  for (const [key, value] of pairs) map.set(key, value);
  return map;
}

/** `urllib.parse.quote_plus` with Python's default safe set. */
export function quotePlus(text: string): string {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    const c = String.fromCharCode(byte);
    if (/[A-Za-z0-9_.\-~]/.test(c)) out += c;
    else if (c === ' ') out += '+';
    else out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** `urllib.parse.quote(text, safe='/')`, as Django's `redirect_to_login` encodes `next`. */
export function quotePath(text: string): string {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    const c = String.fromCharCode(byte);
    if (/[A-Za-z0-9_.\-~/]/.test(c)) out += c;
    else out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** `urlencode(sorted(parse_qs(query).items()), doseq=True)`: keys sorted, repeated values kept in order. */
function encodeSorted(pairs: QueryPairs): string {
  const grouped = new Map<string, string[]>();
  for (const [key, value] of pairs) {
    const list = grouped.get(key);
    if (list === undefined) grouped.set(key, [value]);
    else list.push(value);
  }
  const keys = [...grouped.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return keys.flatMap((key) => (grouped.get(key) ?? []).map((value) => `${quotePlus(key)}=${quotePlus(value)}`)).join('&');
}

/** DRF `replace_query_param`. */
export function replaceQueryParam(base: string, pairs: QueryPairs, key: string, value: string): string {
  const kept = pairs.filter(([k]) => k !== key);
  kept.push([key, value]);
  const query = encodeSorted(kept);
  return query === '' ? base : `${base}?${query}`;
}

/** DRF `remove_query_param`: no `?` at all when nothing remains. */
export function removeQueryParam(base: string, pairs: QueryPairs, key: string): string {
  const query = encodeSorted(pairs.filter(([k]) => k !== key));
  return query === '' ? base : `${base}?${query}`;
}
