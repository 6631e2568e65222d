/** A complete answer before it is written (faults may replace or decorate it). */
export interface Reply {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
}

/** DRF JSONRenderer: compact, UTF-8 unescaped. */
export function jsonReply(status: number, body: unknown, headers: Record<string, string> = {}): Reply {
  return { status, headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify(body) };
}

export function htmlReply(status: number, body: string, headers: Record<string, string> = {}): Reply {
  return { status, headers: { 'Content-Type': 'text/html; charset=utf-8', ...headers }, body };
}

export function redirectReply(status: number, location: string): Reply {
  return { status, headers: { Location: location, 'Content-Type': 'text/html; charset=utf-8' }, body: '' };
}
