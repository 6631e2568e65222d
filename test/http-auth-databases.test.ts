/** The host checks of authentication (passwords, app passwords, decoy, admins, sessions) on all three databases. */
import { afterAll, describe, expect, test } from '@jest/globals';
import { createHash } from 'node:crypto';
import { pino } from 'pino';
import { Authenticator } from '../src/core/auth/authenticator.js';
import { openHost } from '../src/core/host/open-host.js';
import type { HostAdapter } from '../src/core/host/types.js';
import { reachableDialects } from './support/host-fixtures/dialects.js';
import { createHostFixture, type HostFixture } from './support/host-fixtures/index.js';

const dialects = await reachableDialects('authentication');
const opened: { fixture: HostFixture; host: HostAdapter }[] = [];

afterAll(async () => {
  for (const { fixture, host } of opened) {
    await host.close();
    await fixture.drop();
  }
});

if (dialects.length === 0) test.skip('no database is reachable (reasons printed above)', () => undefined);

const sha512 = (text: string): string => createHash('sha512').update(text).digest('hex');
/** Each test hashes and verifies real passwords as the host stores them (argon2id at 64 MiB and 4 passes in WebAssembly, bcrypt, the decoy for unknown logins): CPU-bound by design, and a loaded machine took over 30 s, and over 120 s at load ~20 (argon2 hashes of several tests at once). */
const ARGON2_BOUND_MS = 600_000;

describe.each(dialects)('%s host', (dialect) => {
  test(
    'passwords, app passwords, admins and session re-checks',
    async () => {
      const fixture = await createHostFixture(dialect);
      await fixture.addUser('Admin', { password: 'admin-pw-1', hash: 'bcrypt' });
      await fixture.addUser('frank', { password: 'frank-pw-1', hash: 'bcrypt' });
      await fixture.addUser('gina', { password: 'gina-pw-1', hash: 'bcrypt', enabled: false });
      await fixture.addUser('hana', { password: 'hana-pw-1' });
      await fixture.addGroup('admin', ['Admin']);
      const now = Math.floor(Date.now() / 1000);
      const tokens: [number, string, string, number, number | null, boolean][] = [
        [1, 'frank', 'Frank-app-aaaaa-bbbbb-ccccc-ddddd', 1, null, false],
        [2, 'frank', 'Frank-wipe-aaaa-bbbbb-ccccc-ddddd', 2, null, false],
        [3, 'frank', 'Frank-old-aaaaa-bbbbb-ccccc-ddddd', 1, now - 10, false],
        [4, 'frank', 'Frank-inv-aaaaa-bbbbb-ccccc-ddddd', 1, now + 3600, true],
      ];
      for (const [id, uid, token, type, expires, invalid] of tokens) {
        await fixture.exec(
          'INSERT INTO oc_authtoken (id, uid, login_name, name, token, type, remember, last_activity, last_check, expires, version, password_invalid) VALUES (?, ?, ?, ?, ?, ?, 0, 0, 0, ?, 2, ?)',
          [id, uid, uid, 'test', sha512(token), type, expires, dialect === 'pgsql' ? invalid : invalid ? 1 : 0],
        );
      }
      const host = await openHost({ dbUrl: fixture.dbUrl }, { logger: pino({ level: 'silent' }) });
      opened.push({ fixture, host });
      const auth = new Authenticator(host);

      const admin = await auth.authenticate('admin', 'admin-pw-1');
      expect(admin).toMatchObject({ uid: 'Admin', admin: true, via: 'password' });
      expect(await auth.authenticate('ADMIN', 'admin-pw-1')).toMatchObject({ uid: 'Admin' });
      expect(await auth.authenticate('Admin', 'wrong')).toBeNull();
      expect(await auth.authenticate('nobody', 'admin-pw-1')).toBeNull();
      // The decoy follows the newest form the host stores (hana's argon2id), found by a LIKE query
      // that must work in this dialect: a failed query would leave the bcrypt fallback.
      expect(await auth.decoyHash()).toMatch(/^3\|\$argon2id\$v=19\$m=65536,t=4,p=1\$/);
      expect(await auth.authenticate('gina', 'gina-pw-1')).toBeNull();
      expect(await auth.authenticate('frank', 'frank-pw-1')).toMatchObject({ uid: 'frank', admin: false, via: 'password' });

      expect(await auth.authenticate('frank', 'Frank-app-aaaaa-bbbbb-ccccc-ddddd')).toMatchObject({ uid: 'frank', via: 'app-password' });
      expect(await auth.authenticate('FRANK', 'Frank-app-aaaaa-bbbbb-ccccc-ddddd')).toMatchObject({ uid: 'frank' });
      for (const refused of ['Frank-wipe-aaaa-bbbbb-ccccc-ddddd', 'Frank-old-aaaaa-bbbbb-ccccc-ddddd', 'Frank-inv-aaaaa-bbbbb-ccccc-ddddd']) {
        expect([refused, await auth.authenticate('frank', refused)]).toEqual([refused, null]);
      }
      expect(await auth.authenticate('Admin', 'Frank-app-aaaaa-bbbbb-ccccc-ddddd')).toBeNull();

      const fingerprint = admin?.passwordFingerprint ?? '';
      expect(await auth.sessionPrincipal('Admin', fingerprint)).toMatchObject({ uid: 'Admin', admin: true, via: 'session' });
      expect(await auth.sessionPrincipal('Admin', 'f'.repeat(64))).toBeNull();
    },
    ARGON2_BOUND_MS,
  );

  test(
    'a login that is the e-mail address of exactly one account logs in as that account, as the host does',
    async () => {
      const fixture = await createHostFixture(dialect);
      await fixture.addUser('ines', { password: 'ines-pw-1', hash: 'bcrypt', email: 'Ines.Roe@Example.org' });
      await fixture.addUser('jo', { password: 'jo-pw-1', email: 'shared@example.org' });
      await fixture.addUser('kim', { password: 'kim-pw-1', email: 'shared@example.org' });
      // An account whose uid is an address that is also another account's e-mail: its own password wins.
      await fixture.addUser('lee@example.org', { password: 'lee-pw-1' });
      await fixture.addUser('max', { password: 'max-pw-1', email: 'lee@example.org' });
      await fixture.addUser('nia', { password: 'nia-pw-1', email: 'nia@example.org', enabled: false });
      const host = await openHost({ dbUrl: fixture.dbUrl }, { logger: pino({ level: 'silent' }) });
      opened.push({ fixture, host });
      const auth = new Authenticator(host);
      expect(await auth.quickLogin('ines.roe@example.org', 'ines-pw-1')).toBeNull();
      const ines = await auth.authenticate('ines.roe@example.org', 'ines-pw-1');
      expect(ines).toMatchObject({ uid: 'ines', via: 'password' });
      expect(ines?.passwordFingerprint).toMatch(/^[0-9a-f]{64}$/);
      // Verified a moment ago: the quick path knows it now.
      expect(await auth.quickLogin('INES.ROE@EXAMPLE.ORG', 'ines-pw-1')).toMatchObject({ uid: 'ines' });
      expect(await auth.authenticate('ines.roe@example.org', 'wrong')).toBeNull();
      // Not unique: no one.
      expect(await auth.authenticate('shared@example.org', 'jo-pw-1')).toBeNull();
      expect(await auth.authenticate('lee@example.org', 'lee-pw-1')).toMatchObject({ uid: 'lee@example.org' });
      expect(await auth.authenticate('lee@example.org', 'max-pw-1')).toMatchObject({ uid: 'max' });
      expect(await auth.authenticate('nia@example.org', 'nia-pw-1')).toBeNull();
      // A name without @ is never looked up as an address.
      expect(await auth.authenticate('ines.roe', 'ines-pw-1')).toBeNull();
    },
    ARGON2_BOUND_MS,
  );
});
