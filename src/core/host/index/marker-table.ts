/**
 * What a marker index holds, in a compact form: (document id, file id) pairs sorted by
 * document id in one Float64Array, the folder each pair was read from beside them, and the
 * folders' etags. 24 bytes per marked file, no object per file: a lookup is a binary search,
 * a refresh one linear pass (marker-index.ts), and the arrays are what the index file stores
 * (marker-index-file.ts).
 */

/** The arrays a refresh works on and a save writes. */
export interface IndexArrays {
  /** document id, file id, document id, file id, …: sorted by document id. */
  readonly pairs: Float64Array;
  /** For pair i, the folder (file id) whose children listing gave it. */
  readonly parents: Float64Array;
  /** Folders under `files/` of the indexed storages, with the etag they were read at. */
  readonly folders: ReadonlyMap<number, string | null>;
}

/** The index's content, in memory or in the file. */
export interface MarkerTable {
  /** Pairs (a file counts once per marker in its name). */
  readonly count: number;
  /** Distinct document ids. */
  readonly documents: number;
  readonly folderCount: number;
  /** Adds the file ids listed for these document ids. */
  fileIdsFor(documentIds: readonly number[], into: Set<number>): void;
  /** Every pair, parent and folder (read in full when the table is the file). */
  arrays(): IndexArrays;
}

/** First pair index whose document id is ≥ id, in pairs[from, to). */
export function lowerBound(pairs: Float64Array, id: number, from: number, to: number): number {
  let lo = from;
  let hi = to;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((pairs[2 * mid] ?? 0) < id) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export function distinctDocuments(pairs: Float64Array): number {
  let n = 0;
  for (let i = 0; i < pairs.length; i += 2) if (i === 0 || pairs[i] !== pairs[i - 2]) n += 1;
  return n;
}

export class MemoryTable implements MarkerTable {
  readonly count: number;
  readonly documents: number;
  readonly #arrays: IndexArrays;

  constructor(arrays: IndexArrays) {
    this.#arrays = arrays;
    this.count = arrays.parents.length;
    this.documents = distinctDocuments(arrays.pairs);
  }

  get folderCount(): number {
    return this.#arrays.folders.size;
  }

  fileIdsFor(documentIds: readonly number[], into: Set<number>): void {
    const pairs = this.#arrays.pairs;
    for (const id of documentIds) {
      for (let i = lowerBound(pairs, id, 0, this.count); i < this.count && pairs[2 * i] === id; i += 1) into.add(pairs[2 * i + 1] ?? 0);
    }
  }

  arrays(): IndexArrays {
    return this.#arrays;
  }
}

export const EMPTY_TABLE: MarkerTable = new MemoryTable({ pairs: new Float64Array(0), parents: new Float64Array(0), folders: new Map() });

/** What the resizable ArrayBuffer of ES2024 adds (the project's lib is ES2023; Node 24 has it). */
interface ResizableBuffer extends ArrayBuffer {
  readonly resizable: boolean;
  readonly maxByteLength: number;
  resize(byteLength: number): void;
}
const ResizableArrayBuffer = ArrayBuffer as unknown as new (byteLength: number, options: { maxByteLength: number }) => ResizableBuffer;

/** Pairs a collector can grow to in place: the address space it reserves (never memory). */
const RESERVED_PAIRS = 2 ** 28;

/**
 * A buffer that grows in place where it can: a resizable ArrayBuffer reserves the address
 * space once, and a page counts toward the process's memory only once written, so growing
 * never holds an old and a new copy side by side. Where the reservation is refused (a capped
 * address space), a plain buffer copied on growth.
 */
function growableBuffer(maxByteLength: number): ArrayBuffer {
  try {
    return new ResizableArrayBuffer(0, { maxByteLength });
  } catch {
    return new ArrayBuffer(0);
  }
}

/** The buffer with room for `byteLength` bytes: the same one resized, or a copy. */
function grownBuffer(buffer: ArrayBuffer, byteLength: number): ArrayBuffer {
  const resizable = buffer as ResizableBuffer;
  if (resizable.resizable === true && byteLength <= resizable.maxByteLength) {
    resizable.resize(byteLength);
    return buffer;
  }
  const copy = new ArrayBuffer(byteLength);
  new Uint8Array(copy).set(new Uint8Array(buffer, 0, Math.min(buffer.byteLength, byteLength)));
  return copy;
}

/**
 * Pairs collected as rows arrive, straight into the arrays the index keeps (growing in place,
 * growableBuffer), then sorted in place by document id: the build never holds a second copy
 * of the pairs, nor an array of sort keys (bench/serve-start.ts measures its peak memory).
 */
export class PairCollector {
  /** Pairs the arrays grow by at least (then by an eighth of their size): 256 KiB of pairs. */
  static readonly STEP = 16_384;
  #pairsBuffer = growableBuffer(16 * RESERVED_PAIRS);
  #parentsBuffer = growableBuffer(8 * RESERVED_PAIRS);
  #pairs = new Float64Array(0);
  #parents = new Float64Array(0);
  #count = 0;

  get count(): number {
    return this.#count;
  }

  add(documentId: number, fileId: number, parent: number): void {
    const i = this.#count;
    if (i === this.#parents.length) this.#grow(i + Math.max(PairCollector.STEP, i >>> 3));
    this.#pairs[2 * i] = documentId;
    this.#pairs[2 * i + 1] = fileId;
    this.#parents[i] = parent;
    this.#count = i + 1;
  }

  #grow(capacity: number): void {
    this.#pairsBuffer = grownBuffer(this.#pairsBuffer, 16 * capacity);
    this.#parentsBuffer = grownBuffer(this.#parentsBuffer, 8 * capacity);
    this.#pairs = new Float64Array(this.#pairsBuffer, 0, 2 * capacity);
    this.#parents = new Float64Array(this.#parentsBuffer, 0, capacity);
  }

  /** The pairs sorted by document id (then file id), and their parents, in exact-size arrays; the collector is emptied. */
  sorted(): { pairs: Float64Array; parents: Float64Array } {
    const n = this.#count;
    const resizable = (this.#pairsBuffer as ResizableBuffer).resizable === true && (this.#parentsBuffer as ResizableBuffer).resizable === true;
    // Shrunk in place (the pages past the end are given back); a plain buffer is copied to size.
    const pairs = resizable ? new Float64Array(grownBuffer(this.#pairsBuffer, 16 * n), 0, 2 * n) : this.#pairs.slice(0, 2 * n);
    const parents = resizable ? new Float64Array(grownBuffer(this.#parentsBuffer, 8 * n), 0, n) : this.#parents.slice(0, n);
    this.#pairsBuffer = growableBuffer(16 * RESERVED_PAIRS);
    this.#parentsBuffer = growableBuffer(8 * RESERVED_PAIRS);
    this.#pairs = new Float64Array(0);
    this.#parents = new Float64Array(0);
    this.#count = 0;
    sortPairs(pairs, parents, n);
    return { pairs, parents };
  }
}

/** Pair i before pair j: by document id, then file id. */
function before(pairs: Float64Array, i: number, j: number): boolean {
  const a = pairs[2 * i] ?? 0;
  const b = pairs[2 * j] ?? 0;
  return a < b || (a === b && (pairs[2 * i + 1] ?? 0) < (pairs[2 * j + 1] ?? 0));
}

function swap(pairs: Float64Array, parents: Float64Array, i: number, j: number): void {
  const d = pairs[2 * i] ?? 0;
  const f = pairs[2 * i + 1] ?? 0;
  const p = parents[i] ?? 0;
  pairs[2 * i] = pairs[2 * j] ?? 0;
  pairs[2 * i + 1] = pairs[2 * j + 1] ?? 0;
  parents[i] = parents[j] ?? 0;
  pairs[2 * j] = d;
  pairs[2 * j + 1] = f;
  parents[j] = p;
}

/** Segments at most this long are finished by insertion sort. */
const INSERTION = 16;

/**
 * Sorts the first n pairs (and their parents with them) in place by document id, then file
 * id: introsort (quicksort with a median of three, insertion sort for short segments,
 * heapsort past a depth of 2·log2 n, so never quadratic), no memory beyond a small stack.
 * Rows mostly arrive in order already: one pass finds that, and nothing moves.
 */
export function sortPairs(pairs: Float64Array, parents: Float64Array, n: number): void {
  let ordered = true;
  for (let i = 1; i < n && ordered; i += 1) ordered = !before(pairs, i, i - 1);
  if (ordered) return;
  const limit = 2 * Math.ceil(Math.log2(n + 1));
  // (lo, hi, depth) of the segments left; one pending sibling per level, so it stays short.
  const stack: number[] = [0, n - 1, 0];
  while (stack.length > 0) {
    const depth = stack.pop() ?? 0;
    const hi = stack.pop() ?? 0;
    const lo = stack.pop() ?? 0;
    if (hi - lo < INSERTION) {
      for (let i = lo + 1; i <= hi; i += 1) for (let k = i; k > lo && before(pairs, k, k - 1); k -= 1) swap(pairs, parents, k, k - 1);
      continue;
    }
    if (depth > limit) {
      heapSort(pairs, parents, lo, hi);
      continue;
    }
    // Median of three to lo, then a partition around it: [lo, j) ≤ pivot at j ≤ (j, hi].
    const mid = lo + ((hi - lo) >>> 1);
    if (before(pairs, mid, lo)) swap(pairs, parents, mid, lo);
    if (before(pairs, hi, lo)) swap(pairs, parents, hi, lo);
    if (before(pairs, hi, mid)) swap(pairs, parents, hi, mid);
    swap(pairs, parents, lo, mid);
    const pd = pairs[2 * lo] ?? 0;
    const pf = pairs[2 * lo + 1] ?? 0;
    let i = lo;
    let j = hi + 1;
    for (;;) {
      do i += 1;
      while (i < hi && ((pairs[2 * i] ?? 0) < pd || ((pairs[2 * i] ?? 0) === pd && (pairs[2 * i + 1] ?? 0) < pf)));
      do j -= 1;
      while ((pairs[2 * j] ?? 0) > pd || ((pairs[2 * j] ?? 0) === pd && (pairs[2 * j + 1] ?? 0) > pf));
      if (i >= j) break;
      swap(pairs, parents, i, j);
    }
    swap(pairs, parents, lo, j);
    stack.push(lo, j - 1, depth + 1, j + 1, hi, depth + 1);
  }
}

/** Heapsort of pairs [lo, hi]: the introsort's guard against a quadratic quicksort. */
function heapSort(pairs: Float64Array, parents: Float64Array, lo: number, hi: number): void {
  const n = hi - lo + 1;
  const sift = (start: number, end: number): void => {
    let root = start;
    for (let child = 2 * root + 1; child < end; child = 2 * root + 1) {
      if (child + 1 < end && before(pairs, lo + child, lo + child + 1)) child += 1;
      if (!before(pairs, lo + root, lo + child)) return;
      swap(pairs, parents, lo + root, lo + child);
      root = child;
    }
  };
  for (let start = (n >>> 1) - 1; start >= 0; start -= 1) sift(start, n);
  for (let end = n - 1; end > 0; end -= 1) {
    swap(pairs, parents, lo, lo + end);
    sift(0, end);
  }
}

/**
 * The old pairs whose folder is kept, merged with the new ones (both sorted by document id):
 * one linear pass, whatever the index's size.
 */
export function mergeKept(
  old: IndexArrays,
  keep: (parent: number) => boolean,
  added: { pairs: Float64Array; parents: Float64Array },
): { pairs: Float64Array; parents: Float64Array } {
  const oldCount = old.parents.length;
  let kept = 0;
  const keepMask = new Uint8Array(oldCount);
  for (let i = 0; i < oldCount; i += 1) {
    if (keep(old.parents[i] ?? 0)) {
      keepMask[i] = 1;
      kept += 1;
    }
  }
  const addedCount = added.parents.length;
  // A build (or a refresh of every folder): the new arrays are the result, no second copy.
  if (kept === 0) return added;
  const n = kept + addedCount;
  const pairs = new Float64Array(2 * n);
  const parents = new Float64Array(n);
  let i = 0;
  let j = 0;
  for (let k = 0; k < n; k += 1) {
    while (i < oldCount && keepMask[i] === 0) i += 1;
    if (i < oldCount && (j >= addedCount || (old.pairs[2 * i] ?? 0) <= (added.pairs[2 * j] ?? 0))) {
      pairs[2 * k] = old.pairs[2 * i] ?? 0;
      pairs[2 * k + 1] = old.pairs[2 * i + 1] ?? 0;
      parents[k] = old.parents[i] ?? 0;
      i += 1;
    } else {
      pairs[2 * k] = added.pairs[2 * j] ?? 0;
      pairs[2 * k + 1] = added.pairs[2 * j + 1] ?? 0;
      parents[k] = added.parents[j] ?? 0;
      j += 1;
    }
  }
  return { pairs, parents };
}
