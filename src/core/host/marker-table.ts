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

/**
 * Pairs collected as rows arrive: fixed-size chunks, so the build never holds a doubled array,
 * then sorted once by document id into exact-size arrays.
 */
export class PairCollector {
  static readonly CHUNK = 65_536;
  #chunks: Float64Array[] = [];
  #used = PairCollector.CHUNK;
  #count = 0;

  get count(): number {
    return this.#count;
  }

  add(documentId: number, fileId: number, parent: number): void {
    if (this.#used === PairCollector.CHUNK) {
      this.#chunks.push(new Float64Array(3 * PairCollector.CHUNK));
      this.#used = 0;
    }
    const chunk = this.#chunks[this.#chunks.length - 1];
    if (chunk === undefined) return;
    const at = 3 * this.#used;
    chunk[at] = documentId;
    chunk[at + 1] = fileId;
    chunk[at + 2] = parent;
    this.#used += 1;
    this.#count += 1;
  }

  /** The pairs sorted by document id, and their parents; the chunks are let go. */
  sorted(): { pairs: Float64Array; parents: Float64Array } {
    const n = this.#count;
    const chunks = this.#chunks;
    this.#chunks = [];
    const C = PairCollector.CHUNK;
    const field = (i: number, f: number): number => chunks[Math.floor(i / C)]?.[3 * (i % C) + f] ?? 0;
    const order = sortOrder(n, (i) => field(i, 0));
    const pairs = new Float64Array(2 * n);
    const parents = new Float64Array(n);
    for (let k = 0; k < n; k += 1) {
      const i = order[k] ?? 0;
      const chunk = chunks[Math.floor(i / C)];
      const at = 3 * (i % C);
      pairs[2 * k] = chunk?.[at] ?? 0;
      pairs[2 * k + 1] = chunk?.[at + 1] ?? 0;
      parents[k] = chunk?.[at + 2] ?? 0;
    }
    return { pairs, parents };
  }
}

/**
 * Positions 0..n-1 ordered by key (non-negative integers). Fast path: key · 2^k + position in
 * one Float64Array, sorted natively (no comparator: ~10× faster on a million), exact while
 * it stays below 2^53; else a comparator sort.
 */
function sortOrder(n: number, key: (i: number) => number): Float64Array {
  const shift = 2 ** Math.max(1, Math.ceil(Math.log2(n + 1)));
  let max = 0;
  for (let i = 0; i < n; i += 1) max = Math.max(max, key(i));
  if (max * shift + shift <= Number.MAX_SAFE_INTEGER) {
    const packed = new Float64Array(n);
    for (let i = 0; i < n; i += 1) packed[i] = key(i) * shift + i;
    packed.sort();
    for (let k = 0; k < n; k += 1) {
      const v = packed[k] ?? 0;
      packed[k] = v - Math.floor(v / shift) * shift;
    }
    return packed;
  }
  const keys = new Float64Array(n);
  for (let i = 0; i < n; i += 1) keys[i] = key(i);
  const order = new Float64Array(n);
  for (let i = 0; i < n; i += 1) order[i] = i;
  return order.sort((a, b) => (keys[a] ?? 0) - (keys[b] ?? 0));
}

/**
 * The old pairs whose folder is kept, merged with the new ones (both sorted by document id):
 * one linear pass, whatever the index's size.
 */
export function mergeKept(old: IndexArrays, keep: (parent: number) => boolean, added: { pairs: Float64Array; parents: Float64Array }): { pairs: Float64Array; parents: Float64Array } {
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
