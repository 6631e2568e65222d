/** Question 1 for one linked file (the smart picker's link check), on all three databases. */
import { afterAll, describe, expect, test } from '@jest/globals';
import { pino } from 'pino';
import { openHost } from '../src/core/host/open-host.js';
import type { HostAdapter } from '../src/core/host/types.js';
import { reachableDialects } from './support/host-fixtures/dialects.js';
import { createHostFixture, type HostFixture } from './support/host-fixtures/index.js';

const dialects = await reachableDialects('file link check');
const opened: { fixture: HostFixture; host: HostAdapter }[] = [];

afterAll(async () => {
  for (const { fixture, host } of opened) {
    await host.close();
    await fixture.drop();
  }
});

if (dialects.length === 0) test.skip('no database is reachable (reasons printed above)', () => undefined);

describe.each(dialects)('%s host', (dialect) => {
  test.each([false, true])('any copy the user can open counts, not only the one a search would show (marker index %s)', async (markerIndex) => {
    const fixture = await createHostFixture(dialect);
    await fixture.addUser('archive');
    await fixture.addUser('alice');
    const shared = await fixture.addFolder('archive', 'files/Shared');
    const other = await fixture.addFolder('archive', 'files/Other');
    await fixture.addFolder('archive', 'files/Private');
    // Three files of document 7: the oldest shared, a newer one shared twice, one not shared at all.
    const oldest = await fixture.addFile('archive', 'files/Shared/Old copy [P7].pdf');
    const newer = await fixture.addFile('archive', 'files/Other/New copy [P7] [P8].pdf');
    const hidden = await fixture.addFile('archive', 'files/Private/Private copy [P7].pdf');
    await fixture.share({ owner: 'archive', fileId: shared, type: 'user', with: 'alice', target: '/Shared' });
    await fixture.share({ owner: 'archive', fileId: other, type: 'user', with: 'alice', target: '/Zeta' });
    await fixture.share({ owner: 'archive', fileId: newer, type: 'user', with: 'alice', target: '/Alpha copy [P7] [P8].pdf' });
    const host = await openHost({ dbUrl: fixture.dbUrl }, { logger: pino({ level: 'silent' }), markerIndex });
    opened.push({ fixture, host });

    // The search shows one file per document: the oldest.
    expect((await host.visibleArchiveFiles('alice', 'archive', [7])).get(7)?.fileId).toBe(oldest);
    // A link to the newer copy is still one alice can open, at the earliest of her two paths.
    expect(await host.visibleArchiveFile('alice', 'archive', newer, [7, 8])).toMatchObject({ fileId: newer, path: '/Alpha copy [P7] [P8].pdf' });
    expect(await host.visibleArchiveFile('alice', 'archive', oldest, [7])).toMatchObject({ fileId: oldest, path: '/Shared/Old copy [P7].pdf' });
    // Never a file she cannot open, nor one without the marker asked for.
    expect(await host.visibleArchiveFile('alice', 'archive', hidden, [7])).toBeNull();
    expect(await host.visibleArchiveFile('alice', 'archive', oldest, [8])).toBeNull();
    expect(await host.visibleArchiveFile('alice', 'archive', newer, [])).toBeNull();
  });
});
