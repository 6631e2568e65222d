/**
 * A search for an LDAP account (its account, questions 1 and 3, as one request: what `search`
 * and `serve` ask of the host) on a host whose
 * user_ldap has an active configuration, against a real slapd (test/support/slapd.ts): how many
 * requests reach the directory and how many round trips' waits they cost, with the account's
 * membership not cached and then cached (config.php naming a `memcache.distributed`, so the
 * answers are kept for `ldap_cache_ttl`), and the time of each. Target (issue 35): at most one
 * round trip uncached, none cached. Also a database account on the same host: no directory request.
 *
 *   npm run build:tools && node_modules/.bin/node dist-tools/bench/ldap-search.js
 */
import { Buffer } from 'node:buffer';
import { mkdtempSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { openHost } from '../src/core/host/open-host.js';
import { asOneRequest } from '../src/core/host/directory-accounts.js';
import { createHostFixture } from '../test/support/host-fixtures/index.js';
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
} from '../test/support/slapd.js';

const RUNS = Math.max(3, Number(process.env.BENCH_RUNS ?? 21));
const unavailable = slapdUnavailable();
if (unavailable !== null) {
  process.stdout.write(`ldap-search: skipped, ${unavailable}\n`);
  process.exit(0);
}

const slapd = await startSlapd([personLdif('lina', 'pw'), ...Array.from({ length: 20 }, (_, i) => groupLdif(`g${i}`, [personDn('lina')]))].join('\n'));
const fx = await createHostFixture('sqlite');
try {
  await fx.exec(
    `CREATE TABLE ${fx.prefix}ldap_user_mapping (ldap_dn VARCHAR(4000) NOT NULL, owncloud_name VARCHAR(64) NOT NULL PRIMARY KEY, directory_uuid VARCHAR(255) NOT NULL)`,
  );
  await fx.exec(
    `CREATE TABLE ${fx.prefix}ldap_group_mapping (ldap_dn VARCHAR(4000) NOT NULL, owncloud_name VARCHAR(64) NOT NULL PRIMARY KEY, directory_uuid VARCHAR(255) NOT NULL)`,
  );
  await fx.addUser('archive');
  await fx.addUser('dora');
  await fx.exec(`INSERT INTO ${fx.prefix}ldap_user_mapping (ldap_dn, owncloud_name, directory_uuid) VALUES (?, ?, ?)`, [
    personDn('lina').toLowerCase(),
    'lina',
    'u',
  ]);
  for (let i = 0; i < 20; i += 1) {
    await fx.exec(`INSERT INTO ${fx.prefix}ldap_group_mapping (ldap_dn, owncloud_name, directory_uuid) VALUES (?, ?, ?)`, [
      `cn=g${i},${LDAP_GROUPS}`,
      `g${i}`,
      `g-${i}`,
    ]);
    await fx.addFile('archive', `G${i}/doc [P${i + 1}].pdf`);
    await fx.share({ owner: 'archive', fileId: await fx.addFolder('archive', `G${i}`), type: 'group', with: `g${i}` });
  }
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
    s01ldap_group_member_assoc_attribute: 'member',
    s01ldap_configuration_active: '1',
  };
  for (const [key, value] of Object.entries(config)) await fx.setAppConfig('user_ldap', key, value);
  // config.php with a distributed memcache: the answers are kept for ldap_cache_ttl, as Nextcloud keeps them.
  const serverDir = mkdtempSync(join(tmpdir(), 'dus-ldap-bench-'));
  await fx.writeNextcloudDir(serverDir, { 'memcache.distributed': '\\OC\\Memcache\\Redis' });
  let requests = 0;
  let inFlight = 0;
  let waits = 0;
  const host = await openHost(
    { nextcloudDir: serverDir },
    {
      logger: pino({ level: 'silent' }),
      directory: {
        onSearch: () => {
          requests += 1;
          // Requests sent in one turn of the event loop, before any answer can arrive, share one round trip's wait.
          if (inFlight === 0) waits += 1;
          inFlight += 1;
          queueMicrotask(() => setImmediate(() => (inFlight = Math.max(0, inFlight - 1))));
        },
      },
    },
  );
  const ids = Array.from({ length: 20 }, (_, i) => i + 1);
  const measure = async (user: string): Promise<{ ms: number; requests: number; waits: number; shown: number }> => {
    requests = 0;
    waits = 0;
    const started = performance.now();
    // What a search asks of the host, as one request (verdicts.ts): the user's account, question 1, question 3.
    const shown = await asOneRequest(async () => {
      await host.findAccount(user);
      const files = (await host.searchArchiveFiles(user, { uid: 'archive', hostNamed: null }, ids)).files;
      await host.visibleForeignFiles(user, 'archive', ids);
      return files.size;
    });
    return { ms: performance.now() - started, requests, waits, shown };
  };
  const first = await measure('lina');
  const cached: number[] = [];
  let cachedRequests = 0;
  for (let i = 0; i < RUNS; i += 1) {
    const run = await measure('lina');
    cached.push(run.ms);
    cachedRequests += run.requests;
  }
  const database = await measure('dora');
  cached.sort((a, b) => a - b);
  process.stdout.write(
    `ldap-search (${cpus().length} cores, load ${loadavg()[0]?.toFixed(1)}): an LDAP account in 20 LDAP groups, 20 documents shared with them\n` +
      `  not cached: ${first.requests} directory requests in ${first.waits} round trip(s), ${first.ms.toFixed(1)} ms (connection and bind included), ${first.shown} shown\n` +
      `  cached (median of ${RUNS}): ${cachedRequests} directory requests in all, ${cached[Math.floor(RUNS / 2)]?.toFixed(1)} ms\n` +
      `  a database account on the same host: ${database.requests} directory requests, ${database.ms.toFixed(1)} ms\n`,
  );
  await host.close();
} finally {
  await fx.drop();
  await slapd.close();
}
