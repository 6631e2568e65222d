/**
 * The host's visibility rules (reference §3, §10) applied in TypeScript to the rows of one
 * lookup query: candidate shares of the user, their shared nodes, the marked files of the
 * storages involved, and the files_sharing switches. SQL narrows; this decides.
 */
import { markersIn } from './marker.js';
import { mountsOf, type Mount, type NodeRow, type ShareRow } from './share-rules.js';
import { homeStorageIds, trimSlashes } from './storages.js';
import { externalPath, externalStorageIds, NO_EXTERNAL, type ExternalFacts, type ExternalView } from './external-storage.js';
import type { VisibleFile } from './types.js';

export const FOLDER_MIMETYPE = 'httpd/unix-directory';

export type { Mount, NodeRow, ShareRow };
export interface LookupRows {
  readonly shares: readonly ShareRow[];
  readonly roots: ReadonlyMap<number, NodeRow>;
  readonly files: readonly NodeRow[];
  /** files_sharing app config: `enabled`, `hide_disabled_user_shares`. */
  readonly sharingConfig: ReadonlyMap<string, string>;
  /** Owners and initiators whose `core` `enabled` preference is set to anything but 'true'. */
  readonly disabledUsers: ReadonlySet<string>;
  /** Owners and initiators user_ldap marked `isDeleted` = '1': their LDAP entry is gone. */
  readonly goneUsers: ReadonlySet<string>;
}

/**
 * Whether the host lets an account log in and open files, from its preferences: `core`/`enabled`
 * is compared with 'true' (a missing row is 'true'), so '0', 'no' or '' written by a script or
 * another backend disable the account too (§7); and an account whose LDAP entry user_ldap marked
 * gone (`user_ldap`/`isDeleted` = '1') cannot log in either. The one rule for the searching
 * account, owners and resharers.
 */
export function isEnabledAccount(enabled: string | null, ldapDeleted: string | null): boolean {
  return (enabled === null || enabled === 'true') && ldapDeleted !== '1';
}

/** A (document, file, path) the rules admit: already the shape of the answer. */
export type Candidate = VisibleFile;

/**
 * The user's valid share mounts: one per shared node, as the host's MountProvider builds them
 * (rules/share-rules.ts). `takenTargets`: the user's targets its own files hold, where the
 * release checks targets at setup (taken-targets.ts), else null.
 */
export function shareMounts(
  user: string,
  rows: LookupRows,
  dataDirectory: string | null,
  hostVersion: string | null,
  takenTargets: ReadonlySet<string> | null,
  external: ExternalFacts = NO_EXTERNAL,
): Mount[] {
  return mountsOf({ user, groups: null, ...rows, dataDirectory, hostVersion, takenTargets, externalOf: externalLookup(external) }).mounts;
}

/** `externalStorageIds` per account, each worked out once. */
export function externalLookup(external: ExternalFacts): (uid: string) => ReadonlySet<string> {
  const known = new Map<string, ReadonlySet<string>>();
  return (uid) => {
    let ids = known.get(uid);
    if (ids === undefined) {
      ids = external.mounts.length === 0 ? new Set<string>() : externalStorageIds(external, uid);
      known.set(uid, ids);
    }
    return ids;
  };
}

/**
 * The mounts question 1 ('visible': the archive account's) or question 3 ('foreign': anyone
 * else's) keeps for the recipient. `who` asks it with the same rows for many accounts at once.
 */
export function questionMounts(
  question: 'visible' | 'foreign',
  recipient: string,
  archive: string,
  rows: LookupRows,
  dataDirectory: string | null,
  hostVersion: string | null,
  takenTargets: ReadonlySet<string> | null,
  external: ExternalFacts = NO_EXTERNAL,
): Mount[] {
  // A share of a folder on an external storage mounted for the archive account gives the
  // archive account's files, whoever shared it (external-storage.ts).
  const archives = externalLookup(external)(archive);
  const archiveOwns = (m: Mount): boolean => m.owner === archive || archives.has(m.root.storageId);
  return shareMounts(recipient, rows, dataDirectory, hostVersion, takenTargets, external).filter((m) =>
    question === 'visible' ? archiveOwns(m) : !archiveOwns(m),
  );
}

/** Where a file under a mount's root (or the root itself) appears in the recipient's files. */
export function mountPath(mount: Mount, filePath: string): string {
  const root = mount.root.path ?? '';
  // The root of an external storage has the path '' (external-storage.ts): its files lie right under it.
  const rest = root === '' && filePath !== '' ? `/${filePath}` : filePath.slice(root.length);
  return `/${trimSlashes(mount.target)}${rest}`;
}

/** Whether a file under the mount: the root itself, or under its path in the same storage. */
export function mountCovers(mount: Mount, file: NodeRow): boolean {
  const root = mount.root.path ?? '';
  return (
    mount.root.storage === file.storage && (file.fileId === mount.root.fileId || (root === '' ? file.path !== null : (file.path ?? '').startsWith(`${root}/`)))
  );
}

/** The file a document's answer names when several qualify: the oldest file (smallest id), then the smallest path. */
export function preferred(a: { readonly fileId: number; readonly path: string }, b: { readonly fileId: number; readonly path: string }): boolean {
  return a.fileId < b.fileId || (a.fileId === b.fileId && a.path < b.path);
}

export interface CandidateSpec {
  readonly documentIds: ReadonlySet<number>;
  /** Whose own `files/` count, and as which owner; null for none. */
  readonly ownFilesOf: string | null;
  readonly mounts: readonly Mount[];
  readonly dataDirectory: string | null;
  /** External storages the user sees (external-storage.ts), their files owned by `externalOwner`. */
  readonly external?: readonly ExternalView[];
  readonly externalOwner?: string;
  /** Mount points of every external storage mounted for `ownFilesOf`: its own folders there are hidden under the mount. */
  readonly hiddenUnder?: readonly string[];
}

/** Every (document, file, path) the spec admits, before picking one file per document. */
export function candidates(spec: CandidateSpec, files: readonly NodeRow[]): Candidate[] {
  const own = spec.ownFilesOf === null ? null : new Set(homeStorageIds(spec.ownFilesOf, spec.dataDirectory));
  const out: Candidate[] = [];
  const seen = new Set<string>();
  const add = (documentId: number, file: NodeRow, path: string, owner: string): void => {
    const key = `${documentId}\u0000${file.fileId}\u0000${path}`;
    if (seen.has(key)) return;
    seen.add(key);
    out.push({ documentId, fileId: file.fileId, path, name: file.name, mimetype: file.mimetype, owner });
  };
  for (const file of files) {
    if (file.mimetype === FOLDER_MIMETYPE || file.path === null) continue;
    const ids = markersIn(file.name).filter((id) => spec.documentIds.has(id));
    if (ids.length === 0) continue;
    const filePath = file.path;
    if (own !== null && spec.ownFilesOf !== null && own.has(file.storageId) && filePath.startsWith('files/')) {
      const seen = `/${filePath.slice('files/'.length)}`;
      const hidden = (spec.hiddenUnder ?? []).some((point) => seen === point || seen.startsWith(`${point}/`));
      if (!hidden) for (const id of ids) add(id, file, seen, spec.ownFilesOf);
    }
    for (const view of spec.external ?? []) {
      if (view.storageId !== file.storageId) continue;
      for (const id of ids) add(id, file, externalPath(view, filePath), spec.externalOwner ?? '');
    }
    for (const mount of spec.mounts) {
      if (!mountCovers(mount, file)) continue;
      const path = mountPath(mount, filePath);
      for (const id of ids) add(id, file, path, mount.owner);
    }
  }
  return out;
}

/** One file per document: the oldest file (smallest id), then the smallest path. */
export function pickPerDocument(list: readonly Candidate[]): Map<number, Candidate> {
  const picked = new Map<number, Candidate>();
  for (const c of list) {
    const current = picked.get(c.documentId);
    if (current === undefined || preferred(c, current)) picked.set(c.documentId, c);
  }
  return picked;
}
