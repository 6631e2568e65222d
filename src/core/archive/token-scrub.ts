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

export function tokenScrubber(token: string): Scrubber {
  const folded = foldCase(token);
  if (folded === '') return (text) => text;
  const width = Math.min(FRAGMENT_LENGTH, folded.length);
  const pieces = new Set<string>();
  for (let at = 0; at + width <= folded.length; at += 1) pieces.add(folded.slice(at, at + width));

  return (text) => {
    if (text.length < width) return text;
    const haystack = foldCase(text);
    let result = '';
    let copied = 0;
    let runStart = -1;
    let runEnd = -1;
    for (let at = 0; at + width <= haystack.length; at += 1) {
      if (!pieces.has(haystack.slice(at, at + width))) continue;
      if (at <= runEnd) {
        runEnd = at + width;
        continue;
      }
      if (runStart !== -1) {
        result += text.slice(copied, runStart) + REDACTED;
        copied = runEnd;
      }
      runStart = at;
      runEnd = at + width;
    }
    if (runStart === -1) return text;
    return `${result}${text.slice(copied, runStart)}${REDACTED}${text.slice(runEnd)}`;
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
