/**
 * The `all` array of a Paperless page (every matching id, sent with API version 9: always on
 * archive server 2, and on 3 for version 9, which the spec fixes) taken out of the answer while it
 * streams in. The rest of the page is kept with `"all":[]` in its place, so what is buffered and
 * parsed stays the size of the page itself; the ids are kept as numbers only where a caller needs
 * them (the connection test), and only up to `MAX_ALL_IDS`.
 *
 * Facts (docs/archive-client.md "The `all` list"): a 100 000-document archive sends about 0.7 MB
 * of ids with every page; the page itself (25 hits, or 1 id) is a few kB.
 */

/** Ids kept for the caller: 2 million (about 16 MB as numbers); beyond, the list is dropped (null). */
export const MAX_ALL_IDS = 2_000_000;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const COLON = 0x3a;
const COMMA = 0x2c;
const ZERO = 0x30;
const NINE = 0x39;

function isSpace(byte: number): boolean {
  return byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d;
}

/**
 * A byte-level scanner of one JSON answer. It knows strings (so a URL holding `"all":[` in `next`
 * changes nothing) and nesting depth, and removes the members of the top-level `all` array.
 */
export class AllIdsFilter {
  private depth = 0;
  private inString = false;
  private escaped = false;
  /** Bytes of the current top-level key (only the first 4 matter). */
  private key = '';
  private lastKey: string | null = null;
  private afterColon = false;
  private inAll = false;
  private number = -1;
  private valid = true;
  private readonly ids: number[] = [];
  private overflow = false;
  private seen = false;

  constructor(private readonly keep: boolean) {}

  /** The bytes of `chunk` that stay in the answer (the array's members left out). */
  push(chunk: Buffer): Buffer {
    // Only the first `all` is taken out; once it is closed the rest passes unscanned (Paperless
    // sends `all` before `results`, so the 25 hits of a search page are never scanned byte by byte).
    if (this.done()) return chunk;
    let kept: Buffer[] | null = null;
    let from = 0;
    for (let at = 0; at < chunk.length; at += 1) {
      const byte = chunk[at] ?? 0;
      if (this.inAll) {
        if (byte === CLOSE_ARRAY) {
          this.endNumber();
          this.inAll = false;
          this.depth -= 1;
          from = at;
          break;
        }
        if (byte >= ZERO && byte <= NINE) this.number = (this.number < 0 ? 0 : this.number * 10) + (byte - ZERO);
        else if (byte === COMMA) this.endNumber();
        else if (!isSpace(byte)) this.valid = false;
        continue;
      }
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (byte === BACKSLASH) this.escaped = true;
        else if (byte === QUOTE) {
          this.inString = false;
          if (this.depth === 1) this.lastKey = this.key;
        } else if (this.depth === 1 && this.key.length < 4) this.key += String.fromCharCode(byte);
        continue;
      }
      if (byte === QUOTE) {
        this.inString = true;
        this.key = '';
        this.afterColon = false;
      } else if (byte === COLON) {
        this.afterColon = this.depth === 1 && this.lastKey === 'all';
      } else if (byte === OPEN_ARRAY && this.afterColon && !this.seen) {
        this.depth += 1;
        this.inAll = true;
        this.seen = true;
        this.afterColon = false;
        // Keep the `[`, drop what follows up to (not including) the closing `]`.
        kept ??= [];
        kept.push(chunk.subarray(from, at + 1));
        from = chunk.length;
        continue;
      } else if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) {
        this.depth += 1;
        this.afterColon = false;
        this.lastKey = null;
      } else if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) {
        this.depth -= 1;
        this.afterColon = false;
      } else if (!isSpace(byte)) {
        this.afterColon = false;
        if (byte === COMMA) this.lastKey = null;
      }
    }
    if (this.inAll) {
      if (kept === null) return chunk.subarray(0, 0);
      return Buffer.concat(kept);
    }
    if (kept === null) return from === 0 ? chunk : chunk.subarray(from);
    kept.push(chunk.subarray(from));
    return Buffer.concat(kept);
  }

  /** The `all` array was taken out: nothing further is removed (see `push`). */
  private done(): boolean {
    return this.seen && !this.inAll;
  }

  /** The ids of `all`: null when there was none, it held something else, it was cut off, or it was longer than kept. */
  allIds(): number[] | null {
    if (!this.keep || !this.seen || this.inAll || !this.valid || this.overflow) return null;
    return this.ids;
  }

  private endNumber(): void {
    if (this.number < 0) return;
    if (this.keep && !this.overflow) {
      if (this.ids.length >= MAX_ALL_IDS) {
        this.overflow = true;
        this.ids.length = 0;
      } else this.ids.push(this.number);
    }
    this.number = -1;
  }
}
