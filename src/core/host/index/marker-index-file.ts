/**
 * The marker index of one-shot commands, kept between runs in a file of the config directory
 * (docs/host-adapter.md, "The index file"). A run reads the header and a small block table,
 * then only the 4 KiB blocks holding the asked document ids: a warm run never parses the
 * million pairs of a big archive. Whatever the file says can only leave files out: the lookup
 * re-reads every listed row by primary key and judges it by its current name and place.
 *
 * Layout (little-endian):
 *   8 bytes  magic `DUSMIDX\n`
 *   4 bytes  header length H (uint32)
 *   H bytes  header, JSON: format, identity, roots, count, documents, folders, block, etagBytes
 *   padding to a multiple of 8
 *   fence    float64 × ceil(count / block): the first document id of each block of pairs
 *   pairs    float64 × 2·count: document id, file id, … sorted by document id
 *   parents  float64 × count: the folder each pair was listed in
 *   folders  float64 × folders: the folders' file ids
 *   etags    etagBytes of JSON: the folders' etags, in the same order
 */
import { accessSync, closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Logger } from '../../log.js';
import { writePrivateFileAtomic } from '../../fs/atomic-file.js';
import type { ConnectionParams } from '../db/connection-params.js';
import type { RootEtag } from '../rules/lookup-sql.js';
import type { MarkerIndexStore } from './marker-index.js';
import { distinctDocuments, lowerBound, type IndexArrays, type MarkerTable } from './marker-table.js';

/** Raised whenever the layout changes: a file of another format is rebuilt, never read. */
export const MARKER_INDEX_FORMAT = 2;
const MAGIC = Buffer.from('DUSMIDX\n', 'latin1');
/** Pairs per block: one block is 8 KiB of pairs, read with one call. */
const BLOCK = 512;
/** A header is a few hundred bytes; anything far larger is not ours. */
const MAX_HEADER = 1 << 20;
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

interface Header {
  readonly format: number;
  readonly identity: string;
  readonly roots: readonly RootEtag[];
  readonly count: number;
  readonly documents: number;
  readonly folders: number;
  readonly block: number;
  readonly etagBytes: number;
}

/**
 * Which index a file holds: the database (never its password), the table prefix, the archive
 * account and its home storages. A file of another host or account does not match and is rebuilt.
 * Kept as it is, not hashed: it names nothing the settings beside it do not, and no run loads
 * node:crypto to compare it (format 1 kept a sha256 of it).
 */
export function markerIndexIdentity(params: ConnectionParams, archiveAccount: string, storageIds: readonly string[]): string {
  const database = {
    dialect: params.dialect,
    file: params.file ?? null,
    host: params.host ?? null,
    port: params.port ?? null,
    socket: params.socket ?? null,
    database: params.database ?? null,
    user: params.user ?? null,
  };
  return JSON.stringify({ format: MARKER_INDEX_FORMAT, database, prefix: params.prefix, archiveAccount, storageIds });
}

const isCount = (n: unknown): n is number => typeof n === 'number' && Number.isSafeInteger(n) && n >= 0;

function isRoot(value: unknown): value is RootEtag {
  if (typeof value !== 'object' || value === null) return false;
  const r = value as Record<string, unknown>;
  return typeof r.storage === 'number' && (r.filesId === null || typeof r.filesId === 'number') && (r.etag === null || typeof r.etag === 'string');
}

function parseHeader(text: string): Header | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const h = value as Record<string, unknown>;
  if (typeof h.identity !== 'string' || !Array.isArray(h.roots) || !h.roots.every(isRoot)) return null;
  if (!isCount(h.format) || !isCount(h.count) || !isCount(h.documents) || !isCount(h.folders) || !isCount(h.block) || h.block === 0 || !isCount(h.etagBytes))
    return null;
  return {
    format: h.format,
    identity: h.identity,
    roots: h.roots,
    count: h.count,
    documents: h.documents,
    folders: h.folders,
    block: h.block,
    etagBytes: h.etagBytes,
  };
}

const align8 = (n: number): number => Math.ceil(n / 8) * 8;

/** Reads exactly `bytes` bytes at `position` into a new Float64Array of `bytes / 8` entries. */
function readFloats(fd: number, position: number, count: number): Float64Array {
  const out = new Float64Array(count);
  const view = new Uint8Array(out.buffer);
  let done = 0;
  while (done < view.length) {
    const n = readSync(fd, view, done, view.length - done, position + done);
    if (n === 0) throw new Error('the index file ends early');
    done += n;
  }
  return out;
}

function readBytes(fd: number, position: number, length: number): Buffer {
  const out = Buffer.alloc(length);
  let done = 0;
  while (done < length) {
    const n = readSync(fd, out, done, length - done, position + done);
    if (n === 0) throw new Error('the index file ends early');
    done += n;
  }
  return out;
}

/** The pairs as the file holds them: looked up block by block, read in full only for a refresh. */
class FileTable implements MarkerTable {
  readonly count: number;
  readonly documents: number;
  readonly folderCount: number;
  readonly #fd: number;
  readonly #header: Header;
  readonly #fence: Float64Array;
  readonly #pairsAt: number;
  #arrays: IndexArrays | null = null;

  constructor(fd: number, header: Header, fence: Float64Array, pairsAt: number) {
    this.#fd = fd;
    this.#header = header;
    this.#fence = fence;
    this.#pairsAt = pairsAt;
    this.count = header.count;
    this.documents = header.documents;
    this.folderCount = header.folders;
  }

  fileIdsFor(documentIds: readonly number[], into: Set<number>): void {
    if (this.#arrays !== null) {
      const pairs = this.#arrays.pairs;
      for (const id of documentIds)
        for (let i = lowerBound(pairs, id, 0, this.count); i < this.count && pairs[2 * i] === id; i += 1) into.add(pairs[2 * i + 1] ?? 0);
      return;
    }
    const fence = this.#fence;
    const block = this.#header.block;
    const blocks = new Map<number, Float64Array>();
    for (const id of documentIds) {
      // The blocks whose first id is ≤ id, starting one before the first that begins with it:
      // a run of equal ids may cross a block boundary.
      let lo = 0;
      let hi = fence.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if ((fence[mid] ?? 0) < id) lo = mid + 1;
        else hi = mid;
      }
      for (let b = Math.max(0, lo - 1); b < fence.length && (fence[b] ?? 0) <= id; b += 1) {
        let pairs = blocks.get(b);
        if (pairs === undefined) {
          const n = Math.min(block, this.count - b * block);
          pairs = readFloats(this.#fd, this.#pairsAt + 16 * b * block, 2 * n);
          blocks.set(b, pairs);
        }
        const n = pairs.length / 2;
        for (let i = lowerBound(pairs, id, 0, n); i < n && pairs[2 * i] === id; i += 1) into.add(pairs[2 * i + 1] ?? 0);
      }
    }
  }

  arrays(): IndexArrays {
    if (this.#arrays !== null) return this.#arrays;
    const n = this.count;
    const pairs = readFloats(this.#fd, this.#pairsAt, 2 * n);
    const parents = readFloats(this.#fd, this.#pairsAt + 16 * n, n);
    const folderIds = readFloats(this.#fd, this.#pairsAt + 24 * n, this.folderCount);
    const etags: unknown = JSON.parse(readBytes(this.#fd, this.#pairsAt + 24 * n + 8 * this.folderCount, this.#header.etagBytes).toString('utf8'));
    if (!Array.isArray(etags) || etags.length !== this.folderCount) throw new Error('the folders of the index file do not match its header');
    const folders = new Map<number, string | null>();
    folderIds.forEach((id, i) => {
      const etag: unknown = etags[i];
      folders.set(id, typeof etag === 'string' ? etag : null);
    });
    this.#arrays = { pairs, parents, folders };
    return this.#arrays;
  }
}

/** How the file of one index went: for the debug log and the tests. */
export type IndexFileEvent = 'loaded' | 'missing' | 'rejected' | 'unreadable' | 'saved' | 'unwritable';

/**
 * The file of one (host, archive account) index. Nothing here fails a command: a file that
 * cannot be read is rebuilt, one that cannot be written is left as it is (a debug log line).
 */
export class MarkerIndexFile implements MarkerIndexStore {
  readonly path: string;
  readonly #identity: string;
  readonly #logger: Logger | undefined;
  #fd: number | null = null;
  #dirty = false;
  /** What happened last (tests read it). */
  lastEvent: IndexFileEvent | null = null;

  constructor(path: string, identity: string, logger?: Logger) {
    this.path = path;
    this.#identity = identity;
    this.#logger = logger;
  }

  get dirty(): boolean {
    return this.#dirty;
  }

  load(): { readonly roots: readonly RootEtag[]; readonly table: MarkerTable } | null | 'unusable' {
    let fd: number;
    try {
      fd = openSync(this.path, 'r');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT') {
        this.#note('unreadable', code ?? String(error));
        return 'unusable';
      }
      this.#note('missing', code);
      return this.#writable() ? null : 'unusable';
    }
    try {
      const loaded = this.#read(fd);
      if (loaded !== null) {
        this.#fd = fd;
        this.#note('loaded', `${loaded.table.count} pairs`);
        return loaded;
      }
      closeSync(fd);
      return this.#writable() ? null : 'unusable';
    } catch (error) {
      // A directory in its place, an I/O error: what is there can be neither read nor replaced.
      closeSync(fd);
      this.#note('unreadable', error instanceof Error ? error.message : String(error));
      return 'unusable';
    }
  }

  /** Whether a new file could be put in place (the directory is writable, or does not exist yet). */
  #writable(): boolean {
    try {
      accessSync(dirname(this.path), constants.W_OK);
      return true;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return true;
      this.#note('unwritable', code ?? String(error));
      return false;
    }
  }

  #read(fd: number): { readonly roots: readonly RootEtag[]; readonly table: MarkerTable } | null {
    const size = fstatSync(fd).size;
    if (!LITTLE_ENDIAN || size < 12) return this.#reject('too short');
    const start = readBytes(fd, 0, 12);
    if (!start.subarray(0, 8).equals(MAGIC)) return this.#reject('not an index file');
    const headerLength = start.readUInt32LE(8);
    if (headerLength > MAX_HEADER || 12 + headerLength > size) return this.#reject('header length');
    const header = parseHeader(readBytes(fd, 12, headerLength).toString('utf8'));
    if (header === null) return this.#reject('header');
    if (header.format !== MARKER_INDEX_FORMAT) return this.#reject(`format ${header.format}`);
    if (header.identity !== this.#identity) return this.#reject('another host or archive account');
    const blocks = Math.ceil(header.count / header.block);
    const fenceAt = align8(12 + headerLength);
    const pairsAt = fenceAt + 8 * blocks;
    const expected = pairsAt + 24 * header.count + 8 * header.folders + header.etagBytes;
    if (expected !== size) return this.#reject(`size ${size}, expected ${expected}`);
    const fence = readFloats(fd, fenceAt, blocks);
    return { roots: header.roots, table: new FileTable(fd, header, fence, pairsAt) };
  }

  #reject(why: string): null {
    this.#note('rejected', why);
    return null;
  }

  changed(): void {
    this.#dirty = true;
  }

  /**
   * Writes the index when it changed since it was loaded: a finished temporary file renamed over
   * the old one. `contents` is asked only then: the index of an unchanged file is the file, and
   * reading all of it (23 MiB at 1 M markers) would cost every run that changed nothing.
   */
  save(contents: () => { readonly roots: readonly RootEtag[]; readonly arrays: IndexArrays } | null): void {
    if (!this.#dirty) return;
    const current = contents();
    if (current === null) return;
    this.#dirty = false;
    const { pairs, parents, folders } = current.arrays;
    const count = parents.length;
    const fence = new Float64Array(Math.ceil(count / BLOCK));
    for (let b = 0; b < fence.length; b += 1) fence[b] = pairs[2 * b * BLOCK] ?? 0;
    const folderIds = Float64Array.from(folders.keys());
    const etags = Buffer.from(JSON.stringify([...folders.values()]), 'utf8');
    const header: Header = {
      format: MARKER_INDEX_FORMAT,
      identity: this.#identity,
      roots: current.roots,
      count,
      documents: distinctDocuments(pairs),
      folders: folderIds.length,
      block: BLOCK,
      etagBytes: etags.length,
    };
    const headerBytes = Buffer.from(JSON.stringify(header), 'utf8');
    const length = Buffer.alloc(4);
    length.writeUInt32LE(headerBytes.length);
    const padding = Buffer.alloc(align8(12 + headerBytes.length) - 12 - headerBytes.length);
    const bytes = (a: Float64Array): Uint8Array => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
    const parts = [MAGIC, length, headerBytes, padding, bytes(fence), bytes(pairs), bytes(parents), bytes(folderIds), etags];
    try {
      // No fsync: a file cut short by a crash fails the size check and is rebuilt.
      writePrivateFileAtomic(this.path, parts, { flush: false });
      this.#note('saved', `${count} pairs`);
    } catch (error) {
      this.#note('unwritable', (error as NodeJS.ErrnoException).code ?? String(error));
    }
  }

  close(): void {
    if (this.#fd !== null) closeSync(this.#fd);
    this.#fd = null;
  }

  #note(event: IndexFileEvent, detail: string): void {
    this.lastEvent = event;
    this.#logger?.debug({ file: this.path, detail }, `marker index file ${event}`);
  }
}
