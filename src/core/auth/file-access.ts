import type { HostAdapter, VisibleFile } from '../host/types.js';
import { markersIn } from '../host/marker.js';

interface NameRow {
  readonly name: string;
  [column: string]: unknown;
}

/**
 * Whether `user` can open the archive file with this file id, and as which path: the smart
 * picker's link check. Only files of the archive account whose name carries a marker are
 * this app's business (the host's own Files reference provider answers for every other
 * file); the answer comes from the same visibility rules as the search (question 1).
 */
export async function openableArchiveFile(host: HostAdapter, user: string, archiveAccount: string, fileId: number): Promise<VisibleFile | null> {
  if (!Number.isSafeInteger(fileId) || fileId <= 0) return null;
  const sql = host.sql;
  const rows = await sql.query<NameRow>(`SELECT name FROM ${sql.prefix}filecache WHERE fileid = ?`, [fileId]);
  const name = rows[0]?.name;
  if (typeof name !== 'string') return null;
  const documentIds = markersIn(name);
  if (documentIds.length === 0) return null;
  return host.visibleArchiveFile(user, archiveAccount, fileId, documentIds);
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
