/**
 * The marker index once warm, in memory as `serve` keeps it (OpenHostOptions.markerIndex) and in
 * the index file as one-shot commands keep it (markerIndexFile: every question asked by a fresh
 * adapter, as a new CLI run would, reading and saving a real file in a temporary directory):
 * every change to the archive's files and shares shows on the very next batch when the host
 * propagates etags as Nextcloud does; a change the etags do not show can only leave a file
 * out, never show one the user cannot open, because the rows are re-read and re-judged. One
 * round trip per warm batch.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openHost } from '../src/core/host/open-host.js';
import type { HostAdapter } from '../src/core/host/types.js';
import { reachableDialects } from './support/host-fixtures/dialects.js';
import { askPaths, useHostWorld, type Question } from './support/host-fixtures/host-world.js';
import type { HostFixture } from './support/host-fixtures/index.js';

const A = 'arc';
const IDS = Array.from({ length: 30 }, (_, i) => i + 1);

async function build(fx: HostFixture): Promise<void> {
  for (const uid of [A, 'bob', 'carol']) await fx.addUser(uid);
  await fx.addUser('late', { loggedIn: false });
  for (const [id, name] of [
    [1, 'ren'],
    [2, 'mov'],
    [4, 'del'],
    [9, 'keep'],
    [10, 'ren-quiet'],
    [11, 'mov-quiet'],
    [12, 'del-quiet'],
    [13, 'remark-quiet'],
    [15, 'trash-quiet'],
  ] as const) {
    await fx.addFile(A, `Shared/${name} [P${id}].pdf`);
  }
  await fx.share({ owner: A, fileId: await fx.addFolder(A, 'Shared'), type: 'user', with: 'bob', target: '/Shared' });
  await fx.addFile(A, 'Shared2/s [P3].pdf');
  await fx.share({ owner: A, fileId: await fx.addFolder(A, 'Shared2'), type: 'user', with: 'bob', target: '/Shared2' });
  await fx.addFile(A, 'Private/p [P6].pdf');
  await fx.addFile(A, 'Deep/a/b/c/d [P5].pdf');
  await fx.share({ owner: A, fileId: await fx.addFolder(A, 'Deep'), type: 'user', with: 'bob', target: '/Deep' });
  // Another account's copy: question 3 is not indexed and must not change.
  await fx.share({ owner: 'carol', fileId: await fx.addFile('carol', 'c [P9].pdf'), type: 'user', with: 'bob' });
}

const dialects = await reachableDialects('host marker index');
type Mode = 'memory' | 'file';
const MODES: readonly Mode[] = ['memory', 'file'];

describe.each(dialects.flatMap((dialect) => MODES.map((mode) => [dialect, mode] as const)))('marker index on %s, kept in %s', (dialect, mode) => {
  const world = useHostWorld(dialect, build, {}, mode === 'memory' ? { markerIndex: true } : {});
  let plain: HostAdapter;
  let directory = '';
  beforeAll(async () => {
    plain = await openHost({ dbUrl: world.fx.dbUrl, tablePrefix: world.fx.prefix });
    directory = mkdtempSync(join(tmpdir(), 'dus-index-'));
  });
  afterAll(async () => {
    await plain?.close();
    if (directory !== '') rmSync(directory, { recursive: true, force: true });
  });

  /**
   * Runs a call on the indexed adapter: serve's, kept open; or, in file mode, a fresh one on
   * the index file, closed (which saves the file) afterwards. Counts the call's statements.
   */
  const indexed = async <T>(call: (host: HostAdapter) => Promise<T>): Promise<{ value: T; statements: number }> => {
    const host =
      mode === 'memory'
        ? world.host
        : await openHost({ dbUrl: world.fx.dbUrl, tablePrefix: world.fx.prefix }, { markerIndexFile: join(directory, 'marker-index.bin') });
    try {
      const before = host.sql.queryCount;
      const value = await call(host);
      return { value, statements: host.sql.queryCount - before };
    } finally {
      if (mode === 'file') await host.close();
    }
  };
  /** The indexed answer alone, where the index may legitimately miss what the scan finds. */
  const askIndexed = async (q: Question, user: string, ids: readonly number[] = IDS): Promise<Record<number, string>> =>
    (await indexed((host) => askPaths(host, q, user, A, ids))).value;
  /** The indexed answer, after checking that the scanning adapter gives the same one. */
  const ask = async (q: Question, user: string, ids: readonly number[] = IDS): Promise<Record<number, string>> => {
    const answer = await askIndexed(q, user, ids);
    expect(answer).toEqual(await askPaths(plain, q, user, A, ids));
    return answer;
  };
  const roundTrips = async (call: (host: HostAdapter) => Promise<unknown>): Promise<number> => (await indexed(call)).statements;
  const fileOf = (name: string): number => [...world.fx.model.files.values()].find((f) => f.name === name)?.fileid ?? -1;

  test('warm: the same answers as the scan, one round trip per batch for every question', async () => {
    expect(await ask('visible', 'bob')).toEqual({
      1: '/Shared/ren [P1].pdf',
      2: '/Shared/mov [P2].pdf',
      3: '/Shared2/s [P3].pdf',
      4: '/Shared/del [P4].pdf',
      5: '/Deep/a/b/c/d [P5].pdf',
      9: '/Shared/keep [P9].pdf',
      10: '/Shared/ren-quiet [P10].pdf',
      11: '/Shared/mov-quiet [P11].pdf',
      12: '/Shared/del-quiet [P12].pdf',
      13: '/Shared/remark-quiet [P13].pdf',
      15: '/Shared/trash-quiet [P15].pdf',
    });
    expect(Object.keys(await ask('owned', A))).toHaveLength(12);
    expect(await ask('foreign', 'bob')).toEqual({ 9: '/c [P9].pdf' });
    for (const size of [1, 5, 25]) {
      const ids = IDS.slice(0, size);
      expect(await roundTrips((host) => host.visibleArchiveFiles('bob', A, ids))).toBe(1);
      expect(await roundTrips((host) => host.ownedArchiveFiles(A, ids))).toBe(1);
      expect(await roundTrips((host) => host.visibleArchiveFiles(A, A, ids))).toBe(1);
      expect(await roundTrips((host) => host.visibleForeignFiles('bob', A, ids))).toBe(1);
    }
  });

  test('renamed to lose its marker, moved out of the shared folder, deleted (etags propagated): gone on the next batch', async () => {
    await world.fx.moveNode(A, fileOf('ren [P1].pdf'), 'files/Shared/renamed.pdf');
    await world.fx.moveNode(A, fileOf('mov [P2].pdf'), 'files/Private/mov [P2].pdf');
    await world.fx.deleteNode(fileOf('del [P4].pdf'));
    const visible = await ask('visible', 'bob');
    expect(visible).not.toHaveProperty('1');
    expect(visible).not.toHaveProperty('2');
    expect(visible).not.toHaveProperty('4');
    expect(visible[9]).toBe('/Shared/keep [P9].pdf');
    const owned = await ask('owned', A, [1, 2, 4]);
    expect(owned).toEqual({ 2: '/Private/mov [P2].pdf' });
    // The refresh happened once; the next batch is one round trip again.
    expect(await roundTrips((host) => host.visibleArchiveFiles('bob', A, IDS))).toBe(1);
  });

  test('a share deleted: gone on the next batch, in one round trip (shares are read fresh)', async () => {
    await world.fx.exec(`DELETE FROM ${world.fx.prefix}share WHERE file_target = ?`, ['/Shared2']);
    let visible: Record<number, string> = {};
    expect(await roundTrips(async (host) => (visible = await askPaths(host, 'visible', 'bob', A, IDS)))).toBe(1);
    expect(visible).not.toHaveProperty('3');
    expect(await ask('visible', 'bob')).toEqual(visible);
  });

  test('changes WITHOUT etag propagation never leak: renamed, moved out, deleted, trashed, re-marked', async () => {
    await world.fx.moveNode(A, fileOf('ren-quiet [P10].pdf'), 'files/Shared/plain.pdf', { propagate: false });
    await world.fx.moveNode(A, fileOf('mov-quiet [P11].pdf'), 'files/Private/mov-quiet [P11].pdf', { propagate: false });
    await world.fx.deleteNode(fileOf('del-quiet [P12].pdf'), { propagate: false });
    await world.fx.moveNode(A, fileOf('remark-quiet [P13].pdf'), 'files/Shared/remark-quiet [P14].pdf', { propagate: false });
    await world.fx.moveNode(A, fileOf('trash-quiet [P15].pdf'), 'files_trashbin/files/trash-quiet [P15].pdf.d1', { propagate: false });
    let visible: Record<number, string> = {};
    // The etags did not move, so the index is not refreshed: the re-read rows alone decide.
    expect(await roundTrips(async (host) => (visible = await askPaths(host, 'visible', 'bob', A, IDS)))).toBe(1);
    for (const gone of ['10', '11', '12', '13', '15']) expect(visible).not.toHaveProperty(gone);
    // What is still shown is exactly what the scan shows; [P14] may be missing (an omission).
    const scanned = await askPaths(plain, 'visible', 'bob', A, IDS);
    expect(scanned[14]).toBe('/Shared/remark-quiet [P14].pdf');
    for (const [id, path] of Object.entries(visible)) expect(scanned[Number(id)]).toBe(path);
    const owned = await askIndexed('owned', A, [10, 11, 12, 13, 14, 15]);
    // The moved file is still the archive's, at its new path: read fresh, not from the index.
    // [P14] shows here only because [P13]'s row was read and now carries it: the truth.
    const { 14: remarked, ...rest } = owned;
    expect(rest).toEqual({ 11: '/Private/mov-quiet [P11].pdf' });
    expect([undefined, '/Shared/remark-quiet [P14].pdf']).toContain(remarked);
  });

  test('a new marked file (etags propagated) shows on the next batch; one added without propagation may be missing until the next change there', async () => {
    await world.fx.addFile(A, 'Shared/new [P7].pdf');
    expect(await ask('visible', 'bob', [7])).toEqual({ 7: '/Shared/new [P7].pdf' });
    expect(await ask('owned', A, [7])).toEqual({ 7: '/Shared/new [P7].pdf' });
    await world.fx.addFile(A, 'Deep/a/b/c/quiet [P8].pdf', { propagate: false });
    const missing = await askIndexed('visible', 'bob', [5, 8]);
    expect(missing).toEqual({ 5: '/Deep/a/b/c/d [P5].pdf' });
    expect(await askPaths(plain, 'visible', 'bob', A, [5, 8])).toEqual({ 5: '/Deep/a/b/c/d [P5].pdf', 8: '/Deep/a/b/c/quiet [P8].pdf' });
    // The next propagated change in that folder re-reads it: both show.
    await world.fx.addFile(A, 'Deep/a/b/c/loud [P16].pdf');
    expect(await ask('visible', 'bob', [5, 8, 16])).toEqual({ 5: '/Deep/a/b/c/d [P5].pdf', 8: '/Deep/a/b/c/quiet [P8].pdf', 16: '/Deep/a/b/c/loud [P16].pdf' });
  });

  test('concurrent batches after a change share one refresh', async () => {
    await world.fx.addFile(A, 'Shared/one [P17].pdf');
    const single = await roundTrips((host) => host.visibleArchiveFiles('bob', A, [17]));
    // The stale statement, the refresh, the re-run.
    expect(single).toBeGreaterThan(2);
    const refreshCost = single - 2;
    await world.fx.addFile(A, 'Shared/two [P18].pdf');
    let answers: Record<number, string>[] = [];
    const parallel = await roundTrips(async (host) => {
      answers = await Promise.all(Array.from({ length: 5 }, () => askPaths(host, 'visible', 'bob', A, [17, 18])));
    });
    for (const answer of answers) expect(answer).toEqual({ 17: '/Shared/one [P17].pdf', 18: '/Shared/two [P18].pdf' });
    // At most two statements per caller plus one refresh; five refreshes would cost far more.
    expect(parallel).toBeLessThanOrEqual(5 * 2 + refreshCost);
  });

  test('an archive account whose home storage appears after the index was built', async () => {
    expect(await ask('owned', 'late', [20])).toEqual({});
    await world.fx.addFile('late', 'x [P20].pdf');
    expect((await indexed((host) => askPaths(host, 'owned', 'late', 'late', [20]))).value).toEqual({ 20: '/x [P20].pdf' });
  });

  test("check's coverage (markedDocuments) comes from the index, brought to the current etags as a lookup's is", async () => {
    await world.fx.addFile(A, 'Private/cov [P21].pdf');
    // The new file's folder was re-read, which also picks up the quiet move into it earlier.
    const covered = await indexed((host) => host.markedDocuments(A));
    expect(covered.value).toContain(21);
    expect(covered.value).toEqual(await plain.markedDocuments(A));
    // The etags, the folders, the changed folders' children; then the etags alone once current.
    expect(covered.statements).toBe(4);
    expect((await indexed((host) => host.markedDocuments(A))).statements).toBe(1);
  });
});
