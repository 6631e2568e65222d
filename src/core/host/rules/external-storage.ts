/**
 * External storage (files_external): files on a storage an administrator or a user mounted
 * into Files. The rule, written once, that the questions (questions.ts), the share rules'
 * `broken share` (share-rules.ts) and `who` (share-reach.ts) ask:
 *
 * Lets through: a file on a Local storage (backend `local`, no authentication, no placeholder
 * in its configuration) is the archive account's file when the storage is mounted for the
 * archive account; a user sees it at her own mount point of that storage (`/Ext/…`) when the
 * storage is mounted for her too: an applicable user, a direct member of an applicable group,
 * or every user (no user and no group, stored as one applicable row of type 1 without value),
 * as files_external's `DBConfigService::getMountsForUser` resolves it. `readonly` does not hide
 * anything (Nextcloud's `readonly` wrapper masks writing, keeps reading and sharing);
 * `enable_sharing` decides whether a share can be created on the storage, not whether an existing
 * one mounts (files_sharing's `SharedStorage::init` only looks the node up in the owner's
 * folders): a share of a folder on the storage mounts when its owner has the storage mounted.
 *
 * Blocks (never shown, said by `check` and `why`): storages whose files the database cannot
 * answer for: another backend (SMB, SFTP, S3, WebDAV… whose storage id and content depend on the
 * remote side), an authentication that brings the user's own or login credentials, a
 * configuration value with a placeholder (`$user`, `$home`: each user gets another storage),
 * and every storage while files_external is not enabled for everyone.
 *
 * `why` says nothing new for a file shown through it: the path is where the user sees it.
 */
import type { Dialect, SqlRow } from '../db/types.js';
import type { RowBranch } from './row-branch.js';
import { storedStorageId } from './storages.js';

/** A numeric column (drivers give numbers, bigints or strings). */
const num = (value: unknown): number => (typeof value === 'number' ? value : typeof value === 'bigint' || typeof value === 'string' ? Number(value) : 0);
/** A text column, or null. */
const text = (value: unknown): string | null => {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value;
  if (Buffer.isBuffer(value)) return value.toString('utf8');
  return typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean' ? String(value) : JSON.stringify(value);
};

/** files_external's applicable types (DBConfigService::APPLICABLE_TYPE_*). */
const APPLICABLE_GLOBAL = 1;
const APPLICABLE_GROUP = 2;
const APPLICABLE_USER = 3;

/** Why the database cannot answer for a storage's files. */
export type UndecidableReason = 'backend' | 'credentials' | 'placeholder' | 'no datadir';

export interface ExternalMount {
  readonly id: number;
  /** As stored: `/Ext`, relative to the user's files. */
  readonly mountPoint: string;
  readonly backend: string;
  readonly auth: string;
  /** 1 admin (global) mount, 2 personal mount. */
  readonly type: number;
  readonly users: readonly string[];
  readonly groups: readonly string[];
  /** No applicable user or group: mounted for every user. */
  readonly everyone: boolean;
  /** The stored storage id (`local::<datadir>/`, md5 past 64 characters), or null when undecidable. */
  readonly storageId: string | null;
  readonly undecidable: UndecidableReason | null;
  readonly readonly: boolean;
  readonly sharing: boolean;
}

export interface ExternalFacts {
  /** files_external enabled for everyone (`enabled` = 'yes'). */
  readonly enabled: boolean;
  readonly mounts: readonly ExternalMount[];
  /** The direct groups, among the applicable ones, of the accounts the statement asked about. */
  readonly groupsOf: ReadonlyMap<string, ReadonlySet<string>>;
}

/** Where a user sees an external storage: the storage and her mount point of it. */
export interface ExternalView {
  readonly storageId: string;
  readonly mountPoint: string;
  readonly mount: ExternalMount;
}

export const NO_EXTERNAL: ExternalFacts = { enabled: false, mounts: [], groupsOf: new Map() };

/** Local's storage id: `local::` and the datadir with `//` made `/` once and a trailing `/` (lib/private/Files/Storage/Local.php). */
export function localStorageId(datadir: string): string {
  let dir = datadir.replaceAll('//', '/');
  if (!dir.endsWith('/')) dir += '/';
  return storedStorageId(`local::${dir}`);
}

/** PHP's truthiness of a stored option: options are stored JSON-encoded (DBConfigService::setOption). */
function optionOn(raw: string | undefined, fallback: boolean): boolean {
  if (raw === undefined) return fallback;
  let value: unknown = raw;
  try {
    value = JSON.parse(raw);
  } catch {
    value = raw;
  }
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return value !== 0;
  if (typeof value === 'string') return value !== '' && value !== '0';
  return value !== null;
}

const quoted = (dialect: Dialect, column: string): string => (dialect === 'mysql' ? `\`${column}\`` : `"${column}"`);

/** `xy`: files_external's `installed_version` and `enabled` (its tables exist once it was installed). */
export function externalProbe(prefix: string): RowBranch {
  return {
    kind: 'xy',
    fills: { t1: 'configkey', t2: 'configvalue' },
    rest: `FROM ${prefix}appconfig WHERE appid = 'files_external' AND configkey IN ('installed_version', 'enabled')`,
  };
}

/**
 * The branches that read the external mounts: every mount, its applicable rows, configuration
 * and options (small tables), and the memberships of applicable groups for the accounts
 * `members` selects (a SQL condition on `gu.uid`, or null for all members).
 */
export function externalBranches(prefix: string, dialect: Dialect, members: string | null): RowBranch[] {
  const p = prefix;
  const key = quoted(dialect, 'key');
  const value = quoted(dialect, 'value');
  return [
    {
      kind: 'xm',
      fills: { a: 'm.mount_id', b: 'm.type', t1: 'm.mount_point', t2: 'm.storage_backend', t3: 'm.auth_backend' },
      rest: `FROM ${p}external_mounts m`,
    },
    { kind: 'xa', fills: { a: 'ea.mount_id', b: 'ea.type', t1: `ea.${value}` }, rest: `FROM ${p}external_applicable ea` },
    { kind: 'xc', fills: { a: 'ec.mount_id', t1: `ec.${key}`, t2: `ec.${value}` }, rest: `FROM ${p}external_config ec` },
    { kind: 'xo', fills: { a: 'eo.mount_id', t1: `eo.${key}`, t2: `eo.${value}` }, rest: `FROM ${p}external_options eo` },
    {
      kind: 'xg',
      fills: { t1: 'gu.gid', t2: 'gu.uid' },
      rest:
        `FROM ${p}group_user gu WHERE gu.gid IN (SELECT ga.${value} FROM ${p}external_applicable ga WHERE ga.type = ${APPLICABLE_GROUP})` +
        (members === null ? '' : ` AND ${members}`),
    },
  ];
}

/**
 * The numeric storages a Local mount can have, for the file scan: `local::` and the datadir with
 * or without a trailing `/` (the exact id, normalised, is decided in `externalFactsOf`). One `?`
 * per account in `accounts` twice: mounts for every user, for the accounts, for their groups.
 */
export function externalStorageSet(prefix: string, dialect: Dialect, accountCount: number): string {
  const p = prefix;
  const value = quoted(dialect, 'value');
  const key = quoted(dialect, 'key');
  const list = Array.from({ length: accountCount }, () => '?').join(', ');
  const cat = (...parts: string[]): string => (dialect === 'mysql' ? `CONCAT(${parts.join(', ')})` : parts.join(' || '));
  const applicable =
    `SELECT xa.mount_id FROM ${p}external_applicable xa WHERE xa.type = ${APPLICABLE_GLOBAL}` +
    ` OR (xa.type = ${APPLICABLE_USER} AND xa.${value} IN (${list}))` +
    ` OR (xa.type = ${APPLICABLE_GROUP} AND xa.${value} IN (SELECT xg.gid FROM ${p}group_user xg WHERE xg.uid IN (${list})))`;
  return (
    `SELECT xs.numeric_id FROM ${p}storages xs JOIN ${p}external_config xc ON xc.${key} = 'datadir'` +
    ` AND (xs.id = ${cat("'local::'", `xc.${value}`)} OR xs.id = ${cat("'local::'", `xc.${value}`, "'/'")})` +
    ` WHERE xc.mount_id IN (${applicable})`
  );
}

/** Raw external rows as a statement returns them. */
export interface ExternalRows {
  installed: boolean;
  enabled: string | null;
  readonly rows: SqlRow[];
}

export function externalRows(): ExternalRows {
  return { installed: false, enabled: null, rows: [] };
}

/** Keeps an `x*` row; false for a row of another kind. */
export function addExternalRow(row: SqlRow, into: ExternalRows): boolean {
  const kind = text(row.k);
  if (kind === null || !kind.startsWith('x') || kind.length !== 2) return false;
  if (kind === 'xy') {
    if (text(row.t1) === 'installed_version') into.installed = true;
    else into.enabled = text(row.t2);
    return true;
  }
  into.rows.push(row);
  return true;
}

/** The mounts, resolved as files_external reads them: applicable rows, configuration, options. */
export function externalFactsOf(raw: ExternalRows): ExternalFacts {
  const byId = new Map<number, { point: string; backend: string; auth: string; type: number }>();
  const users = new Map<number, string[]>();
  const groups = new Map<number, string[]>();
  const everyone = new Set<number>();
  const config = new Map<number, Map<string, string>>();
  const options = new Map<number, Map<string, string>>();
  const groupsOf = new Map<string, Set<string>>();
  const put = (map: Map<number, Map<string, string>>, id: number, k: string, v: string): void => {
    const m = map.get(id) ?? new Map<string, string>();
    m.set(k, v);
    map.set(id, m);
  };
  for (const row of raw.rows) {
    const id = num(row.a);
    switch (text(row.k)) {
      case 'xm':
        byId.set(id, { point: text(row.t1) ?? '', backend: text(row.t2) ?? '', auth: text(row.t3) ?? '', type: num(row.b) });
        break;
      case 'xa': {
        const type = num(row.b);
        const value = text(row.t1);
        if (type === APPLICABLE_GLOBAL) everyone.add(id);
        else if (type === APPLICABLE_USER && value !== null) users.set(id, [...(users.get(id) ?? []), value]);
        else if (type === APPLICABLE_GROUP && value !== null) groups.set(id, [...(groups.get(id) ?? []), value]);
        break;
      }
      case 'xc':
        put(config, id, text(row.t1) ?? '', text(row.t2) ?? '');
        break;
      case 'xo':
        put(options, id, text(row.t1) ?? '', text(row.t2) ?? '');
        break;
      case 'xg': {
        const uid = text(row.t2) ?? '';
        groupsOf.set(uid, (groupsOf.get(uid) ?? new Set<string>()).add(text(row.t1) ?? ''));
        break;
      }
      default:
        break;
    }
  }
  const mounts: ExternalMount[] = [];
  for (const [id, m] of [...byId].sort(([a], [b]) => a - b)) {
    const conf = config.get(id) ?? new Map<string, string>();
    const opts = options.get(id) ?? new Map<string, string>();
    const datadir = conf.get('datadir');
    let undecidable: UndecidableReason | null = null;
    if (m.backend !== 'local' && m.backend !== '\\OC\\Files\\Storage\\Local') undecidable = 'backend';
    else if (m.auth !== 'null::null') undecidable = 'credentials';
    else if ([...conf.values()].some((v) => v.includes('$'))) undecidable = 'placeholder';
    else if (datadir === undefined || datadir === '') undecidable = 'no datadir';
    const userList = users.get(id) ?? [];
    const groupList = groups.get(id) ?? [];
    mounts.push({
      id,
      mountPoint: `/${m.point.replace(/^\/+|\/+$/g, '')}`,
      backend: m.backend,
      auth: m.auth,
      type: m.type,
      users: userList,
      groups: groupList,
      everyone: everyone.has(id),
      storageId: undecidable === null && datadir !== undefined ? localStorageId(datadir) : null,
      undecidable,
      // StorageConfig starts with enable_sharing false; SetupManager reads readonly with default false.
      readonly: optionOn(opts.get('readonly'), false),
      sharing: optionOn(opts.get('enable_sharing'), false),
    });
  }
  return { enabled: raw.installed && raw.enabled === 'yes', mounts, groupsOf };
}

/** Whether files_external mounts `mount` for `uid` (DBConfigService::getMountsForUser: every user, the user, or one of her direct groups). */
export function mountedFor(facts: ExternalFacts, mount: ExternalMount, uid: string): boolean {
  if (!facts.enabled) return false;
  if (mount.everyone || mount.users.includes(uid)) return true;
  const mine = facts.groupsOf.get(uid);
  return mine !== undefined && mount.groups.some((g) => mine.has(g));
}

/**
 * Where `uid` sees the storages the product can answer for. Two mounts at one mount point:
 * Nextcloud keeps one (the mount manager's last), which the database does not order, so
 * neither is taken (the side that cannot leak).
 */
export function externalViews(facts: ExternalFacts, uid: string): ExternalView[] {
  const mine = facts.mounts.filter((m) => mountedFor(facts, m, uid));
  const points = new Map<string, number>();
  for (const m of mine) points.set(m.mountPoint, (points.get(m.mountPoint) ?? 0) + 1);
  return mine
    .filter((m) => m.storageId !== null && (points.get(m.mountPoint) ?? 0) === 1)
    .map((m) => ({ storageId: m.storageId ?? '', mountPoint: m.mountPoint, mount: m }));
}

/** The stored storage ids mounted for `uid` that the product answers for. */
export function externalStorageIds(facts: ExternalFacts, uid: string): Set<string> {
  return new Set(externalViews(facts, uid).map((v) => v.storageId));
}

/** An external storage whose files the database cannot answer for, as `check` names it. */
export interface UnreadableStorage {
  readonly mountPoint: string;
  readonly reason: UndecidableReason;
}

/** The mounts of `uid` whose files the database cannot answer for (said by `check`). */
export function unreadableMounts(facts: ExternalFacts, uid: string): UnreadableStorage[] {
  return facts.mounts.flatMap((m) => (m.undecidable !== null && mountedFor(facts, m, uid) ? [{ mountPoint: m.mountPoint, reason: m.undecidable }] : []));
}

/** Where a file of an external storage appears under a view: `/Ext/a/b.pdf`; the storage's root is the mount point. */
export function externalPath(view: ExternalView, filePath: string): string {
  return filePath === '' ? view.mountPoint : `${view.mountPoint === '/' ? '' : view.mountPoint}/${filePath}`;
}
