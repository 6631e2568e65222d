/**
 * `who <id>` (issue 27) on SQLite, PostgreSQL and MariaDB: every account that opens the
 * document's file, at the path `why` gives, through the share that gives it; `--include-blocked`
 * adds those a share reaches that cannot open it, with `why`'s cause; and the invariant
 * who(id) ∋ U ⇔ why(U, id) = shown, paths equal, for every account of the fixture.
 */
import { describe, expect, test } from '@jest/globals';
import { verdictOfDocument } from '../src/core/search/verdicts.js';
import { chainText, whoAll, whoCanOpen, type WhoOptions } from '../src/core/search/who.js';
import type { ServiceContext } from '../src/core/context-types.js';
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
  // Document 7 has no file. 413 and 414 share a name; 414 has a copy nobody else sees; 415 two copies.
  await fx.addFile(A, 'Docs/both [P413][P414].pdf');
  await fx.addFolder(A, 'Other');
  await fx.addFile(A, 'Other/copy [P414].pdf');
  await fx.addFile(A, 'Docs/Tax/c [P415].pdf');
  await fx.addFile(A, 'Docs/c2 [P415].pdf');
}

/** `who --all`'s rows, and the union of `who <id>` over the documents, in the same shape and order. */
async function bothWays(ctx: ServiceContext, ids: readonly number[], options: Omit<WhoOptions, 'includeBlocked'> = {}): Promise<[string[], string[]]> {
  const all: string[] = [];
  await whoAll(ctx, options, (r) => all.push(`${r.documentId} ${r.account} ${r.path} ${chainText(r.chain)}`));
  const union: string[] = [];
  for (const id of ids) {
    for (const e of (await whoCanOpen(ctx, id, options)).accounts)
      union.push(`${id} ${e.account} ${e.path ?? ''} ${e.chain === null ? '' : chainText(e.chain)}`);
  }
  return [all, union];
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

  test('who ∋ U ⇔ why U = shown, at the same path, for every account and document', async () => {
    for (const id of [412, 413, 414, 415]) {
      const listed = new Map((await whoCanOpen(world.ctx, id)).accounts.map((e) => [e.account, e.path]));
      for (const uid of [A, ...USERS]) {
        const { item } = await verdictOfDocument(world.ctx, uid, id);
        expect({ id, uid, listed: listed.get(uid) ?? null }).toEqual({ id, uid, listed: item.verdict === 'shown' ? item.path : null });
      }
    }
  });

  test('who --all: the rows are the union of who <id> over every document, in document and account order', async () => {
    const ids = [412, 413, 414, 415];
    const [all, union] = await bothWays(world.ctx, ids);
    expect(all).toEqual(union);
    // A name with two markers counts for both documents; the older of two copies is named.
    expect(all.filter((r) => r.startsWith(`414 ${A} `))).toEqual([`414 ${A} /Docs/both [P413][P414].pdf owner (the archive account's own folders)`]);
    expect(all.filter((r) => r.startsWith('415 bob '))).toEqual(['415 bob /Tax/c [P415].pdf group staff: share of /Docs/Tax from archive']);
    for (const options of [{ group: 'staff' }, { user: 'Anna' }]) {
      const [narrowAll, narrowUnion] = await bothWays(world.ctx, ids, options);
      expect(narrowAll).toEqual(narrowUnion);
      expect(narrowAll.length).toBeGreaterThan(0);
    }
  });
});

/** A share to a group of 2 100 members: three statements of accounts, not 2 100 (members m0000…m2099). */
const MEMBERS = Array.from({ length: 2100 }, (_, i) => `m${String(i).padStart(4, '0')}`);
const DISABLED = 'm0005';
const LEFT = 'm0007';
const MOVED = 'm0009';
const PENDING = 'm0100';
const COLLIDING = 'm1500';
const DIRECT = 'm2050';

async function buildBigGroup(fx: HostFixture): Promise<void> {
  await fx.addUser(A);
  await fx.setAppConfig('docs_sync', 'target_user', A);
  // Written 500 rows a statement: the fixture's one insert per account takes minutes on MariaDB.
  for (let i = 0; i < MEMBERS.length; i += 500) {
    const chunk = MEMBERS.slice(i, i + 500);
    const values = chunk.map(() => '(?, ?, ?)').join(', ');
    await fx.exec(
      `INSERT INTO ${fx.prefix}users (uid, password, uid_lower) VALUES ${values}`,
      chunk.flatMap((uid) => [uid, '', uid]),
    );
    await fx.exec(
      `INSERT INTO ${fx.prefix}group_user (gid, uid) VALUES ${values.replaceAll('(?, ?, ?)', '(?, ?)')}`,
      chunk.flatMap((uid) => ['everyone', uid]),
    );
  }
  await fx.exec(`INSERT INTO ${fx.prefix}groups (gid, displayname) VALUES ('everyone', 'everyone')`);
  await fx.setUserPreference(DISABLED, 'core', 'enabled', 'false');
  await fx.addUser('other');
  const shared = await fx.addFolder(A, 'Shared');
  const file = await fx.addFile(A, 'Shared/report [P900].pdf');
  const share = await fx.share({ owner: A, fileId: shared, type: 'group', with: 'everyone' });
  await fx.overrideGroupShare(share, LEFT, { permissions: 0 });
  await fx.overrideGroupShare(share, MOVED, { target: '/Mine' });
  await fx.overrideGroupShare(share, PENDING, { accepted: 0 });
  await fx.share({ owner: 'other', fileId: await fx.addFolder('other', 'Shared'), type: 'user', with: COLLIDING, target: '/Shared' });
  await fx.share({ owner: A, fileId: file, type: 'user', with: DIRECT });
}

describe.each(dialects)('who for a document shared with a group of 2 100 members on %s', (dialect) => {
  const world = useContextWorld(dialect, buildBigGroup);
  const blocked = new Set([DISABLED, LEFT, PENDING, COLLIDING]);

  test('every member that opens it, asked a statement per 1 000 accounts', async () => {
    const host = await world.ctx.host();
    const before = host.sql.queryCount;
    const answer = await whoCanOpen(world.ctx, 900);
    // The archive account, its files, the shares' reach, three statements of accounts: 10 here; files_external's flags
    // (external storage's reach and the accounts' mounts) and File access control's switch: 13. One per account would be over 2 100.
    expect(host.sql.queryCount - before).toBeLessThanOrEqual(13);
    const paths = new Map(answer.accounts.map((e) => [e.account, e.path]));
    expect(answer.accounts.map((e) => e.account)).toEqual([A, ...MEMBERS.filter((m) => !blocked.has(m))]);
    expect([paths.get('m0000'), paths.get(MOVED), paths.get(DIRECT)]).toEqual([
      '/Shared/report [P900].pdf',
      '/Mine/report [P900].pdf',
      '/Shared/report [P900].pdf',
    ]);
    expect(answer.accounts.find((e) => e.account === 'm1999')?.chain).toMatchObject({ kind: 'group share', group: 'everyone', node: '/Shared' });
  });

  test('who ∋ U ⇔ why U = shown for the blocked members and a sample across the three statements', async () => {
    const listed = new Map((await whoCanOpen(world.ctx, 900)).accounts.map((e) => [e.account, e.path]));
    const sample = [...blocked, MOVED, DIRECT, ...MEMBERS.filter((_, i) => i % 150 === 0), 'm0999', 'm1000', 'm2099'];
    for (const uid of sample) {
      const { item } = await verdictOfDocument(world.ctx, uid, 900);
      expect({ uid, listed: listed.get(uid) ?? null }).toEqual({ uid, listed: item.verdict === 'shown' ? item.path : null });
    }
  });

  test('who --all gives the same rows; --group keeps the members', async () => {
    const [all, union] = await bothWays(world.ctx, [900]);
    expect(all).toEqual(union);
    expect(all).toHaveLength(MEMBERS.length - blocked.size + 1);
    const [members] = await bothWays(world.ctx, [900], { group: 'everyone' });
    expect(members).toHaveLength(MEMBERS.length - blocked.size);
  });
});
