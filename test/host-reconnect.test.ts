/**
 * A long-running `serve` outlives its database sessions: a session the database ends (a
 * restart, an administrator, a network cut) is replaced, and the statement that met the
 * broken session runs again on the new one. PostgreSQL and MariaDB (SQLite has no session).
 */
import { afterAll, describe, expect, test } from '@jest/globals';
import { pino } from 'pino';
import { openHost } from '../src/core/host/open-host.js';
import type { HostAdapter } from '../src/core/host/types.js';
import { reachableDialects } from './support/host-fixtures/dialects.js';
import { createHostFixture, type HostFixture } from './support/host-fixtures/index.js';
import { mysqlWriter, pgWriter } from './support/host-fixtures/writer.js';

const dialects = (await reachableDialects('reconnect')).filter((d) => d !== 'sqlite');
if (dialects.length === 0) test.skip('neither PostgreSQL nor MariaDB is reachable (reasons printed above)', () => undefined);

const opened: { fixture: HostFixture; host: HostAdapter }[] = [];
afterAll(async () => {
  for (const { fixture, host } of opened) {
    await host.close();
    await fixture.drop();
  }
});

/** Ends the adapter's own database session from another session, as an administrator would. */
async function endSession(dialect: string, host: HostAdapter): Promise<void> {
  if (dialect === 'pgsql') {
    const [row] = await host.sql.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    const admin = await pgWriter('test');
    await admin.exec('SELECT pg_terminate_backend(?)', [row?.pid ?? 0]);
    await admin.close();
  } else {
    const [row] = await host.sql.query<{ id: number }>('SELECT CONNECTION_ID() AS id');
    const admin = await mysqlWriter(undefined);
    await admin.exec(`KILL ${Number(row?.id ?? 0)}`);
    await admin.close();
  }
}

describe.each(dialects)('%s host', (dialect) => {
  test('a session ended by the database is replaced; the statement that met it still answers', async () => {
    const fixture = await createHostFixture(dialect);
    await fixture.addUser('anna', { lang: 'fi' });
    const host = await openHost({ dbUrl: fixture.dbUrl }, { logger: pino({ level: 'silent' }) });
    opened.push({ fixture, host });
    expect(await host.findAccount('anna')).toMatchObject({ uid: 'anna', language: 'fi' });

    // At once: the next statement meets the dead session and runs again on a new one.
    await endSession(dialect, host);
    expect(await host.findAccount('anna')).toMatchObject({ uid: 'anna', language: 'fi' });

    // After the driver noticed: the next statement opens a new session first.
    await endSession(dialect, host);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await host.findAccount('anna')).toMatchObject({ uid: 'anna', language: 'fi' });
    // The new sessions are read-only too.
    await expect(host.sql.query(`DELETE FROM ${fixture.prefix}users`)).rejects.toThrow(/read.only/i);
  });
});
