import type { Reply } from './reply.js';

/**
 * The emulator's `echoToken` knob: a hostile (or compromised) archive server that writes the
 * token it was sent back into every string of its answers and into its version headers, in
 * every form a leak could take. The normal answer is decorated, not replaced, so searches still
 * find what they would find and the product runs its whole path.
 */

/**
 * The token encoded as a server could echo it (issue 23): base64, base64url, hex, reversed,
 * percent-encoded byte by byte, and base64 of `user:token` (the token at another byte alignment).
 * Written here without the product's `tokenForms`, so that a form it forgets is caught.
 */
export function encodedForms(token: string): string[] {
  const bytes = Buffer.from(token, 'utf8');
  return [
    bytes.toString('base64'),
    bytes.toString('base64url'),
    bytes.toString('hex'),
    [...token].reverse().join(''),
    [...bytes].map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`).join(''),
    Buffer.from(`archive:${token}`).toString('base64'),
  ];
}

/** The forms a leaked token takes: whole, other letter case, inside a longer word, each half, one character short, encoded. */
export function leakForms(token: string): string[] {
  const middle = Math.ceil(token.length / 2);
  const swapped = [...token].map((c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase())).join('');
  return [
    token,
    token.toUpperCase(),
    swapped,
    `x${token.toLowerCase()}y`,
    token.slice(0, middle),
    token.slice(middle),
    token.slice(0, -1),
    token.slice(1),
    ...encodedForms(token),
  ];
}

/**
 * What a scan looks for: each form a hostile server used that still tells something of the
 * token (either half, one character short, each encoded form; of `user:token` the part past the
 * user's), compared without letter case.
 */
export function secretForms(token: string): string[] {
  const middle = Math.ceil(token.length / 2);
  const encoded = encodedForms(token);
  // Past the user's part ('archive:', 8 bytes: 10 characters and 4 bits of the 11th).
  encoded.push((encoded.pop() ?? '').slice(11));
  return [...new Set([token, token.slice(0, middle), token.slice(middle), token.slice(0, -1), token.slice(1), ...encoded].map((form) => form.toLowerCase()))];
}

/** Each place a form of a secret occurs in the text (any letter case), with a little text around it. */
export function leaksIn(text: string, secrets: readonly string[]): string[] {
  const haystack = text.toLowerCase();
  const found: string[] = [];
  for (const form of secrets.flatMap(secretForms)) {
    for (let at = haystack.indexOf(form); at !== -1; at = haystack.indexOf(form, at + 1)) {
      found.push(`${form} in …${text.slice(Math.max(0, at - 60), at + form.length + 20)}…`);
    }
  }
  return found;
}

/** Version headers per answer, in turn: the token whole, in other cases, split across both headers, halves, one short, in a longer word. */
function versionHeaders(token: string, turn: number): Record<string, string> {
  const middle = Math.ceil(token.length / 2);
  const [first, second] = [token.slice(0, middle), token.slice(middle)];
  const pairs: Array<[string, string]> = [
    [token, token],
    [token.toUpperCase(), token.toLowerCase()],
    [first, second],
    [second, first],
    [token.slice(0, -1), token.slice(1)],
    [`3.0.5-${token}`, `10${token}`],
    [`3.0.5-${first}`, `10.${second}`],
  ];
  const [version, apiVersion] = pairs[turn % pairs.length] ?? [token, token];
  return { 'X-Version': version, 'X-Api-Version': apiVersion };
}

const ECHOED_KEYS = new Set(['title', 'name', 'highlights', 'created', 'added', 'detail', 'content', 'original_file_name']);

/** Appends a form of the token to every string the product might read, walking the JSON. */
function decorate(value: unknown, forms: readonly string[], next: () => number): unknown {
  if (Array.isArray(value)) return value.map((item) => decorate(item, forms, next));
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    if (typeof field === 'string' && ECHOED_KEYS.has(key)) out[key] = `${field} ${forms[next() % forms.length] ?? ''}`;
    // The messages of a SearchQueryError (`{"query": [...]}`), which the product shows as they are.
    else if (key === 'query' && Array.isArray(field))
      out[key] = field.map((item: unknown) => (typeof item === 'string' ? `${item} ${forms[next() % forms.length] ?? ''}` : item));
    else out[key] = decorate(field, forms, next);
  }
  return out;
}

/** The token a request carried (`Authorization: Token <key>`), or null. */
export function sentToken(authorization: string | undefined): string | null {
  const match = /^Token\s+(\S+)$/i.exec((authorization ?? '').trim());
  return match?.[1] ?? null;
}

export function hostileReply(reply: Reply, token: string, turn: number): Reply {
  const forms = leakForms(token);
  let counter = turn;
  let body = reply.body;
  if (/^application\/json\b/i.test(reply.headers['Content-Type'] ?? '')) {
    try {
      body = JSON.stringify(decorate(JSON.parse(reply.body), forms, () => counter++));
    } catch {
      // Not JSON after all: left as it is.
    }
  }
  return { ...reply, body, headers: { ...reply.headers, ...versionHeaders(token, turn) } };
}
