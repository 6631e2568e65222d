/**
 * An opt-in, per-process index of where the archive account's marked files are: for every
 * folder under `files/` of its home storage(s), the folder's etag and the (document id, file id)
 * pairs of its direct children whose names carry markers; plus document id → file ids.
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
import { LIKE_ESCAPE, escapeLike, markersIn } from './marker.js';
import { buildRootEtags, placeholders, rootEtagsOf, rowNumber, rowText, type RootEtag } from './lookup-sql.js';
import type { MarkerIndexSize, SqlRow, SqlValue } from './types.js';
import { FOLDER_MIMETYPE } from './visibility.js';

export type IndexQuery = (sql: string, params: readonly SqlValue[]) => Promise<SqlRow[]>;

/** Folders per `parent IN (…)` statement: far below every dialect's parameter limit. */
const CHILDREN_CHUNK = 500;

interface Folder {
  readonly etag: string | null;
  /** Flat (document id, file id) pairs of its marked children: one small array, not an object per file. */
  readonly pairs: readonly number[];
}

const NO_PAIRS: readonly number[] = [];

export interface MarkerIndexSnapshot {
  /** File ids the index lists for the asked documents, each once. */
  readonly fileIds: number[];
  /** The `files` folders' etags the index was read at. */
  readonly roots: readonly RootEtag[];
}

/** True when both name the same storages with the same `files` folder and etag. */
export function sameRoots(a: readonly RootEtag[], b: readonly RootEtag[]): boolean {
  return a.length === b.length && a.every((x, i) => x.storage === b[i]?.storage && x.filesId === b[i]?.filesId && x.etag === b[i]?.etag);
}

export class MarkerIndex {
  /** Stored ids of the indexed home storages (`homeStorageIds`). */
  readonly storageIds: readonly string[];
  readonly #query: IndexQuery;
  readonly #prefix: string;
  /** null until the first build. */
  #roots: readonly RootEtag[] | null = null;
  #folders = new Map<number, Folder>();
  /** One file id as a number, several as an array (a multiset: one entry per listing folder). */
  readonly #byDocument = new Map<number, number | number[]>();
  #inFlight: Promise<void> | null = null;

  constructor(query: IndexQuery, prefix: string, storageIds: readonly string[]) {
    this.#query = query;
    this.#prefix = prefix;
    this.storageIds = storageIds;
  }

  /** Builds the index on first use; later calls return at once. */
  async ready(): Promise<void> {
    while (this.#roots === null) await this.refresh();
  }

  snapshot(documentIds: readonly number[]): MarkerIndexSnapshot {
    const fileIds = new Set<number>();
    for (const id of documentIds) {
      const files = this.#byDocument.get(id);
      if (typeof files === 'number') fileIds.add(files);
      else if (files !== undefined) for (const f of files) fileIds.add(f);
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
    this.#inFlight ??= this.#refresh().finally(() => {
      this.#inFlight = null;
    });
    return this.#inFlight;
  }

  size(): MarkerIndexSize {
    let markers = 0;
    for (const v of this.#byDocument.values()) markers += typeof v === 'number' ? 1 : v.length;
    return { markers, documents: this.#byDocument.size, folders: this.#folders.size };
  }

  async #refresh(): Promise<void> {
    const p = this.#prefix;
    // The etags first: a change after this read shows as a new etag at the next lookup, a
    // change before it is in what the statements below read.
    const rootStatement = buildRootEtags(p, this.storageIds);
    const roots = rootEtagsOf(await this.#query(rootStatement.sql, rootStatement.params));
    const next = new Map<number, Folder>();
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
        const old = this.#folders.get(id);
        if (old !== undefined && old.etag === etag) {
          next.set(id, old);
        } else {
          next.set(id, { etag, pairs: NO_PAIRS });
          changed.push(id);
        }
      }
    }
    const pairsOf = new Map<number, number[]>();
    const pattern = `%${escapeLike('[P')}%`;
    for (let i = 0; i < changed.length; i += CHILDREN_CHUNK) {
      const chunk = changed.slice(i, i + CHILDREN_CHUNK);
      const rows = await this.#query(`SELECT fileid AS a, parent AS b, name AS t1 FROM ${p}filecache WHERE parent IN (${placeholders(chunk.length)}) AND name LIKE ? ESCAPE '${LIKE_ESCAPE}'`, [
        ...chunk,
        pattern,
      ]);
      for (const row of rows) {
        const fileId = rowNumber(row.a);
        // Folders are never documents (visibility.ts); skip the ones this refresh knows.
        if (next.has(fileId)) continue;
        const ids = markersIn(rowText(row.t1) ?? '');
        if (ids.length === 0) continue;
        const parent = rowNumber(row.b);
        const list = pairsOf.get(parent) ?? [];
        for (const documentId of ids) list.push(documentId, fileId);
        pairsOf.set(parent, list);
      }
    }
    // Everything read: apply in one synchronous step, so no lookup sees half a refresh.
    for (const [id, old] of this.#folders) if (next.get(id) !== old) this.#apply(old.pairs, -1);
    for (const id of changed) {
      const pairs = pairsOf.get(id);
      if (pairs === undefined) continue;
      const folder = next.get(id);
      next.set(id, { etag: folder?.etag ?? null, pairs });
      this.#apply(pairs, 1);
    }
    this.#folders = next;
    this.#roots = roots;
  }

  #apply(pairs: readonly number[], sign: 1 | -1): void {
    for (let i = 0; i + 1 < pairs.length; i += 2) {
      const documentId = pairs[i] ?? 0;
      const fileId = pairs[i + 1] ?? 0;
      const current = this.#byDocument.get(documentId);
      if (sign === 1) {
        if (current === undefined) this.#byDocument.set(documentId, fileId);
        else if (typeof current === 'number') this.#byDocument.set(documentId, [current, fileId]);
        else current.push(fileId);
        continue;
      }
      if (current === undefined) continue;
      if (typeof current === 'number') {
        if (current === fileId) this.#byDocument.delete(documentId);
        continue;
      }
      const at = current.indexOf(fileId);
      if (at >= 0) current.splice(at, 1);
      const only = current[0];
      if (current.length === 1 && only !== undefined) this.#byDocument.set(documentId, only);
      else if (current.length === 0) this.#byDocument.delete(documentId);
    }
  }
}
