/** A quoted literal or identifier (to the end of the text when never closed), or a placeholder. */
const QUOTED_OR_PLACEHOLDER = /'[^']*(?:'|$)|"[^"]*(?:"|$)|\?/g;

/**
 * Statements are written once with `?` placeholders; PostgreSQL wants `$1…$n`. The
 * conversion skips quoted literals and identifiers so a `?` inside a string stays a `?`.
 * One native replace: the text comes out flat, where appending it character by character
 * left a rope that every later use (hashing it as a prepared statement's key, writing it to
 * the socket) had to flatten again.
 */
export function toNumberedPlaceholders(sql: string): string {
  let n = 0;
  return sql.replace(QUOTED_OR_PLACEHOLDER, (match) => {
    if (match !== '?') return match;
    n += 1;
    return `$${n}`;
  });
}
