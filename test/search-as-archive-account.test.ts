/**
 * The archive account searching its own documents: question 1 asked for the archive account
 * itself builds a statement without share branches (its own storages only), so the branches
 * that carry no file come first. PostgreSQL resolves a UNION's column types pair by pair from
 * the left, and two such branches in a row made it refuse the statement ("UNION types text and
 * bigint cannot be matched"): the search showed the archive account nothing on PostgreSQL.
 * Checked on every reachable database, with the marker index on (as serve runs) and off, with
 * the archive account named by the sync add-on and by the service's own setting.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { runSearch } from '../src/core/search/pipeline.js';
import { reachableDialects } from './support/host-fixtures/dialects.js';
import { ARCHIVE_ACCOUNT, buildSearchWorld, expectedVerdict, type SearchWorld } from './support/search-world.js';

const dialects = await reachableDialects('search as the archive account');

describe.each(dialects)('the archive account searches on %s', (dialect) => {
  let world: SearchWorld;
  beforeAll(async () => {
    world = await buildSearchWorld(30, dialect);
  });
  afterAll(async () => {
    await world.close();
  });

  /** The archive account has a file for every document but those with no file or only carol's copy. */
  const own = (id: number): boolean => expectedVerdict(id) === 'shown' || expectedVerdict(id) === 'not shared';

  test.each([
    ['marker index on, sync add-on names it', true, undefined],
    ['marker index off, sync add-on names it', false, undefined],
    ['marker index on, archive_owner names it', true, ARCHIVE_ACCOUNT],
    ['marker index off, archive_owner names it', false, ARCHIVE_ACCOUNT],
  ])('%s: its own documents are shown, as question 1 answers them', async (_name, markerIndex, archiveOwner) => {
    const { ctx } = await world.context({ markerIndex, ...(archiveOwner === undefined ? {} : { archiveOwner }) });
    for (const round of ['cold', 'warm']) {
      const result = await runSearch(ctx, { user: ARCHIVE_ACCOUNT, term: 'invoice', limit: 50 });
      expect([round, result.status, result.failure]).toEqual([round, 'ok', undefined]);
      const ids = result.entries.map((e) => e.documentId);
      expect(ids.length).toBeGreaterThan(0);
      for (const id of ids) expect([id, own(id)]).toEqual([id, true]);
      const host = await ctx.host();
      const answered = await host.visibleArchiveFiles(ARCHIVE_ACCOUNT, ARCHIVE_ACCOUNT, ids);
      expect([...answered.keys()]).toEqual(ids);
      // A refused statement also switched the whole host to the per-document fallback.
      expect(host.batched).toBe(true);
    }
    // bob, through the share, still gets what he got.
    const bob = await runSearch(ctx, { user: 'bob', term: 'invoice', limit: 50 });
    expect(bob.entries.length).toBeGreaterThan(0);
    for (const entry of bob.entries) expect(expectedVerdict(entry.documentId)).toBe('shown');
  });
});
