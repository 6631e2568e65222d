/**
 * Random hosts (accounts, groups, nested groups, folders, files, trash, shares, overrides,
 * expiry, acceptance, permissions) judged by the adapter and by the plain reference model
 * of §3 (test/support/host-fixtures/reference-model.ts): the answers must be the same.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import fc from 'fast-check';
import { openHost } from '../src/core/host/open-host.js';
import type { HostAdapter, VisibleFile } from '../src/core/host/types.js';
import { reachableDialects } from './support/host-fixtures/dialects.js';
import { createHostFixture, type FixtureShareType, type HostFixture } from './support/host-fixtures/index.js';
import { referenceAnswer, type ModelAnswer, type ModelQuestion } from './support/host-fixtures/reference-model.js';
import { dayOffset } from './support/host-fixtures/world.js';

const NAMES: readonly ((id: number, id2: number) => string)[] = [
  (id) => `doc [P${id}].pdf`,
  (id) => `Scan [P${id}] copy.pdf`,
  (id) => `lower [p${id}].pdf`,
  (id) => `zero [P0${id}].pdf`,
  (id, id2) => `two [P${id}][P${id2}].pdf`,
  (id) => `[Photo] [P${id}].txt`,
  (id) => `n_% [P${id}].pdf`,
  (id) => `near [P${id}x].pdf`,
  () => 'plain.pdf',
];

/** Owners: the archive account about half the time. */
const OWNER = fc.oneof(fc.constant(0), fc.nat(4));

const planArb = fc.record({
  users: fc.array(
    fc.record({
      object: fc.boolean(),
      disabled: fc.boolean(),
      loggedIn: fc.boolean(),
      ldapGone: fc.oneof({ weight: 5, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
    }),
    { minLength: 3, maxLength: 5 },
  ),
  groups: fc.array(fc.record({ members: fc.uniqueArray(fc.nat(4), { maxLength: 3 }), parent: fc.option(fc.nat(3), { nil: null }) }), { maxLength: 3 }),
  folders: fc.array(
    fc.record({
      owner: OWNER,
      parent: fc.option(fc.nat(8), { nil: null }),
      noShareBit: fc.oneof({ weight: 4, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
    }),
    { maxLength: 7 },
  ),
  files: fc.array(
    fc.record({
      owner: OWNER,
      folder: fc.option(fc.nat(8), { nil: null }),
      name: fc.nat(NAMES.length - 1),
      id: fc.integer({ min: 1, max: 5 }),
      id2: fc.integer({ min: 1, max: 5 }),
      trash: fc.oneof({ weight: 5, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
    }),
    { minLength: 1, maxLength: 12 },
  ),
  shares: fc.array(
    fc.record({
      node: fc.nat(5),
      type: fc.constantFrom<FixtureShareType>('user', 'user', 'user', 'group', 'group', 'link', 'room'),
      to: fc.nat(2),
      initiator: fc.oneof({ weight: 3, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.nat(4) }),
      staleOwner: fc.oneof({ weight: 8, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.nat(4) }),
      permissions: fc.constantFrom(1, 1, 17, 31, 0, 2),
      accepted: fc.constantFrom<0 | 1 | 2>(1, 1, 1, 0, 2),
      expiration: fc.constantFrom('none', 'none', 'past', 'future'),
      // Few targets, so that shares of different nodes to one user often meet at one path (Nextcloud 34 mounts one of them).
      target: fc.nat(2),
      stime: fc.nat(4),
      // A second share of the same node to the same recipient (§3.4 super shares).
      twin: fc.option(fc.record({ accepted: fc.constantFrom<0 | 1 | 2>(0, 1, 2), stime: fc.nat(4), target: fc.nat(4) }), { freq: 3, nil: null }),
    }),
    { maxLength: 10 },
  ),
  overrides: fc.array(
    fc.record({
      share: fc.nat(10),
      user: fc.nat(4),
      permissions: fc.option(fc.constantFrom(0, 1, 31), { nil: undefined }),
      accepted: fc.option(fc.constantFrom<0 | 1 | 2>(0, 1, 2), { nil: undefined }),
      target: fc.option(fc.nat(4), { nil: undefined }),
    }),
    { maxLength: 4 },
  ),
  hideDisabled: fc.constantFrom<string | null>('yes', 'no', null),
});
type Plan = typeof planArb extends fc.Arbitrary<infer T> ? T : never;

const uidOf = (i: number): string => (i === 0 ? 'arc' : `u${i}`);

async function build(fx: HostFixture, plan: Plan, nested: boolean): Promise<string[]> {
  const users = plan.users.map((_, i) => uidOf(i));
  const pick = <T>(list: readonly T[], i: number): T | undefined => (list.length === 0 ? undefined : list[i % list.length]);
  for (const [i, u] of plan.users.entries()) {
    await fx.addUser(uidOf(i), { storage: u.object ? 'object' : 'home', enabled: !u.disabled, loggedIn: u.loggedIn || i === 0 });
    if (u.ldapGone) await fx.setUserPreference(uidOf(i), 'user_ldap', 'isDeleted', '1');
  }
  const gids: string[] = [];
  for (const [i, g] of plan.groups.entries()) {
    const gid = `g${i}`;
    await fx.addGroup(gid, [...new Set(g.members.map((m) => pick(users, m) ?? 'arc'))]);
    gids.push(gid);
    // Parents only among earlier groups: no cycles.
    if (nested && g.parent !== null && i > 0) await fx.addSubgroup(`g${g.parent % i}`, gid);
  }
  const folders: { owner: string; path: string; id: number }[] = [];
  for (const [i, f] of plan.folders.entries()) {
    const owner = pick(users, f.owner) ?? 'arc';
    const parent = f.parent === null ? undefined : folders.filter((x) => x.owner === owner)[f.parent % Math.max(1, folders.length)];
    const path = parent === undefined ? `D${i}` : `${parent.path}/D${i}`;
    folders.push({ owner, path, id: await fx.addFolder(owner, path, { permissions: f.noShareBit ? 15 : 31 }) });
  }
  const nodes: { owner: string; id: number }[] = [];
  for (const [i, f] of plan.files.entries()) {
    const owner = pick(users, f.owner) ?? 'arc';
    const name = `${String(i)}-${(NAMES[f.name] ?? NAMES[0] ?? (() => 'x'))(f.id, f.id2)}`;
    if (f.trash) {
      nodes.push({ owner, id: await fx.addTrashFile(owner, name) });
      continue;
    }
    const own = folders.filter((x) => x.owner === owner);
    const folder = f.folder === null ? undefined : own[f.folder % Math.max(1, own.length)];
    nodes.push({ owner, id: await fx.addFile(owner, folder === undefined ? name : `${folder.path}/${name}`) });
  }
  // Folders after files: share nodes are picked mostly among the first few.
  nodes.push(...folders.map((f) => ({ owner: f.owner, id: f.id })));
  const groupShares: number[] = [];
  for (const s of plan.shares) {
    const node = pick(nodes, s.node);
    if (node === undefined) continue;
    const owner = s.staleOwner === null ? node.owner : (pick(users, s.staleOwner) ?? node.owner);
    const target = s.target === 0 ? `/Sub/T${s.target}/` : `/T${s.target}`;
    const base = {
      owner,
      fileId: node.id,
      initiator: s.initiator === null ? owner : (pick(users, s.initiator) ?? owner),
      permissions: s.permissions,
      accepted: s.accepted,
      expiration: s.expiration === 'none' ? null : dayOffset(s.expiration === 'past' ? -1 : 1),
      target,
      stime: 1_700_000_000 + s.stime,
    };
    const twin = s.twin === null ? [] : [{ ...base, accepted: s.twin.accepted, stime: 1_700_000_000 + s.twin.stime, target: `/W${s.twin.target}` }];
    for (const one of [base, ...twin]) {
      if (s.type === 'group') {
        const gid = pick(gids, s.to);
        if (gid === undefined) continue;
        groupShares.push(await fx.share({ ...one, type: 'group', with: gid }));
      } else {
        await fx.share({ ...one, type: s.type, with: pick(users, s.to) ?? 'arc' });
      }
    }
  }
  for (const o of plan.overrides) {
    const share = pick(groupShares, o.share);
    if (share === undefined) continue;
    const override: { permissions?: number; accepted?: 0 | 1 | 2; target?: string } = {};
    if (o.permissions !== undefined) override.permissions = o.permissions;
    if (o.accepted !== undefined) override.accepted = o.accepted;
    if (o.target !== undefined) override.target = `/O${o.target}`;
    await fx.overrideGroupShare(share, pick(users, o.user) ?? 'arc', override);
  }
  if (plan.hideDisabled !== null) await fx.setAppConfig('files_sharing', 'hide_disabled_user_shares', plan.hideDisabled);
  return users;
}

function simplify(map: ReadonlyMap<number, VisibleFile | ModelAnswer>): Record<number, string> {
  const out: Record<number, string> = {};
  for (const [id, f] of map) out[id] = `${f.fileId} ${f.owner} ${f.path}`;
  return out;
}

const IDS = [1, 2, 3, 4, 5];
// With the marker index on, one adapter lives through all runs while the fixture is emptied and
// refilled under it (SQLite even reuses the file ids): every run is a change the index must see.
const RUNS: Record<string, number> = { sqlite: 100, pgsql: 15, mysql: 15 };

const dialects = await reachableDialects('host property');
const modes = dialects.flatMap((dialect) => [[dialect, 'off'] as const, [dialect, 'on'] as const]);

describe.each(modes)('adapter = reference model on %s, marker index %s', (dialect, indexMode) => {
  let fx: HostFixture;
  let host: HostAdapter;
  beforeAll(async () => {
    fx = await createHostFixture(dialect);
    host = await openHost({ dbUrl: fx.dbUrl, tablePrefix: fx.prefix }, { markerIndex: indexMode === 'on' });
  });
  afterAll(async () => {
    await host?.close();
    await fx?.drop();
  });

  test('three questions for every account', async () => {
    await fc.assert(
      fc.asyncProperty(planArb, async (plan) => {
        await fx.clear();
        const users = await build(fx, plan, true);
        const now = new Date().toISOString().slice(0, 19).replace('T', ' ');
        for (const user of users) {
          for (const q of ['visible', 'owned', 'foreign'] as ModelQuestion[]) {
            const got =
              q === 'visible'
                ? await host.visibleArchiveFiles(user, 'arc', IDS)
                : q === 'owned'
                  ? await host.ownedArchiveFiles(user, IDS)
                  : await host.visibleForeignFiles(user, 'arc', IDS);
            const expected = referenceAnswer(fx.model, q, user, q === 'owned' ? user : 'arc', IDS, now);
            expect({ q, user, answer: simplify(got) }).toEqual({ q, user, answer: simplify(expected) });
          }
        }
      }),
      { numRuns: RUNS[dialect] ?? 10 },
    );
  }, 240_000);
});
