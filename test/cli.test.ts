import { describe, expect, test } from '@jest/globals';
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

  test('runs on a Node with node:sqlite', () => {
    const db = new DatabaseSync(':memory:');
    expect(db.prepare('select 1 + 1 as two').get()).toEqual({ two: 2 });
    db.close();
  });
});
