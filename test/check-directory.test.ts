/**
 * `check` on a host whose user_ldap has an active configuration, against a real slapd: the
 * directory's line (reached, bound as the agent, what its filters find), and the directory down
 * as a failed part (exit non-zero, `unreachable`), never a silent pass.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { Buffer } from 'node:buffer';
import { main } from '../src/cli.js';
import { captureIO } from './support/capture-io.js';
import { buildSearchWorld, type SearchWorld } from './support/search-world.js';
import {
  LDAP_ADMIN_DN,
  LDAP_ADMIN_PASSWORD,
  LDAP_GROUPS,
  LDAP_PEOPLE,
  LDAP_SUFFIX,
  groupLdif,
  personDn,
  personLdif,
  slapdUnavailable,
  startSlapd,
  type Slapd,
} from './support/slapd.js';

const unavailable = slapdUnavailable();
if (unavailable !== null) process.stdout.write(`SKIP check with a directory: ${unavailable}\n`);
const describeLdap = unavailable === null ? describe : describe.skip;

describeLdap('check with user_ldap configured', () => {
  let world: SearchWorld;
  let slapd: Slapd;

  beforeAll(async () => {
    slapd = await startSlapd([personLdif('lina', 'pw'), personLdif('lars', 'pw'), groupLdif('staff', [personDn('lina')])].join('\n'));
    world = await buildSearchWorld(5);
    const fx = world.host;
    await fx.exec(
      `CREATE TABLE ${fx.prefix}ldap_user_mapping (ldap_dn VARCHAR(4000) NOT NULL, owncloud_name VARCHAR(64) NOT NULL PRIMARY KEY, directory_uuid VARCHAR(255) NOT NULL)`,
    );
    const config: Record<string, string> = {
      configuration_prefixes: '["s01"]',
      s01ldap_host: slapd.url.replace(/\/$/, ''),
      s01ldap_dn: LDAP_ADMIN_DN,
      s01ldap_agent_password: Buffer.from(LDAP_ADMIN_PASSWORD).toString('base64'),
      s01ldap_base: LDAP_SUFFIX,
      s01ldap_base_users: LDAP_PEOPLE,
      s01ldap_base_groups: LDAP_GROUPS,
      s01ldap_userlist_filter: '(objectClass=inetOrgPerson)',
      s01ldap_group_filter: '(objectClass=groupOfNames)',
      s01ldap_configuration_active: '1',
    };
    for (const [key, value] of Object.entries(config)) await fx.setAppConfig('user_ldap', key, value);
  });

  afterAll(async () => {
    await world.close();
    await slapd.close();
  });

  const check = async (dir: string): Promise<{ code: number; out: string; err: string }> => {
    const io = captureIO({ env: {} });
    const code = await main(['--config-dir', dir, 'check'], io);
    return { code, out: io.out(), err: io.err() };
  };

  test('the directory answers: its line names the accounts and groups the filters find', async () => {
    const { dir } = await world.context();
    const result = await check(dir);
    expect(result.out).toContain(
      `The directory of user_ldap's configuration s01 (${slapd.url.replace(/\/$/, '')}) answers and binds as the agent: its filters find 2 account(s) and 1 group(s).`,
    );
    expect(result.code).toBe(0);
  });

  test('the directory stopped: a failed part, unreachable, and the password is never printed', async () => {
    const { dir } = await world.context();
    await slapd.stop();
    try {
      const io = captureIO({ env: {} });
      const code = await main(['--config-dir', dir, 'check', '--json'], io);
      expect(code).not.toBe(0);
      const report = JSON.parse(io.out()) as { problem: string; failures: { part: string; code: string; kind: string; message: string }[] };
      expect(report.problem).toBe('unreachable');
      expect(report.failures).toEqual([expect.objectContaining({ part: 'directory', code: 'host_unreachable', kind: 'unreachable' })]);
      expect(report.failures[0]?.message).toContain('no LDAP account is shown anything');
      expect(io.out() + io.err()).not.toContain(LDAP_ADMIN_PASSWORD);
    } finally {
      await slapd.start();
    }
  });
});
