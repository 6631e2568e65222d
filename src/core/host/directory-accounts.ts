/**
 * The host's LDAP accounts as the directory answers for them now: Nextcloud's id mapping
 * (`oc_ldap_user_mapping`: uid → DN) and the directory's answer (directory.ts), for the
 * questions (questions.ts), the accounts (accounts.ts) and `who` (open-host.ts). A host without
 * user_ldap's tables, or without an active configuration, pays nothing past the first question:
 * the configuration is read once, ldapts never loaded.
 */
import type { HostStatements } from './db/host-statements.js';
import type { LocatedHost } from './db/locate.js';
import { Directory, readDirectoryConfigs, type DirectoryOptions, type DirectoryReport } from './directory.js';
import { rowText as text } from './rules/lookup-sql.js';
import type { DirectoryPresence } from './rules/directory-accounts.js';

/** Uids per mapping statement: well under every database's limit of parameters. */
const UIDS_PER_STATEMENT = 1_000;

export type DirectorySeams = Partial<Omit<DirectoryOptions, 'cacheTtlMs'>>;

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
    return directory.presence(mapped);
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
