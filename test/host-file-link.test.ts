/** Question 1 for one linked file (the smart picker's link check), on all three databases. */
import { describe, expect, test } from '@jest/globals';
import { pino } from 'pino';
import { reachableDialects } from './support/host-fixtures/dialects.js';
import { useHostWorld } from './support/host-fixtures/host-world.js';
import type { HostFixture } from './support/host-fixtures/index.js';

const dialects = await reachableDialects('file link check');
if (dialects.length === 0) test.skip('no database is reachable (reasons printed above)', () => undefined);

/** Three files of document 7: the oldest shared, a newer one shared twice, one not shared at all. */
const files = { oldest: 0, newer: 0, hidden: 0 };
async function build(fixture: HostFixture): Promise<void> {
  await fixture.addUser('archive');
  await fixture.addUser('alice');
  const shared = await fixture.addFolder('archive', 'files/Shared');
  const other = await fixture.addFolder('archive', 'files/Other');
  await fixture.addFolder('archive', 'files/Private');
  files.oldest = await fixture.addFile('archive', 'files/Shared/Old copy [P7].pdf');
  files.newer = await fixture.addFile('archive', 'files/Other/New copy [P7] [P8].pdf');
  files.hidden = await fixture.addFile('archive', 'files/Private/Private copy [P7].pdf');
  await fixture.share({ owner: 'archive', fileId: shared, type: 'user', with: 'alice', target: '/Shared' });
  await fixture.share({ owner: 'archive', fileId: other, type: 'user', with: 'alice', target: '/Zeta' });
  await fixture.share({ owner: 'archive', fileId: files.newer, type: 'user', with: 'alice', target: '/Alpha copy [P7] [P8].pdf' });
}

describe.each(dialects.flatMap((dialect) => [false, true].map((markerIndex) => [dialect, markerIndex] as const)))(
  '%s host, marker index %s',
  (dialect, markerIndex) => {
    const world = useHostWorld(dialect, build, {}, { logger: pino({ level: 'silent' }), markerIndex });

    test('any copy the user can open counts, not only the one a search would show', async () => {
      const { host } = world;
      // The search shows one file per document: the oldest.
      expect((await host.visibleArchiveFiles('alice', 'archive', [7])).get(7)?.fileId).toBe(files.oldest);
      // A link to the newer copy is still one alice can open, at the earliest of her two paths.
      expect(await host.visibleArchiveFile('alice', 'archive', files.newer, [7, 8])).toMatchObject({ fileId: files.newer, path: '/Alpha copy [P7] [P8].pdf' });
      expect(await host.visibleArchiveFile('alice', 'archive', files.oldest, [7])).toMatchObject({ fileId: files.oldest, path: '/Shared/Old copy [P7].pdf' });
      // Never a file she cannot open, nor one without the marker asked for.
      expect(await host.visibleArchiveFile('alice', 'archive', files.hidden, [7])).toBeNull();
      expect(await host.visibleArchiveFile('alice', 'archive', files.oldest, [8])).toBeNull();
      expect(await host.visibleArchiveFile('alice', 'archive', files.newer, [])).toBeNull();
    });
  },
);
