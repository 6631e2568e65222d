import type { HostAdapter, VisibleFile } from '../host/types.js';
import { markersIn } from '../host/rules/marker.js';

interface NameRow {
  readonly name: string;
  [column: string]: unknown;
}

/**
 * `archiveFile: false`: not this app's business (the host's own Files reference provider
 * answers for it, with its own access check); else whether the reader can open it (`file`).
 */
export type ArchiveFileAccess = { readonly archiveFile: false } | { readonly archiveFile: true; readonly file: VisibleFile | null };

const NOT_ARCHIVE: ArchiveFileAccess = { archiveFile: false };

/**
 * Whether `user` can open the archive file with this file id, and as which path: the smart
 * picker's link check. Only files of the archive account under its `files/` whose name
 * carries a marker are archive files (the archive account's own question 1 says so); the
 * reader's answer comes from the same visibility rules as the search (question 1).
 */
export async function archiveFileAccess(host: HostAdapter, user: string, archiveAccount: string, fileId: number): Promise<ArchiveFileAccess> {
  if (!Number.isSafeInteger(fileId) || fileId <= 0) return NOT_ARCHIVE;
  const sql = host.sql;
  const rows = await sql.query<NameRow>(`SELECT name FROM ${sql.prefix}filecache WHERE fileid = ?`, [fileId]);
  const name = rows[0]?.name;
  if (typeof name !== 'string') return NOT_ARCHIVE;
  const documentIds = markersIn(name);
  if (documentIds.length === 0) return NOT_ARCHIVE;
  const owned = await host.visibleArchiveFile(archiveAccount, archiveAccount, fileId, documentIds);
  if (owned === null) return NOT_ARCHIVE;
  return { archiveFile: true, file: user === archiveAccount ? owned : await host.visibleArchiveFile(user, archiveAccount, fileId, documentIds) };
}

/**
 * The file id of a host file link (`/f/<id>`, `/index.php/f/<id>`, `/apps/files/?fileid=<id>`
 * and `/index.php/apps/files/…`) on this host; null for anything else, including links to
 * another host.
 */
export function fileIdOfLink(reference: string, hostUrl: string | null): number | null {
  const base = (hostUrl ?? '').replace(/\/+$/, '');
  let rest: string;
  if (base !== '' && reference.startsWith(`${base}/`)) rest = reference.slice(base.length);
  else if (base === '' && reference.startsWith('/')) rest = reference;
  else return null;
  rest = rest.replace(/^\/index\.php(?=\/)/, '');
  const short = /^\/f\/(\d{1,18})\/?$/.exec(rest);
  if (short?.[1] !== undefined) return Number(short[1]);
  const files = /^\/apps\/files\/[^?#]*\?([^#]*)/.exec(rest);
  if (files?.[1] !== undefined) {
    const params = new URLSearchParams(files[1]);
    const id = params.get('fileid') ?? params.get('openfile');
    if (id !== null && /^\d{1,18}$/.test(id)) return Number(id);
  }
  return null;
}
