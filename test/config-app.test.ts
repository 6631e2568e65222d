import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createHostFixture, type HostFixture } from './support/host-fixtures/index.js';
import { runCli as occ, settingsOf } from './support/settings-helpers.js';
import { scratchDir } from './support/scratch.js';

let host: HostFixture;

function freshDir(initial?: Record<string, unknown>): string {
  const dir = scratchDir('dus-config-app-');
  if (initial !== undefined) writeFileSync(join(dir, 'settings.json'), JSON.stringify(initial));
  return dir;
}

const APP = 'docs_unified_search';

beforeAll(async () => {
  host = await createHostFixture('sqlite');
  await host.setAppConfig('docs_sync', 'target_user', 'archive');
  await host.addUser('Archive');
  await host.addUser('alice');
});

afterAll(async () => {
  await host.drop();
});

describe('config:app:get', () => {
  test('prints a string as it is and a switch as true/false', async () => {
    const dir = freshDir({ docs_url: 'https://p.example.com/paperless', always_search: true, allow_local: false });
    expect(await occ(dir, ['config:app:get', APP, 'docs_url'])).toEqual({ code: 0, out: 'https://p.example.com/paperless\n', err: '' });
    expect(await occ(dir, ['config:app:get', APP, 'always_search'])).toEqual({ code: 0, out: 'true\n', err: '' });
    expect(await occ(dir, ['config:app:get', APP, 'allow_local'])).toEqual({ code: 0, out: 'false\n', err: '' });
  });

  test('--output=json and json_pretty print JSON values', async () => {
    const dir = freshDir({ always_search: true, docs_version: '2.20.15' });
    expect((await occ(dir, ['config:app:get', APP, 'always_search', '--output=json'])).out).toBe('true\n');
    expect((await occ(dir, ['config:app:get', APP, 'docs_version', '--output=json_pretty'])).out).toBe('"2.20.15"\n');
  });

  test('a key that is not set prints nothing and exits 1; --default-value prints the default and exits 0', async () => {
    const dir = freshDir({});
    expect(await occ(dir, ['config:app:get', APP, 'archive_owner'])).toEqual({ code: 1, out: '', err: '' });
    expect(await occ(dir, ['config:app:get', APP, 'no_such_key'])).toEqual({ code: 1, out: '', err: '' });
    expect(await occ(dir, ['config:app:get', APP, 'archive_owner', '--default-value=nobody'])).toEqual({ code: 0, out: 'nobody\n', err: '' });
    expect(await occ(dir, ['config:app:get', APP, 'archive_owner', '--default-value'])).toEqual({ code: 0, out: '\n', err: '' });
  });

  test('--details names type and lazy flag', async () => {
    const dir = freshDir({ diagnostics: '[]', always_search: false });
    const lazy = await occ(dir, ['config:app:get', APP, 'diagnostics', '--details', '--output=json']);
    expect(JSON.parse(lazy.out)).toEqual({ app: APP, key: 'diagnostics', value: '[]', type: 'string', lazy: true, sensitive: false });
    const plain = await occ(dir, ['config:app:get', APP, 'always_search', '--details']);
    expect(plain.out).toContain('  - type: boolean\n');
    expect(plain.out).toContain('  - lazy: false\n');
  });

  test("docs_sync target_user is the synchronization add-on's account, read from the host", async () => {
    const dir = freshDir({});
    expect(await occ(dir, ['--host-db', host.dbUrl, 'config:app:get', 'docs_sync', 'target_user'])).toEqual({ code: 0, out: 'archive\n', err: '' });
  });

  test('another app is refused with a coded message', async () => {
    const result = await occ(freshDir({}), ['config:app:get', 'files', 'anything']);
    expect(result.code).toBe(1);
    expect(result.err).toMatch(/^Error \[config_refused\]/);
  });

  test('a hand-broken settings file: exit 1, internal, names the file, no stack', async () => {
    const dir = freshDir();
    writeFileSync(join(dir, 'settings.json'), '{"always_search": tru');
    const result = await occ(dir, ['config:app:get', APP, 'always_search']);
    expect(result.code).toBe(1);
    expect(result.err).toMatch(/^Error \[internal\]: The settings file .*settings\.json is broken/);
    expect(result.err).not.toMatch(/\n\s+at /);
  });
});

describe('config:app:set', () => {
  test('sets a switch as the spec shows, typed boolean', async () => {
    const dir = freshDir({});
    const result = await occ(dir, ['config:app:set', APP, 'always_search', '--value=true', '--type=boolean']);
    expect(result).toEqual({
      code: 0,
      out: "Config value 'always_search' for app 'docs_unified_search' is now set to 'true', stored as boolean in fast cache\n",
      err: '',
    });
    expect(settingsOf(dir).always_search).toBe(true);
    expect((await occ(dir, ['config:app:set', APP, 'always_search', '--value=off'])).code).toBe(0);
    expect(settingsOf(dir).always_search).toBe(false);
  });

  test('the same value again is "not updated", exit 0', async () => {
    const dir = freshDir({ archive_owner: 'Archive', host_db: host.dbUrl });
    expect(await occ(dir, ['config:app:set', APP, 'archive_owner', '--value=archive'])).toEqual({ code: 0, out: 'Config value were not updated\n', err: '' });
  });

  test('no --value: exit 2, a usage error naming --value, nothing written', async () => {
    const dir = freshDir({ always_search: false });
    const result = await occ(dir, ['config:app:set', APP, 'always_search']);
    expect(result.code).toBe(2);
    expect(result.err).toMatch(/^Error \[usage\]: --value=VALUE is required/);
    expect(result.out).toBe('');
    expect(settingsOf(dir)).toEqual({ always_search: false });
  });

  test('an archive_owner the host does not have: exit 1 unknown_archive_account naming it, nothing written; an existing one in the host spelling', async () => {
    const dir = freshDir({ host_db: host.dbUrl });
    const result = await occ(dir, ['config:app:set', APP, 'archive_owner', '--value=nosuchuser']);
    expect(result.code).toBe(1);
    expect(result.err).toMatch(/^Error \[unknown_archive_account\]: The archive account "nosuchuser" does not exist on the host/);
    expect(settingsOf(dir)).toEqual({ host_db: host.dbUrl });
    expect((await occ(dir, ['config:app:set', APP, 'archive_owner', '--value=archive'])).code).toBe(0);
    expect(settingsOf(dir).archive_owner).toBe('Archive');
  });

  test('an archive_owner with no host to check it against: stored with a warning that says so', async () => {
    const dir = freshDir({});
    const result = await occ(dir, ['config:app:set', APP, 'archive_owner', '--value=someone']);
    expect(result.code).toBe(0);
    expect(result.err).toMatch(/^Warning: the archive account "someone" was stored unchecked/);
    expect(settingsOf(dir).archive_owner).toBe('someone');
  });

  test('host_db: no database URL is refused naming it; a file that is no database is stored with a warning; later errors name the stored value', async () => {
    const dir = freshDir({});
    const refused = await occ(dir, ['config:app:set', APP, 'host_db', '--value=foo']);
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/^Error \[host_config\]: The host database URL \(host_db "foo"\) is not usable/);
    expect(settingsOf(dir).host_db).toBeUndefined();

    const notADatabase = join(dir, 'passwd');
    writeFileSync(notADatabase, 'root:x:0:0:root:/root:/bin/bash\n');
    const warned = await occ(dir, ['config:app:set', APP, 'host_db', `--value=sqlite://${notADatabase}`]);
    expect(warned.code).toBe(0);
    expect(warned.err).toMatch(
      new RegExp(`^Warning: stored, but the host cannot be opened with it: Error \\[host_unreachable\\]: .*host_db "sqlite://${notADatabase}"`),
    );
    expect(settingsOf(dir).host_db).toBe(`sqlite://${notADatabase}`);

    const later = await occ(dir, ['why', 'alice', '1']);
    expect(later.code).toBe(1);
    expect(later.err).toContain(`from the stored host_db setting (sqlite://${notADatabase})`);
    expect(later.err).not.toContain('--host-db');

    const fine = await occ(dir, ['config:app:set', APP, 'host_db', `--value=${host.dbUrl}`]);
    expect([fine.code, fine.err]).toEqual([0, '']);
  });

  test('a stored archive_owner that does not exist: a later why names the stored value', async () => {
    const dir = freshDir({ host_db: host.dbUrl, archive_owner: 'gone-account' });
    const result = await occ(dir, ['why', 'alice', '1']);
    expect(result.code).toBe(1);
    expect(result.err).toMatch(/^Error \[unknown_archive_account\]: The archive account "gone-account" \(archive_owner\) does not exist on the host/);
  });

  test('docs_url is refused and says why and what to use', async () => {
    const dir = freshDir({ docs_url: 'https://p.example.com' });
    const result = await occ(dir, ['config:app:set', APP, 'docs_url', '--value=https://evil.example.com']);
    expect(result.code).toBe(1);
    expect(result.err).toMatch(/^Error \[config_refused\]: docs_url .*token would follow the URL.*setup/);
    expect(settingsOf(dir).docs_url).toBe('https://p.example.com');
  });

  test.each([
    [['always_search', '--value=maybe'], /not a boolean/],
    [['always_search', '--value=1', '--type=string'], /stored as boolean: use --type=boolean/],
    [['archive_owner', '--value=1', '--type=integer'], /stored as string/],
    [['archive_owner', '--value=x', '--type=nonsense'], /Unknown type/],
    [['no_such_key', '--value=x'], /not a key of docs_unified_search; the keys are: (?!.*last_failure)(?!.*last_recovery)/],
    [['last_failure', '--value=x'], /last_failure is a key of app version 0\.3\.0, no longer used: maintenance:repair deletes it/],
    [['archive_owner', '--value=x', '--sensitive'], /credential store/],
    [['diagnostics', '--value=[]', '--no-lazy'], /lazy and stays so/],
  ])('%j is refused: exit 1, config_refused, nothing written', async (args, message) => {
    const dir = freshDir({ always_search: false });
    const result = await occ(dir, ['config:app:set', APP, ...args]);
    expect(result.code).toBe(1);
    expect(result.err).toMatch(/^Error \[config_refused\]/);
    expect(result.err).toMatch(message);
    expect(settingsOf(dir)).toEqual({ always_search: false });
  });

  test('--update-only changes a set key and refuses to create one', async () => {
    const dir = freshDir({ allow_local: true });
    expect((await occ(dir, ['config:app:set', APP, 'allow_local', '--value=false', '--update-only'])).code).toBe(0);
    expect(settingsOf(dir).allow_local).toBe(false);
    const result = await occ(dir, ['config:app:set', APP, 'always_search', '--value=true', '--update-only']);
    expect(result).toEqual({ code: 1, out: 'Config value always_search for app docs_unified_search not updated, as it has not been set before.\n', err: '' });
    expect(settingsOf(dir).always_search).toBeUndefined();
  });

  test('a lazy key accepts --lazy', async () => {
    const dir = freshDir({});
    const result = await occ(dir, ['config:app:set', APP, 'diagnostics', '--value=[]', '--lazy']);
    expect(result.out).toContain('in lazy cache');
    expect(settingsOf(dir).diagnostics).toBe('[]');
  });
});

describe('config:app:delete', () => {
  test('deletes a key; a missing key is fine unless --error-if-not-exists', async () => {
    const dir = freshDir({ always_search: true, allow_local: true });
    expect(await occ(dir, ['config:app:delete', APP, 'always_search'])).toEqual({
      code: 0,
      out: 'Config value always_search of app docs_unified_search deleted\n',
      err: '',
    });
    expect(settingsOf(dir)).toEqual({ allow_local: true });
    expect(await occ(dir, ['config:app:delete', APP, 'always_search'])).toEqual({
      code: 0,
      out: 'Config value always_search of app docs_unified_search was not set: nothing deleted\n',
      err: '',
    });
    const strict = await occ(dir, ['config:app:delete', APP, 'always_search', '--error-if-not-exists']);
    expect(strict).toEqual({ code: 1, out: '', err: 'Config always_search of app docs_unified_search could not be deleted because it did not exist\n' });
  });

  test('--quiet: a change that worked prints nothing (JSON still does), a refused one still says why; so does maintenance:repair', async () => {
    const dir = freshDir({ always_search: true });
    expect(await occ(dir, ['--quiet', 'config:app:set', APP, 'allow_local', '--value=true'])).toEqual({ code: 0, out: '', err: '' });
    expect(settingsOf(dir).allow_local).toBe(true);
    expect(JSON.parse((await occ(dir, ['--quiet', 'config:app:set', APP, 'allow_local', '--value=false', '--output=json'])).out)).toMatchObject({
      updated: true,
    });
    expect(await occ(dir, ['--quiet', 'config:app:delete', APP, 'always_search'])).toEqual({ code: 0, out: '', err: '' });
    expect(settingsOf(dir).always_search).toBeUndefined();
    expect(await occ(dir, ['--quiet', 'maintenance:repair'])).toEqual({ code: 0, out: '', err: '' });
    const refused = await occ(dir, ['--quiet', 'config:app:set', APP, 'always_search', '--value=maybe']);
    expect(refused.code).not.toBe(0);
    expect(refused.err).toContain('always_search');
  });

  test('completion offers no obsolete key (last_failure, last_recovery)', async () => {
    for (const shell of ['bash', 'zsh']) {
      const result = await occ(freshDir(), ['completion', shell]);
      expect(result.code).toBe(0);
      expect(result.out).toContain('archive_owner');
      expect(result.out).not.toMatch(/last_failure|last_recovery/);
    }
  });

  test('help of each command has examples', async () => {
    for (const name of ['config:app:get', 'config:app:set', 'config:app:delete']) {
      const result = await occ(freshDir(), [name, '--help']);
      expect(result.code).toBe(0);
      expect(result.out).toContain('Examples:');
    }
  });
});
