/**
 * A deliberately plain model of what the host shows a user (reference/nextcloud-db.md §3),
 * written without SQL and without the adapter's code, to judge the adapter in property tests.
 */
import { createHash } from 'node:crypto';
import type { FixtureModel, ModelFile, ModelShare } from './model.js';
import { configKey, preferenceKey } from './model.js';

export type ModelQuestion = 'visible' | 'owned' | 'foreign';

export interface ModelAnswer {
  readonly fileId: number;
  readonly path: string;
  readonly owner: string;
}

const FOLDER = 'httpd/unix-directory';

function storedId(id: string): string {
  return id.length > 64 ? createHash('md5').update(id).digest('hex') : id;
}

function ownsStorage(model: FixtureModel, uid: string, storage: number): boolean {
  const id = model.storages.get(storage);
  return id !== undefined && (id === storedId(`home::${uid}`) || id === storedId(`object::user:${uid}`));
}

function directGroups(model: FixtureModel, uid: string): Set<string> {
  const groups = new Set<string>();
  for (const [gid, members] of model.groups) if (members.has(uid)) groups.add(gid);
  return groups;
}

function isDisabled(model: FixtureModel, uid: string | null): boolean {
  return uid !== null && model.users.get(uid)?.enabled === false;
}

/** user_ldap marks an account whose LDAP entry vanished; such an owner's files cannot be opened. */
function isGone(model: FixtureModel, uid: string | null): boolean {
  return uid !== null && model.preferences.get(preferenceKey(uid, 'user_ldap', 'isDeleted')) === '1';
}

interface ModelMount {
  readonly root: ModelFile;
  readonly owner: string;
  readonly target: string;
}

export function mountsOf(model: FixtureModel, user: string, now: string): ModelMount[] {
  // An app without an `enabled` row is not installed, so it mounts nothing.
  const sharing = model.appConfig.get(configKey('files_sharing', 'enabled'));
  if (sharing === undefined || sharing === 'no') return [];
  // Newer hosts hide when the key is absent; only an explicit false value shows them.
  const hideValue = model.appConfig.get(configKey('files_sharing', 'hide_disabled_user_shares'));
  const hideDisabled = hideValue === undefined || !['no', 'false', '0', 'off', ''].includes(hideValue);
  // The host's share provider reads direct groups only: nesting (NC34) does not pass group shares down.
  const groups = directGroups(model, user);
  const received: ModelShare[] = [];
  for (const share of model.shares.values()) {
    const toUser = share.shareType === 0 && share.shareWith === user;
    const toGroup = share.shareType === 1 && share.shareWith !== null && groups.has(share.shareWith);
    if (!toUser && !toGroup) continue;
    if (share.expiration !== null && share.expiration <= now) continue;
    let effective = share;
    if (toGroup) {
      for (const o of model.shares.values()) {
        if (o.shareType === 2 && o.parent === share.id && o.shareWith === user) {
          effective = { ...share, permissions: o.permissions, accepted: o.accepted, target: o.target };
        }
      }
    }
    if (effective.permissions <= 0 || effective.owner === user || effective.initiator === user) continue;
    if (hideDisabled && (isDisabled(model, effective.owner) || isDisabled(model, effective.initiator))) continue;
    if (isGone(model, effective.owner) || isGone(model, effective.initiator)) continue;
    received.push(effective);
  }
  const byNode = new Map<number, ModelShare[]>();
  for (const s of received) byNode.set(s.fileSource, [...(byNode.get(s.fileSource) ?? []), s]);
  const mounts: ModelMount[] = [];
  for (const [node, shares] of byNode) {
    shares.sort((a, b) => (a.stime !== b.stime ? a.stime - b.stime : a.id - b.id));
    const first = shares[0];
    if (first === undefined) continue;
    let status = 0;
    let permissions = 0;
    for (const s of shares) {
      status = Math.max(status, s.accepted);
      permissions |= s.permissions;
    }
    if (status !== 1 || (permissions & 1) === 0) continue;
    const root = model.files.get(node);
    if (root === undefined || !root.path.startsWith('files/')) continue;
    if ((root.permissions & 16) === 0) continue;
    if (!ownsStorage(model, first.owner, root.storage)) continue;
    mounts.push({ root, owner: first.owner, target: first.target });
  }
  // Two shared nodes at one path: Nextcloud 34 mounts one of them, the database cannot tell which; neither counts.
  const atPath = (m: ModelMount): string => m.target.replace(/^\/+|\/+$/g, '');
  return mounts.filter((m) => mounts.filter((other) => atPath(other) === atPath(m)).length === 1);
}

function markersOf(name: string): number[] {
  return [...name.matchAll(/\[P([1-9][0-9]*)\]/g)].map((m) => Number(m[1]));
}

interface Seen {
  readonly documentId: number;
  readonly fileId: number;
  readonly path: string;
  readonly owner: string;
}

function ownFiles(model: FixtureModel, uid: string): Seen[] {
  const out: Seen[] = [];
  for (const f of model.files.values()) {
    if (f.mimetype === FOLDER || !ownsStorage(model, uid, f.storage) || !f.path.startsWith('files/')) continue;
    for (const id of markersOf(f.name)) out.push({ documentId: id, fileId: f.fileid, path: `/${f.path.slice(6)}`, owner: uid });
  }
  return out;
}

function mountedFiles(model: FixtureModel, mounts: readonly ModelMount[]): Seen[] {
  const out: Seen[] = [];
  for (const m of mounts) {
    for (const f of model.files.values()) {
      if (f.mimetype === FOLDER || f.storage !== m.root.storage) continue;
      if (f.fileid !== m.root.fileid && !f.path.startsWith(`${m.root.path}/`)) continue;
      const path = `/${m.target.replace(/^\/+|\/+$/g, '')}${f.path.slice(m.root.path.length)}`;
      for (const id of markersOf(f.name)) out.push({ documentId: id, fileId: f.fileid, path, owner: m.owner });
    }
  }
  return out;
}

export function referenceAnswer(
  model: FixtureModel,
  question: ModelQuestion,
  user: string,
  archive: string,
  documentIds: readonly number[],
  now: string,
): Map<number, ModelAnswer> {
  // A disabled account (or one whose LDAP entry is gone) cannot log in: it opens nothing.
  // Question 2 is about the archive account's folders, not about what anyone opens.
  if (question !== 'owned' && (isDisabled(model, user) || isGone(model, user))) return new Map();
  let seen: Seen[];
  if (question === 'owned' || (question === 'visible' && user === archive)) {
    seen = ownFiles(model, archive);
  } else if (question === 'visible') {
    seen = mountedFiles(model, mountsOf(model, user, now)).filter((s) => s.owner === archive);
  } else {
    seen = [...(user === archive ? [] : ownFiles(model, user)), ...mountedFiles(model, mountsOf(model, user, now)).filter((s) => s.owner !== archive)];
  }
  const wanted = new Set(documentIds);
  const answer = new Map<number, ModelAnswer>();
  for (const s of seen) {
    if (!wanted.has(s.documentId)) continue;
    const current = answer.get(s.documentId);
    if (current === undefined || s.fileId < current.fileId || (s.fileId === current.fileId && s.path < current.path)) {
      answer.set(s.documentId, { fileId: s.fileId, path: s.path, owner: s.owner });
    }
  }
  return answer;
}
