import { DusError } from '../errors.js';

/** The provider's `limit`: default 5, at most 50, at least 1 (the host clamps the same way). */
export const PROVIDER_LIMIT_DEFAULT = 5;
export const PROVIDER_LIMIT_MAX = 50;

export function clampLimit(limit: number | undefined, fallback = PROVIDER_LIMIT_DEFAULT, max = PROVIDER_LIMIT_MAX): number {
  if (limit === undefined || !Number.isFinite(limit)) return fallback;
  return Math.max(1, Math.min(Math.trunc(limit), max));
}

/**
 * The longest term sent to the archive server. A term of 100 000 characters used to go out,
 * come back as HTTP 414 and land in the problem history. Paperless-ngx itself is served by
 * granian (since 2.15), whose HTTP/1 buffer (hyper's, about 400 KiB) is not what limits a URL;
 * the reverse proxies usually in front of it are: nginx answers 414 to a request line over its
 * 8 KiB header buffer, Apache to one over 8190 bytes (`LimitRequestLine`). 1000 characters is far
 * beyond what anyone types into a search box; the second bound keeps the term as it travels in
 * the URL (UTF-8, percent-encoded: up to 12 bytes per character) well inside those lines with room
 * for the rest of the query, and below Paperless-ngx 3.2's own cap (below).
 */
export const TERM_MAX_CHARACTERS = 1000;
export const TERM_MAX_URL_BYTES = 3000;

/**
 * Paperless-ngx 3.2's own limit (`_MAX_QUERY_LENGTH` of `views/base.py`, #14072/#14073): a `query`
 * or `text` of more characters is refused with HTTP 400 (QueryTooLongError). Ours is lower, so a
 * term Paperless would refuse never goes out; the usage error names both.
 */
export const ARCHIVE_QUERY_MAX_CHARACTERS = 4096;

/** The term as it is searched for (trimmed), or a `usage` refusal before anything is asked. */
export function checkedTerm(term: string): string {
  const trimmed = term.trim();
  if ([...trimmed].length > TERM_MAX_CHARACTERS || encodeURIComponent(trimmed.replace(/[\uD800-\uDFFF]/g, '\uFFFD')).length > TERM_MAX_URL_BYTES) {
    throw new DusError(
      'usage',
      `The search term is too long: at most ${TERM_MAX_CHARACTERS} characters (fewer when they are not ASCII: at most ${TERM_MAX_URL_BYTES} bytes once written into a URL); ` +
        `Paperless-ngx 3.2 itself refuses more than ${ARCHIVE_QUERY_MAX_CHARACTERS}.`,
    );
  }
  return trimmed;
}

/** The cursor is the absolute offset of the next hit in the archive server's result order. */
export function parseCursor(cursor: string | number | undefined | null): number {
  if (cursor === undefined || cursor === null || cursor === '') return 0;
  const text = String(cursor).trim();
  if (!/^\d{1,15}$/.test(text)) {
    throw new DusError('usage', 'The cursor must be a whole number from 0, as returned by the previous page.');
  }
  return Number(text);
}

/** A moment's own offset as written (`Z`, `+01:00`, `-0500`), in minutes east of UTC. */
const WRITTEN_OFFSET = /(?:Z|([+-])(\d{2}):?(\d{2}))$/i;

/**
 * A date filter as the host passes it (`since`/`until`: a day, an ISO moment or a Unix time)
 * reduced to the day the archive server's `created` filter compares. A moment counts on the
 * calendar of the offset it is written in: the host's search bar sends the user's midnight and
 * last millisecond of a day, and the bridge writes them in the user's time zone, so that
 * 00:00+01:00 is that day and not the UTC day before it. A Unix time, which has no offset,
 * counts on the UTC calendar, as does an ISO moment written without one.
 */
export function dayOf(value: string | undefined, name: string): string | undefined {
  if (value === undefined || value === '') return undefined;
  const text = value.trim();
  const written = /^(\d{4})-(\d{2})-(\d{2})(?=$|T)/.exec(text);
  // `Date` rolls 2026-02-30T00:00 over to March: a written day that is no calendar day is refused
  // rather than sent to the archive server as another day.
  const impossible = written !== null && !isCalendarDay(Number(written[1]), Number(written[2]), Number(written[3]));
  if (written !== null && !impossible && text.length === 10) return text;
  const unix = /^\d+$/.test(text);
  // Without an offset `Date` would read the moment in this process's zone: UTC is said instead.
  const offset = unix ? null : WRITTEN_OFFSET.exec(text);
  const moment = unix ? new Date(Number(text) * 1000) : new Date(offset === null && written !== null ? `${text}Z` : text);
  if (impossible || Number.isNaN(moment.getTime())) {
    throw new DusError('usage', `The date filter "${name}" must be a day (YYYY-MM-DD), an ISO 8601 moment or a Unix time.`);
  }
  const east = offset?.[1] === undefined ? 0 : (offset[1] === '-' ? -1 : 1) * (Number(offset[2]) * 60 + Number(offset[3]));
  return new Date(moment.getTime() + east * 60_000).toISOString().slice(0, 10);
}

function isCalendarDay(year: number, month: number, day: number): boolean {
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}
