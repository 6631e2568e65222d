/**
 * The host's visibility rules (reference §3, §10) applied in TypeScript to the rows of one
 * lookup query: candidate shares of the user, their shared nodes, the marked files of the
 * storages involved, and the files_sharing switches. SQL narrows; this decides.
 */
import { markersIn } from './marker.js';
import { homeStorageIds, isInUserFiles } from './storages.js';
import type { VisibleFile } from './types.js';

export const FOLDER_MIMETYPE = 'httpd/unix-directory';
const READ = 1;
const SHARE = 16;
/** `hide_disabled_user_shares` values every version reads as "show" (31.0.2 hides on 'yes' only; IAppConfig's boolean parsing). */
const SHOWN_DISABLED: ReadonlySet<string> = new Set(['no', 'false', '0', 'off', '']);

/**
 * Whether the host hides shares whose owner or resharer is disabled (`files_sharing`
 * `hide_disabled_user_shares`, docs/host-adapter.md). An explicit false value shows them on
 * every version; any other value hides them on the versions that read it as a boolean, so it
 * hides here. A missing key meant 'no' (show) until server PR #62092 (merged 2026-07-15,
 * backported to stable30–34 in patch releases not known here) made it 'yes': it shows only on
 * versions known to predate that change (below 30, and 31.0.0–31.0.2, whose source was read),
 * and hides on every other or unknown version, the side that cannot leak.
 */
export function hidesDisabledUserShares(value: string | undefined, hostVersion: string | null): boolean {
  if (value !== undefined) return !SHOWN_DISABLED.has(value);
  return !missingKeyShows(hostVersion);
}

function missingKeyShows(hostVersion: string | null): boolean {
  const parts = /^(\d+)\.(\d+)\.(\d+)/.exec(hostVersion ?? '');
  if (parts === null) return false;
  const [major, minor, patch] = [Number(parts[1]), Number(parts[2]), Number(parts[3])];
  if (major < 30) return true;
  return major === 31 && minor === 0 && patch <= 2;
}

export interface ShareRow {
  readonly id: number;
  readonly shareType: number;
  readonly fileSource: number;
  readonly stime: number;
  /** After the recipient's override row (group shares). */
  readonly permissions: number;
  readonly accepted: number;
  readonly target: string;
  readonly owner: string;
  readonly initiator: string | null;
}

export interface NodeRow {
  readonly fileId: number;
  readonly storage: number;
  readonly storageId: string;
  readonly path: string | null;
  readonly name: string;
  readonly mimetype: string;
  readonly permissions: number;
}

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

export interface Mount {
  readonly root: NodeRow;
  readonly owner: string;
  readonly target: string;
}

/** The user's valid share mounts: one per shared node, as the host's MountProvider builds them. */
export function shareMounts(user: string, rows: LookupRows, dataDirectory: string | null, hostVersion: string | null): Mount[] {
  // The host loads an app only when its `enabled` row exists and is not 'no' (§3.4 8).
  const sharing = rows.sharingConfig.get('enabled');
  if (sharing === undefined || sharing === 'no') return [];
  const hideDisabled = hidesDisabledUserShares(rows.sharingConfig.get('hide_disabled_user_shares'), hostVersion);
  const byNode = new Map<number, ShareRow[]>();
  for (const share of rows.shares) {
    // Types 0 and 1 only: circles, rooms, deck need other apps' tables (reported unsupported).
    if (share.shareType !== 0 && share.shareType !== 1) continue;
    if (share.permissions <= 0 || share.owner === user || (share.initiator ?? '') === user) continue;
    if (hideDisabled && (rows.disabledUsers.has(share.owner) || (share.initiator !== null && rows.disabledUsers.has(share.initiator)))) continue;
    // The host cannot open the owner's folder of a vanished LDAP account (§11.11); a vanished
    // resharer is dropped too, the side that cannot leak (it is hidden or disabled there).
    if (rows.goneUsers.has(share.owner) || (share.initiator !== null && rows.goneUsers.has(share.initiator))) continue;
    const list = byNode.get(share.fileSource) ?? [];
    list.push(share);
    byNode.set(share.fileSource, list);
  }
  const mounts: Mount[] = [];
  for (const [node, shares] of byNode) {
    shares.sort((a, b) => a.stime - b.stime || a.id - b.id);
    const first = shares[0];
    if (first === undefined) continue;
    const status = Math.max(...shares.map((s) => s.accepted));
    const permissions = shares.reduce((p, s) => p | s.permissions, 0);
    if (status !== 1 || (permissions & READ) === 0) continue;
    const root = rows.roots.get(node);
    if (root === undefined || !isInUserFiles(root.path) || root.path === 'files') continue;
    if ((root.permissions & SHARE) === 0) continue;
    // The node must be in the share owner's own folders, else the host mounts a failed storage.
    if (!homeStorageIds(first.owner, dataDirectory).includes(root.storageId)) continue;
    mounts.push({ root, owner: first.owner, target: first.target });
  }
  return mounts;
}

function trimSlashes(s: string): string {
  return s.replace(/^\/+|\/+$/g, '');
}

export interface CandidateSpec {
  readonly documentIds: ReadonlySet<number>;
  /** Whose own `files/` count, and as which owner; null for none. */
  readonly ownFilesOf: string | null;
  readonly mounts: readonly Mount[];
  readonly dataDirectory: string | null;
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
      for (const id of ids) add(id, file, `/${filePath.slice('files/'.length)}`, spec.ownFilesOf);
    }
    for (const mount of spec.mounts) {
      const rootPath = mount.root.path ?? '';
      if (mount.root.storage !== file.storage) continue;
      if (file.fileId !== mount.root.fileId && !filePath.startsWith(`${rootPath}/`)) continue;
      const path = `/${trimSlashes(mount.target)}${filePath.slice(rootPath.length)}`;
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
    if (current === undefined || c.fileId < current.fileId || (c.fileId === current.fileId && c.path < current.path)) picked.set(c.documentId, c);
  }
  return picked;
}
