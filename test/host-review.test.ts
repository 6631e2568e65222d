/**
 * Adversarial cases from an independent review of the host adapter's visibility rules
 * (reference/nextcloud-db.md §2, §3, §5, §7): each one is a way a document could be shown to
 * someone who cannot open its file. Same expected answers on SQLite, PostgreSQL and MariaDB.
 */
import { describe, expect, test } from '@jest/globals';
import { openHost } from '../src/core/host/open-host.js';
import type { HostAdapter } from '../src/core/host/types.js';
import { reachableDialects } from './support/host-fixtures/dialects.js';
import { askPaths, useHostWorld, type Question } from './support/host-fixtures/host-world.js';
import type { HostFixture } from './support/host-fixtures/index.js';

const A = 'arc';
const ask = (host: HostAdapter, q: Question, user: string, ids: readonly number[]): Promise<Record<number, string>> => askPaths(host, q, user, A, ids);

/** A folder of the archive account holding one marked file, shared with `with` by the archive account. */
async function sharedFolder(
  fx: HostFixture,
  folder: string,
  id: number,
  share: { type: 'user' | 'group'; with: string; accepted?: 0 | 1 | 2; expiration?: string },
): Promise<number> {
  await fx.addFile(A, `${folder}/f [P${id}].pdf`);
  return fx.share({ owner: A, fileId: await fx.addFolder(A, folder), target: `/${folder}`, ...share });
}

const LONG_NAME = `${'n'.repeat(200)} [P131] ${'m'.repeat(250 - 208)}`;
const UID_58 = 'h'.repeat(58);
const UID_59 = 'k'.repeat(59);

async function buildReviewWorld(fx: HostFixture): Promise<void> {
  for (const uid of [A, 'u1', 'u2', 'Alice', 'weird', 'resharer', UID_58, UID_59]) await fx.addUser(uid);
  await fx.setUserPreference('weird', 'core', 'enabled', '0');
  await fx.setUserPreference('resharer', 'core', 'enabled', 'false');
  await fx.addGroup('g_1', ['u2']);
  await fx.addGroup('gX1', ['u1']);
  await fx.addGroup('other', ['u2']);
  await fx.addGroup('both', ['u1', 'u2']);

  // Descendants: the shared folder's path is a literal prefix, never a LIKE pattern.
  await sharedFolder(fx, 'a_b', 101, { type: 'user', with: 'u1' });
  await fx.addFile(A, 'aXb/f [P102].pdf');
  await sharedFolder(fx, '50%', 103, { type: 'user', with: 'u1' });
  await fx.addFile(A, '50x/f [P104].pdf');
  await sharedFolder(fx, 'x!y', 105, { type: 'user', with: 'u1' });
  await fx.addFile(A, 'x!!y/f [P106].pdf');
  await fx.addFile(A, 'a_bc/f [P107].pdf');
  // A group named with a LIKE wildcard: u1 is in gX1, not in g_1.
  await sharedFolder(fx, 'ToG', 108, { type: 'group', with: 'g_1' });
  // Same path in another user's storage as the shared folder of the archive account.
  await fx.addFile('u2', 'a_b/f [P109].pdf');
  // A shared folder moved to the trash with its contents.
  await sharedFolder(fx, 'Gone', 110, { type: 'user', with: 'u1' });

  // Override rows that must not grant anything on their own.
  const toOther = await sharedFolder(fx, 'OtherGroup', 111, { type: 'group', with: 'other' });
  await fx.overrideGroupShare(toOther, 'u1', { accepted: 1, permissions: 31 });
  const toU2 = await sharedFolder(fx, 'ToU2', 112, { type: 'user', with: 'u2' });
  await fx.overrideGroupShare(toU2, 'u1', { accepted: 1, permissions: 31 });
  // Override wins over the group row: pending for u1 although the group row is accepted.
  const pendingForU1 = await sharedFolder(fx, 'PendU1', 113, { type: 'group', with: 'both' });
  await fx.overrideGroupShare(pendingForU1, 'u1', { accepted: 0 });
  // Expiry stays the group row's, whatever the override row says.
  const expiredGroup = await sharedFolder(fx, 'ExpG', 114, { type: 'group', with: 'both', expiration: '2000-01-01 00:00:00' });
  const expiredOverride = await fx.overrideGroupShare(expiredGroup, 'u1', { accepted: 1 });
  await fx.exec(`UPDATE ${fx.prefix}share SET expiration = NULL WHERE id = ?`, [expiredOverride]);
  const liveGroup = await sharedFolder(fx, 'LiveG', 115, { type: 'group', with: 'both' });
  const pastOverride = await fx.overrideGroupShare(liveGroup, 'u1', { accepted: 1 });
  await fx.exec(`UPDATE ${fx.prefix}share SET expiration = ? WHERE id = ?`, ['2000-01-01 00:00:00', pastOverride]);

  // One node, several shares (§3.4 super shares).
  const leftAndUser = await sharedFolder(fx, 'LeftUser', 116, { type: 'group', with: 'both' });
  await fx.overrideGroupShare(leftAndUser, 'u1', { permissions: 0 });
  await fx.share({ owner: A, fileId: await fx.addFolder(A, 'LeftUser'), type: 'user', with: 'u1', target: '/LeftUser-direct' });
  await sharedFolder(fx, 'PendAcc', 117, { type: 'group', with: 'both', accepted: 0 });
  await fx.share({ owner: A, fileId: await fx.addFolder(A, 'PendAcc'), type: 'user', with: 'u1', target: '/PendAcc-direct' });
  const rejectedByOverride = await sharedFolder(fx, 'RejOv', 118, { type: 'group', with: 'both' });
  await fx.overrideGroupShare(rejectedByOverride, 'u1', { accepted: 2 });
  await fx.share({ owner: A, fileId: await fx.addFolder(A, 'RejOv'), type: 'user', with: 'u1' });
  // The rejected share is expired: dropped before the status is taken, so the other one counts.
  await sharedFolder(fx, 'RejExp', 119, { type: 'user', with: 'u1', accepted: 2, expiration: '2000-01-01 00:00:00' });
  await fx.share({ owner: A, fileId: await fx.addFolder(A, 'RejExp'), type: 'group', with: 'both' });

  // Share types that never mount for a local user, even when share_with names the user.
  const odd = await fx.addFolder(A, 'Odd');
  await fx.addFile(A, 'Odd/f [P120].pdf');
  for (const type of ['link', 'email', 'circle', 'room', 'deck'] as const) await fx.share({ owner: A, fileId: odd, type, with: 'u1' });
  await fx.exec(`UPDATE ${fx.prefix}share SET share_with = 'u1' WHERE file_source = ?`, [odd]);
  await sharedFolder(fx, 'Cal', 121, { type: 'user', with: 'u1' });
  await fx.exec(`UPDATE ${fx.prefix}share SET item_type = 'calendar' WHERE file_target = '/Cal'`);

  // uid case: the stored uid is `Alice`; a share naming `alice` is not hers.
  await sharedFolder(fx, 'ForAlice', 122, { type: 'user', with: 'Alice' });
  await sharedFolder(fx, 'ForLowerAlice', 123, { type: 'user', with: 'alice' });

  // Disabled sharers: `core`/`enabled` is anything but 'true' (Nextcloud compares with 'true').
  const weirds = await fx.addFile('weird', 'w [P124].pdf');
  await fx.share({ owner: 'weird', fileId: weirds, type: 'user', with: 'u1' });
  await fx.addFile(A, 'Reshared/r [P125].pdf');
  await fx.share({ owner: A, initiator: 'resharer', fileId: await fx.addFolder(A, 'Reshared'), type: 'user', with: 'u1' });

  // Markers.
  await fx.addFile(A, 'Mk/twice [P126] and [P126].pdf');
  await fx.addFile(A, 'Mk/[P12].pdf');
  await fx.addFile(A, 'Mk/open [P1 and P1].pdf');
  await fx.addFile(A, 'Mk/[P[P127].pdf');
  await fx.addFile(A, 'Mk/x1].pdf');
  await fx.addFile(A, 'Mk/50% [P128] a_b [P129].pdf');
  await fx.addFile(A, 'Mk/huge [P9007199254740993].pdf');
  await fx.addFile(A, 'Mk/arabic [P\u0661\u0662\u0663].pdf');
  await fx.addFile(A, 'Mk/spaced [P 130].pdf');
  await fx.addFile(A, `Mk/${LONG_NAME}`);
  await fx.addFolder(A, 'Shared [P132]');
  await fx.addFile(A, 'Shared [P132]/plain.pdf');
  await fx.share({ owner: A, fileId: await fx.addFolder(A, 'Shared [P132]'), type: 'user', with: 'u1' });

  // Storage ids: `home::` + 58 characters is 64 (kept), + 59 is 65 (stored as md5).
  await fx.addFile(UID_58, 'h [P133].pdf');
  await fx.addFile(UID_59, 'k [P134].pdf');
  // A file of another account's home whose uid is a prefix of the archive account's.
  await fx.addUser('ar');
  await fx.addFile('ar', 'a [P135].pdf');

  // A recipient renames a shared file's mount point to carry another document's marker.
  const forged = await fx.addFile(A, 'Forge/plain [P150].pdf');
  await fx.addFile(A, 'Forge/secret [P151].pdf');
  await fx.share({ owner: A, fileId: forged, type: 'user', with: 'u1', target: '/stolen [P151].pdf' });

  // LDAP accounts whose entry is gone (user_ldap marks them isDeleted = 1; §7, §11.11).
  await fx.addUser('ldapgone');
  await fx.setUserPreference('ldapgone', 'user_ldap', 'isDeleted', '1');
  await fx.share({ owner: 'ldapgone', fileId: await fx.addFile('ldapgone', 'g [P152].pdf'), type: 'user', with: 'u1' });
  await fx.addFile(A, 'ByGone/b [P153].pdf');
  await fx.share({ owner: A, initiator: 'ldapgone', fileId: await fx.addFolder(A, 'ByGone'), type: 'user', with: 'u1' });

  // Expiry at an exact instant, for the clock tests.
  await sharedFolder(fx, 'Midnight', 136, { type: 'user', with: 'u1', expiration: '2030-01-01 00:00:00' });
  const gone = [...fx.model.files.values()].find((f) => f.path === 'files/Gone');
  await fx.moveNode(A, gone?.fileid ?? -1, 'files_trashbin/files/Gone.d1700000000');
}

const dialects = await reachableDialects('host review');

// Also with the marker index on (serve's setting): it must not open any of these doors.
const indexModes = dialects.flatMap((dialect) => [[dialect, 'off'] as const, [dialect, 'on'] as const]);

describe.each(indexModes)('host adapter review on %s, marker index %s', (dialect, indexMode) => {
  const world = useHostWorld(dialect, buildReviewWorld, {}, { markerIndex: indexMode === 'on' });

  test('a shared folder named with LIKE wildcards covers only its own descendants', async () => {
    expect(await ask(world.host, 'visible', 'u1', [101, 102, 103, 104, 105, 106, 107])).toEqual({
      101: '/a_b/f [P101].pdf',
      103: '/50%/f [P103].pdf',
      105: '/x!y/f [P105].pdf',
    });
  });

  test('a group named with a LIKE wildcard does not reach a member of a look-alike group', async () => {
    expect(await ask(world.host, 'visible', 'u1', [108])).toEqual({});
    expect(await ask(world.host, 'visible', 'u2', [108])).toEqual({ 108: '/ToG/f [P108].pdf' });
  });

  test('the same path in another storage is not under the shared folder', async () => {
    expect(await ask(world.host, 'visible', 'u1', [109])).toEqual({});
    expect(await ask(world.host, 'foreign', 'u1', [109])).toEqual({});
  });

  test('descendants of a shared folder moved to the trash are not visible', async () => {
    expect(await ask(world.host, 'visible', 'u1', [110])).toEqual({});
    expect(await ask(world.host, 'owned', A, [110])).toEqual({});
  });

  test('an override row alone grants nothing: group the user is not in, or a user share to someone else', async () => {
    expect(await ask(world.host, 'visible', 'u1', [111, 112])).toEqual({});
    expect(await ask(world.host, 'visible', 'u2', [111, 112])).toEqual({ 111: '/OtherGroup/f [P111].pdf', 112: '/ToU2/f [P112].pdf' });
  });

  test('the override row decides acceptance: pending for one member only', async () => {
    expect(await ask(world.host, 'visible', 'u1', [113])).toEqual({});
    expect(await ask(world.host, 'visible', 'u2', [113])).toEqual({ 113: '/PendU1/f [P113].pdf' });
  });

  test("expiry is the group row's, not the override row's", async () => {
    expect(await ask(world.host, 'visible', 'u1', [114, 115])).toEqual({ 115: '/LiveG/f [P115].pdf' });
  });

  test('super shares: a left share does not block, pending + accepted mounts, rejected blocks unless expired', async () => {
    expect(await ask(world.host, 'visible', 'u1', [116, 117, 118, 119])).toEqual({
      116: '/LeftUser-direct/f [P116].pdf',
      117: '/PendAcc/f [P117].pdf',
      119: '/RejExp/f [P119].pdf',
    });
  });

  test('link, e-mail, circle, room and deck rows naming the user, and non-file items, never mount', async () => {
    expect(await ask(world.host, 'visible', 'u1', [120, 121])).toEqual({});
    expect(await ask(world.host, 'foreign', 'u1', [120, 121])).toEqual({});
  });

  test('uids compare case-sensitively: Alice sees her share, alice and ALICE see nothing', async () => {
    expect(await ask(world.host, 'visible', 'Alice', [122, 123])).toEqual({ 122: '/ForAlice/f [P122].pdf' });
    expect(await ask(world.host, 'visible', 'alice', [122, 123])).toEqual({ 123: '/ForLowerAlice/f [P123].pdf' });
    expect(await ask(world.host, 'visible', 'ALICE', [122, 123])).toEqual({});
    expect(await ask(world.host, 'owned', 'ARC', [101])).toEqual({});
    expect(await ask(world.host, 'owned', A, [101])).toEqual({ 101: '/a_b/f [P101].pdf' });
  });

  test('an enabled preference other than true means disabled (account and hidden shares)', async () => {
    expect((await world.host.findAccount('weird'))?.enabled).toBe(false);
    expect((await world.host.findAccount('u1'))?.enabled).toBe(true);
    // No hide_disabled_user_shares row: hidden, as the host's newer default is 'yes'.
    expect(await ask(world.host, 'foreign', 'u1', [124])).toEqual({});
    // A disabled initiator hides the reshare too.
    expect(await ask(world.host, 'visible', 'u1', [125, 101])).toEqual({ 101: '/a_b/f [P101].pdf' });
    for (const value of ['yes', 'true', '1']) {
      await world.fx.setAppConfig('files_sharing', 'hide_disabled_user_shares', value);
      expect(await ask(world.host, 'foreign', 'u1', [124])).toEqual({});
    }
    await world.fx.setAppConfig('files_sharing', 'hide_disabled_user_shares', 'no');
    try {
      expect(await ask(world.host, 'foreign', 'u1', [124])).toEqual({ 124: '/w [P124].pdf' });
      expect(await ask(world.host, 'visible', 'u1', [125])).toEqual({ 125: '/Reshared/r [P125].pdf' });
    } finally {
      await world.fx.exec(`DELETE FROM ${world.fx.prefix}appconfig WHERE appid = 'files_sharing' AND configkey = 'hide_disabled_user_shares'`);
    }
  });

  test('an owner or resharer whose LDAP entry is gone gives nothing, whatever hide_disabled_user_shares says', async () => {
    await world.fx.setAppConfig('files_sharing', 'hide_disabled_user_shares', 'no');
    try {
      expect(await ask(world.host, 'foreign', 'u1', [152])).toEqual({});
      expect(await ask(world.host, 'visible', 'u1', [153])).toEqual({});
    } finally {
      await world.fx.exec(`DELETE FROM ${world.fx.prefix}appconfig WHERE appid = 'files_sharing' AND configkey = 'hide_disabled_user_shares'`);
    }
  });

  test('files_sharing without an enabled row is not installed: no share mounts', async () => {
    await world.fx.exec(`DELETE FROM ${world.fx.prefix}appconfig WHERE appid = 'files_sharing' AND configkey = 'enabled'`);
    try {
      expect(await ask(world.host, 'visible', 'u1', [101])).toEqual({});
      expect(await ask(world.host, 'owned', A, [101])).toEqual({ 101: '/a_b/f [P101].pdf' });
    } finally {
      await world.fx.setAppConfig('files_sharing', 'enabled', 'yes');
    }
    expect(await ask(world.host, 'visible', 'u1', [101])).toEqual({ 101: '/a_b/f [P101].pdf' });
  });

  test('markers: twice in a name, [P12] is not [P1], broken and non-ASCII forms do not count', async () => {
    expect(await ask(world.host, 'owned', A, [126])).toEqual({ 126: '/Mk/twice [P126] and [P126].pdf' });
    expect(await ask(world.host, 'owned', A, [1])).toEqual({});
    expect(await ask(world.host, 'owned', A, [12, 127])).toEqual({ 12: '/Mk/[P12].pdf', 127: '/Mk/[P[P127].pdf' });
    expect(await ask(world.host, 'owned', A, [128, 129])).toEqual({ 128: '/Mk/50% [P128] a_b [P129].pdf', 129: '/Mk/50% [P128] a_b [P129].pdf' });
    expect(await ask(world.host, 'owned', A, [130, 9007199254740992])).toEqual({});
  });

  test('a 250-character name with the marker in its middle', async () => {
    expect(LONG_NAME).toHaveLength(250);
    expect(await ask(world.host, 'owned', A, [131])).toEqual({ 131: `/Mk/${LONG_NAME}` });
  });

  test("the marker is read from the owner's file name, never from the recipient's mount point", async () => {
    expect(await ask(world.host, 'visible', 'u1', [150, 151])).toEqual({ 150: '/stolen [P151].pdf' });
  });

  test('a marker in a shared folder name does not make its files documents', async () => {
    expect(await ask(world.host, 'visible', 'u1', [132])).toEqual({});
    expect(await ask(world.host, 'owned', A, [132])).toEqual({});
  });

  test('home storage ids: 64 characters kept, 65 stored as md5; a uid prefix owns nothing', async () => {
    expect(await ask(world.host, 'owned', UID_58, [133])).toEqual({ 133: '/h [P133].pdf' });
    expect(await ask(world.host, 'owned', UID_59, [134])).toEqual({ 134: '/k [P134].pdf' });
    expect(await ask(world.host, 'owned', A, [133, 134, 135])).toEqual({});
  });

  test('expiry compares naive UTC timestamps: the instant of expiry is already expired', async () => {
    const at = async (iso: string): Promise<Record<number, string>> => {
      const clocked = await openHost({ dbUrl: world.fx.dbUrl, tablePrefix: world.fx.prefix }, { now: () => new Date(iso) });
      try {
        return await ask(clocked, 'visible', 'u1', [136]);
      } finally {
        await clocked.close();
      }
    };
    expect(await at('2029-12-31T23:59:59Z')).toEqual({ 136: '/Midnight/f [P136].pdf' });
    // 00:30 in UTC+01:00 is still 23:30 UTC on the day before.
    expect(await at('2030-01-01T00:30:00+01:00')).toEqual({ 136: '/Midnight/f [P136].pdf' });
    expect(await at('2030-01-01T00:00:00Z')).toEqual({});
    expect(await at('2030-01-01T00:00:00.900Z')).toEqual({});
  });
});

test('a table prefix that is not a plain identifier is refused before any statement runs', async () => {
  for (const tablePrefix of ['oc_users u; --', 'oc_"', 'oc.', "oc_'"]) {
    await expect(openHost({ dbUrl: 'sqlite:///nonexistent/never-opened.db', tablePrefix })).rejects.toMatchObject({ code: 'host_config' });
  }
});

describe.each(dialects)('nested groups with a cycle on %s', (dialect) => {
  const world = useHostWorld(dialect, async (fx) => {
    await fx.addUser(A);
    await fx.addUser('u1');
    await fx.addGroup('leaf', ['u1']);
    await fx.addSubgroup('mid', 'leaf');
    await fx.addSubgroup('top', 'mid');
    await fx.addSubgroup('leaf', 'top');
    await sharedFolder(fx, 'Top', 140, { type: 'group', with: 'top' });
    await sharedFolder(fx, 'Leaf', 141, { type: 'group', with: 'leaf' });
  });

  test('the ancestor walk ends and reaches the top group; shares reach direct members only', async () => {
    expect(await world.host.groupsOf('u1')).toEqual(['leaf', 'mid', 'top']);
    // The host's share provider asks for direct groups (getUserGroupIds): nesting passes no share down.
    expect(await ask(world.host, 'visible', 'u1', [140, 141])).toEqual({ 141: '/Leaf/f [P141].pdf' });
  });
});
