/**
 * The host's accounts, read the way Nextcloud's user management reads them: found through its
 * user backends, with the enabled flag, language, groups and admin right it gives them, and the
 * sync add-on's account. Kept apart from the file questions, which change with the sharing
 * rules instead.
 */
import { otherAccountLookup, type BackendTable } from './account-backends.js';
import type { HostStatements } from './db/host-statements.js';
import type { DirectoryAccounts } from './directory-accounts.js';
import { directoryLetsIn } from './rules/directory-accounts.js';
import type { LocatedHost } from './db/locate.js';
import { syncAccountOf } from './rules/lookup-rows.js';
import { rowText as text } from './rules/lookup-sql.js';
import { isEnabledAccount } from './rules/visibility.js';
import type { HostAccount } from './types.js';

/** What config.php says about languages (`force_language`, `default_language`). */
type HostLanguages = Pick<LocatedHost, 'forceLanguage' | 'defaultLanguage'>;

export class HostAccounts {
  readonly #statements: HostStatements;
  readonly #languages: HostLanguages;
  readonly #nestedGroups: boolean;
  readonly #otherBackends: readonly BackendTable[];
  readonly #directory: DirectoryAccounts;

  constructor(
    statements: HostStatements,
    languages: HostLanguages,
    nestedGroups: boolean,
    otherBackends: readonly BackendTable[],
    directory: DirectoryAccounts,
  ) {
    this.#statements = statements;
    this.#directory = directory;
    this.#languages = languages;
    this.#nestedGroups = nestedGroups;
    this.#otherBackends = otherBackends;
  }

  get #prefix(): string {
    return this.#statements.prefix;
  }

  /** Every account of the database backend and of the other backends present, unsorted (`who` for an external storage mounted for every user). */
  async everyAccount(): Promise<string[]> {
    const p = this.#prefix;
    const branches = [`SELECT uid FROM ${p}users`, ...this.#otherBackends.map((b) => `SELECT ${b.uidColumn} AS uid FROM ${p}${b.table}`)];
    const rows = await this.#statements.query(branches.join(' UNION '), []);
    return rows.flatMap((r) => {
      const uid = text(r.uid);
      return uid === null ? [] : [uid];
    });
  }

  async findAccount(uid: string): Promise<HostAccount | null> {
    const p = this.#prefix;
    const rows = await this.#statements.query(
      `SELECT u.uid, u.displayname,` +
        ` (SELECT pe.configvalue FROM ${p}preferences pe WHERE pe.userid = u.uid AND pe.appid = 'core' AND pe.configkey = 'enabled') AS enabled,` +
        ` (SELECT pl.configvalue FROM ${p}preferences pl WHERE pl.userid = u.uid AND pl.appid = 'core' AND pl.configkey = 'lang') AS lang,` +
        ` (SELECT pd.configvalue FROM ${p}preferences pd WHERE pd.userid = u.uid AND pd.appid = 'user_ldap' AND pd.configkey = 'isDeleted') AS ldap_deleted` +
        ` FROM ${p}users u WHERE u.uid_lower = ? OR u.uid = ?`,
      // The database backend resolves uids case-insensitively through uid_lower (reference §7).
      [uid.toLowerCase(), uid],
    );
    const row = rows.find((r) => text(r.uid) === uid) ?? rows[0];
    if (row !== undefined)
      return this.#account(
        text(row.uid) ?? uid,
        'database',
        text(row.displayname),
        isEnabledAccount(text(row.enabled), text(row.ldap_deleted)),
        text(row.lang),
      );
    return this.#otherBackendAccount(uid);
  }

  /** An account of user_ldap, user_saml or guests (reference §7), with its `core` preferences. */
  async #otherBackendAccount(uid: string): Promise<HostAccount | null> {
    const lookup = otherAccountLookup(this.#prefix, this.#otherBackends, uid);
    if (lookup === null) return null;
    const row = (await this.#statements.query(lookup.sql, lookup.params))[0];
    const found = text(row?.uid);
    const backend = this.#otherBackends.find((b) => b.backend === text(row?.b))?.backend;
    if (found === null || backend === undefined) return null;
    const preferences = await this.#statements.query(
      `SELECT appid, configkey, configvalue FROM ${this.#prefix}preferences WHERE userid = ?` +
        ` AND ((appid = 'core' AND configkey IN ('enabled', 'lang')) OR (appid = 'user_ldap' AND configkey = 'isDeleted'))`,
      [found],
    );
    const preference = (app: string, key: string): string | null =>
      text(preferences.find((p) => text(p.appid) === app && text(p.configkey) === key)?.configvalue);
    const enabled = isEnabledAccount(preference('core', 'enabled'), preference('user_ldap', 'isDeleted'));
    // An LDAP account logs in only while the directory finds its entry, whatever isDeleted says yet.
    // Asked as the questions ask (entry and groups, one round trip), so that a search's later question finds it kept where Nextcloud keeps answers.
    const directory = backend === 'ldap' ? ((await this.#directory.accountOf(found))?.presence ?? null) : null;
    return this.#account(found, backend, text(row?.displayname), enabled && directoryLetsIn(directory), preference('core', 'lang'), directory);
  }

  #account(
    uid: string,
    backend: HostAccount['backend'],
    displayName: string | null,
    enabled: boolean,
    lang: string | null,
    directory: HostAccount['directory'] = null,
  ): HostAccount {
    return { uid, enabled, language: this.languageOf(lang), displayName, backend, directory };
  }

  /** The language the host shows an account in: forced, else its own, else the default. */
  languageOf(lang: string | null): string | null {
    return this.#languages.forceLanguage ?? (lang !== null && lang !== '' ? lang : this.#languages.defaultLanguage);
  }

  async syncAccount(): Promise<string | null> {
    const rows = await this.#statements.query(`SELECT configvalue FROM ${this.#prefix}appconfig WHERE appid = ? AND configkey = ?`, [
      'docs_sync',
      'target_user',
    ]);
    return syncAccountOf(text(rows[0]?.configvalue));
  }

  async isAdmin(uid: string): Promise<boolean> {
    const rows = await this.#statements.query(`SELECT uid FROM ${this.#prefix}group_user WHERE gid = ? AND uid = ?`, ['admin', uid]);
    return rows.length > 0;
  }

  /** The accounts `groupsOf` names the group for: its direct members and, with nested groups, those of the groups under it. */
  async membersOf(gid: string): Promise<readonly string[]> {
    const p = this.#prefix;
    const statement = this.#nestedGroups
      ? // Seeded from columns, not a bare parameter: PostgreSQL types a recursive term by its seed.
        `WITH RECURSIVE g (gid) AS (SELECT parent_gid FROM ${p}group_group WHERE parent_gid = ? UNION SELECT gid FROM ${p}group_user WHERE gid = ?` +
        ` UNION SELECT gg.child_gid FROM ${p}group_group gg JOIN g ON gg.parent_gid = g.gid) SELECT DISTINCT uid FROM ${p}group_user WHERE gid IN (SELECT gid FROM g)`
      : `SELECT uid FROM ${p}group_user WHERE gid = ?`;
    const rows = await this.#statements.query(statement, this.#nestedGroups ? [gid, gid] : [gid]);
    return [...new Set(rows.map((r) => text(r.uid) ?? ''))].filter((u) => u !== '').sort();
  }

  async groupsOf(uid: string): Promise<readonly string[]> {
    const p = this.#prefix;
    const statement = this.#nestedGroups
      ? `WITH RECURSIVE ug (gid) AS (SELECT gid FROM ${p}group_user WHERE uid = ? UNION SELECT gg.parent_gid FROM ${p}group_group gg JOIN ug ON gg.child_gid = ug.gid) SELECT gid FROM ug`
      : `SELECT gid FROM ${p}group_user WHERE uid = ?`;
    const rows = await this.#statements.query(statement, [uid]);
    return [...new Set(rows.map((r) => text(r.gid) ?? ''))].filter((g) => g !== '').sort();
  }
}
