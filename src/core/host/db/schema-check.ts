/** Confirms at open time that the tables and columns the adapter reads are there. */
import { DusError } from '../../errors.js';
import { msg } from '../../i18n/catalog.js';
import type { SqlClient } from './types.js';

export const REQUIRED_COLUMNS: Readonly<Record<string, readonly string[]>> = {
  filecache: ['fileid', 'storage', 'path', 'parent', 'name', 'mimetype', 'permissions'],
  storages: ['numeric_id', 'id'],
  mimetypes: ['id', 'mimetype'],
  share: [
    'id',
    'share_type',
    'share_with',
    'uid_owner',
    'uid_initiator',
    'parent',
    'item_type',
    'file_source',
    'file_target',
    'permissions',
    'stime',
    'accepted',
    'expiration',
  ],
  users: ['uid', 'uid_lower', 'displayname'],
  group_user: ['gid', 'uid'],
  preferences: ['userid', 'appid', 'configkey', 'configvalue'],
  appconfig: ['appid', 'configkey', 'configvalue'],
  // Teams: the circles app ships with the server and its migrations run at install, so its
  // tables are there even while it is disabled (rules/team-rules.ts).
  circles_circle: ['unique_id', 'display_name', 'source'],
  circles_member: ['single_id', 'circle_id', 'user_id', 'user_type', 'instance'],
  circles_membership: ['circle_id', 'single_id', 'inheritance_last', 'inheritance_depth'],
};

const probe = (prefix: string, table: string, columns: readonly string[]): string => `SELECT ${columns.join(', ')} FROM ${prefix}${table} WHERE 1 = 0`;

/** Returns whether NC34's nested groups table exists. Two round trips when all is well. */
export async function checkSchema(sql: SqlClient): Promise<{ nestedGroups: boolean }> {
  await columnsCheck(sql);
  try {
    await sql.query(probe(sql.prefix, 'group_group', ['parent_gid', 'child_gid']));
    return { nestedGroups: true };
  } catch {
    return { nestedGroups: false };
  }
}

async function columnsCheck(sql: SqlClient): Promise<void> {
  // One statement naming every column: a cross join of empty selections.
  const froms = Object.keys(REQUIRED_COLUMNS).map((table, i) => `${sql.prefix}${table} t${i}`);
  const cols = Object.values(REQUIRED_COLUMNS).flatMap((columns, i) => columns.map((c) => `t${i}.${c}`));
  try {
    await sql.query(`SELECT ${cols.join(', ')} FROM ${froms.join(', ')} WHERE 1 = 0`);
  } catch {
    await pinpoint(sql);
  }
}

async function pinpoint(sql: SqlClient): Promise<never> {
  for (const [table, columns] of Object.entries(REQUIRED_COLUMNS)) {
    try {
      await sql.query(`SELECT 1 AS x FROM ${sql.prefix}${table} WHERE 1 = 0`);
    } catch (error) {
      throw schemaError(sql, `the table ${sql.prefix}${table} is missing`, error);
    }
    for (const column of columns) {
      try {
        await sql.query(probe(sql.prefix, table, [column]));
      } catch (error) {
        throw schemaError(sql, `the table ${sql.prefix}${table} has no column ${column}`, error);
      }
    }
  }
  throw new DusError('host_schema', msg('host_schema.unreadable'));
}

const MISSING = /no such (table|column)|does not exist|doesn't exist|unknown column|invalid object/i;

function schemaError(sql: SqlClient, what: string, cause: unknown): DusError {
  const message = cause instanceof Error ? cause.message : String(cause);
  // A probe that failed for another reason (connection lost, permissions) is not a schema verdict.
  if (!MISSING.test(message)) {
    return new DusError('host_unreachable', msg('host_unreachable.checking', { detail: message }), { cause });
  }
  return new DusError(
    'host_schema',
    `This is not a Nextcloud database the adapter knows: ${what}. Check the table prefix (--table-prefix or dbtableprefix in config.php, now '${sql.prefix}') and that Nextcloud 33 or newer is installed there.`,
    { cause },
  );
}
