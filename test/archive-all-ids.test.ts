import { describe, expect, test } from '@jest/globals';
import fc from 'fast-check';
import { AllIdsFilter, MAX_ALL_IDS } from '../src/core/archive/all-ids.js';
import { createArchiveClient } from '../src/core/archive/archive-client.js';
import { useArchiveEmulator } from './support/archive-client-helpers.js';
import { sampleArchive, type ArchiveEmulator } from './support/archive-emulator/index.js';

function run(body: string, keep: boolean, pieces: readonly number[] = []): { kept: string; ids: number[] | null } {
  const filter = new AllIdsFilter(keep);
  const bytes = Buffer.from(body, 'utf8');
  const cuts = [...new Set(pieces.map((p) => p % (bytes.length + 1)))].sort((a, b) => a - b);
  const out: Buffer[] = [];
  let from = 0;
  for (const cut of [...cuts, bytes.length]) {
    out.push(filter.push(bytes.subarray(from, cut)));
    from = cut;
  }
  return { kept: Buffer.concat(out).toString('utf8'), ids: filter.allIds() };
}

const PAGE =
  '{"count":3,"next":"http://h/api/documents/?q=%22all%22:[9]&page=2","previous":null,"all":[31, 12,7],"results":[{"id":31,"title":"all: [1,2]","all":[5]}],"corrected_query":null}';

describe('the all list taken out while the answer streams', () => {
  test('the page keeps every other member, with "all":[]; the ids are read', () => {
    const { kept, ids } = run(PAGE, true);
    expect(JSON.parse(kept)).toEqual({ ...(JSON.parse(PAGE) as object), all: [] });
    expect(ids).toEqual([31, 12, 7]);
  });

  test('wherever the chunks are cut, the result is the same (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.nat(), { maxLength: 12 }), (cuts) => {
        expect(run(PAGE, true, cuts)).toEqual(run(PAGE, true));
      }),
    );
  });

  test('ids not wanted are not kept; no all, an unfinished all or one holding something else gives null', () => {
    expect(run(PAGE, false).ids).toBeNull();
    expect(run('{"count":0,"next":null,"previous":null,"results":[]}', true)).toEqual({
      kept: '{"count":0,"next":null,"previous":null,"results":[]}',
      ids: null,
    });
    expect(run('{"count":1,"all":[1,2', true).ids).toBeNull();
    expect(run('{"count":1,"all":[1,-2],"results":[]}', true).ids).toBeNull();
  });

  test(`more than ${MAX_ALL_IDS} ids: none kept, the page still parses`, () => {
    const filter = new AllIdsFilter(true);
    const head = filter.push(Buffer.from('{"count":1,"next":null,"previous":null,"all":['));
    const block = Buffer.from(Array.from({ length: 100_000 }, (_, i) => i + 1).join(',') + ',');
    for (let sent = 0; sent <= MAX_ALL_IDS; sent += 100_000) expect(filter.push(block).length).toBe(0);
    const tail = filter.push(Buffer.from('1],"results":[]}'));
    expect(JSON.parse(Buffer.concat([head, tail]).toString())).toEqual({ count: 1, next: null, previous: null, all: [], results: [] });
    expect(filter.allIds()).toBeNull();
  });
});

describe('an archive whose all list is larger than the body cap', () => {
  let emulator: ArchiveEmulator;
  const archive = sampleArchive(20_000);
  useArchiveEmulator({ version: '3.0', ...archive, tokens: ['big-token'] }, (started) => (emulator = started));

  test('connection test, search and widget all work; the test gets every id', async () => {
    // 20 000 ids are about 110 kB: far beyond this cap, while each page itself is a few kB.
    const client = createArchiveClient({ url: emulator.url, token: 'big-token', allowLocal: true }, { maxBodyBytes: 40_000 });
    try {
      const tested = await client.testConnection();
      expect(tested.count).toBe(20_000);
      expect(tested.allIds).toHaveLength(20_000);
      expect(new Set(tested.allIds)).toEqual(new Set(archive.documents.map((d) => d.id)));
      const page = await client.search({ term: 'invoice', page: 1 });
      expect(page.hits).toHaveLength(25);
      expect((await client.newest()).documents).toHaveLength(25);
    } finally {
      await client.close();
    }
  });

  test('the wire is still bounded: 8 times the cap', async () => {
    const client = createArchiveClient({ url: emulator.url, token: 'big-token', allowLocal: true }, { maxBodyBytes: 10_000 });
    try {
      await expect(client.testConnection()).rejects.toMatchObject({ code: 'not_paperless' });
    } finally {
      await client.close();
    }
  });
});
