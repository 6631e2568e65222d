/**
 * Verdicts that name the real cause (`why`, `search --explain`, Try a search), on SQLite,
 * PostgreSQL and MariaDB: a disabled account, and the share rows that exist but do not mount.
 */
import { describe, expect, test } from '@jest/globals';
import { type DocumentVerdict, explanationIn, explanationMessage, verdictOfDocument } from '../src/core/search/verdicts.js';

/** The explanation in English, as logs and `--json` write it. */
const explanationOf = (...args: Parameters<typeof explanationMessage>): string | null => explanationIn(explanationMessage(...args), null);
import { reachableDialects } from './support/host-fixtures/dialects.js';
import type { HostFixture } from './support/host-fixtures/index.js';
import { useContextWorld } from './support/host-fixtures/host-world.js';

const A = 'archive';

async function build(fx: HostFixture): Promise<void> {
  await fx.addUser(A);
  await fx.addUser('anna', { email: 'Anna.Roe@Example.org' });
  await fx.addUser('jo', { email: 'shared@example.org' });
  await fx.addUser('kim', { email: 'shared@example.org' });
  await fx.addUser('erik', { enabled: false });
  await fx.setAppConfig('docs_sync', 'target_user', A);
  // A folder shared with the disabled erik; a file of the archive account nobody received.
  await fx.addFile(A, 'ForErik/e [P36].pdf');
  await fx.share({ owner: A, fileId: await fx.addFolder(A, 'ForErik'), type: 'user', with: 'erik' });
  await fx.addFile(A, 'Private/p [P1].pdf');
  // The causes support staff meet (issue 12 §5), each for anna, each on its own document.
  await fx.addUser('bob');
  await fx.addUser('dora', { enabled: false });
  await fx.addGroup('staff', ['anna', 'bob']);
  await fx.addGroup('accounting', ['bob']);
  await fx.addFile(A, 'Paperless/Invoices/inv [P411].pdf');
  await fx.share({ owner: A, fileId: await fx.addFolder(A, 'Paperless/Invoices'), type: 'user', with: 'anna', accepted: 0 });
  await fx.addFile(A, 'Expired/e [P415].pdf');
  await fx.share({ owner: A, fileId: await fx.addFolder(A, 'Expired'), type: 'user', with: 'anna', expiration: '2020-01-01 00:00:00' });
  await fx.addFile(A, 'Staff/s [P412].pdf');
  const staff = await fx.share({ owner: A, fileId: await fx.addFolder(A, 'Staff'), type: 'group', with: 'staff' });
  await fx.overrideGroupShare(staff, 'anna', { permissions: 0 });
  await fx.addFile(A, 'Accounting/a [P413].pdf');
  await fx.share({ owner: A, fileId: await fx.addFolder(A, 'Accounting'), type: 'group', with: 'accounting' });
  const reshared = await fx.addFolder(A, 'Reshare');
  await fx.addFile(A, 'Reshare/r [P414].pdf');
  await fx.share({ owner: A, fileId: reshared, type: 'user', with: 'dora' });
  await fx.share({ owner: A, initiator: 'dora', fileId: reshared, type: 'user', with: 'anna' });
  const declined = await fx.addFile(A, 'Declined/d [P416].pdf');
  await fx.share({ owner: A, fileId: declined, type: 'user', with: 'anna', accepted: 2 });
  await fx.addFile(A, 'Nowhere/n [P417].pdf');
  // Pending for anna on the folder, and the parent shared with a group she is not in: the pending share is nearer.
  const parent = await fx.addFolder(A, 'Both');
  await fx.addFile(A, 'Both/Inner/b [P418].pdf');
  await fx.share({ owner: A, fileId: parent, type: 'group', with: 'accounting' });
  await fx.share({ owner: A, fileId: await fx.addFolder(A, 'Both/Inner'), type: 'user', with: 'anna', accepted: 0 });
  await fx.addTrashFile(A, 'inv [P8].pdf');
  await fx.addFile(A, 'ForAnna/f [P419].pdf');
  await fx.share({ owner: A, fileId: await fx.addFolder(A, 'ForAnna'), type: 'user', with: 'anna' });
}

const dialects = await reachableDialects('verdict causes');

describe.each(dialects)('verdicts name the cause on %s', (dialect) => {
  const world = useContextWorld(dialect, build);
  const why = (user: string, id: number): Promise<DocumentVerdict> => verdictOfDocument(world.ctx, user, id);

  test('a disabled account opens nothing: not shared, and the explanation says it is disabled', async () => {
    const { item } = await why('erik', 36);
    expect(item).toMatchObject({ verdict: 'not shared', path: '/ForErik/e [P36].pdf', owner: A, cause: { kind: 'account disabled' } });
    expect(item.explanation).toContain("erik's account is disabled");
    expect(item.explanation).not.toContain('share the file');
    const none = await why('erik', 999);
    expect(none.item.verdict).toBe('no file');
    expect(none.item.explanation).toContain("erik's account is disabled");
  });

  test.each([
    [411, 'pending', 'anna has not accepted the share of /Paperless/Invoices from archive'],
    [415, 'expired', 'the share of /Expired from archive with anna expired on 2020-01-01'],
    [412, 'left', 'anna left the share of /Staff with group staff'],
    [413, 'not member', '/Accounting is shared with group accounting; anna is not a member'],
    [414, 'disabled sharer', 'comes from dora, whose account is disabled'],
    [416, 'declined', 'anna declined the share of /Declined/d [P416].pdf from archive'],
    [418, 'pending', 'anna has not accepted the share of /Both/Inner from archive'],
  ] as const)('document %i: not shared, and the explanation names the %s share', async (id, kind, text) => {
    const { item } = await why('anna', id);
    expect(item.verdict).toBe('not shared');
    expect(item.cause).toMatchObject({ kind: 'share', obstacle: { kind } });
    expect(item.explanation).toContain(text);
    expect(item.explanation).not.toContain('share the file or a folder holding it, read-only');
  });

  test('without any share row the advice stays: share it', async () => {
    const { item } = await why('anna', 417);
    expect(item).toMatchObject({ verdict: 'not shared', cause: null });
    expect(item.explanation).toContain('share the file or a folder holding it, read-only, with anna');
  });

  test("a file in the archive account's trash: no file, and the explanation says to restore it", async () => {
    const { item } = await why('anna', 8);
    expect(item).toMatchObject({ verdict: 'no file', cause: { kind: 'trash' } });
    expect(item.explanation).toContain('inv [P8].pdf is in its trash');
  });

  test("Try a search's wording names the cause without file or folder names", async () => {
    const { item } = await why('anna', 411);
    const line = explanationOf(item.verdict, 411, 'anna', A, undefined, item.cause, false);
    expect(line).toContain('anna has not accepted the share of a folder holding it from archive');
    expect(line).not.toContain('/Paperless');
    const trash = await why('anna', 8);
    expect(explanationOf(trash.item.verdict, 8, 'anna', A, undefined, trash.item.cause, false)).not.toContain('inv [P8].pdf');
  });

  test("the disabled resharer's share shows once the host is told to show such shares", async () => {
    await world.fx.setAppConfig('files_sharing', 'hide_disabled_user_shares', 'no');
    try {
      expect((await why('anna', 414)).item).toMatchObject({ verdict: 'shown', path: '/Reshare/r [P414].pdf' });
    } finally {
      await world.fx.exec(`DELETE FROM ${world.fx.prefix}appconfig WHERE appid = 'files_sharing' AND configkey = 'hide_disabled_user_shares'`);
    }
  });

  test('the user may be named by their e-mail login, as serve accepts it; an address of two accounts names none', async () => {
    const answer = await why('anna.roe@example.org', 411);
    expect(answer.user).toBe('anna');
    expect(answer.item.cause).toMatchObject({ kind: 'share', obstacle: { kind: 'pending' } });
    await expect(why('shared@example.org', 411)).rejects.toMatchObject({ code: 'unknown_user' });
    await expect(why('nobody@example.org', 411)).rejects.toMatchObject({ code: 'unknown_user' });
  });

  test('the archive account disabled: its own files are not shown to itself, the explanation says why', async () => {
    expect((await why(A, 1)).item.verdict).toBe('shown');
    expect((await why('anna', 419)).item.verdict).toBe('shown');
    await world.fx.setUserPreference(A, 'core', 'enabled', 'false');
    try {
      const { item } = await why(A, 1);
      expect(item).toMatchObject({ verdict: 'not shared', path: '/Private/p [P1].pdf', cause: { kind: 'account disabled' } });
      expect(item.explanation).toContain(`${A}'s account is disabled`);
      // Its shares are a disabled owner's: hidden (the version is unknown), and the cause is named.
      const shared = await why('anna', 419);
      expect(shared.item).toMatchObject({ verdict: 'not shared', cause: { kind: 'share', obstacle: { kind: 'disabled sharer', disabledAccount: A } } });
      expect(shared.item.explanation).toContain(`comes from ${A}, whose account is disabled`);
      // The release is unknown (a database URL): the explanation says the unset key was taken to hide, and how to show them.
      expect(shared.item.explanation).toContain('the Nextcloud release is not known here');
      expect(shared.item.explanation).toContain('occ config:app:set files_sharing hide_disabled_user_shares --value no');
      await world.fx.setAppConfig('files_sharing', 'hide_disabled_user_shares', 'yes');
      const set = await why('anna', 419);
      expect(set.item.explanation).not.toContain('not known here');
      await world.fx.exec(`DELETE FROM ${world.fx.prefix}appconfig WHERE appid = 'files_sharing' AND configkey = 'hide_disabled_user_shares'`);
    } finally {
      await world.fx.setUserPreference(A, 'core', 'enabled', 'true');
    }
  });
});
