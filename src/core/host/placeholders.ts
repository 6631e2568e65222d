/**
 * Statements are written once with `?` placeholders; PostgreSQL wants `$1…$n`. The
 * conversion skips quoted literals and identifiers so a `?` inside a string stays a `?`.
 */
export function toNumberedPlaceholders(sql: string): string {
  let out = '';
  let n = 0;
  let quote: string | null = null;
  for (const ch of sql) {
    if (quote !== null) {
      if (ch === quote) quote = null;
      out += ch;
    } else if (ch === "'" || ch === '"') {
      quote = ch;
      out += ch;
    } else if (ch === '?') {
      n += 1;
      out += `$${n}`;
    } else {
      out += ch;
    }
  }
  return out;
}
