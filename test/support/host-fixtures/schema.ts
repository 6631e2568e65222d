/**
 * The host's tables as reference/nextcloud-db.md §1 describes them, written here from those
 * facts for SQLite, PostgreSQL and MariaDB, with the host's indexes; brought to the schema a
 * real Nextcloud 34.0.1 creates (compared column by column, NOT NULL, defaults and indexes with a
 * SQLite install: the SQLite conformance suite repeats that comparison on every run).
 */
import type { FixtureDialect } from './index.js';

type ColumnType = 'bigauto' | 'bigint' | 'int' | 'smallint' | 'text' | 'datetime' | 'bool' | 'json' | `varchar(${number})`;

interface Column {
  readonly name: string;
  readonly type: ColumnType;
  readonly notNull?: boolean;
  readonly default?: string | number;
}

interface Index {
  readonly name: string;
  readonly columns: readonly string[];
  readonly unique?: boolean;
  /** Added by `occ db:add-missing-indices`; may be absent on a real install. */
  readonly listener?: boolean;
  /** MySQL prefix lengths, e.g. path(64). */
  readonly prefixLengths?: Readonly<Record<string, number>>;
  readonly skipOn?: readonly FixtureDialect[];
}

interface Table {
  readonly name: string;
  readonly columns: readonly Column[];
  readonly primaryKey?: readonly string[];
  readonly indexes?: readonly Index[];
}

const c = (name: string, type: ColumnType, notNull = false, def?: string | number): Column =>
  def === undefined ? { name, type, notNull } : { name, type, notNull, default: def };

export const TABLES: readonly Table[] = [
  {
    name: 'storages',
    columns: [c('numeric_id', 'bigauto'), c('id', 'varchar(64)'), c('available', 'int', true, 1), c('last_checked', 'int')],
    indexes: [{ name: 'storages_id_index', columns: ['id'], unique: true }],
  },
  {
    name: 'mimetypes',
    columns: [c('id', 'bigauto'), c('mimetype', 'varchar(255)', true, '')],
    indexes: [{ name: 'mimetype_id_index', columns: ['mimetype'], unique: true }],
  },
  {
    name: 'filecache',
    columns: [
      c('fileid', 'bigauto'),
      c('storage', 'bigint', true, 0),
      c('path', 'varchar(4000)'),
      c('path_hash', 'varchar(32)', true, ''),
      c('parent', 'bigint', true, 0),
      c('name', 'varchar(250)'),
      c('mimetype', 'bigint', true, 0),
      c('mimepart', 'bigint', true, 0),
      c('size', 'bigint', true, 0),
      c('mtime', 'bigint', true, 0),
      c('storage_mtime', 'bigint', true, 0),
      c('encrypted', 'int', true, 0),
      c('unencrypted_size', 'bigint', true, 0),
      c('etag', 'varchar(40)'),
      c('permissions', 'int', false, 0),
      c('checksum', 'varchar(255)'),
    ],
    indexes: [
      { name: 'fs_storage_path_hash', columns: ['storage', 'path_hash'], unique: true },
      { name: 'fs_parent_name_hash', columns: ['parent', 'name'] },
      { name: 'fs_storage_mimetype', columns: ['storage', 'mimetype'] },
      { name: 'fs_storage_mimepart', columns: ['storage', 'mimepart'] },
      { name: 'fs_storage_size', columns: ['storage', 'size', 'fileid'] },
      { name: 'fs_mtime', columns: ['mtime'], listener: true },
      { name: 'fs_size', columns: ['size'], listener: true },
      { name: 'fs_parent', columns: ['parent'], listener: true },
      { name: 'fs_name_hash', columns: ['name'], listener: true },
      { name: 'fs_storage_path_prefix', columns: ['storage', 'path'], listener: true, prefixLengths: { path: 64 }, skipOn: ['pgsql'] },
    ],
  },
  {
    name: 'filecache_extended',
    columns: [c('fileid', 'bigint', true), c('metadata_etag', 'varchar(40)'), c('creation_time', 'bigint', true, 0), c('upload_time', 'bigint', true, 0)],
    primaryKey: ['fileid'],
    indexes: [
      { name: 'fce_ctime_idx', columns: ['creation_time'] },
      { name: 'fce_utime_idx', columns: ['upload_time'] },
    ],
  },
  {
    name: 'share',
    columns: [
      c('id', 'bigauto'),
      c('share_type', 'smallint', true, 0),
      c('share_with', 'varchar(255)'),
      c('password', 'varchar(255)'),
      c('uid_owner', 'varchar(64)', true, ''),
      c('uid_initiator', 'varchar(64)'),
      c('parent', 'bigint'),
      c('item_type', 'varchar(64)', true, ''),
      c('item_source', 'varchar(255)'),
      c('item_target', 'varchar(255)'),
      c('file_source', 'bigint'),
      c('file_target', 'varchar(512)'),
      c('permissions', 'smallint', true, 0),
      c('stime', 'bigint', true, 0),
      c('accepted', 'smallint', true, 0),
      c('expiration', 'datetime'),
      c('token', 'varchar(32)'),
      c('mail_send', 'smallint', true, 0),
      c('share_name', 'varchar(64)'),
      c('password_by_talk', 'bool', false, 0),
      c('note', 'text'),
      c('hide_download', 'smallint', false, 0),
      c('label', 'varchar(255)'),
      c('attributes', 'json'),
      c('password_expiration_time', 'datetime'),
      c('reminder_sent', 'bool', false, 0),
    ],
    indexes: [
      { name: 'item_share_type_index', columns: ['item_type', 'share_type'] },
      { name: 'file_source_index', columns: ['file_source'] },
      { name: 'token_index', columns: ['token'] },
      { name: 'share_with_index', columns: ['share_with'] },
      { name: 'parent_index', columns: ['parent'] },
      { name: 'owner_index', columns: ['uid_owner'] },
      { name: 'initiator_index', columns: ['uid_initiator'] },
      { name: 'share_with_file_target_index', columns: ['share_with', 'file_target'], prefixLengths: { file_target: 128 } },
    ],
  },
  {
    name: 'users',
    columns: [
      c('uid', 'varchar(64)', true, ''),
      c('displayname', 'varchar(64)'),
      c('password', 'varchar(255)', true, ''),
      c('uid_lower', 'varchar(64)', false, ''),
    ],
    primaryKey: ['uid'],
    indexes: [{ name: 'user_uid_lower', columns: ['uid_lower'] }],
  },
  { name: 'accounts', columns: [c('uid', 'varchar(64)', true, ''), c('data', 'text', true, '')], primaryKey: ['uid'] },
  {
    name: 'groups',
    columns: [c('gid', 'varchar(64)', true, ''), c('displayname', 'varchar(255)', true, 'name')],
    primaryKey: ['gid'],
  },
  {
    name: 'group_user',
    columns: [c('gid', 'varchar(64)', true, ''), c('uid', 'varchar(64)', true, '')],
    primaryKey: ['gid', 'uid'],
    indexes: [{ name: 'gu_uid_index', columns: ['uid'] }],
  },
  {
    name: 'group_admin',
    columns: [c('gid', 'varchar(64)', true, ''), c('uid', 'varchar(64)', true, '')],
    primaryKey: ['gid', 'uid'],
    indexes: [{ name: 'group_admin_uid', columns: ['uid'] }],
  },
  {
    name: 'preferences',
    columns: [
      c('userid', 'varchar(64)', true, ''),
      c('appid', 'varchar(32)', true, ''),
      c('configkey', 'varchar(64)', true, ''),
      c('configvalue', 'text'),
      c('lazy', 'smallint', true, 0),
      c('type', 'smallint', true, 0),
      c('flags', 'int', true, 0),
      c('indexed', 'varchar(64)', false, ''),
    ],
    primaryKey: ['userid', 'appid', 'configkey'],
    indexes: [
      { name: 'prefs_uid_lazy_i', columns: ['userid', 'lazy'] },
      { name: 'prefs_app_key_ind_fl_i', columns: ['appid', 'configkey', 'indexed', 'flags'] },
    ],
  },
  {
    name: 'appconfig',
    columns: [
      c('appid', 'varchar(32)', true, ''),
      c('configkey', 'varchar(64)', true, ''),
      c('configvalue', 'text'),
      c('type', 'int', true, 2),
      c('lazy', 'smallint', true, 0),
    ],
    primaryKey: ['appid', 'configkey'],
    indexes: [{ name: 'ac_lazy_i', columns: ['lazy'] }],
  },
  {
    name: 'authtoken',
    columns: [
      c('id', 'bigauto'),
      c('uid', 'varchar(64)', true, ''),
      c('login_name', 'varchar(255)', true, ''),
      c('password', 'text'),
      c('name', 'text', true, ''),
      c('token', 'varchar(200)', true, ''),
      c('type', 'smallint', false, 0),
      c('remember', 'smallint', false, 0),
      c('last_activity', 'int', false, 0),
      c('last_check', 'int', false, 0),
      c('scope', 'text'),
      c('expires', 'int'),
      c('private_key', 'text'),
      c('public_key', 'text'),
      c('version', 'smallint', true, 1),
      c('password_invalid', 'bool', false, 0),
      c('password_hash', 'varchar(255)'),
    ],
    indexes: [
      { name: 'authtoken_token_index', columns: ['token'], unique: true },
      { name: 'authtoken_last_activity_idx', columns: ['last_activity'] },
      { name: 'authtoken_uid_index', columns: ['uid'] },
    ],
  },
  {
    // 34.0.1: mount_point_hash (xxh128 of mount_point, see mountPointHash) is required and part of
    // the unique key; mount_id and mount_provider_class have indexes of their own.
    name: 'mounts',
    columns: [
      c('id', 'bigauto'),
      c('storage_id', 'bigint', true),
      c('root_id', 'bigint', true),
      c('user_id', 'varchar(64)', true),
      c('mount_point', 'varchar(4000)', true),
      c('mount_id', 'bigint'),
      c('mount_provider_class', 'varchar(128)'),
      c('mount_point_hash', 'varchar(32)', true),
    ],
    indexes: [
      { name: 'mounts_storage_index', columns: ['storage_id'] },
      { name: 'mounts_root_index', columns: ['root_id'] },
      { name: 'mounts_mount_id_index', columns: ['mount_id'] },
      { name: 'mounts_class_index', columns: ['mount_provider_class'] },
      { name: 'mount_user_storage', columns: ['storage_id', 'user_id'] },
      { name: 'mounts_user_path_root_index', columns: ['user_id', 'mount_point_hash', 'root_id'], unique: true },
    ],
  },
  // Teams (the circles app, shipped and enabled by default): the tables its share provider reads.
  {
    name: 'circles_circle',
    columns: [
      c('id', 'bigauto'),
      c('unique_id', 'varchar(31)', true),
      c('name', 'varchar(127)', true),
      c('display_name', 'varchar(255)', false, ''),
      c('sanitized_name', 'varchar(127)', false, ''),
      c('instance', 'varchar(255)', false, ''),
      c('config', 'int'),
      c('source', 'int'),
      c('settings', 'text'),
      c('description', 'text'),
      c('creation', 'datetime'),
      c('contact_addressbook', 'int'),
      c('contact_groupname', 'varchar(127)'),
    ],
    indexes: [
      { name: 'circles_circle_unique_id', columns: ['unique_id'], unique: true },
      { name: 'circles_circle_config', columns: ['config'] },
      { name: 'circles_circle_instance', columns: ['instance'] },
      { name: 'circles_circle_source', columns: ['source'] },
      { name: 'circles_circle_sanitized', columns: ['sanitized_name'] },
      { name: 'dname', columns: ['display_name'] },
    ],
  },
  {
    name: 'circles_member',
    columns: [
      c('id', 'bigauto'),
      c('single_id', 'varchar(31)'),
      c('circle_id', 'varchar(31)', true),
      c('member_id', 'varchar(31)'),
      c('user_id', 'varchar(127)', true),
      c('user_type', 'smallint', true, 1),
      c('instance', 'varchar(255)', false, ''),
      c('invited_by', 'varchar(31)'),
      c('level', 'smallint', true),
      c('status', 'varchar(15)'),
      c('note', 'text'),
      c('cached_name', 'varchar(255)', false, ''),
      c('cached_update', 'datetime'),
      c('contact_id', 'varchar(127)'),
      c('contact_meta', 'text'),
      c('joined', 'datetime'),
    ],
    indexes: [
      { name: 'circles_member_cisiuiutil', columns: ['circle_id', 'single_id', 'user_id', 'user_type', 'instance', 'level'], prefixLengths: { instance: 64 } },
      { name: 'circles_member_cisi', columns: ['circle_id', 'single_id'] },
      { name: 'circles_member_contact', columns: ['contact_id'] },
    ],
  },
  {
    name: 'circles_membership',
    columns: [
      c('circle_id', 'varchar(31)', true),
      c('single_id', 'varchar(31)', true),
      c('level', 'int', true),
      c('inheritance_first', 'varchar(31)', true),
      c('inheritance_last', 'varchar(31)', true),
      c('inheritance_depth', 'int', true),
      c('inheritance_path', 'text', true),
    ],
    primaryKey: ['single_id', 'circle_id'],
    indexes: [
      { name: 'circles_membership_single', columns: ['single_id'] },
      { name: 'circles_membership_ifilci', columns: ['inheritance_first', 'inheritance_last', 'circle_id'] },
    ],
  },
  // The workflow engine's rules (File access control reads its own there) and the system tags they test.
  {
    name: 'flow_operations',
    columns: [
      c('id', 'bigauto'),
      c('class', 'varchar(256)', true, ''),
      c('name', 'varchar(256)', false, ''),
      c('checks', 'text'),
      c('operation', 'text'),
      c('entity', 'varchar(256)', true, 'OCA\\WorkflowEngine\\Entity\\File'),
      c('events', 'text', true, '[]'),
    ],
  },
  {
    name: 'flow_checks',
    columns: [
      c('id', 'bigauto'),
      c('class', 'varchar(256)', true, ''),
      c('operator', 'varchar(16)', true, ''),
      c('value', 'text'),
      c('hash', 'varchar(32)', true, ''),
    ],
    indexes: [{ name: 'flow_unique_hash', columns: ['hash'], unique: true }],
  },
  {
    name: 'flow_operations_scope',
    columns: [c('id', 'bigauto'), c('operation_id', 'int', true, 0), c('type', 'int', true, 0), c('value', 'varchar(64)', false, '')],
    indexes: [{ name: 'flow_unique_scope', columns: ['operation_id', 'type', 'value'], unique: true }],
  },
  {
    name: 'systemtag',
    columns: [
      c('id', 'bigauto'),
      c('name', 'varchar(64)', true, ''),
      c('visibility', 'smallint', true, 1),
      c('editable', 'smallint', true, 1),
      c('etag', 'varchar(32)'),
      c('color', 'varchar(6)'),
    ],
    indexes: [{ name: 'tag_ident', columns: ['name', 'visibility', 'editable'], unique: true }],
  },
  {
    name: 'systemtag_object_mapping',
    columns: [c('objectid', 'varchar(64)', true, ''), c('objecttype', 'varchar(64)', true, ''), c('systemtagid', 'bigint', true, 0)],
    primaryKey: ['objecttype', 'objectid', 'systemtagid'],
    indexes: [
      { name: 'systag_by_tagid', columns: ['systemtagid', 'objecttype'] },
      { name: 'systag_by_objectid', columns: ['objectid'] },
      { name: 'systag_objecttype', columns: ['objecttype'] },
    ],
  },
];

/**
 * Nested groups (reference §1.7). A real 34.0.1 install has no such table (checked on SQLite):
 * fixtures create it unless told otherwise because the product reads it where it exists.
 */
export const NESTED_GROUPS_TABLE: Table = {
  name: 'group_group',
  columns: [c('parent_gid', 'varchar(64)', true), c('child_gid', 'varchar(64)', true)],
  primaryKey: ['parent_gid', 'child_gid'],
  indexes: [{ name: 'gg_child_idx', columns: ['child_gid'] }],
};

/**
 * files_external's tables (its migration Version1011Date20200630192246): created only when a
 * fixture adds an external storage, as a real install has them only once the app was enabled.
 */
export const EXTERNAL_TABLES: readonly Table[] = [
  {
    name: 'external_mounts',
    columns: [
      c('mount_id', 'bigauto', true),
      c('mount_point', 'varchar(128)', true),
      c('storage_backend', 'varchar(64)', true),
      c('auth_backend', 'varchar(64)', true),
      c('priority', 'int', true, 100),
      c('type', 'int', true),
    ],
  },
  {
    name: 'external_applicable',
    columns: [c('applicable_id', 'bigauto', true), c('mount_id', 'bigint', true), c('type', 'int', true), c('value', 'varchar(64)')],
  },
  {
    name: 'external_config',
    columns: [c('config_id', 'bigauto', true), c('mount_id', 'bigint', true), c('key', 'varchar(64)', true), c('value', 'varchar(4000)')],
  },
  {
    name: 'external_options',
    columns: [c('option_id', 'bigauto', true), c('mount_id', 'bigint', true), c('key', 'varchar(64)', true), c('value', 'varchar(256)')],
  },
];

export function quoteIdent(dialect: FixtureDialect, name: string): string {
  return dialect === 'mysql' ? `\`${name}\`` : `"${name}"`;
}

function columnSql(dialect: FixtureDialect, col: Column): string {
  const q = quoteIdent(dialect, col.name);
  if (col.type === 'bigauto') {
    if (dialect === 'sqlite') return `${q} INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL`;
    if (dialect === 'pgsql') return `${q} BIGSERIAL PRIMARY KEY`;
    return `${q} BIGINT UNSIGNED AUTO_INCREMENT PRIMARY KEY`;
  }
  let type: string;
  switch (col.type) {
    case 'bigint':
      type = 'BIGINT';
      break;
    case 'int':
      type = dialect === 'sqlite' ? 'INTEGER' : 'INT';
      break;
    case 'smallint':
      type = 'SMALLINT';
      break;
    case 'text':
      type = dialect === 'mysql' ? 'LONGTEXT' : 'TEXT';
      break;
    case 'datetime':
      type = dialect === 'pgsql' ? 'TIMESTAMP(0) WITHOUT TIME ZONE' : 'DATETIME';
      break;
    case 'bool':
      type = dialect === 'pgsql' ? 'BOOLEAN' : dialect === 'mysql' ? 'TINYINT(1)' : 'BOOLEAN';
      break;
    case 'json':
      type = dialect === 'pgsql' ? 'JSON' : dialect === 'mysql' ? 'LONGTEXT' : 'CLOB';
      break;
    default:
      type = col.type.toUpperCase();
  }
  let sql = `${q} ${type}`;
  if (col.notNull) sql += ' NOT NULL';
  if (col.default !== undefined) {
    const d = col.default;
    sql += ` DEFAULT ${col.type === 'bool' && dialect === 'pgsql' ? (d === 0 ? 'false' : 'true') : typeof d === 'number' ? String(d) : `'${d}'`}`;
  }
  return sql;
}

export function createTableStatements(dialect: FixtureDialect, table: Table, prefix: string, withListenerIndexes: boolean): string[] {
  const name = quoteIdent(dialect, prefix + table.name);
  const parts = table.columns.map((col) => columnSql(dialect, col));
  if (table.primaryKey !== undefined) parts.push(`PRIMARY KEY (${table.primaryKey.map((k) => quoteIdent(dialect, k)).join(', ')})`);
  const tail = dialect === 'mysql' ? ' ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin ROW_FORMAT=DYNAMIC' : '';
  const statements = [`CREATE TABLE ${name} (${parts.join(', ')})${tail}`];
  for (const index of table.indexes ?? []) {
    if (index.listener === true && !withListenerIndexes) continue;
    if (index.skipOn?.includes(dialect) === true) continue;
    const cols = index.columns
      .map((col) => {
        const len = index.prefixLengths?.[col];
        return dialect === 'mysql' && len !== undefined ? `${quoteIdent(dialect, col)}(${len})` : quoteIdent(dialect, col);
      })
      .join(', ');
    const indexName = dialect === 'mysql' ? quoteIdent(dialect, index.name) : quoteIdent(dialect, `${prefix}${index.name}`);
    statements.push(`CREATE ${index.unique === true ? 'UNIQUE ' : ''}INDEX ${indexName} ON ${name} (${cols})`);
  }
  return statements;
}
