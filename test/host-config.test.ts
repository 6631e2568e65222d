/**
 * Finding the host database: config.php (with its overlays, read the way the host merges
 * them), explicit URLs, and the coded, stack-free refusals when something is wrong.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DusError } from '../src/core/errors.js';
import { parseConfigFile, phpAvailable, phpStartCount, readNextcloudConfig } from '../src/core/host/db/config-php.js';
import { parseDbHost } from '../src/core/host/db/connection-params.js';
import { paramsFromUrl } from '../src/core/host/db/locate.js';
import { openHost } from '../src/core/host/open-host.js';
import { reachableDialects } from './support/host-fixtures/dialects.js';
import { createHostFixture, type HostFixture } from './support/host-fixtures/index.js';

let scratch: string;
beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'dus-host-config-'));
});
afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
});

let n = 0;
function nextcloudDir(files: Record<string, string>): string {
  n += 1;
  const dir = join(scratch, `nc${n}`);
  mkdirSync(join(dir, 'config'), { recursive: true });
  for (const [name, body] of Object.entries(files)) writeFileSync(join(dir, 'config', name), body);
  return dir;
}

async function refusal(promise: Promise<unknown>): Promise<DusError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(DusError);
    const e = error as DusError;
    expect(e.message).not.toMatch(/\n\s+at /);
    return e;
  }
  throw new Error('expected a refusal');
}

describe('dbhost forms (reference §6)', () => {
  test.each([
    ['localhost', { host: 'localhost' }],
    ['db.example:5433', { host: 'db.example', port: 5433 }],
    ['localhost:/var/run/mysqld/mysqld.sock', { host: 'localhost', socket: '/var/run/mysqld/mysqld.sock' }],
    ['[::1]:5432', { host: '::1', port: 5432 }],
    ['[::1]', { host: '::1' }],
    [':/tmp/pg', { host: 'localhost', socket: '/tmp/pg' }],
  ] as const)('%s', (input, expected) => {
    expect(parseDbHost(input)).toEqual(expected);
  });
});

describe('database URLs', () => {
  test('sqlite, postgres and mysql URLs', () => {
    expect(paramsFromUrl('sqlite:///var/nc/data/owncloud.db', 'oc_')).toMatchObject({ dialect: 'sqlite', file: '/var/nc/data/owncloud.db' });
    expect(paramsFromUrl('postgres://nc:p%40ss@db:5433/nextcloud', 'x_')).toMatchObject({
      dialect: 'pgsql',
      host: 'db',
      port: 5433,
      user: 'nc',
      password: 'p@ss',
      database: 'nextcloud',
      prefix: 'x_',
    });
    expect(paramsFromUrl('mysql://root@127.0.0.1/nc?socket=/run/mysqld.sock', 'oc_')).toMatchObject({
      dialect: 'mysql',
      socket: '/run/mysqld.sock',
      database: 'nc',
    });
  });
  test.each(['not a url', 'ftp://host/db', 'sqlite://relative.db', 'postgres://host/'])('%s is refused with host_config', async (url) => {
    const e = await refusal(openHost({ dbUrl: url }));
    expect(e.code).toBe('host_config');
    expect(e.message).toMatch(/host database URL/);
  });
});

describe('config.php parsing without php', () => {
  test('var_export layout, overlays merged in natural order, $CONFIG[key] assignments', async () => {
    const dir = nextcloudDir({
      'config.php':
        "<?php\n$CONFIG = array (\n  'dbtype' => 'pgsql',\n  'dbhost' => 'a',\n  'dbtableprefix' => 'oc_',\n  'installed' => true,\n  'trusted_domains' => array (0 => 'x', 1 => 'y'),\n  'port' => -1,\n  'objectstore' => NULL,\n);\n",
      '10.config.php': "<?php\n$CONFIG = ['dbhost' => 'ten'];\n",
      '2.config.php': "<?php\n$CONFIG = array('dbhost' => 'two', 'dbname' => 'nc' . '_' . 'prod');\n",
      'z.config.php': '<?php\n$CONFIG[\'secret\'] = "s3cr\\x65t";\n',
      'config.sample.php.bak': 'garbage',
    });
    const config = await readNextcloudConfig(dir, { usePhp: false });
    expect(config).toMatchObject({
      dbtype: 'pgsql',
      dbhost: 'ten',
      dbname: 'nc_prod',
      installed: true,
      port: -1,
      objectstore: null,
      trusted_domains: ['x', 'y'],
      secret: 's3cret',
    });
  });

  test('a syntax error names the file', async () => {
    const dir = nextcloudDir({ 'config.php': "<?php\n$CONFIG = array ( 'dbtype' => 'sqlite3', \n" });
    const e = await refusal(readNextcloudConfig(dir, { usePhp: false }));
    expect(e.code).toBe('host_config');
    expect(e.message).toContain('config.php is not valid PHP');
  });

  test.each([
    ["'dbhost' => getenv('DB_HOST')", 'dbhost'],
    ["'dbpassword' => $password", 'dbpassword'],
    ["'datadirectory' => SOME_CONSTANT", 'datadirectory'],
  ])('a non-static value (%s) is refused, naming the key', async (entry, key) => {
    const dir = nextcloudDir({ 'config.php': `<?php\n$CONFIG = array ( ${entry} );\n` });
    const e = await refusal(readNextcloudConfig(dir, { usePhp: false }));
    expect(e.code).toBe('host_config');
    expect(e.message).toContain(`key '${key}'`);
    expect(e.message).toMatch(/install php|--host-db/);
  });

  test('without php on PATH, an overlay only PHP can read is refused as without php, and php is tried once', () => {
    const dir = nextcloudDir({
      'config.php': "<?php\n$CONFIG = array ( 'dbtype' => 'sqlite3' );\n",
      'a.config.php': "<?php\n$CONFIG = array ( 'dbhost' => getenv('DB_HOST') );\n",
      'b.config.php': "<?php\n$CONFIG = array ( 'dbuser' => getenv('DB_USER') );\n",
    });
    const module = join(import.meta.dirname, '..', 'dist', 'core', 'host', 'db', 'config-php.js');
    const script = [
      `const { readNextcloudConfig, phpStartCount } = await import(${JSON.stringify(module)});`,
      `const out = {};`,
      `for (let i = 0; i < 2; i += 1) { try { await readNextcloudConfig(${JSON.stringify(dir)}); } catch (e) { out.code = e.code; out.message = e.message; } }`,
      `out.starts = phpStartCount();`,
      `console.log(JSON.stringify(out));`,
    ].join('\n');
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', env: { PATH: scratch } });
    expect(run.stderr).toBe('');
    const out = JSON.parse(run.stdout) as { code: string; message: string; starts: number };
    expect(out.code).toBe('host_config');
    expect(out.message).toContain("key 'dbhost'");
    expect(out.message).toMatch(/install php/);
    // Tried at the first such file; known missing for the rest of the process.
    expect(out.starts).toBe(1);
  });

  test('other statements in an overlay are refused', () => {
    const dir = nextcloudDir({ 'config.php': '<?php\nif (true) { $CONFIG = []; }\n' });
    expect(() => parseConfigFile(join(dir, 'config', 'config.php'))).toThrow(/statement other than an assignment/);
  });

  test('missing directory and missing config.php', async () => {
    const gone = await refusal(openHost({ nextcloudDir: join(scratch, 'does-not-exist') }));
    expect(gone.code).toBe('host_config');
    expect(gone.message).toContain('does not exist');
    mkdirSync(join(scratch, 'empty'), { recursive: true });
    const missing = await refusal(openHost({ nextcloudDir: join(scratch, 'empty') }));
    expect(missing.code).toBe('host_config');
    expect(missing.message).toContain(join(scratch, 'empty', 'config', 'config.php'));
    const nothing = await refusal(openHost({}));
    expect(nothing.code).toBe('host_config');
  });

  test('an unsupported dbtype is refused', async () => {
    const dir = nextcloudDir({ 'config.php': "<?php\n$CONFIG = array ( 'dbtype' => 'oci' );\n" });
    const e = await refusal(openHost({ nextcloudDir: dir }, { usePhp: false }));
    expect(e.code).toBe('host_config');
    expect(e.message).toContain("dbtype 'oci'");
  });
});

const php = await phpAvailable();
if (!php) process.stderr.write('SKIP config.php through php: php is not installed on this machine\n');

describe('config.php evaluated by php', () => {
  (php ? test : test.skip)('overlays that call getenv() are evaluated when php is installed', async () => {
    const dir = nextcloudDir({
      'config.php': "<?php\n$CONFIG = array ( 'dbtype' => 'sqlite3', 'dbname' => 'a' );\n",
      'env.config.php': "<?php\n$CONFIG = array ( 'dbname' => getenv('DUS_TEST_DBNAME') ?: 'fallback' );\n",
    });
    const config = await readNextcloudConfig(dir, { usePhp: true });
    expect(config.dbname).toBe('fallback');
  });

  (php ? test : test.skip)('by default php is started only for the file the parser cannot read, and once for it', async () => {
    const plain = nextcloudDir({
      'config.php': "<?php\n$CONFIG = array ( 'dbtype' => 'sqlite3', 'dbname' => 'a' );\n",
      'more.config.php': "<?php\n$CONFIG = array ( 'dbname' => 'b' );\n",
    });
    let before = phpStartCount();
    expect((await readNextcloudConfig(plain)).dbname).toBe('b');
    expect(phpStartCount() - before).toBe(0);
    const withEnv = nextcloudDir({
      'config.php': "<?php\n$CONFIG = array ( 'dbtype' => 'sqlite3', 'dbname' => 'a' );\n",
      'env.config.php': "<?php\n$CONFIG = array ( 'dbname' => getenv('DUS_TEST_DBNAME') ?: 'fallback' );\n",
      'z.config.php': "<?php\n$CONFIG = array ( 'dbuser' => 'u' );\n",
    });
    before = phpStartCount();
    const config = await readNextcloudConfig(withEnv);
    expect(config).toMatchObject({ dbtype: 'sqlite3', dbname: 'fallback', dbuser: 'u' });
    // The one overlay evaluated: the evaluation is its own probe.
    expect(phpStartCount() - before).toBe(1);
  });

  (php ? test : test.skip)('in a fresh process, an overlay only PHP can read starts php once: no probe before the evaluation', () => {
    const dir = nextcloudDir({
      'config.php': "<?php\n$CONFIG = array ( 'dbtype' => 'sqlite3', 'dbname' => 'a' );\n",
      'env.config.php': "<?php\n$CONFIG = array ( 'dbname' => getenv('DUS_TEST_DBNAME') ?: 'fallback' );\n",
    });
    const module = join(import.meta.dirname, '..', 'dist', 'core', 'host', 'db', 'config-php.js');
    const script = `const { readNextcloudConfig, phpStartCount } = await import(${JSON.stringify(module)}); const c = await readNextcloudConfig(${JSON.stringify(dir)}); console.log(JSON.stringify({ dbname: c.dbname, starts: phpStartCount() }));`;
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(JSON.parse(run.stdout)).toEqual({ dbname: 'fallback', starts: 1 });
  });
});

describe('unreachable and unrecognised databases', () => {
  test('a SQLite file that does not exist', async () => {
    const dir = nextcloudDir({ 'config.php': `<?php\n$CONFIG = array ( 'dbtype' => 'sqlite3', 'datadirectory' => '${join(scratch, 'nodata')}' );\n` });
    const e = await refusal(openHost({ nextcloudDir: dir }, { usePhp: false }));
    expect(e.code).toBe('host_unreachable');
    expect(e.message).toContain(join(scratch, 'nodata', 'owncloud.db'));
  });

  test.each([
    ['pgsql', '127.0.0.1:1'],
    ['mysql', '127.0.0.1:1'],
  ])('%s server not listening', async (dbtype, dbhost) => {
    const dir = nextcloudDir({
      'config.php': `<?php\n$CONFIG = array ( 'dbtype' => '${dbtype}', 'dbhost' => '${dbhost}', 'dbname' => 'nc', 'dbuser' => 'u', 'dbpassword' => 'hunter2' );\n`,
    });
    const e = await refusal(openHost({ nextcloudDir: dir }, { usePhp: false }));
    expect(e.code).toBe('host_unreachable');
    expect(e.message).toContain('127.0.0.1:1');
    expect(e.message).not.toContain('hunter2');
  });

  test('a SQLite file that is not a Nextcloud database names the missing table and the prefix', async () => {
    const { DatabaseSync } = await import('node:sqlite');
    const file = join(scratch, 'other.db');
    const db = new DatabaseSync(file);
    db.exec('CREATE TABLE something (id INTEGER)');
    db.close();
    const e = await refusal(openHost({ dbUrl: `sqlite://${file}` }));
    expect(e.code).toBe('host_schema');
    expect(e.message).toContain('oc_filecache');
    expect(e.message).toContain("now 'oc_'");
  });
});

const dialects = await reachableDialects('host config.php');

describe.each(dialects)('opening through config.php on %s', (dialect) => {
  let fx: HostFixture;
  beforeAll(async () => {
    fx = await createHostFixture(dialect, { prefix: 'nc_' });
    await fx.addUser('alice', { password: 'pw', hash: 'bcrypt' });
    await fx.addFile('alice', 'a [P5].pdf');
  });
  afterAll(async () => {
    await fx?.drop();
  });

  test('dbtype, dbhost, dbname, dbuser, dbtableprefix, overwrite.cli.url, secret, default_language', async () => {
    const dir = join(scratch, `nc-${dialect}`);
    await fx.writeNextcloudDir(dir, { default_language: 'fr' });
    const host = await openHost({ nextcloudDir: dir }, { usePhp: false });
    try {
      expect(host.sql.dialect).toBe(dialect);
      expect(host.sql.prefix).toBe('nc_');
      expect(host.hostUrl).toBe('http://localhost:8080');
      expect(host.instanceSecret).toBe('fixture-secret-0123456789abcdef');
      expect(await host.findAccount('ALICE')).toMatchObject({ uid: 'alice', language: 'fr' });
      expect((await host.ownedArchiveFiles('alice', [5])).get(5)?.path).toBe('/a [P5].pdf');
    } finally {
      await host.close();
    }
  });

  test('NC_ environment variables override config.php', async () => {
    const dir = join(scratch, `nc-env-${dialect}`);
    await fx.writeNextcloudDir(dir, { dbtableprefix: 'wrong_' });
    const e = await refusal(openHost({ nextcloudDir: dir }, { usePhp: false, env: {} }));
    expect(e.code).toBe('host_schema');
    expect(e.message).toContain('wrong_filecache');
    const host = await openHost({ nextcloudDir: dir }, { usePhp: false, env: { NC_dbtableprefix: 'nc_' } });
    await host.close();
  });

  test('a wrong table prefix on an explicit URL is a schema refusal', async () => {
    const e = await refusal(openHost({ dbUrl: fx.dbUrl, tablePrefix: 'oc_' }));
    expect(e.code).toBe('host_schema');
  });
});
