/**
 * The archive account's marked files in its own folders, read by name: coverage (`markedFiles`,
 * `markedDocuments`, through the marker index when one is kept) and `who --all`'s stream of
 * documents. It changes with how a marked file of the archive account is told and listed.
 */
import { DusError } from '../errors.js';
import type { HostContext } from './host-context.js';
import type { MarkerIndexes } from './index/indexes.js';
import { nodeRowOf } from './rules/lookup-rows.js';
import { buildMarkedFiles, rowNumber as num, rowText as text } from './rules/lookup-sql.js';
import { markersIn } from './rules/marker.js';
import { buildFilesByMarker } from './rules/share-reach.js';
import type { NodeRow } from './rules/share-rules.js';
import { homeStorageIds, isInUserFiles } from './rules/storages.js';
import { FOLDER_MIMETYPE, pickPerDocument, type Candidate } from './rules/visibility.js';
import { buildUnsupportedShares } from './rules/team-rules.js';
import type { MarkedFilesPage, Pace, UnsupportedShares } from './types.js';
import { readExternal } from './external.js';
import { externalPath, externalRows, externalViews, type ExternalRows, type ExternalView } from './rules/external-storage.js';

/** The archive account's Local external storages (rules/external-storage.ts): their marked files are its files too. */
async function archiveViews(host: HostContext, archiveAccount: string, probed?: ExternalRows): Promise<Map<string, ExternalView>> {
  const views = new Map<string, ExternalView>();
  for (const view of externalViews(await readExternal(host, probed), archiveAccount)) if (!views.has(view.storageId)) views.set(view.storageId, view);
  return views;
}

/** Where the archive account sees a marked file: under `files/` of a home storage, or on one of its external storages; null for neither. */
function seenAt(path: string | null, mimetype: string | null, storageId: string | null, views: ReadonlyMap<string, ExternalView>): string | null {
  if (path === null || mimetype === FOLDER_MIMETYPE) return null;
  const view = storageId === null ? undefined : views.get(storageId);
  if (view !== undefined) return externalPath(view, path);
  return isOwnFile(path, mimetype) ? `/${path.slice('files/'.length)}` : null;
}

/** A row of `buildMarkedFiles` that stands for documents: a file (not a folder) under the account's `files/`. */
function isOwnFile(path: string | null, mimetype: string | null): path is string {
  return isInUserFiles(path) && path.startsWith('files/') && mimetype !== FOLDER_MIMETYPE;
}

export async function markedFiles(host: HostContext, archiveAccount: string, offset: number, limit: number): Promise<MarkedFilesPage> {
  const views = await archiveViews(host, archiveAccount);
  const statement = buildMarkedFiles(host.statements.prefix, [...homeStorageIds(archiveAccount, host.located.dataDirectory), ...views.keys()]);
  const rows = await host.statements.query(statement.sql, statement.params);
  const list: Candidate[] = [];
  for (const row of rows) {
    const name = text(row.t2) ?? '';
    const mimetype = text(row.t3) ?? '';
    const path = seenAt(text(row.t1), mimetype, text(row.t4), views);
    if (path === null) continue;
    for (const documentId of markersIn(name)) {
      list.push({ documentId, fileId: num(row.a), path, name, mimetype, owner: archiveAccount });
    }
  }
  const picked = [...pickPerDocument(list).values()].sort((a, b) => a.documentId - b.documentId);
  const start = Math.max(0, Math.floor(offset));
  return {
    total: picked.length,
    files: picked.slice(start, start + Math.max(0, Math.floor(limit))).map((c) => ({ documentId: c.documentId, fileId: c.fileId, path: c.path })),
  };
}

/** `indexes`: null after the spec's fallback (the index is read only where the batched form runs). */
export async function markedDocuments(host: HostContext, indexes: MarkerIndexes | null, archiveAccount: string): Promise<readonly number[]> {
  const probe = externalRows();
  const indexed = indexes === null ? null : await indexes.markedDocuments(archiveAccount, probe);
  const views = await archiveViews(host, archiveAccount, indexed === null ? undefined : probe);
  // The marker index covers the home storages; external storages are read by name beside it.
  if (indexed !== null && views.size === 0) return indexed;
  const storages = [...(indexed === null ? homeStorageIds(archiveAccount, host.located.dataDirectory) : []), ...views.keys()];
  const statement = buildMarkedFiles(host.statements.prefix, storages);
  const documents = new Set<number>(indexed ?? []);
  await host.statements.each(statement.sql, statement.params, (rows) => {
    for (const row of rows) {
      if (seenAt(text(row.t1), text(row.t3), text(row.t4), views) === null) continue;
      for (const id of markersIn(text(row.t2) ?? '')) documents.add(id);
    }
  });
  return [...documents].sort((a, b) => a - b);
}

export async function unsupportedShares(host: HostContext, archiveAccount: string): Promise<UnsupportedShares> {
  const statement = buildUnsupportedShares(host.statements.prefix, archiveAccount);
  const rows = await host.statements.query(statement.sql, statement.params);
  const count = (type: number): number => rows.filter((row) => num(row.b) === type).reduce((sum, row) => sum + num(row.a), 0);
  return { talkRooms: count(10), deckBoards: count(12) };
}

export async function eachArchiveDocument(
  host: HostContext,
  archiveAccount: string,
  onDocument: (documentId: number, files: readonly NodeRow[]) => void,
  pace?: Pace,
): Promise<void> {
  const { statements } = host;
  const views = await archiveViews(host, archiveAccount);
  const statement = buildFilesByMarker(statements.sql.dialect, statements.prefix, [
    ...homeStorageIds(archiveAccount, host.located.dataDirectory),
    ...views.keys(),
  ]);
  // Names with several markers come first and are few: kept, sorted, and merged into the stream.
  const several: { documentId: number; file: NodeRow }[] = [];
  let sorted = false;
  let next = 0;
  let current = -1;
  let group: NodeRow[] = [];
  const flush = (): void => {
    if (current >= 0) onDocument(current, group);
    group = [];
  };
  /** Opens document `id`'s group, first handing over the documents of several-marker names before it. */
  const open = (id: number): void => {
    if (!sorted) {
      several.sort((a, b) => a.documentId - b.documentId || a.file.fileId - b.file.fileId);
      sorted = true;
    }
    while (next < several.length) {
      const entry = several[next];
      if (entry === undefined || entry.documentId > id) break;
      if (entry.documentId !== current) {
        flush();
        current = entry.documentId;
      }
      group.push(entry.file);
      next += 1;
    }
    if (id !== current) {
      flush();
      current = id;
    }
  };
  await statements.each(
    statement.sql,
    statement.params,
    (rows) => {
      for (const row of rows) {
        const file = nodeRowOf(row);
        if (seenAt(file.path, file.mimetype, file.storageId, views) === null) continue;
        const ids = markersIn(file.name);
        if (num(row.m) === 0) {
          for (const documentId of new Set(ids)) several.push({ documentId, file });
          continue;
        }
        const [id] = ids;
        if (id === undefined) continue;
        if (id < current) throw new DusError('internal', `The host returned the marked files out of document order (${id} after ${current}).`);
        open(id);
        group.push(file);
      }
    },
    pace,
  );
  open(Number.MAX_SAFE_INTEGER);
  flush();
}
