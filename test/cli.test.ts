import { describe, expect, test } from '@jest/globals';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { main } from '../src/cli.js';
import { captureIO } from './support/capture-io.js';

describe('cli', () => {
  test('lists every spec command by its short name', async () => {
    const io = captureIO();
    expect(await main(['--help'], io)).toBe(0);
    for (const name of ['setup', 'test', 'search <user> <term>', 'check']) expect(io.out()).toMatch(new RegExp(`^  ${name} `, 'm'));
  });

  test('an unknown option is a wrong call: exit 2, a coded message, no stack', async () => {
    const io = captureIO();
    expect(await main(['docs_unified_search:setup', '--bogus'], io)).toBe(2);
    expect(io.err()).toMatch(/^Error \[usage\]: unknown option '--bogus'/);
    expect(io.err()).not.toMatch(/\n\s+at /);
  });

  test('a first command without settings names what it needs: the host for why, setup for check and search', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dus-first-'));
    const why = captureIO({ env: { DUS_CONFIG_DIR: dir } });
    expect(await main(['why', 'anna', '412'], why)).toBe(1);
    expect(why.err()).toBe(
      'Error [host_config]: The host (Nextcloud) is not known: give --nextcloud DIR or --host-db URL (setup stores it for later commands).\n',
    );
    const check = captureIO({ env: { DUS_CONFIG_DIR: dir } });
    expect(await main(['check'], check)).toBe(1);
    // check runs every part: the archive server's, then the host's, each named.
    const [first, second] = check.err().split('\n');
    expect(first).toMatch(/^Error \[not_configured\]: .*run setup --url=URL --token-stdin\.$/);
    expect(`${second ?? ''}\n`).toBe(why.err());
    const search = captureIO({ env: { DUS_CONFIG_DIR: dir } });
    expect(await main(['search', 'anna', 'invoice'], search)).toBe(1);
    expect(search.err()).toBe(`${first ?? ''}\n`); // the same words wherever the archive server is asked
  });

  test('runs on a Node with node:sqlite', () => {
    const db = new DatabaseSync(':memory:');
    expect(db.prepare('select 1 + 1 as two').get()).toEqual({ two: 2 });
    db.close();
  });
});
