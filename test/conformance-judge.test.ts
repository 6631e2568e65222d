/**
 * The conformance judge's own rules (test/conformance/judge.ts), without a server: the truth
 * from WebDAV listings, and what counts as a disagreement or a LEAK. The suite's verdicts are
 * only as good as these.
 */
import { describe, expect, it } from '@jest/globals';
import { compare, markerIds, truthOf, type ProductAnswer, type UserView } from './conformance/judge.js';
import { usersWithCollidingTargets, type ReceivedShare } from './conformance/recorded.js';
import type { DavEntry } from './support/real-nextcloud/index.js';

const file = (path: string, ownerId: string): DavEntry => ({
  path,
  name: path.split('/').pop() ?? path,
  isFolder: false,
  fileId: 1,
  ownerId,
  etag: null,
  trashName: null,
});
const answer = (verdict: string, path: string | null = null): ProductAnswer => ({ verdict, path, raw: JSON.stringify({ verdict, path }) });

describe('the truth read from Nextcloud', () => {
  const archiveFiles = [file('Private/A [P1].pdf', 'arch'), file('Docs/B [P2].pdf', 'arch')];
  const anna: UserView = { login: 'anna', files: [file('Docs/B [P2].pdf', 'arch'), file('Mine [P3].pdf', 'anna'), file('Shared [P4].pdf', 'carl')] };

  it('maps the listings to the verdict table in its order', () => {
    expect(truthOf(anna, archiveFiles, 'arch', 2)).toEqual({ verdict: 'shown', paths: ['/Docs/B [P2].pdf'] });
    expect(truthOf(anna, archiveFiles, 'arch', 1).verdict).toBe('not shared');
    expect(truthOf(anna, archiveFiles, 'arch', 3).verdict).toBe('not owned');
    expect(truthOf(anna, archiveFiles, 'arch', 4).verdict).toBe('not owned');
    expect(truthOf(anna, archiveFiles, 'arch', 5).verdict).toBe('no file');
  });

  it("names a file by its owner's name: a received file share keeps its target name in the recipient's tree", () => {
    const renamed = [file('r [P3].pdf', 'arch')];
    const bob: UserView = { login: 'bob', files: [{ ...file('f [P4].pdf', 'arch'), fileId: 7 }] };
    const names = new Map([[7, 'r [P3].pdf']]);
    expect(truthOf(bob, renamed, 'arch', 3, names)).toEqual({ verdict: 'shown', paths: ['/f [P4].pdf'] });
    expect(truthOf(bob, renamed, 'arch', 4, names).verdict).toBe('no file');
  });

  it('gives a disabled account (no listing) nothing but what question 2 says', () => {
    const disabled: UserView = { login: 'anna', files: null };
    expect(truthOf(disabled, archiveFiles, 'arch', 2).verdict).toBe('not shared');
    expect(truthOf(disabled, archiveFiles, 'arch', 4).verdict).toBe('no file');
  });

  it('reads markers exactly as the sync add-on writes them', () => {
    expect(markerIds('L [P80] [p8] [P08] [P8 ] [PP8] P8 [P8].pdf')).toEqual([80, 8]);
    expect(markerIds('Both [P3] [P4].pdf')).toEqual([3, 4]);
  });
});

describe('what the judge calls a disagreement', () => {
  const shown = { verdict: 'shown' as const, paths: ['/Docs/B [P2].pdf'] };
  const notShared = { verdict: 'not shared' as const, paths: [] };

  it('names a shown document Nextcloud does not open a LEAK', () => {
    expect(compare('s', 'anna', 2, notShared, answer('shown', '/Docs/B [P2].pdf')).problem).toMatch(/^LEAK: the product shows document 2 to anna/);
  });

  it('fails an omission, an error and a shown document at a path the user does not see it at', () => {
    expect(compare('s', 'anna', 2, shown, answer('not shared')).problem).toBe('product says not shared, Nextcloud says shown');
    expect(compare('s', 'anna', 2, shown, answer('error')).problem).toBe('product says error, Nextcloud says shown');
    expect(compare('s', 'anna', 2, shown, answer('shown', '/Elsewhere/B [P2].pdf')).problem).toMatch(/^shown at \/Elsewhere/);
  });

  it('agrees when verdict and path agree', () => {
    expect(compare('s', 'anna', 2, shown, answer('shown', '/Docs/B [P2].pdf')).problem).toBeNull();
    expect(compare('s', 'anna', 1, notShared, answer('not shared', '/Private/A [P1].pdf')).problem).toBeNull();
  });
});

describe('what the judge allows where two shares reach one target', () => {
  const shown = { verdict: 'shown' as const, paths: ['/Sub/A [P1].pdf'] };
  const noFile = { verdict: 'no file' as const, paths: [] };
  const notOwned = { verdict: 'not owned' as const, paths: [] };

  it('allows an omitted share (explained by the collision) and not owned against no file, only for a user with a colliding target', () => {
    const byCollision: ProductAnswer = {
      verdict: 'not shared',
      path: null,
      raw: JSON.stringify({ verdict: 'not shared', explanation: '… all reach anna as /Sub; Nextcloud mounts only one of them there, …' }),
    };
    const omitted = compare('s', 'anna', 1, shown, byCollision, ['/Sub']);
    expect(omitted.omittedAtCollision).toBe(true);
    expect(omitted.problem).toBe("product says not shared, Nextcloud says shown (omitted: '/Sub' reached by two shares)");
    expect(compare('s', 'anna', 3, noFile, answer('not owned'), ['/Sub']).omittedAtCollision).toBe(true);
    expect(compare('s', 'anna', 3, notOwned, answer('no file'), ['/Sub']).omittedAtCollision).toBe(true);
    expect(compare('s', 'anna', 1, shown, byCollision).omittedAtCollision).toBe(false);
    // Another cause at a user who also has a colliding target is still a disagreement.
    expect(compare('s', 'anna', 1, shown, answer('not shared'), ['/Sub']).omittedAtCollision).toBe(false);
  });

  it('never allows a LEAK, a wrong path or another verdict there', () => {
    const notShared = { verdict: 'not shared' as const, paths: [] };
    expect(compare('s', 'anna', 1, notShared, answer('shown', '/Sub/A [P1].pdf'), ['/Sub'])).toMatchObject({
      omittedAtCollision: false,
      problem: expect.stringMatching(/^LEAK/),
    });
    expect(compare('s', 'anna', 1, { verdict: 'shown', paths: ['/Sub (3)/A [P1].pdf'] }, answer('shown', '/Sub/A [P1].pdf'), ['/Sub']).omittedAtCollision).toBe(
      false,
    );
    expect(compare('s', 'anna', 1, shown, answer('no file'), ['/Sub']).omittedAtCollision).toBe(false);
    expect(compare('s', 'anna', 1, notShared, answer('no file'), ['/Sub']).omittedAtCollision).toBe(false);
  });
});

describe('where the judge finds two shares at one target', () => {
  const share = (id: number, recipient: string, node: number, target: string, more: Partial<ReceivedShare> = {}): ReceivedShare => ({
    id,
    recipient,
    type: 'user',
    owner: `owner${node}`,
    sharer: `owner${node}`,
    node,
    target,
    accepted: 1,
    permissions: 17,
    expired: false,
    ...more,
  });

  it('counts shares of different nodes Nextcloud would mount at one target of one user', () => {
    const found = usersWithCollidingTargets([
      share(1, 'anna', 10, '/Sub'),
      share(2, 'anna', 11, '/Sub (2)'),
      share(3, 'anna', 12, '/Sub'),
      share(4, 'bob', 10, '/Sub'),
    ]);
    expect([...found]).toEqual([['anna', ['/Sub']]]);
  });

  it('not two shares of one node, nor shares that are pending, rejected, left, expired or her own', () => {
    expect(usersWithCollidingTargets([share(1, 'anna', 10, '/Sub'), share(2, 'anna', 10, '/Sub', { type: 'group' })]).size).toBe(0);
    for (const other of [{ accepted: 0 }, { accepted: 2 }, { permissions: 0 }, { expired: true }, { owner: 'anna' }, { sharer: 'anna' }]) {
      expect(usersWithCollidingTargets([share(1, 'anna', 10, '/Sub'), share(2, 'anna', 11, '/Sub', other)]).size).toBe(0);
    }
  });
});
