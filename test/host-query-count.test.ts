/**
 * Each question is one database round trip per call, whatever the batch size; the spec's
 * fallback asks per document, logs its warning once and says so through `batched`.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { LOG_MESSAGES } from '../src/core/log.js';
import { openHost } from '../src/core/host/open-host.js';
import type { HostAdapter, VisibleFile } from '../src/core/host/types.js';
import { captureLogger } from './support/host-fixtures/capture-log.js';
import { reachableDialects } from './support/host-fixtures/dialects.js';
import { createHostFixture, type HostFixture } from './support/host-fixtures/index.js';

const A = 'archive';
const IDS = Array.from({ length: 25 }, (_, i) => 100 + i * 7);

async function world(fx: HostFixture): Promise<void> {
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
  let fx: HostFixture;
  let host: HostAdapter;

  beforeAll(async () => {
    fx = await createHostFixture(dialect);
    await world(fx);
    host = await openHost({ dbUrl: fx.dbUrl, tablePrefix: fx.prefix });
  });
  afterAll(async () => {
    await host?.close();
    await fx?.drop();
  });

  test.each([1, 5, 25])('exactly one query per question for a batch of %i', async (size) => {
    const ids = IDS.slice(0, size);
    const calls: [string, () => Promise<ReadonlyMap<number, VisibleFile>>][] = [
      ['visible', () => host.visibleArchiveFiles('bob', A, ids)],
      ['owned', () => host.ownedArchiveFiles(A, ids)],
      ['foreign', () => host.visibleForeignFiles('bob', A, ids)],
      ['visible as archive', () => host.visibleArchiveFiles(A, A, ids)],
    ];
    for (const [, call] of calls) {
      const before = host.sql.queryCount;
      const answer = await call();
      expect(host.sql.queryCount - before).toBe(1);
      expect(answer.size).toBeGreaterThan(0);
    }
    expect(host.batched).toBe(true);
  });

  test('an empty batch asks nothing', async () => {
    const before = host.sql.queryCount;
    expect((await host.visibleArchiveFiles('bob', A, [])).size).toBe(0);
    expect(host.sql.queryCount).toBe(before);
  });

  test('fallback: the batched form is rejected, one query per document, one warning, same answers', async () => {
    const { logger, lines } = captureLogger();
    const broken = await openHost({ dbUrl: fx.dbUrl, tablePrefix: fx.prefix }, { logger, breakBatchedQuery: true });
    try {
      const ids = IDS.slice(0, 5);
      const expected = plain(await host.visibleArchiveFiles('bob', A, ids));
      let before = broken.sql.queryCount;
      const first = await broken.visibleArchiveFiles('bob', A, ids);
      expect(broken.batched).toBe(false);
      // The rejected batched statement, then one per document.
      expect(broken.sql.queryCount - before).toBe(1 + ids.length);
      expect(plain(first)).toEqual(expected);
      before = broken.sql.queryCount;
      const owned = await broken.ownedArchiveFiles(A, ids);
      expect(broken.sql.queryCount - before).toBe(ids.length);
      expect(plain(owned)).toEqual(plain(await host.ownedArchiveFiles(A, ids)));
      expect(plain(await broken.visibleForeignFiles('bob', A, ids))).toEqual(plain(await host.visibleForeignFiles('bob', A, ids)));
      const warnings = lines().filter((l) => l.msg === LOG_MESSAGES.perDocumentLookup());
      expect(warnings).toHaveLength(1);
      expect(warnings[0]?.level).toBe(40);
      expect(warnings[0]?.app).toBe('docs_unified_search');
    } finally {
      await broken.close();
    }
  });

  test('the connection is read-only', async () => {
    await expect(host.sql.query(`INSERT INTO ${fx.prefix}groups (gid, displayname) VALUES (?, ?)`, ['intruders', 'x'])).rejects.toThrow();
    expect(await host.groupsOf('bob')).toEqual(['team']);
  });
});
