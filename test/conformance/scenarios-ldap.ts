/**
 * Directory accounts (user_ldap) against a real OpenLDAP (test/support/slapd.ts): the suite
 * starts one slapd, configures user_ldap through occ (`ldap:create-empty-config`,
 * `ldap:set-config`, `ldap:test-config`), runs these scenarios in a group of their own and
 * removes the configuration after, because while user_ldap is configured each login asks the
 * directory (and a stopped directory refuses every password login). Entries are added, changed
 * and deleted with `ldapmodify`; `occ user:list` and `group:list` make Nextcloud map them.
 */
import { passwordOf, type RealNextcloud } from '../support/real-nextcloud/index.js';
import { LDAP_ADMIN_DN, LDAP_ADMIN_PASSWORD, LDAP_GROUPS, LDAP_PEOPLE, LDAP_SUFFIX, groupLdif, personDn, startSlapd, type Slapd } from '../support/slapd.js';
import type { Scenario } from './scenarios.js';
import type { ScenarioWorld } from './world.js';

/** The directory of the running group, set by `startDirectory`. */
let directory: Slapd | null = null;

function slapd(): Slapd {
  if (directory === null) throw new Error('the LDAP scenarios run between startDirectory and stopDirectory');
  return directory;
}

/** Starts the slapd and configures user_ldap for it (s01): users by `uid`, groupOfNames by `member`, as many installs do. */
export async function startDirectory(nc: RealNextcloud): Promise<void> {
  directory = await startSlapd();
  await nc.occOk(['app:enable', 'user_ldap']);
  const created = await nc.occOk(['ldap:create-empty-config']);
  const prefix = /'([a-z0-9]+)'/i.exec(created)?.[1] ?? 's01';
  const settings: readonly (readonly [string, string])[] = [
    ['ldapHost', '127.0.0.1'],
    ['ldapPort', String(directory.port)],
    ['ldapAgentName', LDAP_ADMIN_DN],
    ['ldapAgentPassword', LDAP_ADMIN_PASSWORD],
    ['ldapBase', LDAP_SUFFIX],
    ['ldapBaseUsers', LDAP_PEOPLE],
    ['ldapBaseGroups', LDAP_GROUPS],
    ['ldapUserFilter', '(objectClass=inetOrgPerson)'],
    ['ldapLoginFilter', '(&(objectClass=inetOrgPerson)(uid=%uid))'],
    ['ldapGroupFilter', '(objectClass=groupOfNames)'],
    ['ldapGroupMemberAssocAttr', 'member'],
    ['ldapExpertUsernameAttr', 'uid'],
    ['ldapExpertUUIDUserAttr', 'entryUUID'],
    ['ldapExpertUUIDGroupAttr', 'entryUUID'],
    ['ldapUserDisplayName', 'cn'],
    ['ldapConfigurationActive', '1'],
  ];
  for (const [key, value] of settings) await nc.occOk(['ldap:set-config', prefix, key, value]);
  await nc.occOk(['ldap:test-config', prefix]);
}

/** Removes user_ldap's configuration, disables the app and stops the slapd: the other groups see a host without a directory again. */
export async function stopDirectory(nc: RealNextcloud): Promise<void> {
  try {
    for (const prefix of ['s01', 's02']) await nc.occ(['ldap:delete-config', prefix]);
    await nc.occOk(['app:disable', 'user_ldap']);
  } finally {
    await directory?.close();
    directory = null;
  }
}

/** LDAP people of the scenario (prefixed uids, each with its passwordOf), mapped by Nextcloud and judged with the scenario's users. */
async function people(s: ScenarioWorld, ...names: readonly string[]): Promise<string[]> {
  const logins = names.map((n) => s.login(n));
  await slapd().modify(
    logins
      .map(
        (uid) => `dn: ${personDn(uid)}\nchangetype: add\nobjectClass: inetOrgPerson\nuid: ${uid}\ncn: ${uid}\nsn: ${uid}\nuserPassword: ${passwordOf(uid)}\n`,
      )
      .join('\n'),
  );
  await s.nc.occOk(['user:list', '--limit=1000']);
  for (const login of logins) s.adopt(login, passwordOf(login));
  return logins;
}

async function files(s: ScenarioWorld, paths: readonly string[]): Promise<void> {
  for (const path of paths) {
    const folder = path.split('/').slice(0, -1).join('/');
    if (folder !== '') await s.archiveUser.mkdirs(folder);
    await s.archiveUser.put(path);
  }
}

/** An LDAP group (groupOfNames, prefixed cn) naming these DNs, mapped by Nextcloud; returns its gid (the cn, user_ldap's display name). */
async function ldapGroup(s: ScenarioWorld, name: string, memberDns: readonly string[]): Promise<string> {
  const cn = s.login(name);
  await slapd().modify(groupLdif(cn, memberDns).replace(/^(dn: [^\n]*\n)/, '$1changetype: add\n'));
  await s.nc.occOk(['group:list', '--limit=1000']);
  return cn;
}

const groupDn = (cn: string): string => `cn=${cn},${LDAP_GROUPS}`;

/**
 * The account logs in once (a WebDAV request): user_ldap's LoginListener then brings
 * `oc_ldap_group_membership` up to date and announces the new memberships, and files_sharing
 * writes the member's accepted row of each group share. Until then a member the directory added
 * has no such row and the product says the share is not accepted yet: an omission, the side
 * that cannot leak (docs/host-adapter.md, "Directory accounts").
 */
async function logsIn(s: ScenarioWorld, login: string): Promise<void> {
  await s.nc.as(login, passwordOf(login)).canLogIn();
}

const deleteEntry = (dn: string): Promise<void> => slapd().modify(`dn: ${dn}\nchangetype: delete\n`);

export const LDAP_SCENARIOS: readonly Scenario[] = [
  {
    name: 'LDAP: user shares to LDAP accounts, and an entry deleted from the directory',
    body: async (s) => {
      const [lina, lars] = await people(s, 'lina', 'lars');
      await s.users('anna');
      await files(s, ['L1/a [P1].pdf', 'L2/b [P2].pdf', 'D/c [P3].pdf']);
      await s.archiveUser.share({ path: '/L1', type: 'user', with: lina ?? '' });
      await s.archiveUser.share({ path: '/L2', type: 'user', with: lars ?? '' });
      await s.archiveUser.share({ path: '/D', type: 'user', with: s.login('anna') });
      await s.judge('L1 with lina, L2 with lars (LDAP), D with anna', [1, 2, 3]);
      await deleteEntry(personDn(lars ?? ''));
      await s.judge("lars's entry deleted from the directory", [1, 2, 3]);
    },
  },
  {
    name: 'LDAP: LDAP accounts in a database group',
    body: async (s) => {
      const [lina, lars] = await people(s, 'lina', 'lars');
      const mixed = await s.group('mixed', ['anna']);
      await s.nc.addToGroup(lina ?? '', mixed);
      await s.nc.addToGroup(lars ?? '', mixed);
      await files(s, ['G/a [P1].pdf', 'Other/b [P2].pdf']);
      await s.archiveUser.share({ path: '/G', type: 'group', with: mixed });
      await s.judge('G with the database group mixed = anna, lina, lars', [1, 2]);
      await deleteEntry(personDn(lina ?? ''));
      await s.judge("lina's entry deleted from the directory", [1, 2]);
    },
  },
  {
    name: 'LDAP: a group share, members added and removed in the directory',
    body: async (s) => {
      const [lina, lars, lena] = await people(s, 'lina', 'lars', 'lena');
      const lg = await ldapGroup(s, 'lg', [personDn(lina ?? ''), personDn(lars ?? '')]);
      await files(s, ['G/a [P1].pdf', 'G/Sub/b [P2].pdf']);
      await s.archiveUser.share({ path: '/G', type: 'group', with: lg });
      await s.judge('G with the LDAP group lg = lina, lars', [1, 2]);
      await slapd().modify(
        `dn: ${groupDn(lg)}\nchangetype: modify\ndelete: member\nmember: ${personDn(lars ?? '')}\n-\nadd: member\nmember: ${personDn(lena ?? '')}\n`,
      );
      await logsIn(s, lena ?? '');
      await s.judge('lars removed from lg in the directory, lena added (and logged in since)', [1, 2]);
    },
  },
  {
    name: 'LDAP: nested groups',
    body: async (s) => {
      const [lina, lars] = await people(s, 'lina', 'lars');
      const inner = await ldapGroup(s, 'inner', [personDn(lina ?? '')]);
      const outer = await ldapGroup(s, 'outer', [groupDn(inner), personDn(lars ?? '')]);
      await files(s, ['In/a [P1].pdf', 'Out/b [P2].pdf']);
      await s.archiveUser.share({ path: '/In', type: 'group', with: inner });
      await s.archiveUser.share({ path: '/Out', type: 'group', with: outer });
      await s.judge('In with inner = lina; Out with outer = inner, lars; nesting off', [1, 2]);
      await s.nc.occOk(['ldap:set-config', 's01', 'ldapNestedGroups', '1']);
      s.onCleanup(async () => {
        await s.nc.occOk(['ldap:set-config', 's01', 'ldapNestedGroups', '0']);
      });
      await logsIn(s, lina ?? '');
      await s.judge('nesting on (lina logged in since)', [1, 2]);
    },
  },
  {
    name: 'LDAP: the directory stopped',
    body: async (s) => {
      const [lina] = await people(s, 'lina');
      await files(s, ['L/a [P1].pdf']);
      await s.archiveUser.share({ path: '/L', type: 'user', with: lina ?? '' });
      await s.judge('L with lina', [1]);
      await slapd().stop();
      try {
        // user_ldap answers 500 to an LDAP account's WebDAV while the directory is down.
        await s.judge('the directory is down', [1], [500]);
      } finally {
        await slapd().start();
      }
      await s.judge('the directory is back', [1]);
    },
  },
];
