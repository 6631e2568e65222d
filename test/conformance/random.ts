/**
 * Random scenarios against the real Nextcloud (issue 9, item 3): fast-check generates short
 * sequences of the fixed scenarios' operations (uploads, shares to users and a group, unshares,
 * membership changes, renames, moves, trash and restore, leaving and renaming received shares,
 * foreign copies, re-shares, same-named folders shared to one user by the archive account and by
 * other users, first logins), applies them through Nextcloud's own interfaces, then compares
 * every user × document. Operations name things by index into what exists at that moment, so
 * almost every one applies; one Nextcloud refuses (e.g. a re-share without the right) is kept
 * in the record and changes nothing. A counterexample is printed as the operation list: copy it
 * into scenarios.ts as a fixed scenario.
 */
import fc from 'fast-check';
import { NextcloudHttpError, type NextcloudUser } from '../support/real-nextcloud/index.js';
import { describeWho, failing, failingWho, type Comparison } from './judge.js';
import { runScenario, type ConformanceRun, type ScenarioWorld } from './world.js';
import type { RealNextcloud } from '../support/real-nextcloud/index.js';

/** The archive account's folders: two named B, so sharing both with one user is a same-named pair. */
const FOLDERS = ['', 'A', 'A/B', 'P', 'P/B'] as const;
/** Names of other users' shared folders: those of the archive account's folders, so their shares collide with its. */
const SAME_NAMES = ['A', 'B', 'P'] as const;
const USERS = ['u1', 'u2', 'u3'] as const;
const MARKERS = [1, 2, 3, 4] as const;

export type Op =
  | { kind: 'upload'; folder: number; marker: number }
  | { kind: 'share'; what: 'folder' | 'file'; index: number; to: number; edit: boolean }
  | { kind: 'unshare'; index: number }
  | { kind: 'join'; user: number }
  | { kind: 'leaveGroup'; user: number }
  | { kind: 'rename'; index: number; marker: number | null }
  | { kind: 'move'; index: number; folder: number }
  | { kind: 'trash'; index: number }
  | { kind: 'restore' }
  | { kind: 'leaveShare'; user: number; index: number }
  | { kind: 'renameMount'; user: number; index: number }
  | { kind: 'foreignCopy'; user: number; marker: number; to: number }
  | { kind: 'reshare'; user: number; index: number; to: number }
  | { kind: 'foreignFolder'; user: number; name: number; marker: number; to: number }
  | { kind: 'login'; user: number };

const small = fc.nat({ max: 7 });
const user = fc.nat({ max: USERS.length - 1 });
/** `to`: a user index, or USERS.length for the group. */
const target = fc.nat({ max: USERS.length });
const marker = fc.constantFrom(...MARKERS);

export const opArbitrary: fc.Arbitrary<Op> = fc.oneof(
  { arbitrary: fc.record({ kind: fc.constant('upload' as const), folder: fc.nat({ max: FOLDERS.length - 1 }), marker }), weight: 4 },
  {
    arbitrary: fc.record({
      kind: fc.constant('share' as const),
      what: fc.constantFrom('folder' as const, 'file' as const),
      index: small,
      to: target,
      edit: fc.boolean(),
    }),
    weight: 4,
  },
  fc.record({ kind: fc.constant('unshare' as const), index: small }),
  fc.record({ kind: fc.constant('join' as const), user }),
  fc.record({ kind: fc.constant('leaveGroup' as const), user }),
  fc.record({ kind: fc.constant('rename' as const), index: small, marker: fc.option(marker, { nil: null }) }),
  fc.record({ kind: fc.constant('move' as const), index: small, folder: fc.nat({ max: FOLDERS.length - 1 }) }),
  fc.record({ kind: fc.constant('trash' as const), index: small }),
  fc.record({ kind: fc.constant('restore' as const) }),
  fc.record({ kind: fc.constant('leaveShare' as const), user, index: small }),
  fc.record({ kind: fc.constant('renameMount' as const), user, index: small }),
  fc.record({ kind: fc.constant('foreignCopy' as const), user, marker, to: user }),
  fc.record({ kind: fc.constant('reshare' as const), user, index: small, to: user }),
  { arbitrary: fc.record({ kind: fc.constant('foreignFolder' as const), user, name: fc.nat({ max: SAME_NAMES.length - 1 }), marker, to: target }), weight: 2 },
  fc.record({ kind: fc.constant('login' as const), user }),
);

const pick = <T>(items: readonly T[], index: number): T | undefined => (items.length === 0 ? undefined : items[index % items.length]);
const basename = (path: string): string => path.split('/').pop() ?? path;

/** Applies `ops` in a fresh scenario corner; the record says what each did. */
async function apply(s: ScenarioWorld, ops: readonly Op[], record: string[]): Promise<void> {
  await s.users(...USERS);
  const group = await s.group('g', ['u1']);
  for (const folder of FOLDERS) if (folder !== '') await s.archiveUser.mkdirs(folder);
  let files: string[] = [];
  const trashed: string[] = [];
  const shares: { id: number; by: NextcloudUser }[] = [];
  let counter = 0;
  const session = (index: number): Promise<NextcloudUser> => s.user(USERS[index % USERS.length] ?? 'u1');
  const recipient = (to: number): { type: 'user' | 'group'; with: string } =>
    to >= USERS.length ? { type: 'group', with: group } : { type: 'user', with: s.login(USERS[to] ?? 'u1') };
  for (const op of ops) {
    counter += 1;
    const step = async (): Promise<string> => {
      switch (op.kind) {
        case 'upload': {
          const path = `${FOLDERS[op.folder] === '' ? '' : `${FOLDERS[op.folder]}/`}f${counter} [P${op.marker}].pdf`;
          await s.archiveUser.put(path);
          files.push(path);
          return `upload ${path}`;
        }
        case 'share': {
          const path = op.what === 'folder' ? FOLDERS[op.index % FOLDERS.length] : pick(files, op.index);
          if (path === undefined || path === '') return 'share: nothing to share';
          const to = recipient(op.to);
          const share = await s.archiveUser.share({ path: `/${path}`, ...to, permissions: op.edit ? 31 : 17 });
          shares.push({ id: share.id, by: s.archiveUser });
          return `share /${path} with ${to.type} ${to.with}${op.edit ? ' (edit)' : ''}`;
        }
        case 'unshare': {
          const share = pick(shares, op.index);
          if (share === undefined) return 'unshare: no share';
          shares.splice(shares.indexOf(share), 1);
          await share.by.deleteShare(share.id);
          return `unshare ${share.id} by ${share.by.login}`;
        }
        case 'join':
          await s.nc.addToGroup(s.login(USERS[op.user] ?? 'u1'), group);
          return `${USERS[op.user]} joins the group`;
        case 'leaveGroup':
          await s.nc.removeFromGroup(s.login(USERS[op.user] ?? 'u1'), group);
          return `${USERS[op.user]} leaves the group`;
        case 'rename': {
          const path = pick(files, op.index);
          if (path === undefined) return 'rename: no file';
          const folder = path.includes('/') ? `${path.slice(0, path.lastIndexOf('/'))}/` : '';
          const to = `${folder}r${counter}${op.marker === null ? '' : ` [P${op.marker}]`}.pdf`;
          await s.archiveUser.move(path, to);
          files = files.map((f) => (f === path ? to : f));
          return `rename ${path} → ${to}`;
        }
        case 'move': {
          const path = pick(files, op.index);
          const folder = FOLDERS[op.folder] ?? '';
          if (path === undefined) return 'move: no file';
          const to = `${folder === '' ? '' : `${folder}/`}${basename(path)}`;
          if (to === path) return `move ${path}: already there`;
          await s.archiveUser.move(path, to);
          files = files.map((f) => (f === path ? to : f));
          return `move ${path} → ${to}`;
        }
        case 'trash': {
          const path = pick(files, op.index);
          if (path === undefined) return 'trash: no file';
          await s.archiveUser.delete(path);
          files = files.filter((f) => f !== path);
          trashed.push(path);
          return `trash ${path}`;
        }
        case 'restore': {
          const path = trashed.pop();
          if (path === undefined) return 'restore: empty trash';
          await s.archiveUser.restore(basename(path));
          // Restored to where it was, or to the root when that folder is gone (folders are never deleted here).
          files.push(path);
          return `restore ${path}`;
        }
        case 'leaveShare':
        case 'renameMount':
        case 'reshare': {
          const who = await session(op.user);
          const received = pick(await who.receivedShares(), op.index);
          if (received === undefined) return `${op.kind}: ${who.login} has received nothing`;
          if (op.kind === 'leaveShare') {
            await who.deleteShare(received.id);
            return `${who.login} leaves share ${received.id} (${received.fileTarget})`;
          }
          if (op.kind === 'renameMount') {
            const to = `m${counter}`;
            await who.move(received.fileTarget, to);
            return `${who.login} renames ${received.fileTarget} → /${to}`;
          }
          const to = s.login(USERS[op.to] ?? 'u1');
          const share = await who.share({ path: received.fileTarget, type: 'user', with: to });
          shares.push({ id: share.id, by: who });
          return `${who.login} re-shares ${received.fileTarget} with ${to}`;
        }
        case 'foreignFolder': {
          // A folder of her own named like one of the archive account's, in a fresh place of her tree.
          const who = await session(op.user);
          const folder = `own${counter}/${SAME_NAMES[op.name] ?? 'B'}`;
          await who.mkdirs(folder);
          await who.put(`${folder}/own${counter} [P${op.marker}].pdf`);
          const to = recipient(op.to);
          if (to.with === who.login) return `${who.login} makes /${folder} with [P${op.marker}]`;
          const share = await who.share({ path: `/${folder}`, ...to });
          shares.push({ id: share.id, by: who });
          return `${who.login} makes /${folder} with [P${op.marker}] and shares it with ${to.type} ${to.with}`;
        }
        case 'login': {
          const who = await session(op.user);
          await who.tree();
          return `${who.login} lists her files`;
        }
        case 'foreignCopy': {
          const who = await session(op.user);
          const path = `own${counter} [P${op.marker}].pdf`;
          await who.put(path);
          const to = s.login(USERS[op.to] ?? 'u1');
          if (to !== who.login) await who.share({ path: `/${path}`, type: 'user', with: to });
          return `${who.login} uploads /${path}${to !== who.login ? ` and shares it with ${to}` : ''}`;
        }
      }
    };
    try {
      record.push(await step());
    } catch (error) {
      if (!(error instanceof NextcloudHttpError) || error.status >= 500) throw error;
      record.push(`refused by Nextcloud: ${error.message.slice(0, 160)}`);
    }
  }
}

export interface RandomOutcome {
  readonly runs: number;
  readonly comparisons: number;
  readonly refused: number;
}

/** Runs `numRuns` random sequences; throws with the sequence and the disagreements on the first failure. */
export async function checkRandomSequences(nc: RealNextcloud, run: ConformanceRun, numRuns: number, seed?: number): Promise<RandomOutcome> {
  let refused = 0;
  let sequences = 0;
  let comparisons = 0;
  await fc.assert(
    fc.asyncProperty(fc.array(opArbitrary, { minLength: 3, maxLength: 10 }), async (ops) => {
      sequences += 1;
      const record: string[] = [];
      const before = run.comparisons.length;
      const whoBefore = run.whoPairs.length;
      await runScenario(nc, run, `random sequence ${sequences}`, async (s) => {
        await apply(s, ops, record);
        await s.judge('after the sequence', MARKERS);
      });
      const mine: Comparison[] = run.comparisons.slice(before);
      comparisons += mine.length;
      refused += record.filter((line) => line.startsWith('refused')).length;
      const problems = mine.filter(failing);
      const whoProblems = run.whoPairs.slice(whoBefore).filter(failingWho);
      if (problems.length > 0 || whoProblems.length > 0) {
        const lines = [...problems.map((c) => `${c.user} / ${c.id}: ${c.problem ?? ''} (why: ${c.product.raw})`), ...whoProblems.map(describeWho)];
        throw new Error(`random sequence disagrees with Nextcloud:\n  ${record.join('\n  ')}\n${lines.join('\n')}\nops: ${JSON.stringify(ops)}`);
      }
    }),
    { numRuns, endOnFailure: true, ...(seed === undefined ? {} : { seed }) },
  );
  return { runs: sequences, comparisons, refused };
}
