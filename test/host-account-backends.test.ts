/** Accounts of user_ldap, user_saml and guests (reference §7), on all three databases. */
import { describe, expect, test } from '@jest/globals';
import { createHash } from 'node:crypto';
import { pino } from 'pino';
import { Authenticator } from '../src/core/auth/authenticator.js';
import { reachableDialects } from './support/host-fixtures/dialects.js';
import { useHostWorld } from './support/host-fixtures/host-world.js';
import type { HostFixture } from './support/host-fixtures/index.js';

const dialects = await reachableDialects('other account backends');
if (dialects.length === 0) test.skip('no database is reachable (reasons printed above)', () => undefined);

/** The other backends' tables with the columns the host's apps create (the ones read here and a few more). */
async function installBackends(fx: HostFixture): Promise<void> {
  const t = (name: string): string => `${fx.prefix}${name}`;
  await fx.exec(
    `CREATE TABLE ${t('ldap_user_mapping')} (ldap_dn VARCHAR(4000) NOT NULL, owncloud_name VARCHAR(64) NOT NULL PRIMARY KEY, directory_uuid VARCHAR(255) NOT NULL)`,
  );
  await fx.exec(`CREATE TABLE ${t('user_saml_users')} (uid VARCHAR(64) NOT NULL PRIMARY KEY, displayname VARCHAR(255) NOT NULL)`);
  await fx.exec(
    `CREATE TABLE ${t('guests_users')} (uid VARCHAR(64) NOT NULL PRIMARY KEY, uid_lower VARCHAR(64) NOT NULL, displayname VARCHAR(255), password VARCHAR(255) NOT NULL)`,
  );
  await fx.exec(`INSERT INTO ${t('ldap_user_mapping')} (ldap_dn, owncloud_name, directory_uuid) VALUES (?, ?, ?), (?, ?, ?)`, [
    'uid=anna,ou=people,dc=example,dc=org',
    'anna',
    'u-1',
    'uid=ben,ou=people,dc=example,dc=org',
    'Ben',
    'u-2',
  ]);
  await fx.exec(`INSERT INTO ${t('ldap_user_mapping')} (ldap_dn, owncloud_name, directory_uuid) VALUES (?, ?, ?)`, [
    'uid=olga,dc=example,dc=org',
    'olga',
    'u-4',
  ]);
  await fx.setUserPreference('olga', 'user_ldap', 'isDeleted', '1');
  await fx.exec(`INSERT INTO ${t('user_saml_users')} (uid, displayname) VALUES (?, ?)`, ['sam', 'Sam Sample']);
  await fx.exec(`INSERT INTO ${t('guests_users')} (uid, uid_lower, displayname, password) VALUES (?, ?, ?, ?)`, [
    'Gwen@Example.org',
    'gwen@example.org',
    'Gwen Guest',
    '',
  ]);
  // Someone in oc_users and in LDAP at once: the database backend answers first, as in the host.
  await fx.exec(`INSERT INTO ${t('ldap_user_mapping')} (ldap_dn, owncloud_name, directory_uuid) VALUES (?, ?, ?)`, [
    'uid=dora,dc=example,dc=org',
    'dora',
    'u-3',
  ]);
  await fx.addUser('dora', { displayName: 'Dora Database' });
  await fx.setUserPreference('anna', 'core', 'lang', 'de');
  await fx.setUserPreference('Ben', 'core', 'enabled', 'false');
  // An app password of the LDAP account (its login password lives in LDAP and cannot be checked here).
  await fx.exec(
    `INSERT INTO ${t('authtoken')} (id, uid, login_name, name, token, type, remember, last_activity, last_check, expires, version, password_invalid) VALUES (?, ?, ?, ?, ?, 1, 0, 0, 0, NULL, 2, ?)`,
    [1, 'anna', 'anna', 'test', createHash('sha512').update(ANNA_APP_PASSWORD).digest('hex'), fx.dialect === 'pgsql' ? false : 0],
  );
}

const ANNA_APP_PASSWORD = 'Anna-app-aaaaa-bbbbb-ccccc-ddddd';

describe.each(dialects)('%s host', (dialect) => {
  const world = useHostWorld(dialect, installBackends, {}, { logger: pino({ level: 'silent' }) });

  test('an LDAP, SAML or guest account exists, with its own spelling, language and enabled state', async () => {
    const { host } = world;
    expect(await host.findAccount('anna')).toEqual({ uid: 'anna', backend: 'ldap', enabled: true, language: 'de', displayName: null, directory: null });
    expect(await host.findAccount('Ben')).toMatchObject({ uid: 'Ben', backend: 'ldap', enabled: false });
    // user_ldap found her entry gone: she cannot log in to the host either.
    expect(await host.findAccount('olga')).toMatchObject({ uid: 'olga', backend: 'ldap', enabled: false });
    expect(await host.findAccount('sam')).toMatchObject({ uid: 'sam', backend: 'saml', displayName: 'Sam Sample', enabled: true });
    // Guests resolve case-insensitively through uid_lower, to the stored spelling.
    expect(await host.findAccount('gwen@example.org')).toMatchObject({ uid: 'Gwen@Example.org', backend: 'guests', displayName: 'Gwen Guest' });
    expect(await host.findAccount('dora')).toMatchObject({ uid: 'dora', backend: 'database', displayName: 'Dora Database' });
  });

  test('an LDAP account logs in with its app password; its LDAP login password cannot be checked here', async () => {
    const auth = new Authenticator(world.host);
    expect(await auth.authenticate('anna', ANNA_APP_PASSWORD)).toMatchObject({ uid: 'anna', via: 'app-password', admin: false });
    expect(await auth.authenticate('anna', 'her-ldap-password')).toBeNull();
  });

  test('LDAP and SAML uids are exact: another spelling is no account', async () => {
    expect(await world.host.findAccount('ANNA')).toBeNull();
    expect(await world.host.findAccount('ben')).toBeNull();
    expect(await world.host.findAccount('Sam')).toBeNull();
    expect(await world.host.findAccount('nobody')).toBeNull();
  });
});
