/**
 * Builds a Nextcloud-shaped host database (SQLite, PostgreSQL or MariaDB) for tests, the demo
 * and the benches. Runtime dependencies only: no jest here. Each fixture owns a fresh database
 * (a temp file, a new PostgreSQL database, a new MariaDB database) so parallel files never meet.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import bcrypt from 'bcryptjs';
import { argon2id, xxhash128 } from 'hash-wasm';
import { homeStorageIds, storedStorageId } from '../../../src/core/host/rules/storages.js';
import { configKey, emptyModel, preferenceKey, type FixtureModel, type ModelFile } from './model.js';
import { createTableStatements, EXTERNAL_TABLES, NESTED_GROUPS_TABLE, quoteIdent, TABLES } from './schema.js';
import { localStorageId } from '../../../src/core/host/rules/external-storage.js';
import { mysqlWriter, pgWriter, sqliteWriter, type Writer } from './writer.js';

export type FixtureDialect = 'sqlite' | 'pgsql' | 'mysql';
export type { FixtureModel, ModelFile, ModelShare } from './model.js';

export class FixtureUnavailable extends Error {
  readonly reason: string;
  constructor(reason: string) {
    super(reason);
    this.name = 'FixtureUnavailable';
    this.reason = reason;
  }
}

export const SHARE_TYPES = { user: 0, group: 1, usergroup: 2, link: 3, email: 4, circle: 7, room: 10, deck: 12 } as const;
export type FixtureShareType = Exclude<keyof typeof SHARE_TYPES, 'usergroup'>;

export interface FixtureOptions {
  readonly prefix?: string;
  readonly sqlitePath?: string;
  /** Create NC34's `group_group` table (default true). */
  readonly nestedGroups?: boolean;
  /** Create the indexes of `occ db:add-missing-indices` (default true). */
  readonly listenerIndexes?: boolean;
}

export interface AddUserOptions {
  password?: string;
  /** oc_users.password as the host stores it (e.g. `3|$argon2id$…`), hashed ahead of time: no hashing at setup. */
  storedPassword?: string;
  hash?: 'argon2id' | 'bcrypt';
  enabled?: boolean;
  lang?: string;
  displayName?: string;
  email?: string;
  storage?: 'home' | 'object';
  /** false: the user never logged in, so no home storage row exists yet (reference §1.3). */
  loggedIn?: boolean;
}

export interface ShareOptions {
  owner: string;
  fileId: number;
  type: FixtureShareType;
  with?: string;
  initiator?: string;
  permissions?: number;
  expiration?: string | null;
  accepted?: 0 | 1 | 2;
  target?: string;
  stime?: number;
  parent?: number | null;
}

export interface ExternalStorageOptions {
  readonly mountPoint: string;
  readonly datadir: string;
  readonly users?: readonly string[];
  readonly groups?: readonly string[];
  readonly backend?: string;
  readonly auth?: string;
  /** Mount options as files_external stores them (JSON-encoded by the caller's value). */
  readonly options?: Readonly<Record<string, string>>;
  /** 1 admin mount (default), 2 personal mount. */
  readonly type?: 1 | 2;
}

export interface HostFixture {
  readonly dialect: FixtureDialect;
  readonly dbUrl: string;
  readonly prefix: string;
  /** In-memory account of what was written (for the reference model). */
  readonly model: FixtureModel;
  addUser(uid: string, o?: AddUserOptions): Promise<void>;
  addGroup(gid: string, members: string[]): Promise<void>;
  /** NC34 nested groups: members of `child` are effective members of `parent`. */
  addSubgroup(parent: string, child: string): Promise<void>;
  addFolder(owner: string, path: string, o?: { permissions?: number }): Promise<number>;
  /** `propagate: false` skips the etag propagation the host does (default true). */
  addFile(owner: string, path: string, o?: { mimetype?: string; permissions?: number; size?: number; mtime?: number; propagate?: boolean }): Promise<number>;
  addTrashFile(owner: string, name: string): Promise<number>;
  addVersionFile(owner: string, name: string): Promise<number>;
  /** Moves a node (and its descendants) to another path of the same owner, as a rename does. */
  moveNode(owner: string, fileId: number, newPath: string, o?: { propagate?: boolean }): Promise<void>;
  /** Deletes a node and its descendants from the file cache, as a permanent delete does. */
  deleteNode(fileId: number, o?: { propagate?: boolean }): Promise<void>;
  share(o: ShareOptions): Promise<number>;
  overrideGroupShare(groupShareId: number, user: string, o: { permissions?: number; accepted?: 0 | 1 | 2; target?: string }): Promise<number>;
  /**
   * A team as the circles app writes it: the team (`circles_circle`), its member rows and the
   * flattened `circles_membership` rows of its users, directly, through a group (the group's
   * hidden team, with the group's members now) or through a nested team made before (one level).
   * `invited` users get a member row at level 0 and no membership, as an invitation not accepted.
   * Returns the team's single id (what a team share's `share_with` holds).
   */
  addTeam(name: string, o: { users?: readonly string[]; groups?: readonly string[]; teams?: readonly string[]; invited?: readonly string[] }): Promise<string>;
  /** A member's child row of a team share (type 7, parent the share), as circles writes it when the member moves or leaves it. */
  teamShareChild(teamShareId: number, user: string, o: { permissions?: number; target?: string }): Promise<number>;
  /**
   * An oc_mounts row as Nextcloud 34.0.1 records a mount (UserMountCache): `mountPoint` like
   * `/anna/files/Sub/` (trailing slash), on the storage of `rootFileId`, with its mount_point_hash.
   */
  addMount(user: string, mountPoint: string, rootFileId: number, o?: { provider?: string; mountId?: number | null }): Promise<void>;
  setAppConfig(app: string, key: string, value: string): Promise<void>;
  /**
   * An external storage as `occ files_external:create` and `files_external:applicable` write it
   * (files_external's tables are created on first use, the app marked installed and enabled):
   * a Local storage on `datadir` unless `backend`/`auth` say otherwise; mounted for every user
   * when no user and no group is given. Returns the mount id and the numeric storage (created
   * with its root folder, as a first listing does).
   */
  addExternalStorage(o: ExternalStorageOptions): Promise<{ mountId: number; storage: number }>;
  /** A file (and its folders) on an external storage, `path` relative to the storage's root. */
  addExternalFile(storage: number, path: string): Promise<number>;
  setUserPreference(uid: string, app: string, key: string, value: string): Promise<void>;
  exec(sql: string, params?: unknown[]): Promise<void>;
  /** Rows of a statement on the fixture's own connection (the benches count what they generated). */
  all(sql: string, params?: unknown[]): Promise<Record<string, unknown>[]>;
  writeNextcloudDir(dir: string, extra?: Record<string, unknown>): Promise<void>;
  /** Empties every table (schema kept), for property tests that reuse one database. */
  clear(): Promise<void>;
  drop(): Promise<void>;
  /** Closes the fixture's own connection and keeps the database (BENCH_KEEP). */
  release(): Promise<void>;
}

const MIME_FOLDER = 'httpd/unix-directory';
const BASE_TIME = 1_700_000_000;
let counter = 0;

function uniqueName(): string {
  counter += 1;
  return `dus_host_${process.pid}_${counter}_${randomBytes(3).toString('hex')}`;
}

function mimeOf(name: string): string {
  const ext = name.toLowerCase().split('.').pop() ?? '';
  const known: Record<string, string> = {
    pdf: 'application/pdf',
    txt: 'text/plain',
    png: 'image/png',
    jpg: 'image/jpeg',
    odt: 'application/vnd.oasis.opendocument.text',
  };
  return known[ext] ?? 'application/octet-stream';
}

const md5 = (s: string): string => createHash('md5').update(s).digest('hex');

/** oc_mounts.mount_point_hash as Nextcloud 34.0.1 fills it: xxh128 of the mount point, 32 lower-case hex digits. */
export const mountPointHash = (mountPoint: string): Promise<string> => xxhash128(mountPoint);

/** The mount provider class a received share's mount is recorded with. */
export const SHARE_MOUNT_PROVIDER = 'OCA\\Files_Sharing\\MountProvider';

export async function createHostFixture(dialect: FixtureDialect, options: FixtureOptions = {}): Promise<HostFixture> {
  const prefix = options.prefix ?? 'oc_';
  const name = uniqueName();
  let writer: Writer;
  let dbUrl: string;
  let dropDatabase: () => Promise<void>;
  let sqliteFile: string | null = null;
  if (dialect === 'sqlite') {
    const file = options.sqlitePath ?? join(mkdtempSync(join(tmpdir(), 'dus-host-')), 'nextcloud.db');
    mkdirSync(dirname(file), { recursive: true });
    rmSync(file, { force: true });
    sqliteFile = file;
    writer = await sqliteWriter(file);
    dbUrl = `sqlite://${file}`;
    dropDatabase = async () => {
      for (const suffix of ['', '-wal', '-shm']) rmSync(file + suffix, { force: true });
      if (options.sqlitePath === undefined) rmSync(dirname(file), { recursive: true, force: true });
    };
  } else if (dialect === 'pgsql') {
    let admin: Writer;
    try {
      admin = await pgWriter('test');
    } catch (error) {
      throw new FixtureUnavailable(`PostgreSQL at 127.0.0.1:5432 (user postgres, db test) is not reachable: ${(error as Error).message}`);
    }
    await admin.exec(`CREATE DATABASE ${name} TEMPLATE template0 ENCODING 'UTF8'`);
    await admin.close();
    writer = await pgWriter(name);
    dbUrl = `postgres://postgres@127.0.0.1:5432/${name}`;
    dropDatabase = async () => {
      const a = await pgWriter('test');
      await a.exec(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await a.close();
    };
  } else {
    let admin: Writer;
    try {
      admin = await mysqlWriter(undefined);
    } catch (error) {
      throw new FixtureUnavailable(`MariaDB at 127.0.0.1:3306 (user root) is not reachable: ${(error as Error).message}`);
    }
    await admin.exec(`CREATE DATABASE ${name} CHARACTER SET utf8mb4 COLLATE utf8mb4_bin`);
    await admin.close();
    writer = await mysqlWriter(name);
    dbUrl = `mysql://root@127.0.0.1:3306/${name}`;
    dropDatabase = async () => {
      const a = await mysqlWriter(undefined);
      await a.exec(`DROP DATABASE IF EXISTS ${name}`);
      await a.close();
    };
  }

  const tables = options.nestedGroups === false ? TABLES : [...TABLES, NESTED_GROUPS_TABLE];
  for (const table of tables) {
    for (const statement of createTableStatements(dialect, table, prefix, options.listenerIndexes !== false)) {
      await writer.exec(statement);
    }
  }
  const q = (s: string): string => quoteIdent(dialect, s);
  const t = (s: string): string => q(prefix + s);
  let model = emptyModel();
  const mimeIds = new Map<string, number>();
  const storageOf = new Map<string, number>();
  const storageKind = new Map<string, 'home' | 'object'>();
  let stimeCounter = 0;
  let externalTables = false;

  const mimeId = async (mimetype: string): Promise<number> => {
    const known = mimeIds.get(mimetype);
    if (known !== undefined) return known;
    const id = await writer.insert(`INSERT INTO ${t('mimetypes')} (${q('mimetype')}) VALUES (?)`, [mimetype], 'id');
    mimeIds.set(mimetype, id);
    return id;
  };

  /**
   * The host's Propagator (reference §1.1): every ancestor folder of `path`, up to the storage
   * root, gets a new etag (one value for all, as one propagation writes). Called once per
   * change, from the deepest node it created, moved or deleted: that covers every folder made
   * on the way too.
   */
  const propagate = async (storage: number, path: string): Promise<void> => {
    const ancestors: string[] = [];
    for (let current = path; current !== '';) {
      current = dirname(current) === '.' ? '' : dirname(current);
      ancestors.push(current);
    }
    if (ancestors.length === 0) return;
    await writer.exec(
      `UPDATE ${t('filecache')} SET ${q('etag')} = ? WHERE ${q('storage')} = ? AND ${q('path_hash')} IN (${ancestors.map(() => '?').join(', ')})`,
      [randomBytes(8).toString('hex'), storage, ...ancestors.map(md5)],
    );
  };

  const insertNode = async (
    storage: number,
    path: string,
    parent: number,
    mimetype: string,
    permissions: number,
    size = 0,
    mtime = BASE_TIME,
  ): Promise<number> => {
    const nodeName = path === '' ? '' : basename(path);
    const part = mimetype.split('/')[0] ?? mimetype;
    const fileid = await writer.insert(
      `INSERT INTO ${t('filecache')} (${['storage', 'path', 'path_hash', 'parent', 'name', 'mimetype', 'mimepart', 'size', 'mtime', 'storage_mtime', 'etag', 'permissions'].map(q).join(', ')}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [storage, path, md5(path), parent, nodeName, await mimeId(mimetype), await mimeId(part), size, mtime, mtime, randomBytes(8).toString('hex'), permissions],
      'fileid',
    );
    model.files.set(fileid, { fileid, storage, path, name: nodeName, mimetype, permissions });
    return fileid;
  };

  const findNode = (storage: number, path: string): ModelFile | undefined => {
    for (const f of model.files.values()) if (f.storage === storage && f.path === path) return f;
    return undefined;
  };

  const ensureStorage = async (uid: string): Promise<number> => {
    const known = storageOf.get(uid);
    if (known !== undefined) return known;
    const kind = storageKind.get(uid) ?? 'home';
    const id = storedStorageId(kind === 'home' ? `home::${uid}` : `object::user:${uid}`);
    const numeric = await writer.insert(`INSERT INTO ${t('storages')} (${q('id')}, ${q('available')}) VALUES (?, 1)`, [id], 'numeric_id');
    storageOf.set(uid, numeric);
    model.storages.set(numeric, id);
    const root = await insertNode(numeric, '', -1, MIME_FOLDER, 31);
    await insertNode(numeric, 'files', root, MIME_FOLDER, 31);
    return numeric;
  };

  /** Creates every missing folder of `path` (relative to the storage root) and returns the deepest. */
  const ensureFolders = async (storage: number, path: string, permissions = 31): Promise<number> => {
    const segments = path.split('/').filter((s) => s !== '');
    let current = findNode(storage, '');
    if (current === undefined) throw new Error('storage without root');
    let soFar = '';
    for (const segment of segments) {
      soFar = soFar === '' ? segment : `${soFar}/${segment}`;
      const existing = findNode(storage, soFar);
      if (existing !== undefined) {
        current = existing;
        continue;
      }
      const id = await insertNode(storage, soFar, current.fileid, MIME_FOLDER, permissions);
      current = model.files.get(id);
      if (current === undefined) throw new Error('folder vanished');
    }
    return current.fileid;
  };

  const addNodeUnder = async (
    owner: string,
    storagePath: string,
    mimetype: string,
    permissions: number,
    size: number,
    mtime: number,
    propagating = true,
  ): Promise<number> => {
    const storage = await ensureStorage(owner);
    const existing = findNode(storage, storagePath);
    if (existing !== undefined) return existing.fileid;
    const parent = await ensureFolders(storage, dirname(storagePath) === '.' ? '' : dirname(storagePath));
    const id = await insertNode(storage, storagePath, parent, mimetype, permissions, size, mtime);
    if (propagating) await propagate(storage, storagePath);
    return id;
  };

  // circles: 31-character single ids, as `ManagedModel::ID_LENGTH` makes them.
  let circles = 0;
  const newCircleId = (): string => {
    circles += 1;
    return `t${String(circles).padStart(30, '0')}`;
  };
  const insertCircle = async (id: string, name: string, displayName: string, config: number, source: number): Promise<void> => {
    const cols = ['unique_id', 'name', 'display_name', 'config', 'source'];
    await writer.exec(`INSERT INTO ${t('circles_circle')} (${cols.map(q).join(', ')}) VALUES (?, ?, ?, ?, ?)`, [id, name, displayName, config, source]);
  };
  const insertMember = async (circle: string, single: string, userId: string, userType: number, level: number, status: string): Promise<void> => {
    const cols = ['circle_id', 'single_id', 'member_id', 'user_id', 'user_type', 'instance', 'level', 'status'];
    await writer.exec(`INSERT INTO ${t('circles_member')} (${cols.map(q).join(', ')}) VALUES (?, ?, ?, ?, ?, '', ?, ?)`, [
      circle,
      single,
      newCircleId(),
      userId,
      userType,
      level,
      status,
    ]);
  };
  const insertMembership = async (circle: string, single: string, level: number, first: string, last: string, path: readonly string[]): Promise<void> => {
    const cols = ['circle_id', 'single_id', 'level', 'inheritance_first', 'inheritance_last', 'inheritance_depth', 'inheritance_path'];
    await writer.exec(`INSERT INTO ${t('circles_membership')} (${cols.map(q).join(', ')}) VALUES (?, ?, ?, ?, ?, ?, ?)`, [
      circle,
      single,
      level,
      first,
      last,
      path.length,
      JSON.stringify(path),
    ]);
  };
  const singleIds = new Map<string, string>();
  const teamUsers = new Map<string, { uid: string; single: string; via: string | null }[]>();
  /** A user's personal circle, made when first needed (circles makes it when the account is created). */
  const singleOf = async (uid: string): Promise<string> => {
    const known = singleIds.get(uid);
    if (known !== undefined) return known;
    const id = newCircleId();
    singleIds.set(uid, id);
    await insertCircle(id, `user:${uid}:${id}`, uid, 1, 1);
    await insertMember(id, id, uid, 1, 9, 'Member');
    await insertMembership(id, id, 9, id, id, [id]);
    // circles caches it as a preference on first use (FederatedUserService::getLocalFederatedUser).
    await fixture.setUserPreference(uid, 'circles', 'userSingleId', id);
    return id;
  };
  const upsert = async (table: string, keys: Record<string, string>, value: string): Promise<void> => {
    const cols = Object.keys(keys);
    await writer.exec(`DELETE FROM ${t(table)} WHERE ${cols.map((k) => `${q(k)} = ?`).join(' AND ')}`, Object.values(keys));
    await writer.exec(`INSERT INTO ${t(table)} (${[...cols, 'configvalue'].map(q).join(', ')}) VALUES (${[...cols, 'v'].map(() => '?').join(', ')})`, [
      ...Object.values(keys),
      value,
    ]);
  };

  const fixture: HostFixture = {
    dialect,
    dbUrl,
    prefix,
    get model() {
      return model;
    },
    async addUser(uid, o = {}) {
      let password = o.storedPassword ?? '';
      if (o.password !== undefined && o.storedPassword === undefined) {
        if (o.hash === 'bcrypt') {
          password = `1|${(await bcrypt.hash(o.password, 10)).replace(/^\$2[ab]\$/, '$2y$')}`;
        } else {
          const encoded = await argon2id({
            password: o.password,
            salt: randomBytes(16),
            parallelism: 1,
            iterations: 4,
            memorySize: 65536,
            hashLength: 32,
            outputType: 'encoded',
          });
          password = `3|${encoded}`;
        }
      }
      await writer.exec(`INSERT INTO ${t('users')} (${['uid', 'displayname', 'password', 'uid_lower'].map(q).join(', ')}) VALUES (?, ?, ?, ?)`, [
        uid,
        o.displayName ?? null,
        password,
        uid.toLowerCase(),
      ]);
      model.users.set(uid, { uid, enabled: o.enabled !== false, lang: o.lang ?? null, displayName: o.displayName ?? null });
      storageKind.set(uid, o.storage ?? 'home');
      if (o.enabled === false) await fixture.setUserPreference(uid, 'core', 'enabled', 'false');
      if (o.lang !== undefined) await fixture.setUserPreference(uid, 'core', 'lang', o.lang);
      if (o.email !== undefined) await fixture.setUserPreference(uid, 'settings', 'email', o.email);
      if (o.loggedIn !== false) await ensureStorage(uid);
    },
    async addGroup(gid, members) {
      if (!model.groups.has(gid)) {
        await writer.exec(`INSERT INTO ${t('groups')} (${q('gid')}, ${q('displayname')}) VALUES (?, ?)`, [gid, gid]);
        model.groups.set(gid, new Set());
      }
      const set = model.groups.get(gid) ?? new Set<string>();
      for (const uid of members) {
        if (set.has(uid)) continue;
        await writer.exec(`INSERT INTO ${t('group_user')} (${q('gid')}, ${q('uid')}) VALUES (?, ?)`, [gid, uid]);
        set.add(uid);
      }
    },
    async addSubgroup(parent, child) {
      if (options.nestedGroups === false) throw new Error('this fixture has no group_group table');
      for (const gid of [parent, child]) if (!model.groups.has(gid)) await fixture.addGroup(gid, []);
      await writer.exec(`INSERT INTO ${t('group_group')} (${q('parent_gid')}, ${q('child_gid')}) VALUES (?, ?)`, [parent, child]);
    },
    async addFolder(owner, path, o = {}) {
      const storage = await ensureStorage(owner);
      const storagePath = `files/${path.replace(/^\/+|\/+$/g, '')}`;
      const created = findNode(storage, storagePath) === undefined;
      const id = await ensureFolders(storage, storagePath, o.permissions ?? 31);
      if (created) await propagate(storage, storagePath);
      return id;
    },
    async addFile(owner, path, o = {}) {
      const storagePath = `files/${path.replace(/^\/+/, '')}`;
      return addNodeUnder(owner, storagePath, o.mimetype ?? mimeOf(path), o.permissions ?? 27, o.size ?? 1234, o.mtime ?? BASE_TIME, o.propagate !== false);
    },
    async addTrashFile(owner, name) {
      return addNodeUnder(owner, `files_trashbin/files/${name}.d${BASE_TIME}`, mimeOf(name), 27, 1234, BASE_TIME);
    },
    async addVersionFile(owner, name) {
      return addNodeUnder(owner, `files_versions/${name}.v${BASE_TIME}`, mimeOf(name), 27, 1234, BASE_TIME);
    },
    async moveNode(owner, fileId, newPath, o = {}) {
      const node = model.files.get(fileId);
      if (node === undefined) throw new Error(`no node ${fileId}`);
      const storage = await ensureStorage(owner);
      const target = newPath.startsWith('files') ? newPath : `files/${newPath.replace(/^\/+/, '')}`;
      const parent = await ensureFolders(storage, dirname(target));
      const oldPath = node.path;
      for (const f of [...model.files.values()]) {
        if (f.storage !== node.storage || (f.fileid !== fileId && !f.path.startsWith(`${oldPath}/`))) continue;
        const path = target + f.path.slice(oldPath.length);
        const moved = { ...f, path, name: basename(path), storage };
        const params: unknown[] = [path, md5(path), moved.name, storage];
        let sql = `UPDATE ${t('filecache')} SET ${q('path')} = ?, ${q('path_hash')} = ?, ${q('name')} = ?, ${q('storage')} = ?`;
        if (f.fileid === fileId) {
          sql += `, ${q('parent')} = ?`;
          params.push(parent);
        }
        await writer.exec(`${sql} WHERE ${q('fileid')} = ?`, [...params, f.fileid]);
        model.files.set(f.fileid, moved);
      }
      // The host propagates from the old place and the new one.
      if (o.propagate !== false) {
        await propagate(node.storage, oldPath);
        await propagate(storage, target);
      }
    },
    async deleteNode(fileId, o = {}) {
      const node = model.files.get(fileId);
      if (node === undefined) throw new Error(`no node ${fileId}`);
      for (const f of [...model.files.values()]) {
        if (f.storage !== node.storage || (f.fileid !== fileId && !f.path.startsWith(`${node.path}/`))) continue;
        await writer.exec(`DELETE FROM ${t('filecache')} WHERE ${q('fileid')} = ?`, [f.fileid]);
        model.files.delete(f.fileid);
      }
      if (o.propagate !== false) await propagate(node.storage, node.path);
    },
    async addMount(user, mountPoint, rootFileId, o = {}) {
      const root = model.files.get(rootFileId);
      if (root === undefined) throw new Error(`no node ${rootFileId} for the mount ${mountPoint}`);
      await writer.exec(
        `INSERT INTO ${t('mounts')} (${['storage_id', 'root_id', 'user_id', 'mount_point', 'mount_point_hash', 'mount_id', 'mount_provider_class'].map(q).join(', ')}) VALUES (?, ?, ?, ?, ?, ?, ?)`,
        [root.storage, rootFileId, user, mountPoint, await mountPointHash(mountPoint), o.mountId ?? null, o.provider ?? SHARE_MOUNT_PROVIDER],
      );
    },
    async share(o) {
      const node = model.files.get(o.fileId);
      const itemType = node?.mimetype === MIME_FOLDER ? 'folder' : 'file';
      stimeCounter += 1;
      const stime = o.stime ?? BASE_TIME + stimeCounter;
      const shareType = SHARE_TYPES[o.type];
      const target = o.target ?? `/${node?.name ?? String(o.fileId)}`;
      // Read-only, as the spec asks administrators to share archive files.
      const permissions = o.permissions ?? 1;
      const accepted = o.accepted ?? 1;
      const shareWith = o.with ?? null;
      const token = o.type === 'link' || o.type === 'email' ? randomBytes(8).toString('hex') : null;
      const cols = [
        'share_type',
        'share_with',
        'uid_owner',
        'uid_initiator',
        'parent',
        'item_type',
        'item_source',
        'file_source',
        'file_target',
        'permissions',
        'stime',
        'accepted',
        'expiration',
        'token',
        'mail_send',
      ];
      const id = await writer.insert(
        `INSERT INTO ${t('share')} (${cols.map(q).join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`,
        [
          shareType,
          shareWith,
          o.owner,
          o.initiator ?? o.owner,
          o.parent ?? null,
          itemType,
          String(o.fileId),
          o.fileId,
          target,
          permissions,
          stime,
          accepted,
          o.expiration ?? null,
          token,
          0,
        ],
        'id',
      );
      model.shares.set(id, {
        id,
        shareType,
        shareWith,
        owner: o.owner,
        initiator: o.initiator ?? o.owner,
        parent: o.parent ?? null,
        fileSource: o.fileId,
        itemType,
        target,
        permissions,
        stime,
        accepted,
        expiration: o.expiration ?? null,
      });
      return id;
    },
    async addTeam(name, o) {
      const id = newCircleId();
      await insertCircle(id, name, name, 0, 16);
      const users: { uid: string; single: string; via: string | null }[] = [];
      for (const uid of o.users ?? []) {
        const single = await singleOf(uid);
        await insertMember(id, single, uid, 1, 1, 'Member');
        users.push({ uid, single, via: null });
      }
      for (const uid of o.invited ?? []) await insertMember(id, await singleOf(uid), uid, 1, 0, 'Invited');
      for (const gid of o.groups ?? []) {
        const hidden = newCircleId();
        await insertCircle(hidden, `group:${gid}`, gid, 1540, 2);
        await insertMember(id, hidden, gid, 16, 1, 'Member');
        await insertMembership(id, hidden, 1, hidden, id, [hidden]);
        for (const uid of model.groups.get(gid) ?? []) {
          const single = await singleOf(uid);
          await insertMember(hidden, single, uid, 1, 1, 'Member');
          await insertMembership(hidden, single, 1, single, hidden, [single]);
          users.push({ uid, single, via: hidden });
        }
      }
      for (const sub of o.teams ?? []) {
        await insertMember(id, sub, sub, 16, 1, 'Member');
        await insertMembership(id, sub, 1, sub, id, [sub]);
        for (const user of teamUsers.get(sub) ?? []) if (user.via === null) users.push({ ...user, via: sub });
      }
      for (const user of users) {
        if (user.via === null) await insertMembership(id, user.single, 1, user.single, id, [user.single]);
        else await insertMembership(id, user.single, 1, user.via, user.via, [user.via, user.single]);
      }
      teamUsers.set(id, users);
      return id;
    },
    async teamShareChild(teamShareId, user, o) {
      const parent = model.shares.get(teamShareId);
      if (parent === undefined) throw new Error(`no team share ${teamShareId}`);
      return fixture.share({
        owner: parent.owner,
        initiator: parent.initiator ?? undefined,
        fileId: parent.fileSource,
        type: 'circle',
        with: await singleOf(user),
        parent: teamShareId,
        permissions: o.permissions ?? parent.permissions,
        target: o.target ?? parent.target,
      });
    },
    async overrideGroupShare(groupShareId, user, o) {
      const group = model.shares.get(groupShareId);
      if (group === undefined) throw new Error(`no group share ${groupShareId}`);
      for (const s of model.shares.values()) {
        if (s.shareType === 2 && s.parent === groupShareId && s.shareWith === user) {
          const updated = { ...s, permissions: o.permissions ?? s.permissions, accepted: o.accepted ?? s.accepted, target: o.target ?? s.target };
          await writer.exec(`UPDATE ${t('share')} SET ${q('permissions')} = ?, ${q('accepted')} = ?, ${q('file_target')} = ? WHERE ${q('id')} = ?`, [
            updated.permissions,
            updated.accepted,
            updated.target,
            s.id,
          ]);
          model.shares.set(s.id, updated);
          return s.id;
        }
      }
      const cols = [
        'share_type',
        'share_with',
        'uid_owner',
        'uid_initiator',
        'parent',
        'item_type',
        'item_source',
        'file_source',
        'file_target',
        'permissions',
        'stime',
        'accepted',
        'expiration',
        'mail_send',
      ];
      const row = {
        shareType: 2,
        shareWith: user,
        owner: group.owner,
        initiator: group.initiator,
        parent: groupShareId,
        itemType: group.itemType,
        fileSource: group.fileSource,
        target: o.target ?? group.target,
        permissions: o.permissions ?? group.permissions,
        stime: group.stime,
        accepted: o.accepted ?? 1,
        expiration: group.expiration,
      };
      const id = await writer.insert(
        `INSERT INTO ${t('share')} (${cols.map(q).join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`,
        [
          2,
          user,
          row.owner,
          row.initiator,
          groupShareId,
          row.itemType,
          String(row.fileSource),
          row.fileSource,
          row.target,
          row.permissions,
          row.stime,
          row.accepted,
          row.expiration,
          0,
        ],
        'id',
      );
      model.shares.set(id, { id, ...row });
      return id;
    },
    async addExternalStorage(o) {
      if (!externalTables) {
        for (const table of EXTERNAL_TABLES) for (const statement of createTableStatements(dialect, table, prefix, true)) await writer.exec(statement);
        externalTables = true;
        await fixture.setAppConfig('files_external', 'installed_version', '1.25.0');
        await fixture.setAppConfig('files_external', 'enabled', 'yes');
      }
      const mountId = await writer.insert(
        `INSERT INTO ${t('external_mounts')} (${['mount_point', 'storage_backend', 'auth_backend', 'priority', 'type'].map(q).join(', ')}) VALUES (?, ?, ?, 100, ?)`,
        [o.mountPoint, o.backend ?? 'local', o.auth ?? 'null::null', o.type ?? 1],
        'mount_id',
      );
      const applicable = async (type: number, value: string | null): Promise<void> => {
        await writer.exec(`INSERT INTO ${t('external_applicable')} (${['mount_id', 'type', 'value'].map(q).join(', ')}) VALUES (?, ?, ?)`, [
          mountId,
          type,
          value,
        ]);
      };
      for (const uid of o.users ?? []) await applicable(3, uid);
      for (const gid of o.groups ?? []) await applicable(2, gid);
      if ((o.users ?? []).length === 0 && (o.groups ?? []).length === 0) await applicable(1, null);
      await writer.exec(`INSERT INTO ${t('external_config')} (${['mount_id', 'key', 'value'].map(q).join(', ')}) VALUES (?, 'datadir', ?)`, [
        mountId,
        o.datadir,
      ]);
      for (const [key, value] of Object.entries(o.options ?? {}))
        await writer.exec(`INSERT INTO ${t('external_options')} (${['mount_id', 'key', 'value'].map(q).join(', ')}) VALUES (?, ?, ?)`, [mountId, key, value]);
      const id = localStorageId(o.datadir);
      const known = [...model.storages].find(([, sid]) => sid === id)?.[0];
      if (known !== undefined) return { mountId, storage: known };
      const storage = await writer.insert(`INSERT INTO ${t('storages')} (${q('id')}, ${q('available')}) VALUES (?, 1)`, [id], 'numeric_id');
      model.storages.set(storage, id);
      await insertNode(storage, '', -1, MIME_FOLDER, 31);
      return { mountId, storage };
    },
    async addExternalFile(storage, path) {
      const clean = path.replace(/^\/+/, '');
      const parent = await ensureFolders(storage, dirname(clean) === '.' ? '' : dirname(clean));
      const id = await insertNode(storage, clean, parent, mimeOf(clean), 27, 1234, BASE_TIME);
      await propagate(storage, clean);
      return id;
    },
    async setAppConfig(app, key, value) {
      await upsert('appconfig', { appid: app, configkey: key }, value);
      model.appConfig.set(configKey(app, key), value);
    },
    async setUserPreference(uid, app, key, value) {
      await upsert('preferences', { userid: uid, appid: app, configkey: key }, value);
      model.preferences.set(preferenceKey(uid, app, key), value);
      const user = model.users.get(uid);
      // The host compares with 'true': any other stored value disables the account.
      if (user !== undefined && app === 'core' && key === 'enabled') user.enabled = value === 'true';
      if (user !== undefined && app === 'core' && key === 'lang') user.lang = value;
    },
    async exec(sql, params = []) {
      await writer.exec(sql, params);
    },
    all: (sql, params = []) => writer.all(sql, params),
    async writeNextcloudDir(dir, extra = {}) {
      const config: Record<string, unknown> = {
        instanceid: 'ocdustest',
        passwordsalt: 'salt',
        secret: 'fixture-secret-0123456789abcdef',
        trusted_domains: ['localhost'],
        'overwrite.cli.url': 'http://localhost:8080',
        dbtableprefix: prefix,
        version: '33.0.0.0',
        installed: true,
      };
      if (dialect === 'sqlite' && sqliteFile !== null) {
        Object.assign(config, { dbtype: 'sqlite3', datadirectory: dirname(sqliteFile), dbname: basename(sqliteFile).replace(/\.db$/, '') });
      } else if (dialect === 'pgsql') {
        Object.assign(config, {
          dbtype: 'pgsql',
          dbhost: '127.0.0.1:5432',
          dbname: name,
          dbuser: 'postgres',
          dbpassword: '',
          datadirectory: join(dir, 'data'),
        });
      } else {
        Object.assign(config, {
          dbtype: 'mysql',
          dbhost: '127.0.0.1:3306',
          dbname: name,
          dbuser: 'root',
          dbpassword: '',
          datadirectory: join(dir, 'data'),
          'mysql.utf8mb4': true,
        });
      }
      Object.assign(config, extra);
      mkdirSync(join(dir, 'config'), { recursive: true });
      writeFileSync(join(dir, 'config', 'config.php'), `<?php\n$CONFIG = ${phpExport(config, '')};\n`);
    },
    async clear() {
      for (const table of tables) await writer.exec(`DELETE FROM ${t(table.name)}`);
      model = emptyModel();
      mimeIds.clear();
      storageOf.clear();
      storageKind.clear();
      singleIds.clear();
      teamUsers.clear();
      await installSharing();
    },
    async drop() {
      await writer.close();
      await dropDatabase();
    },
    async release() {
      await writer.close();
    },
  };
  // The installer enables files_sharing and circles (Teams); without these rows the host would not load the apps.
  const installSharing = async (): Promise<void> => {
    await fixture.setAppConfig('files_sharing', 'enabled', 'yes');
    await fixture.setAppConfig('circles', 'enabled', 'yes');
  };
  await installSharing();
  return fixture;
}

/** PHP's var_export layout, which is how the host writes config.php. */
export function phpExport(value: unknown, indent: string): string {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') return String(value);
  if (typeof value === 'string') return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
  const inner = `${indent}  `;
  const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value as Record<string, unknown>);
  const lines = entries.map(([k, v]) => `${inner}${Array.isArray(value) ? k : phpExport(k, '')} => ${phpExport(v, inner)},`);
  return `array (\n${lines.join('\n')}\n${indent})`;
}

/** The stored ids that make `uid` a home owner; re-exported for tests and benches. */
export { homeStorageIds };
