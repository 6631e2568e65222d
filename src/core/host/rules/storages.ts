import { nodeCrypto } from '../../node-crypto.js';

/** The host stores a storage id longer than 64 characters as its md5 (reference §1.3). */
export function storedStorageId(id: string): string {
  return id.length > 64 ? nodeCrypto().createHash('md5').update(id).digest('hex') : id;
}

/**
 * Every stored storage id that makes `uid` the owner of a home storage (reference §2):
 * the local home, the object-store home, and the pre-ownCloud-6 `local::<datadir>/<uid>/` form.
 */
export function homeStorageIds(uid: string, dataDirectory: string | null): string[] {
  const ids = [storedStorageId(`home::${uid}`), storedStorageId(`object::user:${uid}`)];
  if (dataDirectory !== null && dataDirectory !== '') {
    ids.push(storedStorageId(`local::${dataDirectory.replace(/\/+$/, '')}/${uid}/`));
  }
  return ids;
}

/** Only `files` and what lies under it is in the user's Files; trash, versions, uploads are not. */
export function isInUserFiles(path: string | null): path is string {
  return path !== null && (path === 'files' || path.startsWith('files/'));
}

/**
 * A shared node's path as its owner sees it, for `who`'s chains: `files/Docs` → `/Docs`; a node
 * of an external storage keeps its path on that storage (`Sub` → `/Sub`), which has no `files/`.
 */
export function ownerNodePath(path: string | null): string {
  const p = path ?? '';
  return `/${p.startsWith('files/') ? p.slice('files/'.length) : p}`;
}

/** A share target or mount point without its leading and trailing slashes, as targets are compared. */
export const trimSlashes = (s: string): string => s.replace(/^\/+|\/+$/g, '');
