/**
 * Reads the WebDAV multistatus answers of Nextcloud's PROPFIND: only the few properties the
 * tests ask for, with tolerant namespace prefixes. Not a general XML parser.
 */

export interface DavEntry {
  /** Decoded path below the collection root asked for ('' for the root), no leading slash. */
  readonly path: string;
  readonly name: string;
  readonly isFolder: boolean;
  readonly fileId: number | null;
  readonly ownerId: string | null;
  readonly etag: string | null;
  /** Trash only: the original name (nc:trashbin-filename). */
  readonly trashName: string | null;
}

const decodeXml = (text: string): string =>
  text.replace(/&(lt|gt|amp|quot|apos|#\d+|#x[0-9a-f]+);/gi, (all, entity: string) => {
    const named: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };
    if (entity.startsWith('#x') || entity.startsWith('#X')) return String.fromCodePoint(parseInt(entity.slice(2), 16));
    if (entity.startsWith('#')) return String.fromCodePoint(Number(entity.slice(1)));
    return named[entity.toLowerCase()] ?? all;
  });

/** The text of the first element `local` (any prefix) in `xml`, or null. */
function element(xml: string, local: string): string | null {
  const match = new RegExp(`<(?:[\\w-]+:)?${local}(?:\\s[^>]*)?>([\\s\\S]*?)</(?:[\\w-]+:)?${local}>`).exec(xml);
  return match === null ? null : decodeXml(match[1] ?? '');
}

/** The 200 propstat of a response: properties that are 404 sit in their own propstat. */
function foundProps(response: string): string {
  const propstats = response.match(/<(?:[\w-]+:)?propstat>[\s\S]*?<\/(?:[\w-]+:)?propstat>/g) ?? [];
  return propstats.find((p) => /HTTP\/1\.1 200/.test(p)) ?? '';
}

export function parseMultistatus(xml: string, rootHref: string): DavEntry[] {
  const entries: DavEntry[] = [];
  const root = decodeURIComponent(rootHref).replace(/\/+$/, '');
  for (const response of xml.match(/<(?:[\w-]+:)?response>[\s\S]*?<\/(?:[\w-]+:)?response>/g) ?? []) {
    const href = decodeURIComponent(element(response, 'href') ?? '');
    const props = foundProps(response);
    const relative = href.startsWith(root) ? href.slice(root.length) : href;
    const path = relative.replace(/^\/+|\/+$/g, '');
    const fileId = element(props, 'fileid');
    entries.push({
      path,
      name: path.split('/').pop() ?? '',
      isFolder: /<(?:[\w-]+:)?collection\s*\/>/.test(props),
      fileId: fileId === null ? null : Number(fileId),
      ownerId: element(props, 'owner-id'),
      etag: element(props, 'getetag'),
      trashName: element(props, 'trashbin-filename'),
    });
  }
  return entries;
}

export const PROPFIND_BODY = `<?xml version="1.0"?>
<d:propfind xmlns:d="DAV:" xmlns:oc="http://owncloud.org/ns" xmlns:nc="http://nextcloud.org/ns">
  <d:prop><d:resourcetype/><d:getetag/><oc:fileid/><oc:owner-id/><nc:trashbin-filename/></d:prop>
</d:propfind>`;
