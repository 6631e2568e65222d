import { htmlReply, redirectReply, type Reply } from './reply.js';
import type { Fault } from './types.js';

/** Picks the first fault that matches the path and is not spent, and counts its use. */
export class FaultBook {
  private readonly uses = new WeakMap<Fault, number>();

  take(faults: readonly Fault[], path: string): Fault | undefined {
    for (const fault of faults) {
      if (fault.match !== undefined && !path.startsWith(fault.match)) continue;
      const used = this.uses.get(fault) ?? 0;
      if (fault.times !== undefined && used >= fault.times) continue;
      this.uses.set(fault, used + 1);
      return fault;
    }
    return undefined;
  }
}

/** Body of a `hugeBodyBytes` fault: valid JSON in a page's shape, padded to exactly `bytes`. */
export function hugeBody(bytes: number): string {
  const head = '{"count":0,"next":null,"previous":null,"results":[],"padding":"';
  const tail = '"}';
  if (bytes < head.length + tail.length) return ' '.repeat(Math.max(0, bytes));
  return head + 'x'.repeat(bytes - head.length - tail.length) + tail;
}

const GARBAGE = '<html><body>Not the JSON you were looking for {"count":</body></html>\u0000';

function looksJson(body: string): boolean {
  try {
    JSON.parse(body);
    return true;
  } catch {
    return false;
  }
}

/**
 * The answer a fault puts in place of the normal one, or null when the fault only
 * delays, slows or decorates the normal answer. `hugeBodyBytes` is streamed by the server.
 */
export function faultReply(fault: Fault): Reply | null {
  if (fault.redirectTo !== undefined) return redirectReply(fault.redirectStatus ?? 302, fault.redirectTo);
  if (fault.garbage === true) return { status: fault.status ?? 200, headers: { 'Content-Type': fault.contentType ?? 'application/json' }, body: GARBAGE };
  if (fault.status !== undefined || fault.body !== undefined) {
    const body = fault.body ?? '';
    const contentType = fault.contentType ?? (body !== '' && looksJson(body) ? 'application/json' : 'text/html; charset=utf-8');
    return { ...htmlReply(fault.status ?? 200, body), headers: { 'Content-Type': contentType } };
  }
  return null;
}

/**
 * 3.0.5's answers to a refused phrase and its first single word, where that word's answer lacks
 * the `all` list a word-by-word search intersects: the term and its phrase pass to the emulator,
 * the third request gets one hit of `count` and no `all`.
 */
export function firstWordWithoutAll(count: number): Fault[] {
  const body = JSON.stringify({ count, next: null, previous: null, results: [{ id: 1, __search_hit__: {} }], corrected_query: null });
  return [
    { match: '/api/documents/', times: 2, headers: {} },
    { match: '/api/documents/', times: 1, status: 200, body, contentType: 'application/json', headers: { 'X-Api-Version': '10', 'X-Version': '3.0.5' } },
  ];
}
