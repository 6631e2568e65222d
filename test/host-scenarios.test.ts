/**
 * The reference's §11 scenarios and more, table-driven, with the same expected answers on
 * SQLite, PostgreSQL and MariaDB.
 */
import { describe, expect, test } from '@jest/globals';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openHost } from '../src/core/host/open-host.js';
import type { HostAdapter } from '../src/core/host/types.js';
import { captureLogger } from './support/host-fixtures/capture-log.js';
import { reachableDialects } from './support/host-fixtures/dialects.js';
import { askPaths, useHostWorld, type Question } from './support/host-fixtures/host-world.js';
import { ARCHIVE, buildWorld } from './support/host-fixtures/world.js';

type Row = readonly [name: string, q: Question, user: string, ids: readonly number[], expected: Readonly<Record<number, string>>];

const A = ARCHIVE;
const LONG = 'l'.repeat(60);

const SCENARIOS: readonly Row[] = [
  ['§11.1 group member who left the share sees nothing', 'visible', 'alice', [1], {}],
  ['§11.1 the archive account still has the file', 'owned', A, [1], { 1: '/Invoices/inv [P1].pdf' }],
  ['§11.1 other group members are unaffected', 'visible', 'bob', [1], { 1: '/Invoices/inv [P1].pdf' }],
  ['§11.2 file under a shared folder, path under the target', 'visible', 'bob', [17], { 17: '/2024/Q1/bill [P17].pdf' }],
  ['§11.2 file moved out of the shared folder is not visible', 'visible', 'bob', [18], {}],
  ['§11.2 ... but still owned', 'owned', A, [18], { 18: '/Archive/Other/moved [P18].pdf' }],
  ['§11.3 group share moved by the recipient (override target)', 'visible', 'carol', [1], { 1: '/Work/Invoices-A/inv [P1].pdf' }],
  ['§11.3 user share renamed by the recipient', 'visible', 'dave', [3], { 3: '/Work/Reports-A/r [P3].pdf' }],
  ['§11.4 pending user share', 'visible', 'erin', [4], {}],
  ['§11.4 pending group share without override row', 'visible', 'frank', [5], {}],
  ['§11.5 expired share', 'visible', 'gina', [6], {}],
  ['§11.5 share expiring tomorrow', 'visible', 'gina', [7], { 7: '/Later/l [P7].pdf' }],
  ['§11.6 trashed node shared directly', 'visible', 'bob', [8], {}],
  ['§11.6 trash is not in own folders', 'owned', A, [8], {}],
  ['§11.6 versions are not in own folders', 'owned', A, [9], {}],
  ['§11.7 other account file not shared with the user', 'foreign', 'dave', [10], {}],
  ['§11.7 other account file shared with the user: question 3', 'foreign', 'erin', [10], { 10: '/y [P10].pdf' }],
  ['§11.7 ... but not question 1', 'visible', 'erin', [10], {}],
  ['§11.7 reshare by the archive account belongs to the owner', 'foreign', 'frank', [10], { 10: '/y [P10].pdf' }],
  ['§11.7 reshare by the archive account is not an archive file', 'visible', 'frank', [10], {}],
  ['§11.8 user = archive account sees its own files', 'visible', A, [1, 2], { 1: '/Invoices/inv [P1].pdf', 2: '/Mine/m [P2].pdf' }],
  ['§11.8 user = archive account: question 3 lists shares from others only', 'foreign', A, [1, 2, 10], { 10: '/y [P10].pdf' }],
  ['§11.8 group share by the archive account reaches other members', 'visible', 'dave', [2], { 2: '/Mine/m [P2].pdf' }],
  ['§11.9 object-store owner shares a file', 'foreign', 'alice', [11], { 11: '/o [P11].pdf' }],
  ['§11.9 object-store account owns its files', 'owned', 'obj', [11], { 11: '/o [P11].pdf' }],
  ['§11.9 uid long enough for an md5 storage id', 'owned', LONG, [12], { 12: '/long [P12].pdf' }],
  ['§11.10 one node, two shares: earliest target', 'visible', 'hank', [13], { 13: '/Twice-user/t [P13].pdf' }],
  ['§11.10 one node, accepted and rejected shares: not mounted', 'visible', 'hank', [14], {}],
  ['§11.11 disabled owner: hidden without a hide_disabled_user_shares row (newer hosts default to yes)', 'foreign', 'carol', [15], {}],
  ['§11.12 shared root without the SHARE bit', 'visible', 'bob', [16], {}],
  ['§11.12 stale uid_owner: nothing readable', 'visible', 'carol', [19], {}],
  ['§11.12 stale uid_owner: not another account file either', 'foreign', 'carol', [19], {}],
  ['§11.13 user who never logged in', 'visible', 'ivan', [20], { 20: '/ForIvan/i [P20].pdf' }],
  ['marker [P21] is not [P210] nor [P21x]', 'owned', A, [21], { 21: '/Mk/a [P21].pdf' }],
  ['marker [P210] found on its own', 'owned', A, [210], { 210: '/Mk/b [P210].pdf' }],
  ['lower-case [p22] does not count', 'owned', A, [22], {}],
  ['leading zero [P023] does not count', 'owned', A, [23], {}],
  ['LIKE wildcards % and _ in the name are literal', 'owned', A, [25], { 25: '/Mk/100% [P25] under_score.pdf' }],
  ['backslash in the name', 'owned', A, [24], { 24: '/Mk/back\\slash [P24].pdf' }],
  ['two markers in one name', 'owned', A, [26, 27], { 26: '/Mk/two [P26] [P27].pdf', 27: '/Mk/two [P26] [P27].pdf' }],
  ['a decoy [Photo] before the marker', 'owned', A, [28], { 28: '/Mk/[Photo] [P28].pdf' }],
  ['a folder carrying a marker is not a file', 'owned', A, [29], {}],
  ['a single shared file, path = target', 'visible', 'dave', [30], { 30: '/s [P30].pdf' }],
  ['the unshared sibling of a shared file', 'visible', 'dave', [31], {}],
  ['a share without READ', 'visible', 'erin', [32], {}],
  ["nested groups (NC34): a member of a child group does not receive the parent group's share", 'visible', 'kate', [33], {}],
  ['the recipient initiated the share', 'visible', 'erin', [35], {}],
  ['pending group share accepted through the override row', 'visible', 'frank', [36], { 36: '/PendG2/p [P36].pdf' }],
  ['group share rejected through the override row', 'visible', 'bob', [37], {}],
  ['... other members keep it', 'visible', 'alice', [37], { 37: '/Rej2/r [P37].pdf' }],
  ['link and e-mail shares do not mount', 'visible', 'bob', [38], {}],
  ['circle, room and deck shares are unsupported: not visible', 'visible', 'bob', [39], {}],
  ['path prefix boundary: /Arch shared', 'visible', 'bob', [40], { 40: '/Arch/x [P40].pdf' }],
  ['path prefix boundary: /Arch2 not', 'visible', 'bob', [41], {}],
  ['a file reached through two nested shares: smallest path', 'visible', 'erin', [42], { 42: '/A-Sub/z [P42].pdf' }],
  ['two files with one marker: the older one', 'owned', A, [43], { 43: '/Dup/first [P43].pdf' }],
  ['target with slashes around it', 'visible', 'gina', [44], { 44: '/In/Slash/s [P44].pdf' }],
  ['question 3: another account shares a copy', 'foreign', 'bob', [17], { 17: '/Copies/copy [P17].pdf'.replace('/Copies', '') }],
  ['question 3: the user own file with the marker', 'foreign', 'dave', [1], { 1: '/Invoices/inv [P1].pdf' }],
  ['question 1: the user own file is not an archive file', 'visible', 'dave', [1], {}],
  ['question 2 ignores shares received by the archive account', 'owned', A, [10], {}],
  ['a disabled account opens nothing shared with it', 'visible', 'judy', [45], {}],
  ['a disabled account opens nothing of its own either (question 3)', 'foreign', 'judy', [15], {}],
  ['question 2 does not depend on who can log in', 'owned', A, [45, 46], { 45: '/ForJudy/j [P45].pdf', 46: '/ForLeo/l [P46].pdf' }],
  ['an account whose LDAP entry is gone opens nothing shared with it', 'visible', 'leo', [46], {}],
  ['an account whose LDAP entry is gone opens nothing of its own', 'foreign', 'leo', [46], {}],
  [
    'one batch mixing shown and hidden documents',
    'visible',
    'bob',
    [1, 17, 18, 8, 16, 37, 38, 39, 40, 41],
    { 1: '/Invoices/inv [P1].pdf', 17: '/2024/Q1/bill [P17].pdf', 40: '/Arch/x [P40].pdf' },
  ],
];

const ask = (host: HostAdapter, q: Question, user: string, ids: readonly number[]): Promise<Record<number, string>> => askPaths(host, q, user, A, ids);

const dialects = await reachableDialects('host scenarios');

// Every scenario and every change below also with the marker index on (serve's setting): the
// index only chooses which rows to read, so the answers must be the same.
const indexModes = dialects.flatMap((dialect) => [[dialect, 'off'] as const, [dialect, 'on'] as const]);

describe.each(indexModes)('host adapter on %s, marker index %s', (dialect, indexMode) => {
  const world = useHostWorld(dialect, buildWorld, {}, { markerIndex: indexMode === 'on' });

  test.each(SCENARIOS)('%s', async (_name, q, user, ids, expected) => {
    expect(await ask(world.host, q, user, ids)).toEqual(expected);
  });

  test('answers carry the file id, name, type and owner', async () => {
    const found = (await world.host.visibleArchiveFiles('bob', A, [17])).get(17);
    expect(found).toMatchObject({ documentId: 17, name: 'bill [P17].pdf', mimetype: 'application/pdf', owner: A });
    expect(world.fx.model.files.get(found?.fileId ?? -1)?.path).toBe('files/Archive/2024/Q1/bill [P17].pdf');
    const foreign = (await world.host.visibleForeignFiles('erin', A, [10])).get(10);
    expect(foreign?.owner).toBe('bob');
  });

  test('accounts resolve case-insensitively to the stored spelling, with enabled and language', async () => {
    expect(await world.host.findAccount('BOB')).toMatchObject({ uid: 'bob', enabled: true });
    expect(await world.host.findAccount('judy')).toMatchObject({ uid: 'judy', enabled: false });
    expect(await world.host.findAccount('nobody')).toBeNull();
    await world.fx.setUserPreference('carol', 'core', 'lang', 'de');
    expect((await world.host.findAccount('Carol'))?.language).toBe('de');
    expect((await world.host.findAccount('dave'))?.language).toBeNull();
  });

  test('groups (with nested ancestors), admin, sync account', async () => {
    expect(await world.host.groupsOf('kate')).toEqual(['division', 'team']);
    expect(await world.host.groupsOf('bob')).toEqual(['acct']);
    expect(await world.host.isAdmin('alice')).toBe(true);
    expect(await world.host.isAdmin('bob')).toBe(false);
    expect(await world.host.syncAccount()).toBeNull();
    await world.fx.setAppConfig('docs_sync', 'target_user', A);
    expect(await world.host.syncAccount()).toBe(A);
  });

  test('marked files of the archive account, ordered by document id, with a total', async () => {
    const all = await world.host.markedFiles(A, 0, 1000);
    const ids = all.files.map((f) => f.documentId);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(ids).toContain(21);
    expect(ids).not.toContain(8);
    expect(ids).not.toContain(9);
    expect(ids).not.toContain(22);
    expect(ids).not.toContain(10);
    expect(all.total).toBe(all.files.length);
    const page = await world.host.markedFiles(A, 2, 3);
    expect(page.total).toBe(all.total);
    expect(page.files).toEqual(all.files.slice(2, 5));
  });

  test('§11.2 / §11.6: a file moved out of the shared folder disappears, moved back it returns; a restored file counts again', async () => {
    const bill = (await world.host.ownedArchiveFiles(A, [17])).get(17)?.fileId ?? -1;
    await world.fx.moveNode(A, bill, 'files/Archive/Other/bill [P17].pdf');
    try {
      expect(await ask(world.host, 'visible', 'bob', [17])).toEqual({});
      expect(await ask(world.host, 'owned', A, [17])).toEqual({ 17: '/Archive/Other/bill [P17].pdf' });
    } finally {
      await world.fx.moveNode(A, bill, 'files/Archive/2024/Q1/bill [P17].pdf');
    }
    expect(await ask(world.host, 'visible', 'bob', [17])).toEqual({ 17: '/2024/Q1/bill [P17].pdf' });
    const trashed = [...world.fx.model.files.values()].find((f) => f.name.startsWith('x [P8].pdf'))?.fileid ?? -1;
    await world.fx.moveNode(A, trashed, 'files/Restored/x [P8].pdf');
    try {
      expect(await ask(world.host, 'owned', A, [8])).toEqual({ 8: '/Restored/x [P8].pdf' });
      // It was itself shared with bob before it went to the trash: the share works again.
      expect(await ask(world.host, 'visible', 'bob', [8])).toEqual({ 8: '/x [P8].pdf.d1700000000' });
    } finally {
      await world.fx.moveNode(A, trashed, `files_trashbin/files/x [P8].pdf.d1700000000`);
    }
    expect(await ask(world.host, 'owned', A, [8])).toEqual({});
  });

  test('a disabled archive account opens nothing (question 1), but still has its files (question 2)', async () => {
    await world.fx.setUserPreference(A, 'core', 'enabled', 'false');
    try {
      expect(await ask(world.host, 'visible', A, [1, 2])).toEqual({});
      expect(await ask(world.host, 'foreign', A, [10])).toEqual({});
      expect(await ask(world.host, 'owned', A, [1, 2])).toEqual({ 1: '/Invoices/inv [P1].pdf', 2: '/Mine/m [P2].pdf' });
      const inv = (await world.host.ownedArchiveFiles(A, [1])).get(1)?.fileId ?? -1;
      expect(await world.host.visibleArchiveFile(A, A, inv, [1])).toBeNull();
      expect(await world.host.findAccount(A)).toMatchObject({ uid: A, enabled: false });
    } finally {
      await world.fx.setUserPreference(A, 'core', 'enabled', 'true');
    }
    expect(await ask(world.host, 'visible', A, [1])).toEqual({ 1: '/Invoices/inv [P1].pdf' });
  });

  test('hide_disabled_user_shares = no shows shares of a disabled owner, yes hides them', async () => {
    await world.fx.setAppConfig('files_sharing', 'hide_disabled_user_shares', 'no');
    try {
      expect(await ask(world.host, 'foreign', 'carol', [15])).toEqual({ 15: '/j [P15].pdf' });
      await world.fx.setAppConfig('files_sharing', 'hide_disabled_user_shares', 'yes');
      expect(await ask(world.host, 'foreign', 'carol', [15])).toEqual({});
      expect(await ask(world.host, 'visible', 'bob', [17])).toEqual({ 17: '/2024/Q1/bill [P17].pdf' });
    } finally {
      await world.fx.exec(`DELETE FROM ${world.fx.prefix}appconfig WHERE appid = 'files_sharing' AND configkey = 'hide_disabled_user_shares'`);
    }
  });

  test('shares to Talk rooms and Deck are reported once as unsupported (Teams are read)', async () => {
    const { logger, lines } = captureLogger();
    const logged = await openHost({ dbUrl: world.fx.dbUrl, tablePrefix: world.fx.prefix }, { logger });
    try {
      const before = logged.sql.queryCount;
      expect(await ask(logged, 'visible', 'bob', [39])).toEqual({});
      await logged.visibleArchiveFiles('carol', A, [39]);
      expect(logged.sql.queryCount - before).toBe(2);
      const reports = lines().filter((l) => String(l.msg).includes('not supported'));
      expect(reports).toHaveLength(1);
      // The room and the deck share of document 39; its circle share names no team, so no one is in it.
      expect(reports[0]?.count).toBe(2);
    } finally {
      await logged.close();
    }
  });

  test('LIKE on the adapter connection is case-sensitive, as the world.host runs it', async () => {
    const count = async (pattern: string): Promise<number> =>
      Number((await world.host.sql.query<{ x: unknown }>(`SELECT COUNT(*) AS x FROM ${world.fx.prefix}users WHERE uid LIKE ?`, [pattern]))[0]?.x);
    expect(await count('bo%')).toBe(1);
    // SQLite needs PRAGMA case_sensitive_like, which works on the read-only connection.
    expect(await count('BO%')).toBe(0);
  });

  test('files_sharing disabled: no share mounts, own files still count', async () => {
    await world.fx.setAppConfig('files_sharing', 'enabled', 'no');
    try {
      expect(await ask(world.host, 'visible', 'bob', [17])).toEqual({});
      expect(await ask(world.host, 'owned', A, [17])).toEqual({ 17: '/Archive/2024/Q1/bill [P17].pdf' });
    } finally {
      await world.fx.setAppConfig('files_sharing', 'enabled', 'yes');
    }
  });
});

describe.each(dialects)('NC33 schema without group_group on %s', (dialect) => {
  const world = useHostWorld(dialect, (fx) => buildWorld(fx, { nestedGroups: false }), { nestedGroups: false, listenerIndexes: false });

  test('group shares still work; the share to a parent group does not reach a child group', async () => {
    expect(await ask(world.host, 'visible', 'bob', [1])).toEqual({ 1: '/Invoices/inv [P1].pdf' });
    expect(await ask(world.host, 'visible', 'kate', [33])).toEqual({});
    expect(await world.host.groupsOf('kate')).toEqual(['team']);
  });
});

// §11.11 by version: the default of `hide_disabled_user_shares` changed in server PR #62092
// (docs/host-adapter.md); config.php `version` says which rule the installed host follows.
// Releases below 33 are not supported: read as unknown, the side that cannot leak.
const BY_VERSION: readonly (readonly [version: string | null, setting: string | null, shown: boolean])[] = [
  ['31.0.2.1', null, false],
  ['29.0.16.1', null, false],
  ['30.0.5.1', null, false],
  ['33.0.0.0', null, false],
  // 33.0.1 and 34.0.1 read the key with `getAppValue(…, 'no') === 'yes'` (Manager::checkShare).
  ['33.0.1.2', null, true],
  ['33.0.1.2', 'true', true],
  ['33.0.1.2', 'yes', false],
  ['33.0.2.0', null, false],
  ['34.0.1.2', null, true],
  ['34.0.1.2', 'true', true],
  ['34.0.1.2', 'yes', false],
  ['34.0.2.0', null, false],
  ['35.0.0.0', null, false],
  [null, null, false],
  ['35.0.0.0', 'no', true],
  ['35.0.0.0', 'true', false],
  ['31.0.2.1', 'yes', false],
  ['31.0.2.1', 'no', true],
];

describe.each(dialects)("a disabled owner's share by the installed version on %s", (dialect) => {
  const world = useHostWorld(dialect, buildWorld);

  test.each(BY_VERSION)('version %s, hide_disabled_user_shares %s: shown %s', async (version, setting, shown) => {
    const dir = mkdtempSync(join(tmpdir(), 'dus-version-'));
    const key = `DELETE FROM ${world.fx.prefix}appconfig WHERE appid = 'files_sharing' AND configkey = 'hide_disabled_user_shares'`;
    if (setting !== null) await world.fx.setAppConfig('files_sharing', 'hide_disabled_user_shares', setting);
    try {
      await world.fx.writeNextcloudDir(dir, version === null ? {} : { version });
      if (version === null) {
        const file = join(dir, 'config', 'config.php');
        writeFileSync(file, readFileSync(file, 'utf8').replace(/\n\s*'version' => '[^']*',/, ''));
      }
      const host = await openHost({ nextcloudDir: dir }, { usePhp: false });
      try {
        // judy is disabled and shares j [P15] with carol.
        expect(await ask(host, 'foreign', 'carol', [15])).toEqual(shown ? { 15: '/j [P15].pdf' } : {});
        // Enabled owners are never affected.
        expect(await ask(host, 'visible', 'bob', [17])).toEqual({ 17: '/2024/Q1/bill [P17].pdf' });
      } finally {
        await host.close();
      }
    } finally {
      await world.fx.exec(key);
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
