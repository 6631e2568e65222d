/**
 * The marker index's build reads names differently per database (marker-index.ts): SQLite and
 * MariaDB scan the names in TypeScript (forEachMarker); PostgreSQL finds the markers' digits in
 * SQL (regexp_matches) and reads them 100 files to a row. Whatever the database, the index must
 * hold exactly the markers the rule finds in each name: the same documents, and the same files
 * for them, as the adapter without an index (which reads the names themselves and applies
 * markersIn). Names with two markers, a leading zero, a lower-case p, digits past 2^53, other
 * scripts' digits, a marker in a folder's name, and folders of more than 100 marked files.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { openHost } from '../src/core/host/open-host.js';
import type { HostAdapter } from '../src/core/host/types.js';
import { reachableDialects } from './support/host-fixtures/dialects.js';
import { useHostWorld } from './support/host-fixtures/host-world.js';
import type { HostFixture } from './support/host-fixtures/index.js';

const A = 'arc';
const TRICKY = [
  'two [P101][P102].pdf',
  'zero [P0].pdf',
  'lead [P0103].pdf',
  'lower [p104].pdf',
  'nested [P[P105].pdf',
  'past [P9007199254740992].pdf',
  'max [P9007199254740991].pdf',
  'arabic [P١٠٦].pdf',
  'apart [P107] x [P108] y.pdf',
  'unclosed [P111.pdf',
  'twice [P112] again [P112].pdf',
  'Folder [P109]/in [P110].pdf',
];
/** Folders of 130, 130 and 40 marked files: more than one PostgreSQL row's worth in each. */
const BULK = [130, 130, 40];

async function build(fx: HostFixture): Promise<void> {
  await fx.addUser(A);
  for (const name of TRICKY) await fx.addFile(A, `Names/${name}`);
  let id = 1000;
  for (const [folder, count] of BULK.entries()) for (let i = 0; i < count; i += 1, id += 1) await fx.addFile(A, `Bulk${folder}/b${i} [P${id}].pdf`);
}

const dialects = await reachableDialects('host marker index names');

describe.each(dialects)('marker index built on %s', (dialect) => {
  const world = useHostWorld(dialect, build, {}, { markerIndex: true });
  let plain: HostAdapter;
  beforeAll(async () => {
    plain = await openHost({ dbUrl: world.fx.dbUrl, tablePrefix: world.fx.prefix });
  });
  afterAll(async () => {
    await plain?.close();
  });

  test('the same documents and files as the names read without an index', async () => {
    const size = await world.host.prepareMarkerIndex(A);
    const scanned = await plain.markedDocuments(A);
    // 101, 102, 0, 105, 2^53 − 1, 107, 108, 110, 112, and the bulk's 300.
    expect(scanned).toEqual([0, 101, 102, 105, 107, 108, 110, 112, ...Array.from({ length: 300 }, (_, i) => 1000 + i), Number.MAX_SAFE_INTEGER]);
    expect(await world.host.markedDocuments(A)).toEqual(scanned);
    // One pair per marker (112 twice), and none the rule does not count: the index reads no more rows than it must.
    expect(size?.markers).toBe(310);
    expect(size?.documents).toBe(309);
    const asked = scanned.filter((id) => id > 0);
    for (let i = 0; i < asked.length; i += 25) {
      const ids = asked.slice(i, i + 25);
      expect(Object.fromEntries(await world.host.ownedArchiveFiles(A, ids))).toEqual(Object.fromEntries(await plain.ownedArchiveFiles(A, ids)));
    }
    expect((await world.host.ownedArchiveFiles(A, [110, 112, 1299])).size).toBe(3);
  });
});
