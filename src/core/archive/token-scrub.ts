/**
 * The one step every string from the archive server passes before the core keeps, prints or
 * serves it: titles, excerpts, correspondent and type names, dates, version headers and the
 * texts of failures. A hostile or broken server could echo the API token it was sent into any
 * of them, and ordinary users would then read it in a search result or the widget.
 *
 * What counts as the token: any run of at least `FRAGMENT_LENGTH` characters (the whole token
 * when it is shorter) that also occurs in the token, compared without letter case. So the
 * token in another case, inside a longer word, either half of it or one character short are
 * all replaced. Pieces shorter than that pass: a hex token shares a run of 8 characters with a
 * real title about once in 100 million titles, and a shorter run would start eating dates and
 * invoice numbers. A server that spreads the token over several fields in short pieces is not
 * stopped by this; it holds the token anyway, and the pieces are useless to the reader without
 * knowing where each one goes.
 *
 * A server may also echo the token encoded (`tokenForms`): reversed, as hex, percent-encoded,
 * base64 or base64url (at each of the three byte alignments a longer encoded text can give it).
 * Runs of those forms count as the token's too, by the same rule; a hex or base64 run of 8 in a
 * real title is as unlikely to be one of them as a plain run is to be the token's.
 */

import { DusError } from '../errors.js';

export const FRAGMENT_LENGTH = 8;
export const REDACTED = '[redacted]';

export type Scrubber = (text: string) => string;

/** Lower case per UTF-16 unit, keeping the length, so positions in the folded text are positions in the text. */
function foldCase(text: string): string {
  let folded = '';
  for (let at = 0; at < text.length; at += 1) {
    const unit = text.charAt(at);
    const lower = unit.toLowerCase();
    folded += lower.length === 1 ? lower : unit;
  }
  return folded;
}

/** One UTF-16 unit as `foldCase` folds it. */
function foldUnit(code: number): number {
  if (code < 0x80) return code >= 0x41 && code <= 0x5a ? code + 0x20 : code;
  const lower = String.fromCharCode(code).toLowerCase();
  return lower.length === 1 ? lower.charCodeAt(0) : code;
}

/**
 * The token as a server could echo it: itself, reversed, hex, percent-encoded (every byte, and as
 * a URL component) and base64 and base64url. Base64 of the token inside a longer text (`user:token`
 * in a Basic header, say) depends on where its bytes fall in the groups of three: for each of the
 * three alignments the characters that hold only the token's bits are a form of their own.
 */
export function tokenForms(token: string): string[] {
  const bytes = Buffer.from(token, 'utf8');
  const forms = [
    token,
    [...token].reverse().join(''),
    bytes.toString('hex'),
    [...bytes].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join(''),
    encodeURIComponent(token),
  ];
  for (const whole of [bytes.toString('base64'), bytes.toString('base64url')]) forms.push(whole, whole.replace(/=+$/, ''));
  for (let shift = 0; shift < 3; shift += 1) {
    const encoded = Buffer.concat([Buffer.alloc(shift), bytes]).toString('base64');
    // Characters wholly inside the token's bits: from the first after the `shift` bytes before it
    // to the last before whatever follows it.
    const inner = encoded.slice(Math.ceil((8 * shift) / 6), Math.floor((8 * (shift + bytes.length)) / 6));
    forms.push(inner, inner.replaceAll('+', '-').replaceAll('/', '_'));
  }
  return [...new Set(forms)];
}

export function tokenScrubber(token: string): Scrubber {
  if (token === '') return (text) => text;
  const width = Math.min(FRAGMENT_LENGTH, token.length);
  const pieces = new Set<string>();
  const units = new Set<number>();
  for (const form of tokenForms(token)) {
    const folded = foldCase(form);
    for (let at = 0; at + width <= folded.length; at += 1) pieces.add(folded.slice(at, at + width));
    // A unit only in a form too short for a piece matches nothing: it need not start a run.
    if (folded.length >= width) for (let at = 0; at < folded.length; at += 1) units.add(folded.charCodeAt(at));
  }
  // ASCII, nearly all of a page, looked up in a table: 1 where the unit, folded, occurs in the token.
  const ascii = new Uint8Array(0x80);
  for (let code = 0; code < 0x80; code += 1) ascii[code] = units.has(foldUnit(code)) ? 1 : 0;
  const inToken = (code: number): boolean => (code < 0x80 ? ascii[code] === 1 : units.has(foldUnit(code)));

  /**
   * A piece of the token can only lie in a run of units that all occur in the token. Ordinary text
   * (spaces, letters the token lacks) has few such runs of `width` or more, so only those are
   * folded and compared window by window: comparing every window of every string cost more than
   * the rest of a search's own steps (a page of 25 hits: 0.45 ms). Matches in different runs are
   * apart by at least one other unit, so they are never merged, exactly as on the whole text.
   */
  return (text) => {
    if (text.length < width) return text;
    let result = '';
    let copied = 0;
    let redactStart = -1;
    let redactEnd = -1;
    let runStart = 0;
    for (let end = 0; end <= text.length; end += 1) {
      if (end < text.length && inToken(text.charCodeAt(end))) continue;
      if (end - runStart >= width) {
        const haystack = foldCase(text.slice(runStart, end));
        for (let at = 0; at + width <= haystack.length; at += 1) {
          if (!pieces.has(haystack.slice(at, at + width))) continue;
          const position = runStart + at;
          if (position <= redactEnd) {
            redactEnd = position + width;
            continue;
          }
          if (redactStart !== -1) {
            result += text.slice(copied, redactStart) + REDACTED;
            copied = redactEnd;
          }
          redactStart = position;
          redactEnd = position + width;
        }
      }
      runStart = end + 1;
    }
    if (redactStart === -1) return text;
    return `${result}${text.slice(copied, redactStart)}${REDACTED}${text.slice(redactEnd)}`;
  };
}

/** Whether the text holds nothing of the token (the test for values that are kept or refused whole). */
export function isClean(scrub: Scrubber, text: string): boolean {
  return scrub(text) === text;
}

/** Every message along an error's cause chain. */
function messagesOf(error: unknown): string[] {
  const messages: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth += 1) {
    messages.push(current.message);
    current = current.cause;
  }
  return messages;
}

/**
 * A failure as it may leave the archive client: its message scrubbed, and its cause dropped
 * when any message along the cause chain (a host name a forward chose, say) names the token.
 */
export function scrubbedFailure(error: unknown, scrub: Scrubber): unknown {
  if (!(error instanceof Error) || messagesOf(error).every((message) => isClean(scrub, message))) return error;
  if (error instanceof DusError) return new DusError(error.code, scrub(error.message), { status: error.status, beforeConnection: error.beforeConnection });
  return new DusError('internal', scrub(error.message));
}
