/**
 * The conformance judge's own rules (test/conformance/judge.ts), without a server: the truth
 * from WebDAV listings, and what counts as a disagreement or a LEAK. The suite's verdicts are
 * only as good as these.
 */
import { describe, expect, it } from '@jest/globals';
import {
  compare,
  compareWho,
  failing,
  failingWho,
  markerIds,
  parseWho,
  truthOf,
  whoProductOf,
  type ProductAnswer,
  type Truth,
  type UserView,
  type WhoProduct,
} from './conformance/judge.js';
import { usersWithCollidingTargets, type ReceivedShare } from './conformance/recorded.js';
import type { DavEntry } from './support/real-nextcloud/index.js';

/** One file id per path, as Nextcloud gives one per file. */
const fileIds = new Map<string, number>();
const idOf = (path: string): number => fileIds.get(path) ?? fileIds.set(path, fileIds.size + 1).get(path) ?? 0;
const file = (path: string, ownerId: string): DavEntry => ({
  path,
  name: path.split('/').pop() ?? path,
  isFolder: false,
  fileId: idOf(path),
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

  it("takes a file another owner-id names as the archive account's when it is the same file (file id) as one of its own: a Local external storage", () => {
    const ext = file('Ext/E [P6].pdf', 'arch');
    const seenByAnna: UserView = { login: 'anna', files: [{ ...ext, ownerId: 'anna' }, file('Ext/Other [P7].pdf', 'anna')] };
    expect(truthOf(seenByAnna, [...archiveFiles, ext], 'arch', 6)).toEqual({ verdict: 'shown', paths: ['/Ext/E [P6].pdf'] });
    expect(truthOf(seenByAnna, [...archiveFiles, ext], 'arch', 7).verdict).toBe('not owned');
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

describe('the judge of who', () => {
  const shown = (path: string): Truth => ({ verdict: 'shown', paths: [path] });
  const notShared: Truth = { verdict: 'not shared', paths: [] };
  const who = (listed: Record<string, string>): WhoProduct => ({ listed: new Map(Object.entries(listed)), raw: JSON.stringify(listed) });
  const truths = new Map<string, Truth>([
    ['arch', shown('/Docs/B [P2].pdf')],
    ['anna', shown('/Docs/B [P2].pdf')],
    ['bob', notShared],
  ]);
  /** why's comparisons for the same pairs, as the judgement made them. */
  const whys = (verdicts: Record<string, ProductAnswer>): Map<string, ReturnType<typeof compare>> =>
    new Map(Object.entries(verdicts).map(([user, a]) => [user, compare('s', user, 2, truths.get(user) ?? notShared, a)]));
  const agreeingWhys = whys({ arch: answer('shown', '/Docs/B [P2].pdf'), anna: answer('shown', '/Docs/B [P2].pdf'), bob: answer('not shared') });

  it('agrees when who lists exactly the accounts whose tree shows the file, at their paths', () => {
    const pairs = compareWho('s', 2, truths, who({ arch: '/Docs/B [P2].pdf', anna: '/Docs/B [P2].pdf' }), agreeingWhys);
    expect(pairs.map((p) => [p.user, p.problem, p.invariant])).toEqual([
      ['arch', null, null],
      ['anna', null, null],
      ['bob', null, null],
    ]);
  });

  it('fails an account listed that cannot open the file, one missing, one at another path, and an account the scenario did not make', () => {
    const pairs = compareWho(
      's',
      2,
      truths,
      who({ arch: '/Docs/B [P2].pdf', anna: '/Elsewhere/B [P2].pdf', bob: '/B [P2].pdf', eve: '/B [P2].pdf' }),
      agreeingWhys,
    );
    expect(pairs.map((p) => p.problem?.split(':')[0] ?? null)).toEqual([
      null,
      'who lists anna at /Elsewhere/B [P2].pdf, anna sees it at /Docs/B [P2].pdf',
      'LISTED',
      'LISTED',
    ]);
    expect(pairs.filter(failingWho).map((p) => p.user)).toEqual(['anna', 'bob', 'eve']);
    const missing = compareWho('s', 2, truths, who({ arch: '/Docs/B [P2].pdf' }), agreeingWhys).find((p) => p.user === 'anna');
    expect(missing?.problem).toMatch(/^MISSING: anna sees document 2 at \/Docs\/B \[P2\]\.pdf/);
    expect(missing === undefined ? false : failingWho(missing)).toBe(true);
    expect(compareWho('s', 2, truths, { listed: null, raw: 'boom' }, agreeingWhys).every(failingWho)).toBe(true);
  });

  it('breaks the invariant where who and why answer differently on the same rows, even when who agrees with WebDAV', () => {
    const whyOmits = whys({ arch: answer('shown', '/Docs/B [P2].pdf'), anna: answer('not shared'), bob: answer('not shared') });
    const anna = compareWho('s', 2, truths, who({ arch: '/Docs/B [P2].pdf', anna: '/Docs/B [P2].pdf' }), whyOmits).find((p) => p.user === 'anna');
    expect(anna).toMatchObject({ problem: null, invariant: 'who lists anna, why anna 2 says not shared' });
    const whyElsewhere = whys({ arch: answer('shown', '/Docs/B [P2].pdf'), anna: answer('shown', '/Other/B [P2].pdf'), bob: answer('not shared') });
    expect(
      compareWho('s', 2, truths, who({ arch: '/Docs/B [P2].pdf', anna: '/Docs/B [P2].pdf' }), whyElsewhere).find((p) => p.user === 'anna')?.invariant,
    ).toMatch(/why says shown at \/Other/);
  });

  it("allows an omission only where why's omission at a colliding target was allowed, and never a listing", () => {
    const byCollision: ProductAnswer = {
      verdict: 'not shared',
      path: null,
      raw: JSON.stringify({ verdict: 'not shared', explanation: '… Nextcloud mounts only one of them there, …' }),
    };
    const atCollision = new Map([
      ['arch', compare('s', 'arch', 2, shown('/Docs/B [P2].pdf'), answer('shown', '/Docs/B [P2].pdf'))],
      ['anna', compare('s', 'anna', 2, shown('/Docs/B [P2].pdf'), byCollision, ['/Docs'])],
      ['bob', compare('s', 'bob', 2, notShared, answer('not shared'), ['/Docs'])],
    ]);
    const anna = compareWho('s', 2, truths, who({ arch: '/Docs/B [P2].pdf' }), atCollision).find((p) => p.user === 'anna');
    expect(anna).toMatchObject({ omittedAtCollision: true, invariant: null });
    expect(anna === undefined ? true : failingWho(anna)).toBe(false);
    // Without the collision named by why's explanation, the same omission fails.
    const plain = compareWho(
      's',
      2,
      truths,
      who({ arch: '/Docs/B [P2].pdf' }),
      whys({ arch: answer('shown', '/Docs/B [P2].pdf'), anna: answer('not shared'), bob: answer('not shared') }),
    );
    expect(plain.find((p) => p.user === 'anna')?.omittedAtCollision).toBe(false);
    const bob = compareWho('s', 2, truths, who({ arch: '/Docs/B [P2].pdf', bob: '/Docs/B [P2].pdf' }), atCollision).find((p) => p.user === 'bob');
    expect(bob?.omittedAtCollision).toBe(false);
    expect(bob?.problem).toMatch(/^LISTED/);
  });

  it('reads who --json as the CLI prints it: blocked accounts are not listed, the no-file answer (exit 1) lists none, an error is a failure', () => {
    const json = JSON.stringify({
      document: 2,
      files: ['/Docs/B [P2].pdf'],
      accounts: [
        { account: 'anna', path: '/Docs/B [P2].pdf', through: 'user share of /Docs from arch', blocked: null },
        { account: 'bob', path: null, through: null, blocked: 'bob left the share.' },
      ],
      noFile: null,
    });
    expect([...(whoProductOf(json).listed ?? [])]).toEqual([['anna', '/Docs/B [P2].pdf']]);
    expect(parseWho(1, `${JSON.stringify({ document: 9, files: [], accounts: [], noFile: 'No file.' })}\n`, '').listed?.size).toBe(0);
    expect(parseWho(1, JSON.stringify({ error: { code: 'unknown_user', message: 'x' } }), '').listed).toBeNull();
    expect(parseWho(2, '', 'usage').listed).toBeNull();
  });
});

describe('what the judge allows under File access control', () => {
  const shown = { verdict: 'shown' as const, paths: ['/Docs/A [P1].pdf'] };

  it('a listed file whose GET failed is not shown: question 2 decides', () => {
    const anna: UserView = { login: 'anna', files: [file('Docs/A [P1].pdf', 'arch')] };
    expect(truthOf(anna, [file('Docs/A [P1].pdf', 'arch')], 'arch', 1, new Map(), new Set(['Docs/A [P1].pdf'])).verdict).toBe('not shared');
    expect(truthOf(anna, [file('Docs/A [P1].pdf', 'arch')], 'arch', 1, new Map(), new Set()).verdict).toBe('shown');
  });

  it('allows an omission only where the explanation says the rule cannot be decided ahead of the request, counted apart, and who follows why', () => {
    const undecided: ProductAnswer = {
      verdict: 'not shared',
      path: null,
      raw: JSON.stringify({
        verdict: 'not shared',
        explanation: '… it depends on the request …, which cannot be decided ahead of the request, so it is not shown.',
      }),
    };
    const omitted = compare('s', 'anna', 1, shown, undecided);
    expect([omitted.omittedByRequest, omitted.omittedAtCollision, failing(omitted)]).toEqual([true, false, false]);
    const blocked = compare('s', 'anna', 1, shown, answer('not shared'));
    expect([blocked.omittedByRequest, failing(blocked)]).toEqual([undefined, true]);
    const who: WhoProduct = { listed: new Map(), raw: '{}' };
    const [pair] = compareWho('s', 1, new Map([['anna', shown]]), who, new Map([['anna', omitted]]));
    expect(pair === undefined ? null : [pair.omittedByRequest, failingWho(pair)]).toEqual([true, false]);
  });
});
