/**
 * The host's e-mail login: a login that is not an account's uid may be the e-mail address of
 * exactly one account (`settings`/`email`, compared case-insensitively, as the host's login
 * does). Shared by `serve`'s authentication and the commands that name a user (`why`, `search`).
 */
import type { HostAccount, HostAdapter, SqlClient } from './types.js';

export interface EmailAccountRow {
  readonly uid: string;
  readonly password: string | null;
  [column: string]: unknown;
}

/** The `oc_users` accounts whose e-mail address is `email`, with their stored password hash. */
export async function accountsWithEmail(sql: SqlClient, email: string): Promise<EmailAccountRow[]> {
  return sql.query<EmailAccountRow>(
    `SELECT u.uid, u.password FROM ${sql.prefix}preferences p JOIN ${sql.prefix}users u ON u.uid = p.userid` +
      ` WHERE p.appid = 'settings' AND p.configkey = 'email' AND LOWER(p.configvalue) = ?`,
    [email.toLowerCase()],
  );
}

/** The account a login names: its uid (as `findAccount` resolves it), else the one account with that e-mail address. */
export async function accountOfLogin(host: HostAdapter, login: string): Promise<HostAccount | null> {
  const account = await host.findAccount(login);
  if (account !== null || !login.includes('@')) return account;
  const rows = await accountsWithEmail(host.sql, login);
  const only = rows.length === 1 ? rows[0] : undefined;
  return only === undefined ? null : host.findAccount(only.uid);
}
