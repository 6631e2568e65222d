/**
 * Accounts of user_ldap judged by a real OpenLDAP (test/support/slapd.ts), not by user_ldap's
 * lagging `isDeleted`: an entry gone from the directory opens nothing and is not listed by
 * `who` from that moment; a directory that cannot be reached (stopped, or silent past the
 * time-out) keeps every LDAP account out; `check`'s report; the cache and its round trips.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { Buffer } from 'node:buffer';
import { createServer, type Server, type Socket } from 'node:net';
import { pino } from 'pino';
import { configurationPrefixes, Directory, directoryUrl, type DirectoryConfig } from '../src/core/host/directory.js';
import { openHost } from '../src/core/host/open-host.js';
import { asOneRequest } from '../src/core/host/directory-accounts.js';
import type { HostAdapter } from '../src/core/host/types.js';
import { createHostFixture, type HostFixture } from './support/host-fixtures/index.js';
import {
  LDAP_ADMIN_DN,
  LDAP_ADMIN_PASSWORD,
  LDAP_GROUPS,
  LDAP_PEOPLE,
  LDAP_SUFFIX,
  groupLdif,
  personDn,
  personLdif,
  slapdUnavailable,
  startSlapd,
  type Slapd,
} from './support/slapd.js';

const unavailable = slapdUnavailable();
if (unavailable !== null) process.stdout.write(`SKIP the directory tests: ${unavailable}\n`);
const describeLdap = unavailable === null ? describe : describe.skip;

const ARCHIVE = 'archive';
const QUIET = pino({ level: 'silent' });

/** user_ldap's configuration `s01` as `occ ldap:set-config` stores it (the password base64). */
async function configure(fx: HostFixture, url: string, password = LDAP_ADMIN_PASSWORD): Promise<void> {
  const rows: Record<string, string> = {
    configuration_prefixes: '["s01"]',
    s01ldap_host: url.replace(/\/$/, ''),
    s01ldap_port: '',
    s01ldap_dn: LDAP_ADMIN_DN,
    s01ldap_agent_password: Buffer.from(password).toString('base64'),
    s01ldap_base: LDAP_SUFFIX,
    s01ldap_base_users: LDAP_PEOPLE,
    s01ldap_base_groups: LDAP_GROUPS,
    s01ldap_userlist_filter: '(objectClass=inetOrgPerson)',
    s01ldap_group_filter: '(objectClass=groupOfNames)',
    s01ldap_configuration_active: '1',
  };
  for (const [key, value] of Object.entries(rows)) await fx.setAppConfig('user_ldap', key, value);
}

/** A host with the archive account's folders shared with LDAP accounts: lina (in the directory), lars (never was), otto (removed later). */
async function build(fx: HostFixture): Promise<void> {
  await fx.exec(
    `CREATE TABLE ${fx.prefix}ldap_user_mapping (ldap_dn VARCHAR(4000) NOT NULL, owncloud_name VARCHAR(64) NOT NULL PRIMARY KEY, directory_uuid VARCHAR(255) NOT NULL)`,
  );
  await fx.addUser(ARCHIVE);
  for (const [i, uid] of ['lina', 'lars', 'otto'].entries()) {
    await fx.exec(`INSERT INTO ${fx.prefix}ldap_user_mapping (ldap_dn, owncloud_name, directory_uuid) VALUES (?, ?, ?)`, [personDn(uid), uid, `uuid-${i}`]);
    await fx.addFile(ARCHIVE, `For-${uid}/doc [P${i + 1}].pdf`);
    await fx.share({ owner: ARCHIVE, fileId: await fx.addFolder(ARCHIVE, `For-${uid}`), type: 'user', with: uid });
  }
}

const visibleIds = async (host: HostAdapter, user: string): Promise<number[]> => [...(await host.visibleArchiveFiles(user, ARCHIVE, [1, 2, 3])).keys()];

describeLdap('LDAP accounts against a real slapd', () => {
  let slapd: Slapd;
  let fx: HostFixture;
  let host: HostAdapter;
  const searches: string[] = [];

  beforeAll(async () => {
    slapd = await startSlapd([personLdif('lina', 'pw-lina'), personLdif('otto', 'pw-otto'), groupLdif('staff', [personDn('lina')])].join('\n'));
    fx = await createHostFixture('sqlite');
    await build(fx);
    await configure(fx, slapd.url);
    host = await openHost({ dbUrl: fx.dbUrl, tablePrefix: fx.prefix }, { logger: QUIET, directory: { onSearch: (base) => searches.push(base) } });
  });

  afterAll(async () => {
    await host.close();
    await fx.drop();
    await slapd.close();
  });

  test('an entry in the directory opens its share; an entry that is not there opens nothing, whatever isDeleted says', async () => {
    expect(await visibleIds(host, 'lina')).toEqual([1]);
    expect(await visibleIds(host, 'otto')).toEqual([3]);
    expect(await visibleIds(host, 'lars')).toEqual([]);
    expect(await host.findAccount('lina')).toMatchObject({ backend: 'ldap', enabled: true, directory: 'present' });
    expect(await host.findAccount('lars')).toMatchObject({ backend: 'ldap', enabled: false, directory: 'gone' });
  });

  test('an entry deleted from the directory is refused from that moment, and who stops listing it', async () => {
    expect([...(await host.reachedMounts(ARCHIVE, ['lina', 'lars', 'otto'])).keys()].sort()).toEqual(['lina', 'otto']);
    await slapd.modify(`dn: ${personDn('otto')}\nchangetype: delete\n`);
    expect(await visibleIds(host, 'otto')).toEqual([]);
    expect([...(await host.reachedMounts(ARCHIVE, ['lina', 'lars', 'otto'])).keys()]).toEqual(['lina']);
    // An entry the user filter no longer admits is gone too (user_ldap reads the DN with it).
    await slapd.modify(`dn: ${personDn('otto')}\nchangetype: add\nobjectClass: account\nuid: otto\n`);
    expect(await visibleIds(host, 'otto')).toEqual([]);
  });

  test('check: reachable, bound as the agent, and the accounts and groups the filters find', async () => {
    expect(await host.directoryReport(true)).toEqual([
      { prefix: 's01', url: slapd.url.replace(/\/$/, ''), reachable: true, bound: true, accounts: 1, groups: 1, error: null },
    ]);
  });

  test("one request asks about an account once: a search's look-up and its questions 1 and 3 share the answer; the next request asks again", async () => {
    const entryReads = (): number => searches.filter((base) => base === personDn('lina')).length;
    const search = async (): Promise<void> => {
      await host.findAccount('lina');
      await host.visibleArchiveFiles('lina', ARCHIVE, [1, 2, 3]);
      await host.visibleForeignFiles('lina', ARCHIVE, [1, 2, 3]);
    };
    let before = entryReads();
    await search();
    expect(entryReads() - before).toBe(3);
    before = entryReads();
    await asOneRequest(search);
    expect(entryReads() - before).toBe(1);
    before = entryReads();
    await asOneRequest(search);
    expect(entryReads() - before).toBe(1);
  });

  test('a database account is not asked about: it pays no directory round trip', async () => {
    const before = searches.length;
    expect(await host.visibleArchiveFiles(ARCHIVE, ARCHIVE, [1])).toBeDefined();
    expect(searches.length).toBe(before);
  });

  test('the directory stopped: every LDAP account opens nothing and is said unreachable; back, and it opens again', async () => {
    await slapd.stop();
    try {
      expect(await visibleIds(host, 'lina')).toEqual([]);
      expect(await host.findAccount('lina')).toMatchObject({ enabled: false, directory: 'unreachable' });
      expect([...(await host.reachedMounts(ARCHIVE, ['lina'])).keys()]).toEqual([]);
      const [report] = await host.directoryReport(true);
      expect(report).toMatchObject({ reachable: false, bound: false });
      expect(report?.error).not.toContain(LDAP_ADMIN_PASSWORD);
    } finally {
      await slapd.start();
    }
    expect(await visibleIds(host, 'lina')).toEqual([1]);
  });
});

describeLdap('the directory client', () => {
  let slapd: Slapd;
  const config = (url: string, o: Partial<DirectoryConfig> = {}): DirectoryConfig => ({
    prefix: 's01',
    url,
    agentDn: LDAP_ADMIN_DN,
    agentPassword: LDAP_ADMIN_PASSWORD,
    userBases: [LDAP_PEOPLE],
    groupBases: [LDAP_GROUPS],
    userFilter: 'objectClass=inetOrgPerson',
    groupFilter: '',
    startTls: false,
    skipCertCheck: false,
    cacheTtlSeconds: 600,
    connectTimeoutSeconds: 15,
    memberAttribute: 'member',
    nestedGroups: false,
    useMemberOf: false,
    ...o,
  });

  beforeAll(async () => {
    slapd = await startSlapd(personLdif('lina', 'pw-lina'));
  });

  afterAll(async () => {
    await slapd.close();
  });

  test("user_ldap's prefixes: the JSON list it stores, else the keys of ldap_configuration_active (before Nextcloud 32)", () => {
    expect(configurationPrefixes(new Map([['configuration_prefixes', '["s01","s02"]']]))).toEqual(['s01', 's02']);
    expect(
      configurationPrefixes(
        new Map([
          ['s02ldap_configuration_active', '1'],
          ['ldap_configuration_active', '0'],
        ]),
      ),
    ).toEqual(['', 's02']);
  });

  test("user_ldap's address: a bare host gets ldap:// and the port, an address with a port keeps its own", () => {
    expect(directoryUrl('ldap.example.org', '389')).toBe('ldap://ldap.example.org:389');
    expect(directoryUrl('ldaps://ldap.example.org', '636')).toBe('ldaps://ldap.example.org:636');
    expect(directoryUrl('ldap://127.0.0.1:3890', '389')).toBe('ldap://127.0.0.1:3890');
  });

  test("within ldapCacheTTL an answer costs no round trip; without Nextcloud's cache every question asks", async () => {
    let now = 0;
    let sent = 0;
    const cached = new Directory([config(slapd.url)], { cacheTtlMs: (c) => c.cacheTtlSeconds * 1000, now: () => now, onSearch: () => (sent += 1) });
    const lina = [{ uid: 'lina', dn: personDn('lina') }];
    try {
      expect(await cached.presence(lina)).toEqual(new Map([['lina', 'present']]));
      expect(sent).toBe(1);
      expect(await cached.presence(lina)).toEqual(new Map([['lina', 'present']]));
      expect(sent).toBe(1);
      now = 600_001;
      await cached.presence(lina);
      expect(sent).toBe(2);
    } finally {
      await cached.close();
    }
    const uncached = new Directory([config(slapd.url)], { cacheTtlMs: () => 0, onSearch: () => (sent += 1) });
    try {
      await uncached.presence(lina);
      await uncached.presence(lina);
      expect(sent).toBe(4);
    } finally {
      await uncached.close();
    }
  });

  test('a wrong agent password: reachable but not bound, and nobody is let in', async () => {
    const directory = new Directory([config(slapd.url, { agentPassword: 'wrong' })], { cacheTtlMs: () => 0 });
    try {
      expect(await directory.report(false)).toMatchObject([{ reachable: true, bound: false }]);
      expect(await directory.presence([{ uid: 'lina', dn: personDn('lina') }])).toEqual(new Map([['lina', 'unreachable']]));
    } finally {
      await directory.close();
    }
  });

  test('a directory that accepts the connection but never answers is unreachable after the answer time-out', async () => {
    const held: Socket[] = [];
    const silent: Server = createServer((socket) => held.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const address = silent.address();
    const port = typeof address === 'object' && address !== null ? address.port : 0;
    const directory = new Directory([config(`ldap://127.0.0.1:${port}`)], { cacheTtlMs: () => 0, answerTimeoutMs: 300, connectTimeoutMs: 300 });
    const started = Date.now();
    try {
      expect(await directory.presence([{ uid: 'lina', dn: personDn('lina') }])).toEqual(new Map([['lina', 'unreachable']]));
      expect(Date.now() - started).toBeLessThan(3_000);
    } finally {
      await directory.close();
      for (const socket of held) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});

describeLdap("LDAP groups: shares reach their members as user_ldap's configuration resolves them", () => {
  let slapd: Slapd;
  let fx: HostFixture;
  const groups = ['staff', 'outer', 'uniq', 'posix', 'hidden'];

  beforeAll(async () => {
    slapd = await startSlapd(
      [
        personLdif('lina', 'pw-lina'),
        groupLdif('staff', [personDn('lina')]),
        groupLdif('outer', [`cn=staff,${LDAP_GROUPS}`]),
        `dn: cn=uniq,${LDAP_GROUPS}\nobjectClass: groupOfUniqueNames\ncn: uniq\nuniqueMember: ${personDn('lina')}\n`,
        `dn: cn=posix,${LDAP_GROUPS}\nobjectClass: posixGroup\ncn: posix\ngidNumber: 5000\nmemberUid: lina\n`,
        `dn: cn=hidden,${LDAP_GROUPS}\nobjectClass: groupOfNames\ncn: hidden\nmember: ${personDn('lina')}\n`,
      ].join('\n'),
    );
    fx = await createHostFixture('sqlite');
    await fx.exec(
      `CREATE TABLE ${fx.prefix}ldap_user_mapping (ldap_dn VARCHAR(4000) NOT NULL, owncloud_name VARCHAR(64) NOT NULL PRIMARY KEY, directory_uuid VARCHAR(255) NOT NULL)`,
    );
    await fx.exec(
      `CREATE TABLE ${fx.prefix}ldap_group_mapping (ldap_dn VARCHAR(4000) NOT NULL, owncloud_name VARCHAR(64) NOT NULL PRIMARY KEY, directory_uuid VARCHAR(255) NOT NULL)`,
    );
    await fx.addUser(ARCHIVE);
    await fx.exec(`INSERT INTO ${fx.prefix}ldap_user_mapping (ldap_dn, owncloud_name, directory_uuid) VALUES (?, ?, ?)`, [personDn('lina'), 'lina', 'u-lina']);
    for (const [i, cn] of groups.entries()) {
      // user_ldap keeps the DN lower-cased in its mapping (Helper::sanitizeDN); the gid is the group's cn.
      await fx.exec(`INSERT INTO ${fx.prefix}ldap_group_mapping (ldap_dn, owncloud_name, directory_uuid) VALUES (?, ?, ?)`, [
        `cn=${cn},${LDAP_GROUPS}`.toLowerCase(),
        `L ${cn}`,
        `g-${cn}`,
      ]);
      await fx.addFile(ARCHIVE, `To-${cn}/doc [P${i + 1}].pdf`);
      await fx.share({ owner: ARCHIVE, fileId: await fx.addFolder(ARCHIVE, `To-${cn}`), type: 'group', with: `L ${cn}` });
    }
    await configure(fx, slapd.url);
  });

  afterAll(async () => {
    await fx.drop();
    await slapd.close();
  });

  /** The documents lina opens, and whom `who` lists for each, under one configuration of the membership. */
  async function withConfig(
    member: string,
    nested: boolean,
    groupFilter = '(|(objectClass=groupOfNames)(objectClass=groupOfUniqueNames)(objectClass=posixGroup))',
  ) {
    await fx.setAppConfig('user_ldap', 's01ldap_group_member_assoc_attribute', member);
    await fx.setAppConfig('user_ldap', 's01ldap_nested_groups', nested ? '1' : '0');
    await fx.setAppConfig('user_ldap', 's01ldap_group_filter', groupFilter);
    let searches = 0;
    const host = await openHost({ dbUrl: fx.dbUrl, tablePrefix: fx.prefix }, { logger: QUIET, directory: { onSearch: () => (searches += 1) } });
    try {
      const ids = [1, 2, 3, 4, 5];
      const opened = [...(await host.visibleArchiveFiles('lina', ARCHIVE, ids)).keys()];
      const firstSearch = searches;
      const listed = [];
      for (const id of ids) {
        const { reach } = await host.shareReach(ARCHIVE, id);
        const members = reach.shares.flatMap((s) => reach.members.get(s.shareWith) ?? []);
        if (members.includes('lina') && (await host.reachedMounts(ARCHIVE, ['lina'])).get('lina')?.some((m) => m.root.name === `To-${groups[id - 1]}`))
          listed.push(id);
      }
      return { opened, listed, firstSearch, all: await host.reachedAccounts(ARCHIVE) };
    } finally {
      await host.close();
    }
  }

  test('member: the groups naming her DN, not those holding them; who lists her there; one round trip for the search', async () => {
    const answer = await withConfig('member', false);
    expect(answer.opened).toEqual([1, 5]);
    expect(answer.listed).toEqual([1, 5]);
    expect(answer.all).toEqual(['lina']);
    // Her entry's read and the group search, sent together (the configuration read is SQL).
    expect(answer.firstSearch).toBe(2);
  });

  test('nested groups: the groups holding her groups too', async () => {
    const answer = await withConfig('member', true);
    expect(answer.opened).toEqual([1, 2, 5]);
    expect(answer.listed).toEqual([1, 2, 5]);
  });

  test('the group filter: a group it does not admit gives nothing', async () => {
    expect((await withConfig('member', false, '(&(objectClass=groupOfNames)(!(cn=hidden)))')).opened).toEqual([1]);
  });

  test('uniqueMember and memberUid: the groups naming her by those attributes', async () => {
    const unique = await withConfig('uniqueMember', false);
    expect(unique.opened).toEqual([3]);
    expect(unique.listed).toEqual([3]);
    const posix = await withConfig('memberUid', false);
    expect(posix.opened).toEqual([4]);
    expect(posix.listed).toEqual([4]);
  });
});
