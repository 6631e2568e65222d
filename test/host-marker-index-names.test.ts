/**
 * The marker index's build reads names differently per database (marker-index.ts): SQLite and
 * MariaDB hand over rows, PostgreSQL sends COPY text (tabs and control characters escaped with
 * backslashes, runs of lines cut wherever the socket cut them), read as latin1 without decoding
 * the names. Whatever the database, the index must hold exactly the markers the rule finds in
 * each name: the same documents, and the same files for them, as the adapter without an index
 * (which reads the names themselves and applies markersIn). Names with two markers, a leading
 * zero, a lower-case p, digits past 2^53, other scripts' digits, a marker in a folder's name,
 * tabs, newlines and backslashes beside markers, multi-byte characters around them, and a folder
 * whose COPY text is far longer than one chunk of the socket.
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
  'tab\t[P113]\t.pdf',
  'newline\n[P114]\r\n.pdf',
  'backslash \\[P115]\\.pdf',
  'escape-like \\n[P116] \\t[P\\117].pdf',
  'cut [P1\t18] [P1\n19].pdf',
  'ümlaut ü[P120]ü 😀[P121]😀.pdf',
];
/** COPY's text for this folder is well over 64 KiB: its lines are cut across chunks. */
const LONG = 1500;
/** Folders of 130, 130 and 40 marked files: more than one PostgreSQL row's worth in each. */
const BULK = [130, 130, 40];

async function build(fx: HostFixture): Promise<void> {
  await fx.addUser(A);
  for (const name of TRICKY) await fx.addFile(A, `Names/${name}`);
  let id = 1000;
  for (const [folder, count] of BULK.entries()) for (let i = 0; i < count; i += 1, id += 1) await fx.addFile(A, `Bulk${folder}/b${i} [P${id}].pdf`);
  for (let i = 0; i < LONG; i += 1) await fx.addFile(A, `Long/${'ä'.repeat(i % 90)} document number ${i} of the long folder [P${5000 + i}].pdf`);
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
    // 101, 102, 0, 105, 2^53 − 1, 107, 108, 110, 112, 113–116, 120, 121, the bulk's 300 and the long folder's.
    const tricky = [0, 101, 102, 105, 107, 108, 110, 112, 113, 114, 115, 116, 120, 121];
    const bulk = Array.from({ length: 300 }, (_, i) => 1000 + i);
    const long = Array.from({ length: LONG }, (_, i) => 5000 + i);
    expect(scanned).toEqual([...tricky, ...bulk, ...long, Number.MAX_SAFE_INTEGER]);
    expect(await world.host.markedDocuments(A)).toEqual(scanned);
    // One pair per marker (112 twice), and none the rule does not count: the index reads no more rows than it must.
    expect(size?.markers).toBe(tricky.length + bulk.length + long.length + 2);
    expect(size?.documents).toBe(tricky.length + bulk.length + long.length + 1);
    const asked = scanned.filter((id) => id > 0);
    for (let i = 0; i < asked.length; i += 25) {
      const ids = asked.slice(i, i + 25);
      expect(Object.fromEntries(await world.host.ownedArchiveFiles(A, ids))).toEqual(Object.fromEntries(await plain.ownedArchiveFiles(A, ids)));
    }
    expect((await world.host.ownedArchiveFiles(A, [110, 112, 113, 114, 115, 116, 120, 121, 1299, 5000 + LONG - 1])).size).toBe(10);
  });
});
