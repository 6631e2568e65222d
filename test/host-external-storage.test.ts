/**
 * External storage (rules/external-storage.ts) on the host fixture, on every reachable
 * database: which Local storages are the archive account's, for whom they are mounted
 * (applicable users, direct group members, membership changes), where each sees them, shares
 * of folders on them, the archive account's own folder hidden under a mount point, and the
 * storages the product cannot answer for (another backend, credentials, `$user`), which show
 * nothing.
 */
import { describe, expect, test } from '@jest/globals';
import { externalFactsOf, externalViews, localStorageId, mountedFor, type ExternalRows } from '../src/core/host/rules/external-storage.js';
import { render } from '../src/core/i18n/catalog.js';
import { explanationMessage } from '../src/core/search/verdicts.js';
import { chainText, whoCanOpen } from '../src/core/search/who.js';
import { reachableDialects } from './support/host-fixtures/dialects.js';
import { askPaths, useContextWorld, useHostWorld } from './support/host-fixtures/host-world.js';
import type { HostFixture } from './support/host-fixtures/index.js';

const A = 'archive';

async function folderId(fx: HostFixture, storage: number, path: string): Promise<number> {
  const rows = await fx.all(`SELECT fileid FROM ${fx.prefix}filecache WHERE storage = ? AND path = ?`, [storage, path]);
  return Number(rows[0]?.fileid);
}

async function build(fx: HostFixture): Promise<void> {
  for (const uid of [A, 'anna', 'bob', 'carl']) await fx.addUser(uid);
  await fx.addGroup('team', ['anna']);
  await fx.addFile(A, 'Ext/Hidden [P6].pdf');
  await fx.addFile(A, 'Home/G [P7].pdf');
  const ext = await fx.addExternalStorage({ mountPoint: '/Ext', datadir: '/srv/ext1', users: [A], options: { enable_sharing: 'true' } });
  await fx.addExternalFile(ext.storage, 'A [P1].pdf');
  await fx.addExternalFile(ext.storage, 'Sub/B [P2].pdf');
  await fx.addExternalFile(ext.storage, 'Shared/E [P5].pdf');
  await fx.share({ owner: A, fileId: await folderId(fx, ext.storage, 'Shared'), type: 'user', with: 'bob', target: '/Shared' });
  // Shared by an account the storage is not mounted for: Nextcloud cannot find the node in its owner's folders.
  await fx.addExternalFile(ext.storage, 'Lost/F [P8].pdf');
  await fx.share({ owner: 'bob', fileId: await folderId(fx, ext.storage, 'Lost'), type: 'user', with: 'carl', target: '/Lost' });
  const team = await fx.addExternalStorage({ mountPoint: '/Team drive', datadir: '/srv/ext2/', users: [A], groups: ['team'], options: { readonly: 'true' } });
  await fx.addExternalFile(team.storage, 'C [P3].pdf');
  const carls = await fx.addExternalStorage({ mountPoint: '/Mine', datadir: '/srv/ext3', users: ['carl'] });
  await fx.addExternalFile(carls.storage, 'D [P4].pdf');
  const all = await fx.addExternalStorage({ mountPoint: '/All', datadir: '/srv/all' });
  await fx.addExternalFile(all.storage, 'H [P9].pdf');
  // Storages whose content the database cannot answer for: never shown.
  await fx.addExternalStorage({ mountPoint: '/Smb', datadir: '/srv/ext1', users: [A, 'anna'], backend: 'smb', auth: 'password::logincredentials' });
  await fx.addExternalStorage({ mountPoint: '/Per user', datadir: '/srv/ext2/$user', users: [A, 'anna'] });
}

const IDS = [1, 2, 3, 4, 5, 6, 7, 8, 9];

describe.each(await reachableDialects('host external storage'))('external storage on %s', (dialect) => {
  const world = useHostWorld(dialect, build);

  test("the archive account's own files include its Local external storages, at their mount points; its home folder under a mount point is hidden", async () => {
    expect(await askPaths(world.host, 'owned', A, A, IDS)).toEqual({
      1: '/Ext/A [P1].pdf',
      2: '/Ext/Sub/B [P2].pdf',
      3: '/Team drive/C [P3].pdf',
      5: '/Ext/Shared/E [P5].pdf',
      7: '/Home/G [P7].pdf',
      8: '/Ext/Lost/F [P8].pdf',
      9: '/All/H [P9].pdf',
    });
    expect(await askPaths(world.host, 'visible', A, A, IDS)).toEqual(await askPaths(world.host, 'owned', A, A, IDS));
  });

  test('a member of an applicable group sees the storage (read-only included); a share of a folder on it mounts for its recipient when its owner has the storage; others see nothing', async () => {
    expect(await askPaths(world.host, 'visible', 'anna', A, IDS)).toEqual({ 3: '/Team drive/C [P3].pdf', 9: '/All/H [P9].pdf' });
    expect(await askPaths(world.host, 'visible', 'bob', A, IDS)).toEqual({ 5: '/Shared/E [P5].pdf', 9: '/All/H [P9].pdf' });
    expect(await askPaths(world.host, 'visible', 'carl', A, IDS)).toEqual({ 9: '/All/H [P9].pdf' });
  });

  test("a storage mounted for another user alone is that user's own (question 3)", async () => {
    expect(await askPaths(world.host, 'foreign', 'carl', A, IDS)).toEqual({ 4: '/Mine/D [P4].pdf' });
    expect(await askPaths(world.host, 'foreign', 'anna', A, IDS)).toEqual({});
  });

  test('who: the applicable users and group members, every account for a storage mounted for every user, with their mount points', async () => {
    const reach = await world.host.externalReach(A);
    expect(reach.accounts).toEqual(['anna', A, 'bob', 'carl']);
    expect(reach.views.get('anna')?.map((v) => v.mountPoint)).toEqual(['/Team drive', '/All']);
    expect(reach.views.get('bob')?.map((v) => v.mountPoint)).toEqual(['/All']);
  });

  test('check names the storages the database cannot answer for (another backend, a placeholder); their files are never shown', async () => {
    expect(await world.host.unreadableExternal(A)).toEqual([
      { mountPoint: '/Smb', reason: 'backend' },
      { mountPoint: '/Per user', reason: 'placeholder' },
    ]);
    expect(await world.host.unreadableExternal('carl')).toEqual([]);
  });

  test('a membership change counts at the next question', async () => {
    await world.fx.exec(`DELETE FROM ${world.fx.prefix}group_user WHERE gid = 'team' AND uid = 'anna'`);
    await world.fx.exec(`INSERT INTO ${world.fx.prefix}group_user (gid, uid) VALUES ('team', 'carl')`);
    expect(await askPaths(world.host, 'visible', 'anna', A, IDS)).toEqual({ 9: '/All/H [P9].pdf' });
    expect(await askPaths(world.host, 'visible', 'carl', A, IDS)).toEqual({ 3: '/Team drive/C [P3].pdf', 9: '/All/H [P9].pdf' });
  });
});

describe('external mounts as files_external resolves them', () => {
  const raw = (rows: Record<string, unknown>[], enabled = 'yes'): ExternalRows => ({ installed: true, enabled, rows });
  const facts = externalFactsOf(
    raw([
      { k: 'xm', a: 1, b: 1, t1: 'Ext/', t2: 'local', t3: 'null::null' },
      { k: 'xa', a: 1, b: 1, t1: null },
      { k: 'xc', a: 1, t1: 'datadir', t2: '/srv//a' },
      { k: 'xo', a: 1, t1: 'readonly', t2: 'true' },
      { k: 'xo', a: 1, t1: 'enable_sharing', t2: '"0"' },
      { k: 'xm', a: 2, b: 1, t1: '/S', t2: 'smb', t3: 'password::password' },
      { k: 'xa', a: 2, b: 2, t1: 'g' },
      { k: 'xm', a: 3, b: 2, t1: '/Mine', t2: 'local', t3: 'password::userprovided' },
      { k: 'xa', a: 3, b: 3, t1: 'u' },
      { k: 'xm', a: 4, b: 1, t1: '/Ext', t2: 'local', t3: 'null::null' },
      { k: 'xa', a: 4, b: 3, t1: 'u' },
      { k: 'xc', a: 4, t1: 'datadir', t2: '/srv/b' },
      { k: 'xg', t1: 'g', t2: 'u' },
    ]),
  );

  test('every user for an applicable row without user or group; direct groups; options as PHP reads them', () => {
    const [ext, smb, personal] = facts.mounts;
    expect(ext).toMatchObject({ mountPoint: '/Ext', everyone: true, storageId: 'local::/srv/a/', readonly: true, sharing: false, undecidable: null });
    expect(smb).toMatchObject({ undecidable: 'backend', storageId: null });
    expect(personal).toMatchObject({ undecidable: 'credentials', type: 2 });
    expect(smb !== undefined && mountedFor(facts, smb, 'u')).toBe(true);
    expect(smb !== undefined && mountedFor(facts, smb, 'v')).toBe(false);
  });

  test('two storages at one mount point: neither is taken', () => {
    expect(externalViews(facts, 'u')).toEqual([]);
    expect(externalViews(facts, 'v').map((v) => v.storageId)).toEqual(['local::/srv/a/']);
  });

  test('files_external disabled: nothing is mounted', () => {
    const off = externalFactsOf(
      raw(
        [
          { k: 'xm', a: 1, b: 1, t1: '/Ext', t2: 'local', t3: 'null::null' },
          { k: 'xa', a: 1, b: 1, t1: null },
        ],
        'no',
      ),
    );
    expect(externalViews(off, 'u')).toEqual([]);
  });

  test("Local's storage id: `//` made `/`, a trailing `/`, md5 past 64 characters", () => {
    expect(localStorageId('/srv/x')).toBe('local::/srv/x/');
    expect(localStorageId('/srv//x/')).toBe('local::/srv/x/');
    expect(localStorageId(`/${'d'.repeat(70)}`)).toMatch(/^[0-9a-f]{32}$/);
  });
});

describe('why names the storages it cannot answer for', () => {
  test('a document without a file the database can answer for, while the archive account has such storages', () => {
    const storages = [
      { mountPoint: '/Smb', reason: 'backend' as const },
      { mountPoint: '/Per user', reason: 'placeholder' as const },
    ];
    const message = explanationMessage('no file', 9, 'anna', 'archive', undefined, { kind: 'unreadable storage', storages });
    expect(message === null ? null : render(message)).toBe(
      'Document 9: no file of the archive account archive that the database can answer for carries [P9] in its name; ' +
        'its external storage /Smb cannot be read from the database (a backend other than Local, whose content lies on another server); ' +
        'its external storage /Per user cannot be read from the database (a placeholder such as $user in its configuration: each user gets another storage): ' +
        'a file there is shown to nobody.',
    );
    expect(message === null ? null : render(message, 'de')).toContain('externer Speicher /Smb');
  });
});

describe("who's chain for a share of a folder on an external storage", () => {
  const world = useContextWorld('sqlite', build);

  test('names the folder by its path on the storage (it has no files/ to cut)', async () => {
    world.ctx.settings.update({ archive_owner: A });
    const answer = await whoCanOpen(world.ctx, 5);
    const bob = answer.accounts.find((one) => one.account === 'bob');
    expect(bob?.path).toBe('/Shared/E [P5].pdf');
    expect(bob?.chain === null || bob?.chain === undefined ? '' : chainText(bob.chain)).toContain('share of /Shared from archive');
  });
});
