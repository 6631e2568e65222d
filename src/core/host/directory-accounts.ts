/**
 * The host's LDAP accounts as the directory answers for them now: Nextcloud's id mapping
 * (`oc_ldap_user_mapping`: uid → DN) and the directory's answer (directory.ts), for the
 * questions (questions.ts), the accounts (accounts.ts) and `who` (open-host.ts). A host without
 * user_ldap's tables, or without an active configuration, pays nothing past the first question:
 * the configuration is read once, ldapts never loaded.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { HostStatements } from './db/host-statements.js';
import type { LocatedHost } from './db/locate.js';
import { Directory, readDirectoryConfigs, sanitizedDn, type DirectoryOptions, type DirectoryReport } from './directory.js';
import { rowText as text } from './rules/lookup-sql.js';
import type { DirectoryPresence } from './rules/directory-accounts.js';

/** Uids per mapping statement: well under every database's limit of parameters. */
const UIDS_PER_STATEMENT = 1_000;

export type DirectorySeams = Partial<Omit<DirectoryOptions, 'cacheTtlMs'>>;

type AccountAnswer = { readonly presence: DirectoryPresence; readonly groups: readonly string[] };

/**
 * The answers of one request: Nextcloud asks the directory about an account once per request
 * even without a memcache (user_ldap keeps them in the request's memory: `Group_LDAP`'s
 * `cachedGroupsByMember`, the user manager's loaded users), so a search that looks the user up
 * and then asks question 1 and 3 asks the directory once, not three times. Never longer than the
 * request: the next one asks again (or takes `ldapCacheTTL`'s answers where Nextcloud keeps them).
 */
const oneRequest = new AsyncLocalStorage<Map<string, Promise<AccountAnswer | null>>>();

/** Runs `work` as one request of the host: an account's directory answer is asked once within it. */
export function asOneRequest<T>(work: () => Promise<T>): Promise<T> {
  return oneRequest.getStore() === undefined ? oneRequest.run(new Map(), work) : work();
}

export class DirectoryAccounts {
  readonly #statements: HostStatements;
  readonly #located: Pick<LocatedHost, 'memcacheDistributed'>;
  readonly #hasMapping: boolean;
  readonly #seams: DirectorySeams;
  #directory: Promise<Directory | null> | null = null;

  constructor(statements: HostStatements, located: Pick<LocatedHost, 'memcacheDistributed'>, hasMapping: boolean, seams: DirectorySeams = {}) {
    this.#statements = statements;
    this.#located = located;
    this.#hasMapping = hasMapping;
    this.#seams = seams;
  }

  /** The directory of the active configurations, or null when there is none (read once). */
  directory(): Promise<Directory | null> {
    if (this.#directory === null) {
      const memcache = this.#located.memcacheDistributed;
      const reading = this.#hasMapping
        ? readDirectoryConfigs(this.#statements).then((configs) =>
            configs.length === 0 ? null : new Directory(configs, { ...this.#seams, cacheTtlMs: (c) => (memcache ? c.cacheTtlSeconds * 1000 : 0) }),
          )
        : Promise.resolve(null);
      this.#directory = reading;
      reading.catch(() => {
        if (this.#directory === reading) this.#directory = null;
      });
    }
    return this.#directory;
  }

  /**
   * The directory's answer for each of `uids` that user_ldap maps (others are absent: accounts
   * of the database or another backend). Empty without an active configuration.
   */
  async presenceOf(uids: readonly string[]): Promise<Map<string, DirectoryPresence>> {
    const directory = await this.directory();
    if (directory === null || uids.length === 0) return new Map();
    return directory.presence(await this.#mapped(uids));
  }

  /** uid → DN of the LDAP accounts among `uids` (not the database's). */
  async #mapped(uids: readonly string[]): Promise<{ uid: string; dn: string }[]> {
    const mapped: { uid: string; dn: string }[] = [];
    const unique = [...new Set(uids)];
    const p = this.#statements.prefix;
    for (let from = 0; from < unique.length; from += UIDS_PER_STATEMENT) {
      const chunk = unique.slice(from, from + UIDS_PER_STATEMENT);
      const rows = await this.#statements.query(
        // A uid of the database backend too is that backend's (the host asks it first, accounts.ts).
        `SELECT m.owncloud_name, m.ldap_dn FROM ${p}ldap_user_mapping m WHERE m.owncloud_name IN (${chunk.map(() => '?').join(', ')})` +
          ` AND NOT EXISTS (SELECT 1 FROM ${p}users u WHERE u.uid = m.owncloud_name)`,
        chunk,
      );
      for (const row of rows) {
        const uid = text(row.owncloud_name);
        const dn = text(row.ldap_dn);
        if (uid !== null && dn !== null) mapped.push({ uid, dn });
      }
    }
    return mapped;
  }

  /** Nextcloud names of mapped entries: `table`'s owncloud_name by sanitized DN. */
  async #namesOf(table: 'ldap_user_mapping' | 'ldap_group_mapping', dns: readonly string[]): Promise<Map<string, string>> {
    const names = new Map<string, string>();
    const unique = [...new Set(dns)];
    for (let from = 0; from < unique.length; from += UIDS_PER_STATEMENT) {
      const chunk = unique.slice(from, from + UIDS_PER_STATEMENT);
      const rows = await this.#statements.query(
        `SELECT owncloud_name, ldap_dn FROM ${this.#statements.prefix}${table} WHERE ldap_dn IN (${chunk.map(() => '?').join(', ')})`,
        chunk,
      );
      for (const row of rows) {
        const name = text(row.owncloud_name);
        const dn = text(row.ldap_dn);
        if (name !== null && dn !== null) names.set(sanitizedDn(dn), name);
      }
    }
    return names;
  }

  /**
   * An LDAP account as the directory answers for it now: present or not, and its LDAP groups
   * by their Nextcloud gids (groups user_ldap has not mapped yet cannot hold a share, and are
   * left out). Null for an account of the database or another backend, or without a directory.
   */
  async accountOf(uid: string): Promise<AccountAnswer | null> {
    const asked = oneRequest.getStore();
    const known = asked?.get(uid);
    if (known !== undefined) return known;
    const answer = this.accountsOf([uid]).then((all) => all.get(uid) ?? null);
    // A failed question is not kept: the next asks again.
    asked?.set(uid, answer);
    answer.catch(() => asked?.delete(uid));
    return answer;
  }

  /** `accountOf` for many accounts (`who`): the directory is asked for each at once. */
  async accountsOf(uids: readonly string[]): Promise<Map<string, { readonly presence: DirectoryPresence; readonly groups: readonly string[] }>> {
    const directory = await this.directory();
    const result = new Map<string, { presence: DirectoryPresence; groups: readonly string[] }>();
    if (directory === null || uids.length === 0) return result;
    const mapped = await this.#mapped(uids);
    const answers = await Promise.all(mapped.map(async (m) => ({ uid: m.uid, answer: await directory.account(m) })));
    const gids = await this.#namesOf(
      'ldap_group_mapping',
      answers.flatMap((a) => a.answer.groupDns),
    );
    for (const { uid, answer } of answers) {
      result.set(uid, { presence: answer.presence, groups: answer.groupDns.flatMap((dn) => gids.get(dn) ?? []) });
    }
    return result;
  }

  /**
   * `who`: the members of the LDAP groups among `gids`, as the directory names them now and
   * user_ldap maps them (members of nested groups too, where the configuration nests). Groups
   * the directory cannot be asked about have none: `who` can only omit through them.
   */
  async membersOf(gids: readonly string[]): Promise<Map<string, readonly string[]>> {
    const directory = await this.directory();
    const result = new Map<string, readonly string[]>();
    if (directory === null || gids.length === 0) return result;
    const unique = [...new Set(gids)];
    const rows = await this.#statements.query(
      `SELECT owncloud_name, ldap_dn FROM ${this.#statements.prefix}ldap_group_mapping WHERE owncloud_name IN (${unique.map(() => '?').join(', ')})`,
      unique,
    );
    for (const row of rows) {
      const gid = text(row.owncloud_name);
      const dn = text(row.ldap_dn);
      if (gid === null || dn === null) continue;
      const members = await directory.groupMembers(dn);
      if (members === null) continue;
      const byDn = await this.#namesOf('ldap_user_mapping', members.dns);
      const byUid = members.uids.length === 0 ? [] : (await this.#mapped(members.uids)).map((m) => m.uid);
      result.set(gid, [...new Set([...byDn.values(), ...byUid])].sort());
    }
    return result;
  }

  /** `who --all`: the LDAP groups the archive account's group shares go to. */
  async groupsSharedBy(owner: string): Promise<string[]> {
    if ((await this.directory()) === null) return [];
    const p = this.#statements.prefix;
    const rows = await this.#statements.query(
      `SELECT DISTINCT m.owncloud_name FROM ${p}share s JOIN ${p}ldap_group_mapping m ON m.owncloud_name = s.share_with WHERE s.uid_owner = ? AND s.share_type = 1`,
      [owner],
    );
    return rows.flatMap((r) => text(r.owncloud_name) ?? []);
  }

  /** `check` and `setup`: each active configuration, or an empty list. */
  async report(count: boolean): Promise<DirectoryReport[]> {
    const directory = await this.directory();
    return directory === null ? [] : directory.report(count);
  }

  async close(): Promise<void> {
    const directory = await this.#directory?.catch(() => null);
    await directory?.close();
  }
}
