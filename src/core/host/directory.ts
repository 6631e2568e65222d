/**
 * The directory behind user_ldap: where Nextcloud's configuration says it is, and the few
 * questions the product asks it (is an account's entry still there; the check's counts). Asked
 * read-only, bound as the configured agent, with Nextcloud's own filters and bases, so that an
 * account gone from the directory is refused from the moment the directory says so, as
 * Nextcloud refuses its login, not only once user_ldap marks it `isDeleted`
 * (docs/host-adapter.md, "Directory accounts"). ldapts is loaded only when the host has an
 * active configuration: hosts without one never load it. What the answers let through is
 * rules/directory-accounts.ts's.
 */
import { Buffer } from 'node:buffer';
import { createRequire } from 'node:module';
import type * as Ldapts from 'ldapts';
import type { Client, ClientOptions } from 'ldapts';
import type { HostStatements } from './db/host-statements.js';
import { rowText as text } from './rules/lookup-sql.js';
import type { DirectoryPresence } from './rules/directory-accounts.js';

/** One active user_ldap configuration (`oc_appconfig` app `user_ldap`, keys `<prefix>ldap_*`). */
export interface DirectoryConfig {
  /** `s01`, or '' for the first configuration of old installs. */
  readonly prefix: string;
  /** `ldap://host:389` or `ldaps://host:636`, as user_ldap builds it from `ldap_host` and `ldap_port`. */
  readonly url: string;
  /** The agent's DN; '' binds anonymously. */
  readonly agentDn: string;
  /** Decoded from the base64 user_ldap stores. */
  readonly agentPassword: string;
  readonly userBases: readonly string[];
  readonly groupBases: readonly string[];
  readonly userFilter: string;
  readonly groupFilter: string;
  /** `ldap_tls`: StartTLS on a plain connection. */
  readonly startTls: boolean;
  /** `ldap_turn_off_cert_check`. */
  readonly skipCertCheck: boolean;
  /** `ldap_cache_ttl`, seconds (user_ldap's default 600). */
  readonly cacheTtlSeconds: number;
  /** `ldap_connection_timeout`, seconds (user_ldap's default 15). */
  readonly connectTimeoutSeconds: number;
  /** `ldap_group_member_assoc_attribute`, lower case: `member`, `uniquemember` (DNs) or `memberuid` (the entry's `uid`). */
  readonly memberAttribute: string;
  /** `ldap_nested_groups`: groups holding the user's groups count too. */
  readonly nestedGroups: boolean;
  /** The user's `memberOf` is read instead of searching the groups (`has_memberof_filter_support` and `use_memberof_to_detect_membership`). */
  readonly useMemberOf: boolean;
}

export interface DirectoryOptions {
  /** Longest wait for a connection (default 5 s, or the configuration's own time-out when shorter). */
  readonly connectTimeoutMs?: number;
  /** Longest wait for an answer (default 5 s). */
  readonly answerTimeoutMs?: number;
  /**
   * How long an answer is kept: user_ldap's `ldapCacheTTL` where Nextcloud itself caches
   * directory answers (a distributed memcache), else 0 (it asks the directory at every request,
   * so may we).
   */
  readonly cacheTtlMs: (config: DirectoryConfig) => number;
  readonly now?: () => number;
  /** Bench and test seam: sees each search sent (the round trips). */
  readonly onSearch?: (base: string, filter: string) => void;
}

/** What `check` and `setup` report of one configuration. */
export interface DirectoryReport {
  readonly prefix: string;
  readonly url: string;
  readonly reachable: boolean;
  readonly bound: boolean;
  /** Entries the user filter finds under the user bases, and the group filter under the group bases; null when not asked. */
  readonly accounts: number | null;
  readonly groups: number | null;
  /** Why not, in the directory's own words (never the password). */
  readonly error: string | null;
}

const DEFAULT_TIMEOUT_MS = 5_000;

/** An account as user_ldap maps it: its Nextcloud uid and the DN of its entry (`oc_ldap_user_mapping`). */
export interface MappedAccount {
  readonly uid: string;
  readonly dn: string;
}

/** The active configurations, read from the host's `oc_appconfig`; none when user_ldap is not set up. */
export async function readDirectoryConfigs(statements: HostStatements): Promise<DirectoryConfig[]> {
  const rows = await statements.query(`SELECT configkey, configvalue FROM ${statements.prefix}appconfig WHERE appid = ?`, ['user_ldap']);
  const values = new Map(rows.map((r) => [text(r.configkey) ?? '', text(r.configvalue) ?? '']));
  const prefixes = configurationPrefixes(values);
  const configs: DirectoryConfig[] = [];
  for (const prefix of prefixes) {
    const get = (key: string): string => values.get(`${prefix}${key}`) ?? '';
    if (get('ldap_configuration_active') !== '1' || get('ldap_host') === '') continue;
    const lines = (key: string): string[] =>
      get(key)
        .split('\n')
        .map((l) => l.trim())
        .filter((l) => l !== '');
    const base = lines('ldap_base');
    const ttl = Number(get('ldap_cache_ttl') || '600');
    const connectTimeout = Number(get('ldap_connection_timeout') || '15');
    configs.push({
      prefix,
      url: directoryUrl(get('ldap_host'), get('ldap_port')),
      agentDn: get('ldap_dn'),
      agentPassword: Buffer.from(get('ldap_agent_password'), 'base64').toString('utf8'),
      userBases: lines('ldap_base_users').length > 0 ? lines('ldap_base_users') : base,
      groupBases: lines('ldap_base_groups').length > 0 ? lines('ldap_base_groups') : base,
      userFilter: get('ldap_userlist_filter'),
      groupFilter: get('ldap_group_filter'),
      startTls: get('ldap_tls') === '1',
      skipCertCheck: get('ldap_turn_off_cert_check') === '1',
      cacheTtlSeconds: Number.isFinite(ttl) && ttl >= 0 ? ttl : 600,
      connectTimeoutSeconds: Number.isFinite(connectTimeout) && connectTimeout > 0 ? connectTimeout : 15,
      memberAttribute: (get('ldap_group_member_assoc_attribute') || 'uniqueMember').toLowerCase(),
      nestedGroups: get('ldap_nested_groups') === '1',
      useMemberOf: get('has_memberof_filter_support') === '1' && get('use_memberof_to_detect_membership') !== '0',
    });
  }
  return configs;
}

/**
 * The configurations' prefixes as user_ldap's `Helper::getAllServerConfigurationPrefixes` finds
 * them: `configuration_prefixes`, stored as a JSON array (`setValueArray`), else every key ending
 * in `ldap_configuration_active` (installs older than Nextcloud 32; `''` for the oldest).
 */
export function configurationPrefixes(values: ReadonlyMap<string, string>): string[] {
  const stored = values.get('configuration_prefixes');
  if (stored !== undefined) {
    try {
      const parsed: unknown = JSON.parse(stored);
      if (Array.isArray(parsed)) return parsed.filter((p): p is string => typeof p === 'string');
    } catch {
      // Not JSON: a comma list, as an administrator might have written it by hand.
    }
    return stored
      .split(',')
      .map((p) => p.trim())
      .filter((p) => p !== '');
  }
  const suffix = 'ldap_configuration_active';
  return [...values.keys()]
    .filter((k) => k.endsWith(suffix))
    .map((k) => k.slice(0, k.length - suffix.length))
    .sort();
}

/** user_ldap's LDAP::connect: a bare host gets `ldap://`, and the port unless the address names one. */
export function directoryUrl(host: string, port: string): string {
  const withScheme = host.includes('://') ? host : `ldap://${host}`;
  const afterScheme = withScheme.slice(withScheme.indexOf('://') + 3);
  return afterScheme.includes(':') || port === '' ? withScheme : `${withScheme}:${port}`;
}

/** A filter as a whole expression: user_ldap's filters are stored with or without their outer parentheses. */
function wrapped(filter: string, fallback: string): string {
  const f = filter.trim();
  if (f === '') return fallback;
  return f.startsWith('(') ? f : `(${f})`;
}

/** A DN as user_ldap keeps it in its mapping tables (`Helper::sanitizeDN`): no blanks after commas, lower case, a few characters escaped. */
export function sanitizedDn(dn: string): string {
  const escapes: Readonly<Record<string, string>> = { '\\,': '\\5c2C', '\\=': '\\5c3D', '\\+': '\\5c2B', '(': '\\28', ')': '\\29', '*': '\\2A' };
  let out = dn.replace(/([^\\]),\s+/gu, '$1,').toLowerCase();
  for (const [from, to] of Object.entries(escapes)) out = out.split(from).join(to);
  return out;
}

/** One attribute equal to a value, escaped as a filter needs (`(`, `)`, `*`, `\\` in DNs). */
function equality(attribute: string, value: string): string {
  const escaped = value.replace(/[\\*()\0]/g, (c) => `\\${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
  return `(${attribute}=${escaped})`;
}

/** DNs compare without case and without blanks around the separators, as the directory compares them. */
export function sameDn(a: string, b: string): boolean {
  const norm = (dn: string): string => dn.replace(/\s*([,=+])\s*/g, '$1').toLowerCase();
  return norm(a) === norm(b);
}

/** One configuration's connection, bound as its agent, opened at first use and kept. */
/** An entry as ldapts gives it: its DN and the attributes asked. */
type Entry = { readonly dn: string } & Readonly<Record<string, unknown>>;

/** An attribute's values as strings (ldapts gives one value bare, several as an array). */
function valuesOf(entry: Entry | undefined, attribute: string): string[] {
  const key = Object.keys(entry ?? {}).find((k) => k.toLowerCase() === attribute.toLowerCase());
  const value = key === undefined ? undefined : entry?.[key];
  const list = Array.isArray(value) ? (value as unknown[]) : value === undefined ? [] : [value];
  return list.map((v) => (Buffer.isBuffer(v) ? v.toString('utf8') : String(v)));
}

/** What the directory answered for one account: its presence, and the DNs of its groups (sanitized as user_ldap maps them) where it is present. */
export interface DirectoryAccount {
  readonly presence: DirectoryPresence;
  readonly groupDns: readonly string[];
}

class DirectoryConnection {
  readonly config: DirectoryConfig;
  readonly #options: DirectoryOptions;
  #client: Promise<Client> | null = null;

  constructor(config: DirectoryConfig, options: DirectoryOptions) {
    this.config = config;
    this.#options = options;
  }

  async #open(): Promise<Client> {
    // Required, not imported: the bundle reaches packages with require() (scripts/build-bundle.mjs).
    const { Client: LdapClient } = createRequire(import.meta.url)('ldapts') as typeof Ldapts;
    const c = this.config;
    const tlsOptions = { rejectUnauthorized: !c.skipCertCheck };
    const clientOptions: ClientOptions = {
      url: c.url,
      connectTimeout: Math.min(this.#options.connectTimeoutMs ?? DEFAULT_TIMEOUT_MS, c.connectTimeoutSeconds * 1000),
      timeout: this.#options.answerTimeoutMs ?? DEFAULT_TIMEOUT_MS,
      // ldapts speaks TLS from the start whenever it is given TLS options: only for ldaps://.
      ...(c.url.toLowerCase().startsWith('ldaps://') ? { tlsOptions } : {}),
      strictDN: false,
    };
    const client = new LdapClient(clientOptions);
    try {
      if (c.startTls) await client.startTLS(tlsOptions);
      if (c.agentDn !== '') await client.bind(c.agentDn, c.agentPassword);
      return client;
    } catch (error) {
      await client.unbind().catch(() => undefined);
      throw error;
    }
  }

  /** The bound client; a failed opening is forgotten, so the next question tries again. */
  client(): Promise<Client> {
    if (this.#client === null) {
      const opening = this.#open();
      this.#client = opening;
      opening.catch(() => {
        if (this.#client === opening) this.#client = null;
      });
    }
    return this.#client;
  }

  async search(base: string, scope: 'base' | 'sub', filter: string, paged = false, attributes: readonly string[] = ['1.1']): Promise<readonly Entry[]> {
    const client = await this.client();
    this.#options.onSearch?.(base, filter);
    try {
      const { searchEntries } = await client.search(base, {
        scope,
        filter,
        attributes: [...attributes],
        ...(paged ? { paged: { pageSize: 500 } } : {}),
      });
      return searchEntries;
    } catch (error) {
      if (resultCode(error) === 32) return [];
      // A broken connection is opened anew at the next question.
      this.reset();
      throw error;
    }
  }

  reset(): void {
    const open = this.#client;
    this.#client = null;
    void open?.then((c) => c.unbind()).catch(() => undefined);
  }

  async close(): Promise<void> {
    const open = this.#client;
    this.#client = null;
    if (open !== null) await open.then((c) => c.unbind()).catch(() => undefined);
  }
}

/** An LDAP result code of a failed operation (32: no such object), or null for a failure of the connection. */
function resultCode(error: unknown): number | null {
  return typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'number' ? error.code : null;
}

/** A failure as `check` says it: the client's message, on one line (the password is never in it). */
function failureText(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/\s+/g, ' ').slice(0, 300);
}

export class Directory {
  readonly configs: readonly DirectoryConfig[];
  readonly #connections: readonly DirectoryConnection[];
  readonly #options: DirectoryOptions;
  /** DN (as mapped) → presence and when it stops counting. */
  readonly #cache = new Map<string, { presence: DirectoryPresence; until: number }>();
  readonly #accounts = new Map<string, { answer: DirectoryAccount; until: number }>();

  constructor(configs: readonly DirectoryConfig[], options: DirectoryOptions) {
    this.configs = configs;
    this.#options = options;
    this.#connections = configs.map((c) => new DirectoryConnection(c, options));
  }

  #now(): number {
    return this.#options.now?.() ?? Date.now();
  }

  /**
   * Whether each entry is still in the directory as user_ldap's `userExistsOnLDAP` reads it: its
   * DN, read with the user filter, found by a configuration. One base read per entry not cached,
   * all at once. `unreachable` when no configuration found it and one could not be asked.
   */
  async presence(accounts: readonly MappedAccount[]): Promise<Map<string, DirectoryPresence>> {
    const result = new Map<string, DirectoryPresence>();
    const now = this.#now();
    await Promise.all(
      accounts.map(async ({ uid, dn }) => {
        const cached = this.#cache.get(dn);
        if (cached !== undefined && cached.until > now) {
          result.set(uid, cached.presence);
          return;
        }
        let presence: DirectoryPresence = 'gone';
        let ttlMs = Number.POSITIVE_INFINITY;
        for (const connection of this.#connections) {
          ttlMs = Math.min(ttlMs, this.#options.cacheTtlMs(connection.config));
          try {
            const found = await connection.search(dn, 'base', wrapped(connection.config.userFilter, '(objectClass=*)'));
            if (found.length > 0) {
              presence = 'present';
              break;
            }
          } catch {
            presence = 'unreachable';
          }
        }
        result.set(uid, presence);
        // A failure is never kept: the next question asks again.
        if (presence !== 'unreachable' && ttlMs > 0) this.#cache.set(dn, { presence, until: now + ttlMs });
      }),
    );
    return result;
  }

  /**
   * The account's presence (as `presence`) and its groups as user_ldap's `Group_LDAP::getUserGroups`
   * finds them: the groups under the group bases that pass the group filter and name it in the
   * member attribute (its DN; for `memberUid`, its `uid`), or its `memberOf` where the
   * configuration reads that; with nested groups, the groups naming those, level by level. The
   * entry's read and the group search are sent together (one round trip's wait), or after
   * one another for `memberUid`; each level of nesting is one more. Kept as `presence` keeps.
   */
  async account(account: MappedAccount): Promise<DirectoryAccount> {
    const now = this.#now();
    const cached = this.#accounts.get(account.dn);
    if (cached !== undefined && cached.until > now) return cached.answer;
    let answer: DirectoryAccount = { presence: 'gone', groupDns: [] };
    let ttlMs = Number.POSITIVE_INFINITY;
    for (const connection of this.#connections) {
      const c = connection.config;
      ttlMs = Math.min(ttlMs, this.#options.cacheTtlMs(c));
      const groupSearch = (filter: string): Promise<readonly Entry[]> =>
        Promise.all(c.groupBases.map((base) => connection.search(base, 'sub', `(&${filter}${wrapped(c.groupFilter, '(objectClass=*)')})`, true))).then((all) =>
          all.flat(),
        );
      try {
        const byDn = !c.useMemberOf && c.memberAttribute !== 'memberuid';
        const attributes = c.useMemberOf ? ['memberOf'] : c.memberAttribute === 'memberuid' ? ['uid'] : ['1.1'];
        const [entries, direct] = await Promise.all([
          connection.search(account.dn, 'base', wrapped(c.userFilter, '(objectClass=*)'), false, attributes),
          byDn ? groupSearch(equality(c.memberAttribute, account.dn)) : Promise.resolve(null),
        ]);
        const entry = entries[0];
        if (entry === undefined) continue;
        let groups: string[];
        if (c.useMemberOf) groups = valuesOf(entry, 'memberOf');
        else if (direct !== null) groups = direct.map((g) => g.dn);
        else {
          const uids = valuesOf(entry, 'uid');
          groups = uids.length === 0 ? [] : (await groupSearch(`(|${uids.map((u) => equality('memberUid', u)).join('')})`)).map((g) => g.dn);
        }
        // Nesting by DN only: a memberUid value names a person, never a group (as in user_ldap).
        if (c.nestedGroups && c.memberAttribute !== 'memberuid') {
          const seen = new Set(groups.map(sanitizedDn));
          let level = groups;
          while (level.length > 0) {
            const parents = (await groupSearch(`(|${level.map((dn) => equality(c.memberAttribute, dn)).join('')})`)).map((g) => g.dn);
            level = parents.filter((dn) => !seen.has(sanitizedDn(dn)));
            for (const dn of level) seen.add(sanitizedDn(dn));
            groups.push(...level);
          }
        }
        answer = { presence: 'present', groupDns: [...new Set(groups.map(sanitizedDn))] };
        break;
      } catch {
        answer = { presence: 'unreachable', groupDns: [] };
      }
    }
    if (answer.presence !== 'unreachable' && ttlMs > 0) this.#accounts.set(account.dn, { answer, until: now + ttlMs });
    return answer;
  }

  /**
   * The members a group entry names in the member attribute (`who`): DNs (sanitized) for
   * `member`/`uniqueMember`, `uid` values for `memberUid`; with nested groups, the members of
   * the groups it names too. Null when the directory cannot be asked (who then lists nobody through it).
   */
  async groupMembers(groupDn: string): Promise<{ readonly dns: readonly string[]; readonly uids: readonly string[] } | null> {
    for (const connection of this.#connections) {
      const c = connection.config;
      try {
        const dns = new Set<string>();
        const uids = new Set<string>();
        const seen = new Set<string>();
        let level = [groupDn];
        while (level.length > 0) {
          const next: string[] = [];
          for (const dn of level) {
            seen.add(sanitizedDn(dn));
            const [entry] = await connection.search(dn, 'base', wrapped(c.groupFilter, '(objectClass=*)'), false, [c.memberAttribute]);
            for (const value of valuesOf(entry, c.memberAttribute)) {
              if (c.memberAttribute === 'memberuid') uids.add(value);
              else {
                dns.add(sanitizedDn(value));
                if (c.nestedGroups && !seen.has(sanitizedDn(value))) next.push(value);
              }
            }
          }
          level = next;
        }
        if (dns.size > 0 || uids.size > 0) return { dns: [...dns], uids: [...uids] };
      } catch {
        return null;
      }
    }
    return { dns: [], uids: [] };
  }

  /** `check` and `setup`: each configuration reached, bound, and what its filters find (counts only with `count`). */
  async report(count: boolean): Promise<DirectoryReport[]> {
    return Promise.all(
      this.#connections.map(async (connection): Promise<DirectoryReport> => {
        const c = connection.config;
        const base = { prefix: c.prefix, url: c.url };
        try {
          await connection.client();
        } catch (error) {
          const bindRefused = resultCode(error) !== null;
          return { ...base, reachable: bindRefused, bound: false, accounts: null, groups: null, error: failureText(error) };
        }
        if (!count) return { ...base, reachable: true, bound: true, accounts: null, groups: null, error: null };
        try {
          const under = async (bases: readonly string[], filter: string): Promise<number> => {
            const dns = new Set<string>();
            for (const b of bases) for (const e of await connection.search(b, 'sub', filter, true)) dns.add(e.dn.toLowerCase());
            return dns.size;
          };
          const accounts = await under(c.userBases, wrapped(c.userFilter, '(objectClass=*)'));
          const groups = await under(c.groupBases, wrapped(c.groupFilter, '(objectClass=*)'));
          return { ...base, reachable: true, bound: true, accounts, groups, error: null };
        } catch (error) {
          return { ...base, reachable: true, bound: true, accounts: null, groups: null, error: failureText(error) };
        }
      }),
    );
  }

  async close(): Promise<void> {
    await Promise.all(this.#connections.map((c) => c.close()));
  }
}
