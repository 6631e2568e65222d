/**
 * The marker index's arrays (marker-table.ts) and their file (marker-index-file.ts) against a
 * plain model: the collector growing in place and its in-place sort (random order, already in
 * order, reversed, long runs of one id, ids near 2^53), the refresh's merge, and lookups in
 * memory and block by block from the file, including runs of one document id across block
 * boundaries.
 */
import { afterAll, describe, expect, test } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MarkerIndexFile } from '../src/core/host/index/marker-index-file.js';
import { MemoryTable, mergeKept, PairCollector, type IndexArrays } from '../src/core/host/index/marker-table.js';

type Triple = [document: number, file: number, parent: number];

/** A small deterministic generator (no dependency on Math.random). */
function random(seed: number): () => number {
  let x = seed;
  return () => {
    x = (x * 1103515245 + 12345) % 2147483648;
    return x / 2147483648;
  };
}

function collect(triples: readonly Triple[]): IndexArrays {
  const collector = new PairCollector();
  for (const [d, f, p] of triples) collector.add(d, f, p);
  expect(collector.count).toBe(triples.length);
  return { ...collector.sorted(), folders: new Map() };
}

function triplesOf(arrays: IndexArrays): Triple[] {
  return Array.from({ length: arrays.parents.length }, (_, i) => [arrays.pairs[2 * i] ?? -1, arrays.pairs[2 * i + 1] ?? -1, arrays.parents[i] ?? -1]);
}

const byAll = (a: Triple, b: Triple): number => a[0] - b[0] || a[1] - b[1] || a[2] - b[2];

function expectSortedSame(arrays: IndexArrays, triples: readonly Triple[]): void {
  const got = triplesOf(arrays);
  expect(got.findIndex((t, i) => i > 0 && t[0] < (got[i - 1]?.[0] ?? 0))).toBe(-1);
  // As one string each: jest's deep comparison of 70 000 triples takes seconds.
  expect(JSON.stringify([...got].sort(byAll))).toBe(JSON.stringify([...triples].sort(byAll)));
}

function filesFor(triples: readonly Triple[], ids: readonly number[]): number[] {
  return [...new Set(triples.filter(([d]) => ids.includes(d)).map(([, f]) => f))].sort((a, b) => a - b);
}

function generated(n: number, seed: number, maxDocument: number): Triple[] {
  const next = random(seed);
  return Array.from({ length: n }, (_, i) => [1 + Math.floor(next() * maxDocument), 1000 + i, 1 + Math.floor(next() * 20)]);
}

const directory = mkdtempSync(join(tmpdir(), 'dus-marker-table-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

describe('marker table', () => {
  // 70 000 pairs: the collector grows several times (PairCollector.STEP).
  test.each([
    ['random order', 70_000, 5_000, (t: Triple[]) => t],
    ['ids near 2^53', 3_000, Number.MAX_SAFE_INTEGER - 10, (t: Triple[]) => t],
    ['already in order', 70_000, 5_000, (t: Triple[]) => [...t].sort(byAll)],
    ['reversed', 70_000, 5_000, (t: Triple[]) => [...t].sort(byAll).reverse()],
    ['long runs of one id', 70_000, 3, (t: Triple[]) => t],
    ['one id, file ids descending', 40_000, 1, (t: Triple[]) => t.map(([d, f, p]): Triple => [d, 1_000_000 - f, p])],
  ])('sorted by document id, nothing lost or doubled: %s', (_name, n, maxDocument, arrange) => {
    const triples = arrange(generated(n, 7, maxDocument));
    const arrays = collect(triples);
    expectSortedSame(arrays, triples);
    const table = new MemoryTable(arrays);
    const asked = [triples[0]?.[0] ?? 0, triples[n - 1]?.[0] ?? 0, 0, maxDocument + 1];
    const found = new Set<number>();
    table.fileIdsFor(asked, found);
    expect([...found].sort((a, b) => a - b)).toEqual(filesFor(triples, asked));
    expect(table.documents).toBe(new Set(triples.map(([d]) => d)).size);
    // Exact-size arrays: the index keeps no spare room.
    expect(arrays.pairs.length).toBe(2 * n);
    expect(arrays.parents.length).toBe(n);
  });

  test('a collector is empty again after sorted(), and reusable', () => {
    const collector = new PairCollector();
    collector.add(2, 20, 1);
    collector.add(1, 10, 1);
    expect(triplesOf({ ...collector.sorted(), folders: new Map() })).toEqual([
      [1, 10, 1],
      [2, 20, 1],
    ]);
    expect(collector.count).toBe(0);
    expect(collector.sorted().parents.length).toBe(0);
    collector.add(5, 50, 3);
    expect(triplesOf({ ...collector.sorted(), folders: new Map() })).toEqual([[5, 50, 3]]);
  });

  test('a refresh: the pairs of dropped folders go, the new ones are merged in order', () => {
    const old = generated(5_000, 11, 800);
    const added = generated(300, 12, 900).map(([d, f, p]): Triple => [d, f + 100_000, p + 100]);
    const drop = new Set([3, 4, 5]);
    const merged = mergeKept(collect(old), (parent) => !drop.has(parent), collect(added));
    const expected = [...old.filter(([, , p]) => !drop.has(p)), ...added];
    expectSortedSame({ ...merged, folders: new Map() }, expected);
  });
});

describe('marker index file', () => {
  test('block by block: every file of a document found, also when its run crosses blocks; the same as in memory', () => {
    // Document 7 has 1300 files (over two block boundaries of 512), the others a few each.
    const triples: Triple[] = [
      ...generated(2_000, 3, 50).map(([d, f, p]): Triple => [d === 7 ? 8 : d, f, p]),
      ...Array.from({ length: 1_300 }, (_, i): Triple => [7, 50_000 + i, 2]),
    ];
    const arrays = {
      ...collect(triples),
      folders: new Map<number, string | null>([
        [1, 'e1'],
        [2, null],
      ]),
    };
    const path = join(directory, 'marker-index.bin');
    const roots = [{ storage: 1, filesId: 1, etag: 'r' }];
    const writer = new MarkerIndexFile(path, 'identity');
    writer.changed();
    writer.save(() => ({ roots, arrays }));
    expect(writer.lastEvent).toBe('saved');
    const reader = new MarkerIndexFile(path, 'identity');
    const result = reader.load();
    const loaded = result === 'unusable' ? null : result;
    try {
      expect(loaded?.roots).toEqual(roots);
      const table = loaded?.table;
      if (table === undefined) throw new Error('not loaded');
      expect(table.count).toBe(triples.length);
      for (const ids of [[7], [1, 7, 50], [8], [0, 51], Array.from({ length: 52 }, (_, i) => i)]) {
        const fromFile = new Set<number>();
        table.fileIdsFor(ids, fromFile);
        expect([...fromFile].sort((a, b) => a - b)).toEqual(filesFor(triples, ids));
      }
      const whole = table.arrays();
      expect(triplesOf(whole)).toEqual(triplesOf(arrays));
      expect([...whole.folders]).toEqual([...arrays.folders]);
      // Read in full, it answers from memory the same way.
      const again = new Set<number>();
      table.fileIdsFor([7], again);
      expect(again.size).toBe(1_300);
    } finally {
      reader.close();
    }
    expect(new MarkerIndexFile(path, 'another identity').load()).toBeNull();
  });
});
