/**
 * An index of where the archive account's marked files are: for every folder under `files/` of
 * its home storage(s), the folder's etag, and the (document id, file id) pairs of its direct
 * children whose names carry markers, kept sorted by document id (marker-table.ts). `serve`
 * keeps one in memory; one-shot commands keep one in a file (marker-index-file.ts).
 *
 * It only says which rows to read. The lookup re-reads those rows by primary key and
 * visibility.ts judges them as it judges scanned rows, so a stale index can leave a file out
 * but can never show one (docs/host-adapter.md, "Marker index").
 *
 * Freshness comes from the host's etags: its Propagator changes the etag of every ancestor
 * folder, up to the storage root, whenever a file is added, renamed, moved, deleted or changed
 * (reference §1.1). The lookup reads the `files` folders' etags in the same statement (`E`
 * rows); when they differ from the ones the index was read at, the index refreshes: all folders
 * with their etags, then the children of the folders whose etag changed or which are new.
 */
import { LIKE_ESCAPE, digitsValue, escapeLike, forEachMarker } from '../rules/marker.js';
import { buildRootEtags, placeholders, rootEtagsOf, rowNumber, rowText, type RootEtag } from '../rules/lookup-sql.js';
import { EMPTY_TABLE, MemoryTable, mergeKept, PairCollector, type IndexArrays, type MarkerTable } from './marker-table.js';
import type { SqlRow, SqlValue } from '../db/types.js';
import type { MarkerIndexSize } from './types.js';
import { FOLDER_MIMETYPE } from '../rules/visibility.js';
import { holdingYoungGeneration } from '../../young-generation.js';

export type IndexQuery = (sql: string, params: readonly SqlValue[]) => Promise<SqlRow[]>;
/** A read handed over row by row as the rows arrive, each an array in column order (SqlClient.eachRow). */
export type IndexStream = (sql: string, params: readonly SqlValue[], onRow: (row: readonly SqlValue[]) => void, rowsPerRead?: number) => Promise<void>;

/** Folders per `parent IN (…)` statement: far below every dialect's parameter limit. */
const CHILDREN_CHUNK = 500;

/**
 * PostgreSQL: the children's rows as COPY text (SqlClient.copyLines), runs of whole lines. Its
 * driver makes several objects for every row it receives, which outlived young collections and
 * grew V8's young generation for nothing, and finding the markers' digits in SQL instead
 * (regexp_matches, the rows packed 100 files to a row) cost the server 3 s for a million names.
 */
export type IndexCopy = (sql: string, onLines: (lines: string) => void) => Promise<void>;

/** Folders per COPY on PostgreSQL: each statement reads the table once, and the ids are written into it (COPY binds none). */
const COPY_CHUNK = 20_000;

/** A folder id written into a COPY statement: a checked integer, never text from elsewhere. */
function sqlInteger(id: number): string {
  if (!Number.isSafeInteger(id) || id < 0) throw new Error(`not a file id: ${String(id)}`);
  return String(id);
}

export interface MarkerIndexSnapshot {
  /** File ids the index lists for the asked documents, each once. */
  readonly fileIds: number[];
  /** The `files` folders' etags the index was read at. */
  readonly roots: readonly RootEtag[];
}

/** Where an index comes from before its first build, and where it goes after a change (the file). */
export interface MarkerIndexStore {
  /**
   * A saved index; null when there is none fit to use (then the index is built); `unusable`
   * when the store can be neither read nor written (then building one would be lost work at
   * every run: the questions scan instead).
   */
  load(): { readonly roots: readonly RootEtag[]; readonly table: MarkerTable } | null | 'unusable';
  /** Called after every build or refresh. */
  changed(): void;
}

export interface MarkerIndexOptions {
  /** Streams the big reads (default: `query`, all rows at once). */
  readonly stream?: IndexStream;
  readonly store?: MarkerIndexStore;
  /** PostgreSQL: the children read as COPY text (see IndexCopy) instead of `stream`. */
  readonly copy?: IndexCopy;
}

/** True when both name the same storages with the same `files` folder and etag. */
export function sameRoots(a: readonly RootEtag[], b: readonly RootEtag[]): boolean {
  return a.length === b.length && a.every((x, i) => x.storage === b[i]?.storage && x.filesId === b[i]?.filesId && x.etag === b[i]?.etag);
}

export class MarkerIndex {
  /** Stored ids of the indexed home storages (`homeStorageIds`). */
  readonly storageIds: readonly string[];
  readonly #query: IndexQuery;
  readonly #stream: IndexStream;
  readonly #store: MarkerIndexStore | undefined;
  readonly #prefix: string;
  readonly #copy: IndexCopy | undefined;
  /** null until the first build (or load). */
  #roots: readonly RootEtag[] | null = null;
  #table: MarkerTable = EMPTY_TABLE;
  #inFlight: Promise<void> | null = null;
  #loadTried = false;
  #usable = true;

  constructor(query: IndexQuery, prefix: string, storageIds: readonly string[], options: MarkerIndexOptions = {}) {
    this.#query = query;
    this.#stream =
      options.stream ??
      (async (sql, params, onRow) => {
        for (const row of await query(sql, params))
          onRow(
            Object.values(row).map((value) => (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'string' ? value : rowText(value))),
          );
      });
    this.#store = options.store;
    this.#copy = options.copy;
    this.#prefix = prefix;
    this.storageIds = storageIds;
  }

  /** Loads the saved index or builds it on first use; later calls return at once. */
  async ready(): Promise<void> {
    if (this.#roots === null && !this.#loadTried) {
      this.#loadTried = true;
      const saved = this.#store?.load() ?? null;
      if (saved === 'unusable') this.#usable = false;
      else if (saved !== null) {
        this.#table = saved.table;
        this.#roots = saved.roots;
      }
    }
    while (this.#usable && this.#roots === null) await this.refresh();
  }

  /** False when its store can be neither read nor written: the caller scans instead (after `ready`). */
  get usable(): boolean {
    return this.#usable;
  }

  snapshot(documentIds: readonly number[]): MarkerIndexSnapshot {
    const fileIds = new Set<number>();
    try {
      this.#table.fileIdsFor(documentIds, fileIds);
    } catch {
      // The file could not be read: nothing listed, and etags no lookup will match, so the
      // lookup refreshes (which starts over when the file cannot be read either).
      return { fileIds: [], roots: [{ storage: -1, filesId: null, etag: null }] };
    }
    return { fileIds: [...fileIds], roots: this.#roots ?? [] };
  }

  /**
   * The lookup saw these etags and they differ from its snapshot's: refresh, unless another
   * caller's refresh already brought the index to them.
   */
  async catchUp(seen: readonly RootEtag[]): Promise<void> {
    if (this.#inFlight !== null) await this.#inFlight;
    if (this.#roots !== null && sameRoots(this.#roots, seen)) return;
    await this.refresh();
  }

  /** Reads what changed; concurrent callers share one refresh in flight. */
  refresh(): Promise<void> {
    this.#inFlight ??= holdingYoungGeneration(() => this.#refresh()).finally(() => {
      this.#inFlight = null;
    });
    return this.#inFlight;
  }

  size(): MarkerIndexSize {
    return { markers: this.#table.count, documents: this.#table.documents, folders: this.#table.folderCount };
  }

  /** The current etags and arrays (the file saves them). */
  contents(): { readonly roots: readonly RootEtag[]; readonly arrays: IndexArrays } | null {
    return this.#roots === null ? null : { roots: this.#roots, arrays: this.#table.arrays() };
  }

  /** The document ids the index lists, sorted, each once (check's coverage). */
  async documentIds(): Promise<number[]> {
    let pairs: Float64Array;
    try {
      ({ pairs } = this.#table.arrays());
    } catch {
      // A saved index that cannot be read in full: built again from nothing, as a refresh does
      // (which then holds it in memory).
      await this.refresh();
      ({ pairs } = this.#table.arrays());
    }
    const ids: number[] = [];
    for (let i = 0; i < pairs.length; i += 2) if (i === 0 || pairs[i] !== pairs[i - 2]) ids.push(pairs[i] ?? 0);
    return ids;
  }

  async #refresh(): Promise<void> {
    const p = this.#prefix;
    // The etags first: a change after this read shows as a new etag at the next lookup, a
    // change before it is in what the statements below read.
    const rootStatement = buildRootEtags(p, this.storageIds);
    const roots = rootEtagsOf(await this.#query(rootStatement.sql, rootStatement.params));
    let old: IndexArrays;
    try {
      old = this.#table.arrays();
    } catch {
      // A saved index that cannot be read in full: built again from nothing.
      old = EMPTY_TABLE.arrays();
    }
    const next = new Map<number, string | null>();
    const changed: number[] = [];
    for (const root of roots) {
      if (root.filesId === null) continue;
      const rows = await this.#query(
        `SELECT fileid AS a, parent AS b, etag AS t1 FROM ${p}filecache WHERE storage = ? AND mimetype = (SELECT mt.id FROM ${p}mimetypes mt WHERE mt.mimetype = ?)`,
        [root.storage, FOLDER_MIMETYPE],
      );
      const parentOf = new Map<number, number>();
      const etagOf = new Map<number, string | null>();
      for (const row of rows) {
        const id = rowNumber(row.a);
        parentOf.set(id, rowNumber(row.b));
        etagOf.set(id, rowText(row.t1));
      }
      // Under `files/` = reaches the `files` folder through parents; trash and versions do not.
      const inFiles = new Map<number, boolean>([[root.filesId, true]]);
      const under = (start: number): boolean => {
        const chain: number[] = [];
        let id: number | undefined = start;
        let answer = false;
        while (id !== undefined) {
          const known = inFiles.get(id);
          if (known !== undefined) {
            answer = known;
            break;
          }
          chain.push(id);
          // A cycle (a corrupt cache) ends here as "not under files".
          if (chain.length > parentOf.size) break;
          id = parentOf.get(id);
        }
        for (const c of chain) inFiles.set(c, answer);
        return answer;
      };
      for (const [id, etag] of etagOf) {
        if (!under(id)) continue;
        next.set(id, etag);
        if (!old.folders.has(id) || old.folders.get(id) !== etag) changed.push(id);
      }
    }
    const added = new PairCollector();
    const pattern = `%${escapeLike('[P')}%`;
    // The row being read, and one callback for all its markers: nothing is made per row.
    let fileId = 0;
    let parent = 0;
    const addPair = (documentId: number): void => added.add(documentId, fileId, parent);
    // Folders are never documents (visibility.ts); the ones this refresh knows are skipped.
    const fromName = (row: readonly SqlValue[]): void => {
      fileId = rowNumber(row[0]);
      if (next.has(fileId)) return;
      parent = rowNumber(row[1]);
      const name = row[2];
      forEachMarker(typeof name === 'string' ? name : (rowText(name) ?? ''), addPair);
    };
    // PostgreSQL's COPY text: "<file id>\t<folder>\t<name>\n" a row. A marker is never escaped
    // ([, P, digits and ] are plain), and an escape (a backslash and a letter) cannot complete
    // one, so the name's markers are those of the line between the second tab and the newline.
    const fromLines = (lines: string): void => {
      for (let start = 0; start < lines.length;) {
        const newline = lines.indexOf('\n', start);
        const end = newline < 0 ? lines.length : newline;
        const tab = lines.indexOf('\t', start);
        const nameAt = tab < 0 ? -1 : lines.indexOf('\t', tab + 1) + 1;
        if (nameAt > 0 && nameAt <= end) {
          fileId = digitsValue(lines, start, tab);
          parent = digitsValue(lines, tab + 1, nameAt - 1);
          if (fileId >= 0 && parent >= 0 && !next.has(fileId)) forEachMarker(lines, addPair, nameAt, end);
        }
        start = end + 1;
      }
    };
    const copy = this.#copy;
    const chunkSize = copy === undefined ? CHILDREN_CHUNK : COPY_CHUNK;
    for (let i = 0; i < changed.length; i += chunkSize) {
      const chunk = changed.slice(i, i + chunkSize);
      if (copy !== undefined) {
        await copy(
          `SELECT fileid, parent, name FROM ${p}filecache WHERE parent IN (${chunk.map(sqlInteger).join(', ')}) AND name LIKE '${pattern}' ESCAPE '${LIKE_ESCAPE}'`,
          fromLines,
        );
      } else {
        const where = `parent IN (${placeholders(chunk.length)}) AND name LIKE ? ESCAPE '${LIKE_ESCAPE}'`;
        await this.#stream(`SELECT fileid AS a, parent AS b, name AS t1 FROM ${p}filecache WHERE ${where}`, [...chunk, pattern], fromName);
      }
    }
    const changedSet = new Set(changed);
    const merged = mergeKept(old, (parent) => next.has(parent) && !changedSet.has(parent), added.sorted());
    // Everything read: swapped in one synchronous step, so no lookup sees half a refresh.
    this.#table = new MemoryTable({ ...merged, folders: next });
    this.#roots = roots;
    this.#store?.changed();
  }
}
