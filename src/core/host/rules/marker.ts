/**
 * The marker `[P<document id>]` in a file name. Decision (docs/host-adapter.md): the marker
 * is matched exactly as the sync add-on writes it, upper-case `P`, decimal id without leading
 * zeros; `[p12]` and `[P012]` do not count. SQL only narrows the candidates (its LIKE may be
 * case-insensitive on a MySQL column with a `_ci` collation); this module has the last word,
 * so all three databases give the same answer.
 */
export function markerOf(documentId: number): string {
  return `[P${documentId}]`;
}

const OPEN = '[P';
const ZERO = 48;
const NINE = 57;
const CLOSE = 93;

/** The value of the ASCII digits text[from, to); -1 when there are none, another character, or a value past 2^53. */
export function digitsValue(text: string, from: number, to: number): number {
  if (to <= from) return -1;
  let value = 0;
  for (let i = from; i < to; i += 1) {
    const c = text.charCodeAt(i);
    if (c < ZERO || c > NINE) return -1;
    // Exact while the value is a safe integer; past it, rounded but unsafe all the same.
    value = value * 10 + (c - ZERO);
  }
  return Number.isSafeInteger(value) ? value : -1;
}

/** The document id of a marker whose digits are text[from, to), or -1 when the rule does not count them (a leading zero, past 2^53). */
export function markerDigits(text: string, from: number, to: number): number {
  return to - from > 1 && text.charCodeAt(from) === ZERO ? -1 : digitsValue(text, from, to);
}

/**
 * Calls `onId` with the document id of each marker the name carries, in order: what the
 * pattern /\[P(\d+)\]/g finds, kept when its digits have no leading zero and make a safe
 * integer. No array, match or substring is made (the marker index's build reads a million
 * names with it). `from` and `to` bound the name inside a longer text (a COPY line).
 */
export function forEachMarker(name: string, onId: (id: number) => void, from = 0, to = name.length): void {
  for (let at = name.indexOf(OPEN, from); at >= 0 && at < to; at = name.indexOf(OPEN, at)) {
    const first = at + OPEN.length;
    let end = first;
    while (end < to && isDigit(name.charCodeAt(end))) end += 1;
    if (end > first && end < to && name.charCodeAt(end) === CLOSE) {
      const id = markerDigits(name, first, end);
      if (id >= 0) onId(id);
      at = end + 1;
    } else at = first;
  }
}

function isDigit(c: number): boolean {
  return c >= ZERO && c <= NINE;
}

/** Document ids whose marker the name carries. */
export function markersIn(name: string): number[] {
  const ids: number[] = [];
  forEachMarker(name, (id) => ids.push(id));
  return ids;
}

/** The escape character of every LIKE pattern we build (reference §5: not a backslash). */
export const LIKE_ESCAPE = '!';

export function escapeLike(text: string): string {
  return text.replace(/[!%_]/g, (ch) => `${LIKE_ESCAPE}${ch}`);
}

/** `%[P<id>]%`: `[` and `]` are literal in LIKE on all three databases. */
export function markerLikePattern(documentId: number): string {
  return `%${escapeLike(markerOf(documentId))}%`;
}

/** Valid document ids, each once, in the given order. */
export function cleanIds(documentIds: readonly number[]): number[] {
  return [...new Set(documentIds.filter((id) => Number.isSafeInteger(id) && id > 0))];
}
