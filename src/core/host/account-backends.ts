/**
 * Accounts of the host's other user backends (reference §7): user_ldap, user_saml and guests
 * keep their accounts in tables of their own, not in `oc_users`. Which of those tables exist is
 * probed once when the host is opened; an account is looked up there only when `oc_users` does
 * not have it, in the order the host's user manager asks its backends (the database first).
 */
import type { SqlClient, SqlValue } from './db/types.js';

export type AccountBackend = 'database' | 'ldap' | 'saml' | 'guests';

export interface BackendTable {
  readonly backend: Exclude<AccountBackend, 'database'>;
  readonly table: string;
  readonly uidColumn: string;
  /** The backend resolves uids case-insensitively (through a `uid_lower` column). */
  readonly lowerColumn: string | null;
  readonly displayNameColumn: string | null;
}

const BACKEND_TABLES: readonly BackendTable[] = [
  // `owncloud_name` is the Nextcloud uid of an LDAP entry; user_ldap compares it exactly.
  { backend: 'ldap', table: 'ldap_user_mapping', uidColumn: 'owncloud_name', lowerColumn: null, displayNameColumn: null },
  { backend: 'saml', table: 'user_saml_users', uidColumn: 'uid', lowerColumn: null, displayNameColumn: 'displayname' },
  { backend: 'guests', table: 'guests_users', uidColumn: 'uid', lowerColumn: 'uid_lower', displayNameColumn: 'displayname' },
];

/** The other backends whose tables (with the columns read) exist in this database. */
export async function presentBackendTables(sql: SqlClient): Promise<BackendTable[]> {
  const present: BackendTable[] = [];
  for (const backend of BACKEND_TABLES) {
    const columns = [backend.uidColumn, backend.lowerColumn, backend.displayNameColumn].filter((c): c is string => c !== null);
    try {
      await sql.query(`SELECT ${columns.join(', ')} FROM ${sql.prefix}${backend.table} WHERE 1 = 0`);
      present.push(backend);
    } catch {
      // The app is not installed (or never created its table): no accounts there.
    }
  }
  return present;
}

/** One statement over every present backend table: rows `b` (backend), `uid`, `displayname`, in the backends' order. */
export function otherAccountLookup(prefix: string, backends: readonly BackendTable[], uid: string): { sql: string; params: SqlValue[] } | null {
  if (backends.length === 0) return null;
  const params: SqlValue[] = [];
  const branches = backends.map((b, order) => {
    params.push(b.lowerColumn === null ? uid : uid.toLowerCase());
    const display = b.displayNameColumn === null ? 'NULL' : b.displayNameColumn;
    return `SELECT ${order} AS o, '${b.backend}' AS b, ${b.uidColumn} AS uid, ${display} AS displayname FROM ${prefix}${b.table} WHERE ${b.lowerColumn ?? b.uidColumn} = ?`;
  });
  return { sql: `${branches.join(' UNION ALL ')} ORDER BY o`, params };
}
