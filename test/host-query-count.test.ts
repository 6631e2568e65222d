/**
 * Each question is one database round trip per call, whatever the batch size; the spec's
 * fallback asks per document, logs its warning once and says so through `batched`.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { MemoryCache } from '../src/core/cache/memory-cache.js';
import { openContext } from '../src/core/context.js';
import { LOG_MESSAGES } from '../src/core/log.js';
import { openHost } from '../src/core/host/open-host.js';
import type { VisibleFile } from '../src/core/host/types.js';
import { formatDay } from '../src/core/search/entry-format.js';
import { runSearch } from '../src/core/search/pipeline.js';
import { captureLogger } from './support/host-fixtures/capture-log.js';
import { reachableDialects } from './support/host-fixtures/dialects.js';
import { useHostWorld } from './support/host-fixtures/host-world.js';
import type { HostFixture } from './support/host-fixtures/index.js';
import { ARCHIVE_ACCOUNT, buildSearchWorld, expectedVerdict, type SearchWorld } from './support/search-world.js';

const A = 'archive';
const IDS = Array.from({ length: 25 }, (_, i) => 100 + i * 7);

async function build(fx: HostFixture): Promise<void> {
  for (const uid of [A, 'bob', 'carol']) await fx.addUser(uid);
  await fx.addGroup('team', ['bob']);
  for (const [i, id] of IDS.entries()) await fx.addFile(A, `Archive/${i % 3}/doc [P${id}].pdf`);
  for (const id of IDS.slice(0, 5)) await fx.addFile('carol', `Mine/copy [P${id}].pdf`);
  await fx.share({ owner: A, fileId: await fx.addFolder(A, 'Archive/0'), type: 'user', with: 'bob' });
  await fx.share({ owner: A, fileId: await fx.addFolder(A, 'Archive/1'), type: 'group', with: 'team' });
  const carols = await fx.addFolder('carol', 'Mine');
  await fx.share({ owner: 'carol', fileId: carols, type: 'user', with: 'bob' });
}

const plain = (m: ReadonlyMap<number, VisibleFile>): [number, string][] => [...m].map(([id, f]) => [id, f.path]);

const dialects = await reachableDialects('host query count');

describe.each(dialects)('round trips on %s', (dialect) => {
  const world = useHostWorld(dialect, build);

  test.each([1, 5, 25])('exactly one query per question for a batch of %i', async (size) => {
    const ids = IDS.slice(0, size);
    const calls: [string, () => Promise<ReadonlyMap<number, VisibleFile>>][] = [
      ['visible', () => world.host.visibleArchiveFiles('bob', A, ids)],
      ['owned', () => world.host.ownedArchiveFiles(A, ids)],
      ['foreign', () => world.host.visibleForeignFiles('bob', A, ids)],
      ['visible as archive', () => world.host.visibleArchiveFiles(A, A, ids)],
    ];
    for (const [, call] of calls) {
      const before = world.host.sql.queryCount;
      const answer = await call();
      expect(world.host.sql.queryCount - before).toBe(1);
      expect(answer.size).toBeGreaterThan(0);
    }
    expect(world.host.batched).toBe(true);
  });

  test('an empty batch asks nothing', async () => {
    const before = world.host.sql.queryCount;
    expect((await world.host.visibleArchiveFiles('bob', A, [])).size).toBe(0);
    expect(world.host.sql.queryCount).toBe(before);
  });

  test('fallback: the batched form is rejected, one query per document, one warning, same answers', async () => {
    const { logger, lines } = captureLogger();
    const broken = await openHost({ dbUrl: world.fx.dbUrl, tablePrefix: world.fx.prefix }, { logger, breakBatchedQuery: true });
    try {
      const ids = IDS.slice(0, 5);
      const expected = plain(await world.host.visibleArchiveFiles('bob', A, ids));
      let before = broken.sql.queryCount;
      const first = await broken.visibleArchiveFiles('bob', A, ids);
      expect(broken.batched).toBe(false);
      // The rejected batched statement, then one per document.
      expect(broken.sql.queryCount - before).toBe(1 + ids.length);
      expect(plain(first)).toEqual(expected);
      before = broken.sql.queryCount;
      const owned = await broken.ownedArchiveFiles(A, ids);
      expect(broken.sql.queryCount - before).toBe(ids.length);
      expect(plain(owned)).toEqual(plain(await world.host.ownedArchiveFiles(A, ids)));
      expect(plain(await broken.visibleForeignFiles('bob', A, ids))).toEqual(plain(await world.host.visibleForeignFiles('bob', A, ids)));
      const warnings = lines().filter((l) => l.msg === LOG_MESSAGES.perDocumentLookup());
      expect(warnings).toHaveLength(1);
      expect(warnings[0]?.level).toBe(40);
      expect(warnings[0]?.app).toBe('docs_unified_search');
    } finally {
      await broken.close();
    }
  });

  test('marker index on: the first batch builds it, then exactly one query per question whatever the batch size', async () => {
    const indexed = await openHost({ dbUrl: world.fx.dbUrl, tablePrefix: world.fx.prefix }, { markerIndex: true });
    try {
      let before = indexed.sql.queryCount;
      await indexed.visibleArchiveFiles('bob', A, IDS.slice(0, 1));
      // The etags, the folders of the one home storage, their marked children, the batch.
      expect(indexed.sql.queryCount - before).toBe(4);
      for (const size of [1, 5, 25]) {
        const ids = IDS.slice(0, size);
        for (const call of [
          () => indexed.visibleArchiveFiles('bob', A, ids),
          () => indexed.ownedArchiveFiles(A, ids),
          () => indexed.visibleForeignFiles('bob', A, ids),
          () => indexed.visibleArchiveFiles(A, A, ids),
        ]) {
          before = indexed.sql.queryCount;
          const answer = await call();
          expect(indexed.sql.queryCount - before).toBe(1);
          expect(answer.size).toBeGreaterThan(0);
        }
      }
    } finally {
      await indexed.close();
    }
  });

  test('the connection is read-only', async () => {
    await expect(world.host.sql.query(`INSERT INTO ${world.fx.prefix}groups (gid, displayname) VALUES (?, ?)`, ['intruders', 'x'])).rejects.toThrow();
    expect(await world.host.groupsOf('bob')).toEqual(['team']);
  });
});

/**
 * The search's host statements: a warm search asks the host one statement per archive page
 * (question 1, which brings the user's language and checks the kept archive account too), and
 * nothing before the archive server answers.
 */
describe.each(dialects)('search pipeline on %s', (dialect) => {
  let world: SearchWorld;
  beforeAll(async () => {
    world = await buildSearchWorld(30, dialect);
  });
  afterAll(async () => {
    await world.close();
  });

  const shownIds = (entries: readonly { documentId: number }[]): number[] => entries.map((e) => e.documentId);

  test("a warm search: one statement, after the archive answered; the dates in the user's language", async () => {
    const { ctx } = await world.context();
    const host = await ctx.host();
    const cold = await runSearch(ctx, { user: 'bob', term: 'invoice', limit: 5 });
    expect(cold.entries.length).toBeGreaterThan(0);
    const before = host.sql.queryCount;
    const warm = await runSearch(ctx, { user: 'bob', term: 'invoice', limit: 5 });
    expect(host.sql.queryCount - before).toBe(warm.pages);
    expect(warm.pages).toBe(1);
    expect(shownIds(warm.entries)).toEqual(shownIds(cold.entries));
    for (const entry of warm.entries) {
      expect(expectedVerdict(entry.documentId)).toBe('shown');
      expect(entry.date).toBe(formatDay(entry.created, 'de'));
    }
  });

  test('the next command run on the same config directory: the index file is read, not built; question 1 is one statement per page', async () => {
    const { ctx, dir, logFile } = await world.context();
    const first = await runSearch(ctx, { user: 'bob', term: 'invoice', limit: 5 });
    // Closing the run saves the index it built.
    await ctx.close();
    const next = openContext({
      configDir: dir,
      logFile,
      env: {},
      hostLocation: { dbUrl: world.host.dbUrl, hostUrl: 'https://cloud.example.com' },
      cache: new MemoryCache(),
    });
    try {
      const host = await next.host();
      // What a new run asks before question 1 (the archive account) is not question 1.
      await next.searchArchiveAccount();
      const before = host.sql.queryCount;
      const again = await runSearch(next, { user: 'bob', term: 'invoice', limit: 5 });
      expect(host.sql.queryCount - before).toBe(again.pages);
      expect(again.pages).toBe(1);
      expect(shownIds(again.entries)).toEqual(shownIds(first.entries));
    } finally {
      await next.close();
    }
  });

  test('the sync add-on names another archive account: the kept one is not used, the new one is', async () => {
    const { ctx } = await world.context();
    const first = await runSearch(ctx, { user: 'bob', term: 'invoice', limit: 50 });
    expect(first.entries.length).toBeGreaterThan(0);
    for (const entry of first.entries) expect(expectedVerdict(entry.documentId)).toBe('shown');
    // carol's copies shared with bob are what the new archive account shows him.
    await world.host.setAppConfig('docs_sync', 'target_user', 'carol');
    const host = await ctx.host();
    const before = host.sql.queryCount;
    const second = await runSearch(ctx, { user: 'bob', term: 'invoice', limit: 50 });
    expect(second.entries.length).toBeGreaterThan(0);
    for (const entry of second.entries) expect(expectedVerdict(entry.documentId)).toBe('not owned');
    // Question 1 saw the change, then the sync account and its lookup, then the new account's
    // marker index is built (its etags, folders, their marked children: the index file holds
    // one account), then question 1 again; then one per further page.
    expect(host.sql.queryCount - before).toBe(second.pages + 3 + 3);
    await world.host.setAppConfig('docs_sync', 'target_user', 'nobody-here');
    const third = await runSearch(ctx, { user: 'bob', term: 'invoice', limit: 50 });
    expect(third.entries).toEqual([]);
    await world.host.setAppConfig('docs_sync', 'target_user', ARCHIVE_ACCOUNT);
    expect(shownIds((await runSearch(ctx, { user: 'bob', term: 'invoice', limit: 50 })).entries)).toEqual(shownIds(first.entries));
  });
});
