/**
 * Plain text from the archive server's `__search_hit__.highlights`: Whoosh sends
 * `<span class="match term0">…</span>` with the rest HTML-escaped, Tantivy sends `<b>…</b>`.
 * Markup goes, entities are decoded once (so `&amp;lt;` stays the text `&lt;`), space is tidied.
 */
const NAMED: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
};

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-zA-Z]+);/g, (whole, body: string) => {
    if (body.startsWith('#x') || body.startsWith('#X')) return fromCodePoint(Number.parseInt(body.slice(2), 16), whole);
    if (body.startsWith('#')) return fromCodePoint(Number.parseInt(body.slice(1), 10), whole);
    return NAMED[body.toLowerCase()] ?? whole;
  });
}

function fromCodePoint(code: number, fallback: string): string {
  return Number.isInteger(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : fallback;
}

export function excerptOf(highlights: string | null | undefined): string {
  if (highlights === null || highlights === undefined || highlights === '') return '';
  const withoutMarkup = highlights.replace(/<[^>]*>/g, '');
  return decodeEntities(withoutMarkup).replace(/\s+/g, ' ').trim();
}
