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

/**
 * Calls `onId` with the document id of each marker the name carries, in order: what the
 * pattern /\[P(\d+)\]/g finds, kept when its digits have no leading zero and make a safe
 * integer. No array, match or substring is made (the marker index's build reads a million
 * names with it).
 */
export function forEachMarker(name: string, onId: (id: number) => void): void {
  for (let at = name.indexOf(OPEN); at >= 0; at = name.indexOf(OPEN, at)) {
    const first = at + OPEN.length;
    let end = first;
    let id = 0;
    for (let c = name.charCodeAt(end); c >= ZERO && c <= NINE; c = name.charCodeAt(end)) {
      // Exact while the value is a safe integer; past it, rounded but unsafe all the same.
      id = id * 10 + (c - ZERO);
      end += 1;
    }
    if (end > first && name.charCodeAt(end) === CLOSE) {
      if ((end - first === 1 || name.charCodeAt(first) !== ZERO) && Number.isSafeInteger(id)) onId(id);
      at = end + 1;
    } else at = first;
  }
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
