/**
 * Which marker indexes the adapter keeps, and where: one per archive account, in memory
 * (`serve`) or in a file between runs (one-shot commands), a few at most, each file saved when
 * its index is let go. How an index is built and brought up to date is marker-index.ts's; how
 * the lookup reads through one stays with the lookup.
 */
import type { Logger } from '../../log.js';
import type { HostStatements } from '../db/host-statements.js';
import type { LocatedHost } from '../db/locate.js';
import { buildRootEtags, rootEtagsOf } from '../rules/lookup-sql.js';
import { homeStorageIds } from '../rules/storages.js';
import { addExternalRow, type ExternalRows } from '../rules/external-storage.js';
import { MarkerIndexFile, markerIndexIdentity } from './marker-index-file.js';
import { MarkerIndex, sameRoots } from './marker-index.js';
import type { MarkerIndexSize } from './types.js';

/** Marker indexes kept: serve has one archive account; the cap frees those of replaced ones. */
const INDEXED_ACCOUNTS = 4;

export interface MarkerIndexOptions {
  /** In memory, for a long-running process; wins over `markerIndexFile`. */
  readonly markerIndex?: boolean;
  /** One-shot commands: the file the index is kept in between runs. */
  readonly markerIndexFile?: string;
  readonly logger?: Logger;
}

export class MarkerIndexes {
  readonly #statements: HostStatements;
  readonly #located: Pick<LocatedHost, 'params' | 'dataDirectory'>;
  readonly #options: MarkerIndexOptions;
  /** Marker index per archive account (one in practice). */
  readonly #indexes = new Map<string, MarkerIndex>();
  /** The files of the indexes kept in one (`markerIndexFile`). */
  readonly #indexFiles = new Map<MarkerIndex, MarkerIndexFile>();

  constructor(statements: HostStatements, located: Pick<LocatedHost, 'params' | 'dataDirectory'>, options: MarkerIndexOptions) {
    this.#statements = statements;
    this.#located = located;
    this.#options = options;
  }

  /** Whether questions 1 and 2 go through a marker index: in memory (`serve`) or in the file (one-shot commands). */
  get #indexing(): boolean {
    return this.#options.markerIndex === true || this.#options.markerIndexFile !== undefined;
  }

  /** Builds the in-memory index now (`serve`'s start); null when there is none to keep warm. */
  async prepare(archive: string): Promise<MarkerIndexSize | null> {
    if (this.#options.markerIndex !== true) return null;
    const index = this.#indexFor(archive);
    await index.ready();
    return index.size();
  }

  /** The archive account's index, ready; null without one, or when its file can be neither read nor written (then scan, as without one). */
  async usableFor(archive: string): Promise<MarkerIndex | null> {
    if (!this.#indexing) return null;
    const index = this.#indexFor(archive);
    await index.ready();
    return index.usable ? index : null;
  }

  /** The archive account's marked documents from its index, brought to the host's current etags; null without a usable index. */
  async markedDocuments(archive: string, external?: ExternalRows): Promise<readonly number[] | null> {
    const index = await this.usableFor(archive);
    if (index === null) return null;
    // The same freshness rule as a lookup's: the `files` etags now, and a refresh when they moved.
    // files_external's flags come with them: its storages are not in the index (marked-files.ts).
    const statement = buildRootEtags(this.#statements.prefix, index.storageIds, external !== undefined);
    const rows = await this.#statements.query(statement.sql, statement.params);
    if (external !== undefined) for (const row of rows) addExternalRow(row, external);
    const seen = rootEtagsOf(rows);
    if (!sameRoots(seen, index.snapshot([]).roots)) await index.catchUp(seen);
    return index.documentIds();
  }

  /** Saves every changed index file; the indexes in memory are let go with the adapter. */
  close(): void {
    for (const index of [...this.#indexFiles.keys()]) this.#closeIndexFile(index);
  }

  #indexFor(archive: string): MarkerIndex {
    let index = this.#indexes.get(archive);
    if (index === undefined) {
      const oldest = this.#indexes.keys().next();
      if (this.#indexes.size >= INDEXED_ACCOUNTS && oldest.done !== true) {
        const dropped = this.#indexes.get(oldest.value);
        this.#indexes.delete(oldest.value);
        if (dropped !== undefined) this.#closeIndexFile(dropped);
      }
      const storageIds = homeStorageIds(archive, this.#located.dataDirectory);
      const path = this.#options.markerIndex === true ? undefined : this.#options.markerIndexFile;
      const file =
        path === undefined ? undefined : new MarkerIndexFile(path, markerIndexIdentity(this.#located.params, archive, storageIds), this.#options.logger);
      const copy = this.#statements.copier();
      index = new MarkerIndex((statement, params) => this.#statements.query(statement, params), this.#statements.prefix, storageIds, {
        stream: (statement, params, onRow, rowsPerRead) => this.#statements.eachRow(statement, params, onRow, rowsPerRead),
        ...(copy === undefined ? {} : { copy }),
        ...(file === undefined ? {} : { store: file }),
      });
      if (file !== undefined) this.#indexFiles.set(index, file);
      this.#indexes.set(archive, index);
    }
    return index;
  }

  /** Saves a changed index file (never failing: a file that cannot be written is left) and lets it go. */
  #closeIndexFile(index: MarkerIndex): void {
    const file = this.#indexFiles.get(index);
    if (file === undefined) return;
    this.#indexFiles.delete(index);
    file.save(() => index.contents());
    file.close();
  }
}
