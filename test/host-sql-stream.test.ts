/**
 * SqlClient.each and eachRow, the streamed reads (eachRow builds the marker index): the same
 * rows as `query`, handed over in batches of at most STREAM_BATCH or one by one as arrays in
 * column order, counted as one statement; a statement that fails leaves the connection usable
 * (PostgreSQL's cursor transaction is ended). PostgreSQL's copyLines, which the marker index's
 * build reads names with: COPY text, whole lines, one statement, the connection usable after.
 */
import { afterAll, describe, expect, test } from '@jest/globals';
import { STREAM_BATCH } from '../src/core/host/db/client-base.js';
import { openSqlClient } from '../src/core/host/db/sql-client.js';
import { paramsFromUrl } from '../src/core/host/db/locate.js';
import type { SqlClient, SqlRow } from '../src/core/host/types.js';
import { reachableDialects } from './support/host-fixtures/dialects.js';
import { createHostFixture, type HostFixture } from './support/host-fixtures/index.js';

const dialects = await reachableDialects('sql stream');
const opened: { fixture: HostFixture; sql: SqlClient }[] = [];
afterAll(async () => {
  for (const { fixture, sql } of opened) {
    await sql.close();
    await fixture.drop();
  }
});

const ROWS = 2 * STREAM_BATCH + 7;

describe.each(dialects)('%s', (dialect) => {
  test('rows in batches as they arrive, the same as one read, one statement; a failed read leaves the connection usable', async () => {
    const fixture = await createHostFixture(dialect);
    const sql = await openSqlClient(paramsFromUrl(fixture.dbUrl, fixture.prefix));
    opened.push({ fixture, sql });
    // Digits cross-joined (MariaDB stops recursive CTEs at 1000 levels).
    const digits = `(${Array.from({ length: 10 }, (_, d) => `SELECT ${d} AS d`).join(' UNION ALL ')})`;
    const series = `(SELECT d0.d + 10 * d1.d + 100 * d2.d + 1000 * d3.d + 10000 * d4.d + 1 AS i FROM ${digits} d0, ${digits} d1, ${digits} d2, ${digits} d3, ${digits} d4) c`;
    const statement = `SELECT i AS a, ? AS t1 FROM ${series} WHERE i <= ? AND i > ? ORDER BY i`;
    const params = ['x', ROWS, 0];
    const whole = await sql.query(statement, params);
    expect(whole).toHaveLength(ROWS);
    const batches: (readonly SqlRow[])[] = [];
    const before = sql.queryCount;
    await sql.each(statement, params, (rows) => batches.push(rows));
    expect(sql.queryCount - before).toBe(1);
    expect(batches.length).toBeGreaterThanOrEqual(3);
    for (const batch of batches) expect(batch.length).toBeLessThanOrEqual(STREAM_BATCH);
    expect(batches.flat().map((r) => [Number(r.a), String(r.t1)])).toEqual(whole.map((r) => [Number(r.a), String(r.t1)]));
    // The same rows, column names and values, as a plain read gives (SQLite streams arrays and names them).
    expect(batches.flat().map((r) => ({ ...r }))).toEqual(whole.map((r) => ({ ...r })));

    await expect(sql.each('SELECT no_such_column FROM no_such_table', [], () => undefined)).rejects.toThrow();
    // Nothing left behind: the next reads, streamed or not, answer.
    const again: SqlRow[] = [];
    await sql.each(statement, ['y', 3, 1], (rows) => again.push(...rows));
    expect(again.map((r) => Number(r.a))).toEqual([2, 3]);
    expect(await sql.query('SELECT 1 AS a')).toHaveLength(1);

    // Row by row: each row's values in the statement's column order, the same as the plain read's.
    const rows: (readonly unknown[])[] = [];
    const beforeRows = sql.queryCount;
    await sql.eachRow(`SELECT ? AS t1, i AS a FROM ${series} WHERE i <= ? AND i > ? ORDER BY i`, ['z', ROWS, 0], (row) => rows.push([...row]));
    expect(sql.queryCount - beforeRows).toBe(1);
    expect(rows.map((r) => [String(r[0]), Number(r[1])])).toEqual(whole.map((r) => ['z', Number(r.a)]));
    await expect(sql.eachRow('SELECT no_such_column FROM no_such_table', [], () => undefined)).rejects.toThrow();
    const afterFailure: number[] = [];
    await sql.eachRow(statement, ['y', 3, 1], (row) => afterFailure.push(Number(row[0])));
    expect(afterFailure).toEqual([2, 3]);
    // A caller that fails on a row fails the read; the connection stays usable.
    await expect(
      sql.eachRow(statement, params, () => {
        throw new Error('caller failed');
      }),
    ).rejects.toThrow('caller failed');
    expect(await sql.query('SELECT 1 AS a')).toHaveLength(1);
  });
});

// PostgreSQL's alone (reachableDialects printed why, when it is not reachable).
describe.each(dialects.filter((dialect) => dialect === 'pgsql'))('%s COPY', (dialect) => {
  test('COPY text in runs of whole lines, the same rows as a plain read, one statement; a failed COPY or caller leaves the connection usable', async () => {
    const fixture = await createHostFixture(dialect);
    const sql = await openSqlClient(paramsFromUrl(fixture.dbUrl, fixture.prefix));
    opened.push({ fixture, sql });
    if (sql.copyLines === undefined) throw new Error('the PostgreSQL client has no copyLines');
    const copyLines = sql.copyLines.bind(sql);
    // 40 000 rows of about 60 bytes: far more than one chunk of the socket, so lines are cut between chunks.
    const statement = "SELECT i, 'name ' || i || E' tab\\t nl\\n back\\\\ ü [P' || i || ']' FROM generate_series(1, 40000) i";
    const whole = await sql.query(statement);
    const runs: string[] = [];
    const before = sql.queryCount;
    await copyLines(statement, (lines) => runs.push(lines));
    expect(sql.queryCount - before).toBe(1);
    expect(runs.length).toBeGreaterThan(1);
    for (const run of runs) expect(run.endsWith('\n')).toBe(true);
    // COPY's escapes undone, the latin1 characters read back as the UTF-8 bytes they are.
    const unescape = (text: string): string =>
      Buffer.from(text, 'latin1')
        .toString('utf8')
        .replace(/\\([tn\\])/g, (_m, c: string) => (c === 't' ? '\t' : c === 'n' ? '\n' : '\\'));
    const lines = runs
      .join('')
      .slice(0, -1)
      .split('\n')
      .map((line) => line.split('\t').map(unescape));
    expect(lines).toEqual(whole.map((row) => Object.values(row).map(String)));

    await expect(copyLines('SELECT no_such_column FROM no_such_table', () => undefined)).rejects.toThrow();
    expect(await sql.query('SELECT 1 AS a')).toHaveLength(1);
    await expect(
      copyLines(statement, () => {
        throw new Error('caller failed');
      }),
    ).rejects.toThrow('caller failed');
    expect(await sql.query('SELECT 2 AS a')).toEqual([{ a: 2 }]);
    const again: string[] = [];
    await copyLines('SELECT 1, 2', (text) => again.push(text));
    expect(again).toEqual(['1\t2\n']);
  });
});
