/**
 * `who <id>` (issue 27) on SQLite, PostgreSQL and MariaDB: every account that opens the
 * document's file, at the path `why` gives, through the share that gives it; `--include-blocked`
 * adds those a share reaches that cannot open it, with `why`'s cause; and the invariant
 * who(id) ∋ U ⇔ why(U, id) = shown, paths equal, for every account of the fixture.
 */
import { describe, expect, test } from '@jest/globals';
import { verdictOfDocument } from '../src/core/search/verdicts.js';
import { chainText, whoCanOpen } from '../src/core/search/who.js';
import { reachableDialects } from './support/host-fixtures/dialects.js';
import type { HostFixture } from './support/host-fixtures/index.js';
import { useContextWorld } from './support/host-fixtures/host-world.js';

const A = 'archive';
const USERS = ['anna', 'bob', 'carol', 'dora', 'erik', 'finn', 'gina'];

async function build(fx: HostFixture): Promise<void> {
  await fx.addUser(A);
  for (const uid of USERS) await fx.addUser(uid, uid === 'erik' ? { enabled: false } : {});
  await fx.setAppConfig('docs_sync', 'target_user', A);
  await fx.addGroup('staff', ['bob', 'carol', 'erik']);
  // Document 412: in /Docs/Tax, Docs shared with anna, Tax with group staff, re-shared by anna to dora.
  await fx.addFile(A, 'Docs/Tax/return [P412].pdf');
  const docs = await fx.addFolder(A, 'Docs');
  const tax = await fx.addFolder(A, 'Docs/Tax');
  await fx.share({ owner: A, fileId: docs, type: 'user', with: 'anna' });
  const staff = await fx.share({ owner: A, fileId: tax, type: 'group', with: 'staff' });
  await fx.overrideGroupShare(staff, 'carol', { target: '/Steuer' });
  await fx.share({ owner: A, initiator: 'anna', fileId: docs, type: 'user', with: 'dora' });
  // Pending for finn; gina's share collides with a folder of the same name from bob.
  await fx.share({ owner: A, fileId: tax, type: 'user', with: 'finn', accepted: 0 });
  await fx.share({ owner: A, fileId: tax, type: 'user', with: 'gina', target: '/Tax' });
  await fx.share({ owner: 'bob', fileId: await fx.addFolder('bob', 'Tax'), type: 'user', with: 'gina', target: '/Tax' });
  // Document 7 has no file.
}

const dialects = await reachableDialects('who');

describe.each(dialects)('who can open a document on %s', (dialect) => {
  const world = useContextWorld(dialect, build);

  test('every account that opens the file, its path and the share that gives it', async () => {
    const answer = await whoCanOpen(world.ctx, 412);
    expect(answer.files).toEqual(['/Docs/Tax/return [P412].pdf']);
    expect(answer.accounts.map((e) => [e.account, e.path, e.chain === null ? null : chainText(e.chain)])).toEqual([
      ['anna', '/Docs/Tax/return [P412].pdf', 'user share of /Docs from archive'],
      [A, '/Docs/Tax/return [P412].pdf', "owner (the archive account's own folders)"],
      ['bob', '/Tax/return [P412].pdf', 'group staff: share of /Docs/Tax from archive'],
      ['carol', '/Steuer/return [P412].pdf', 'group staff: share of /Docs/Tax from archive'],
      ['dora', '/Docs/Tax/return [P412].pdf', "user share of /Docs (a re-share by anna of archive's share)"],
    ]);
  });

  test('--include-blocked adds the accounts a share reaches, with the cause why names', async () => {
    const answer = await whoCanOpen(world.ctx, 412, { includeBlocked: true });
    const blocked = answer.accounts.filter((e) => e.blocked !== null);
    expect(blocked.map((e) => e.account)).toEqual(['erik', 'finn', 'gina']);
    expect(blocked.find((e) => e.account === 'erik')?.blocked).toContain("erik's account is disabled");
    expect(blocked.find((e) => e.account === 'finn')?.blocked).toContain('finn has not accepted the share of /Docs/Tax from archive');
    expect(blocked.find((e) => e.account === 'gina')?.blocked).toContain('and a share from bob all reach gina as /Tax');
  });

  test('--user and --group narrow the list', async () => {
    expect((await whoCanOpen(world.ctx, 412, { user: 'CAROL' })).accounts.map((e) => e.account)).toEqual(['carol']);
    expect((await whoCanOpen(world.ctx, 412, { group: 'staff', includeBlocked: true })).accounts.map((e) => e.account)).toEqual(['bob', 'carol', 'erik']);
    await expect(whoCanOpen(world.ctx, 412, { user: 'nobody' })).rejects.toMatchObject({ code: 'unknown_user' });
  });

  test('a document without a file lists nobody and says why', async () => {
    const answer = await whoCanOpen(world.ctx, 7);
    expect(answer.accounts).toEqual([]);
    expect(answer.noFile).toContain('no file of the archive account archive carries [P7]');
  });

  test('who ∋ U ⇔ why U = shown, at the same path, for every account', async () => {
    const listed = new Map((await whoCanOpen(world.ctx, 412)).accounts.map((e) => [e.account, e.path]));
    for (const uid of [A, ...USERS]) {
      const { item } = await verdictOfDocument(world.ctx, uid, 412);
      expect({ uid, listed: listed.get(uid) ?? null }).toEqual({ uid, listed: item.verdict === 'shown' ? item.path : null });
    }
  });
});
