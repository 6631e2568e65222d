/** The verdicts and the provider's results on PostgreSQL and MariaDB, where they are reachable. */
import { afterAll, describe, expect, test } from '@jest/globals';
import { runSearch } from '../src/core/search/pipeline.js';
import { decideVerdicts } from '../src/core/search/verdicts.js';
import { reachableDialects } from './support/host-fixtures/dialects.js';
import { buildSearchWorld, expectedVerdict, type SearchWorld } from './support/search-world.js';

const dialects = (await reachableDialects('search verdicts')).filter((dialect) => dialect !== 'sqlite');
const worlds: SearchWorld[] = [];

afterAll(async () => {
  for (const world of worlds) await world.close();
});

if (dialects.length === 0) {
  test.skip('no server database is reachable (reasons printed above)', () => undefined);
}

describe.each(dialects)('%s host', (dialect) => {
  test('every verdict as on SQLite, and the provider returns exactly the shown ones', async () => {
    const world = await buildSearchWorld(40, dialect);
    worlds.push(world);
    const { ctx } = await world.context();
    const report = await decideVerdicts(ctx, { user: 'bob', term: 'invoice', explain: true, limit: 50 });
    expect(report.items.length).toBeGreaterThan(0);
    for (const item of report.items) expect(item.verdict).toBe(expectedVerdict(item.id));
    expect(new Set(report.items.map((item) => item.verdict)).size).toBeGreaterThanOrEqual(3);
    const outcome = await runSearch(ctx, { user: 'bob', term: 'invoice', limit: 50 });
    expect(outcome.entries.map((entry) => entry.documentId)).toEqual(report.items.filter((item) => item.verdict === 'shown').map((item) => item.id));
  });
});
