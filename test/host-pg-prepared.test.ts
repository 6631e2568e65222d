/**
 * PostgreSQL: the adapter's statements are kept prepared per session (src/core/host/db/pg-statements.ts),
 * so question 1 is parsed once and planned once per session instead of at every search. Held
 * here on a real server: a statement run again is the same prepared statement; the number kept
 * is bounded; a session that lost its statements (a pooler, `DEALLOCATE ALL`) and a table
 * changed under a kept plan (an upgrade altering a column) still get their answers.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { pino } from 'pino';
import { openHost } from '../src/core/host/open-host.js';
import { PreparedStatements } from '../src/core/host/db/pg-statements.js';
import type { HostAdapter } from '../src/core/host/types.js';
import { reachableDialects } from './support/host-fixtures/dialects.js';
import { createHostFixture, type HostFixture } from './support/host-fixtures/index.js';

describe('PreparedStatements', () => {
  test('keeps the most recently used texts up to its capacity, never reusing a name', () => {
    const kept = new PreparedStatements(2);
    const a = kept.nameOf('A').name;
    const b = kept.nameOf('B').name;
    expect(kept.nameOf('A')).toEqual({ name: a, evicted: undefined });
    // B is now the oldest: C takes its place.
    const c = kept.nameOf('C');
    expect(c.evicted).toBe(b);
    expect(kept.size).toBe(2);
    const again = kept.nameOf('B');
    expect(again.evicted).toBe(a);
    expect(new Set([a, b, c.name, again.name]).size).toBe(4);
    expect(kept.forget('C')).toBe(c.name);
    expect(kept.nameOf('C').name).not.toBe(c.name);
    kept.turnOff();
    expect(kept.nameOf('B')).toEqual({ name: undefined, evicted: undefined });
  });
});

const reachable = (await reachableDialects('prepared statements')).includes('pgsql');
if (!reachable) test.skip('PostgreSQL is not reachable (reason printed above)', () => undefined);

(reachable ? describe : describe.skip)('PostgreSQL session', () => {
  let fixture: HostFixture;
  let host: HostAdapter;

  beforeAll(async () => {
    fixture = await createHostFixture('pgsql');
    await fixture.addUser('anna', { lang: 'fi' });
    host = await openHost({ dbUrl: fixture.dbUrl }, { logger: pino({ level: 'silent' }) });
  });
  afterAll(async () => {
    await host.close();
    await fixture.drop();
  });

  const preparedOf = async (pattern: string): Promise<{ name: string; runs: number }[]> =>
    (
      await host.sql.query<{ name: string; generic_plans: string; custom_plans: string }>(
        'SELECT name, generic_plans, custom_plans FROM pg_prepared_statements WHERE statement LIKE ?',
        [pattern],
      )
    ).map((row) => ({ name: row.name, runs: Number(row.generic_plans) + Number(row.custom_plans) }));

  test('a statement run again is the one statement prepared on the session, parsed once', async () => {
    const sql = `SELECT uid, /* prepared-once */ displayname FROM ${fixture.prefix}users WHERE uid = ?`;
    for (let run = 0; run < 8; run += 1) expect(await host.sql.query(sql, ['anna'])).toEqual([{ uid: 'anna', displayname: null }]);
    const kept = await preparedOf('%prepared-once%uid = $1');
    expect(kept).toHaveLength(1);
    expect(kept[0]?.runs).toBe(8);
  });

  test('the session keeps at most 32 statements; one given up still answers', async () => {
    const text = (n: number): string => `SELECT ${n} AS n, /* bounded */ uid FROM ${fixture.prefix}users WHERE uid = ?`;
    for (let n = 0; n < 80; n += 1) expect(await host.sql.query(text(n), ['anna'])).toEqual([{ n, uid: 'anna' }]);
    const count = 'SELECT count(*) AS n FROM pg_prepared_statements';
    // Asked twice: the first asking is itself a new statement, whose eviction is freed behind it.
    await host.sql.query(count);
    const kept = await host.sql.query<{ n: string }>(count);
    expect(Number(kept[0]?.n)).toBeLessThanOrEqual(32);
    expect(Number(kept[0]?.n)).toBeGreaterThan(16);
    expect((await preparedOf('SELECT 0 AS n,%bounded%')).length).toBe(0);
    expect(await host.sql.query(text(0), ['anna'])).toEqual([{ n: 0, uid: 'anna' }]);
  });

  test('a table changed under a kept plan: the statement answers with the new column', async () => {
    const sql = `SELECT uid, /* altered */ displayname FROM ${fixture.prefix}users WHERE uid = ?`;
    for (let run = 0; run < 3; run += 1) await host.sql.query(sql, ['anna']);
    await fixture.exec(`ALTER TABLE ${fixture.prefix}users ALTER COLUMN displayname TYPE text`);
    expect(await host.sql.query(sql, ['anna'])).toEqual([{ uid: 'anna', displayname: null }]);
    // Prepared again under a new name, and kept from then on.
    expect(await host.sql.query(sql, ['anna'])).toEqual([{ uid: 'anna', displayname: null }]);
    const kept = await preparedOf('%altered%');
    expect(kept).toHaveLength(1);
    expect(kept[0]?.runs).toBe(1);
  });

  test('a session that lost its statements (a pooler between, DEALLOCATE ALL) answers, unnamed from then on', async () => {
    const sql = `SELECT uid, /* lost */ displayname FROM ${fixture.prefix}users WHERE uid = ?`;
    await host.sql.query(sql, ['anna']);
    expect(await preparedOf('%lost%')).toHaveLength(1);
    await host.sql.query('DEALLOCATE ALL');
    expect(await host.sql.query(sql, ['anna'])).toEqual([{ uid: 'anna', displayname: null }]);
    expect(await host.findAccount('anna')).toMatchObject({ uid: 'anna', language: 'fi' });
    expect(await host.sql.query<{ n: string }>('SELECT count(*) AS n FROM pg_prepared_statements')).toEqual([{ n: '0' }]);
  });
});
