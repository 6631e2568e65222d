/**
 * A term the archive server refused with a message of its own: Paperless-ngx's SearchQueryError
 * (a bad date or number in the query, a bracket range without a wildcard, a query over 4096
 * characters on 3.2), which every search view answers as HTTP 400 `{"query": [message, …]}`
 * (`src/documents/search/_errors.py`, docs/archive-client.md "Releases"). Paperless calls the
 * message safe to show; it is still the archive server's text, so before it is shown it passes
 * the token step and loses anything that looks like an address or a key.
 */
import { validateQueryRefusal } from './schemas.js';
import type { Scrubber } from './token-scrub.js';

/** Longest refusal kept: Paperless's messages are one sentence each. */
export const MAX_REFUSAL_LENGTH = 400;

/** A word that names a place: a URL, `www.…`, or a query string. */
const ADDRESS_LIKE = /^(?:.*:\/\/.*|www\..*|.*[?&][^\s=]*=.*)$/iu;
/** A word that could be a key: 20 or more letters and digits holding both. */
const KEY_LIKE = /[\p{L}\p{N}]{20,}/gu;

/**
 * Paperless's messages of a 400 answer when it is a SearchQueryError, joined as Paperless joins
 * several ("; "), made safe to show; null when the answer is not one.
 */
export function refusalOf(contentType: string, body: Buffer, scrub: Scrubber): string | null {
  if (!/^application\/json\b/i.test(contentType.trim())) return null;
  let data: unknown;
  try {
    data = JSON.parse(body.toString('utf8')) as unknown;
  } catch {
    return null;
  }
  if (!validateQueryRefusal(data)) return null;
  const text = safeText(data.query.join('; '), scrub);
  return text === '' ? null : text;
}

function safeText(message: string, scrub: Scrubber): string {
  const words = message
    .replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu, ' ')
    .split(/\s+/u)
    .filter((word) => word !== '')
    .map((word) => (ADDRESS_LIKE.test(word) ? '[address]' : word.replace(KEY_LIKE, (run) => (/\p{L}/u.test(run) && /\p{N}/u.test(run) ? '[redacted]' : run))));
  const text = scrub(words.join(' '));
  return [...text].length <= MAX_REFUSAL_LENGTH ? text : `${[...text].slice(0, MAX_REFUSAL_LENGTH - 1).join('')}…`;
}
