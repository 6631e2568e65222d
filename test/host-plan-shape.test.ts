/**
 * MariaDB keeps the join order of the marked-file part whatever its sampled statistics say: the
 * folder set is read first and the files under it after (lookup-sql.ts, STRAIGHT_JOIN). The
 * order is what can be asserted on a small database; bench/host-plans.ts shows the time on
 * 1 M rows across 20 ANALYZE samples, and PostgreSQL's and SQLite's plans there too.
 * SQLite's plan of the share-obstacles statement (explain only) reaches shares by file.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { DatabaseSync } from 'node:sqlite';
import { openHost } from '../src/core/host/open-host.js';
import { rowText } from '../src/core/host/rules/lookup-sql.js';
import type { HostAdapter, SqlValue } from '../src/core/host/types.js';
import { reachableDialects } from './support/host-fixtures/dialects.js';
import { createHostFixture, type HostFixture } from './support/host-fixtures/index.js';
import { mysqlWriter, type Writer } from './support/host-fixtures/writer.js';

const A = 'archive';
const IDS = [11, 12, 13, 14];
const mysql = (await reachableDialects('host plan shape')).includes('mysql');

interface Sent {
  readonly sql: string;
  readonly params: readonly SqlValue[];
}

/** EXPLAIN rows grouped by select id, each group in the order MariaDB joins its tables. */
async function joinOrders(writer: Writer, sent: Sent): Promise<string[][]> {
  const rows = await writer.all(`EXPLAIN ${sent.sql}`, sent.params);
  const groups = new Map<string, string[]>();
  for (const row of rows) {
    const id = String(row.id);
    groups.set(id, [...(groups.get(id) ?? []), `${String(row.table)}:${rowText(row.key) ?? '-'}`]);
  }
  return [...groups.values()];
}

(mysql ? describe : describe.skip)('MariaDB: the folder set first, then its marked children', () => {
  let fx: HostFixture;
  let host: HostAdapter;
  let writer: Writer;
  let sent: Sent[] = [];
  beforeAll(async () => {
    fx = await createHostFixture('mysql');
    for (const uid of [A, 'bob']) await fx.addUser(uid);
    for (let folder = 0; folder < 6; folder += 1) {
      for (let i = 0; i < 20; i += 1) await fx.addFile(A, `Archive/${folder}/doc ${i} [P${10 + folder * 20 + i}].pdf`, { propagate: false });
    }
    for (let i = 0; i < 40; i += 1) await fx.addFile('bob', `Own/other ${i}.pdf`, { propagate: false });
    await fx.share({ owner: A, fileId: await fx.addFolder(A, 'Archive'), type: 'user', with: 'bob' });
    host = await openHost({ dbUrl: fx.dbUrl, tablePrefix: fx.prefix }, { onStatement: (sql, params) => sent.push({ sql, params }) });
    writer = await mysqlWriter(new URL(fx.dbUrl).pathname.slice(1));
  });
  afterAll(async () => {
    await writer.close();
    await host.close();
    await fx.drop();
  });

  test.each([
    ['shared folders (question 1 of a reader)', () => host.visibleArchiveFiles('bob', A, IDS)],
    ["the archive account's own folders (question 2)", () => host.ownedArchiveFiles(A, IDS)],
    ['both (question 3)', () => host.visibleForeignFiles('bob', A, IDS)],
  ])('%s, after each of 3 ANALYZE TABLE runs', async (_name, ask) => {
    for (let run = 0; run < 3; run += 1) {
      await writer.exec(`ANALYZE TABLE ${fx.prefix}filecache, ${fx.prefix}share, ${fx.prefix}storages`);
      sent = [];
      await ask();
      expect(sent).toHaveLength(1);
      const [statement] = sent;
      if (statement === undefined) throw new Error('no statement sent');
      // Every select that reads marked files (f) starts from a derived folder set and reaches f by its parent.
      const fileSelects = (await joinOrders(writer, statement)).filter((order) => order.some((t) => t.startsWith('f:')));
      expect(fileSelects.length).toBeGreaterThan(0);
      for (const order of fileSelects) {
        expect(order[0]).toMatch(/^<derived\d+>:/);
        expect(order[1]).toMatch(/^f:/);
      }
    }
  });

  test('the answers are those of the plain per-document form', async () => {
    const found = await host.visibleArchiveFiles('bob', A, IDS);
    expect([...found.keys()]).toEqual(IDS);
    expect(found.get(11)?.path).toBe('/Archive/0/doc 1 [P11].pdf');
  });
});

describe('SQLite: what keeps a file from a user is read through the shares of that file', () => {
  let fx: HostFixture;
  let host: HostAdapter;
  const sent: Sent[] = [];
  beforeAll(async () => {
    fx = await createHostFixture('sqlite');
    for (const uid of [A, 'bob', 'carol']) await fx.addUser(uid);
    const folder = await fx.addFolder(A, 'Private');
    await fx.addFile(A, 'Private/doc [P11].pdf');
    // Many file shares elsewhere: reading all of them would be the slow plan.
    for (let i = 0; i < 40; i += 1)
      await fx.share({ owner: A, fileId: await fx.addFile(A, `Other/o ${i}.pdf`, { propagate: false }), type: 'user', with: 'carol' });
    await fx.share({ owner: A, fileId: folder, type: 'user', with: 'carol' });
    host = await openHost({ dbUrl: fx.dbUrl, tablePrefix: fx.prefix }, { onStatement: (sql, params) => sent.push({ sql, params }) });
  });
  afterAll(async () => {
    await host.close();
    await fx.drop();
  });

  test('the share table is searched by file_source and share_with, not by item type', async () => {
    const own = await host.ownedArchiveFiles(A, [11]);
    const file = own.get(11);
    if (file === undefined) throw new Error('doc 11 not found');
    sent.length = 0;
    await host.shareObstacles('bob', A, [file]);
    const [statement] = sent;
    if (statement === undefined) throw new Error('no statement sent');
    const db = new DatabaseSync(new URL(fx.dbUrl).pathname, { readOnly: true });
    try {
      const plan = db
        .prepare(`EXPLAIN QUERY PLAN ${statement.sql}`)
        .all(...statement.params)
        .map((row) => String(row.detail));
      const shareSearches = plan.filter((detail) => /^SEARCH s USING/.test(detail));
      // The shares on the file's folders through file_source; the shares addressed to the user (their targets may collide) through share_with.
      expect(shareSearches.some((detail) => /file_source_index \(file_source=\?\)/.test(detail))).toBe(true);
      for (const detail of shareSearches) expect(detail).toMatch(/file_source_index \(file_source=\?\)|\(share_with=\?/);
      expect(plan.filter((detail) => /^SCAN s\b/.test(detail))).toEqual([]);
    } finally {
      db.close();
    }
  });
});
