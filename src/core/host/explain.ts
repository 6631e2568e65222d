/**
 * Explain only (`why`, `search --explain`, Try a search), never on the search path: why a user
 * cannot open a file of the archive account (rules/share-obstacles.ts), and which of its files
 * are in the trash. It changes with what an explanation reads.
 */
import { hostNow, type HostContext } from './host-context.js';
import { buildTrashedFiles, rowNumber as num, rowText as text, TRASH_PREFIX } from './rules/lookup-sql.js';
import { cleanIds, markersIn } from './rules/marker.js';
import { buildShareObstacles, nearestObstacles, obstacleTargets } from './rules/share-obstacles.js';
import { readTakenTargets } from './rules/taken-targets.js';
import { homeStorageIds } from './rules/storages.js';
import { FOLDER_MIMETYPE } from './rules/visibility.js';
import type { ShareObstacle, TrashedFile, VisibleFile } from './types.js';

export async function shareObstacles(
  host: HostContext,
  user: string,
  archiveAccount: string,
  files: readonly VisibleFile[],
): Promise<ReadonlyMap<number, ShareObstacle>> {
  // Only the archive account's own files (question 2's answers) have share rows to explain.
  const own = files.filter((f) => f.owner === archiveAccount && f.path.startsWith('/'));
  if (own.length === 0) return new Map();
  const { statements, located } = host;
  const statement = buildShareObstacles(statements.sql.dialect, statements.prefix, user, own, hostNow(host.options));
  const rows = await statements.query(statement.sql, statement.params);
  const taken = await readTakenTargets(
    (sql, params) => statements.query(sql, params),
    statements.prefix,
    obstacleTargets(rows, user),
    located.dataDirectory,
    located.version,
  );
  return nearestObstacles(rows, own, user, located.version, located.dataDirectory, taken === null ? null : (taken.get(user) ?? new Set()));
}

export async function trashedArchiveFiles(
  host: HostContext,
  archiveAccount: string,
  documentIds: readonly number[],
): Promise<ReadonlyMap<number, TrashedFile>> {
  const ids = cleanIds(documentIds);
  if (ids.length === 0) return new Map();
  const statement = buildTrashedFiles(host.statements.prefix, homeStorageIds(archiveAccount, host.located.dataDirectory), ids);
  const wanted = new Set(ids);
  const found = new Map<number, TrashedFile>();
  for (const row of await host.statements.query(statement.sql, statement.params)) {
    const path = text(row.t1) ?? '';
    if (!path.startsWith(TRASH_PREFIX) || text(row.t3) === FOLDER_MIMETYPE) continue;
    // The trash appends `.d<deletion time>` to the item it holds: the first segment of the path.
    const [top = '', ...rest] = path.slice(TRASH_PREFIX.length).split('/');
    const name = [top.replace(/\.d\d+$/, ''), ...rest].join('/');
    const fileId = num(row.a);
    for (const id of markersIn(text(row.t2) ?? '')) {
      const known = found.get(id);
      if (wanted.has(id) && (known === undefined || fileId < known.fileId)) found.set(id, { documentId: id, fileId, name });
    }
  }
  return found;
}
