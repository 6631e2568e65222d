/**
 * The marker `[P<document id>]` in a file name. Decision (docs/host-adapter.md): the marker
 * is matched exactly as the sync add-on writes it, upper-case `P`, decimal id without leading
 * zeros; `[p12]` and `[P012]` do not count. SQL only narrows the candidates (its LIKE may be
 * case-insensitive on a MySQL column with a `_ci` collation); this module has the last word,
 * so all three databases give the same answer.
 */
const MARKER = /\[P(\d+)\]/g;

export function markerOf(documentId: number): string {
  return `[P${documentId}]`;
}

/** Document ids whose marker the name carries. */
export function markersIn(name: string): number[] {
  const ids: number[] = [];
  for (const match of name.matchAll(MARKER)) {
    const digits = match[1] ?? '';
    const id = Number(digits);
    if (Number.isSafeInteger(id) && String(id) === digits) ids.push(id);
  }
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
