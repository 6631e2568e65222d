import { describe, expect, test } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { useCliWorld } from './support/cli-world.js';
import { expectedVerdict } from './support/search-world.js';

const cli = useCliWorld();
const run = (args: readonly string[]) => cli.run(args);

describe('why command', () => {
  test.each([
    [3, 'shown'],
    [8, 'not shared'],
    [4, 'not owned'],
    [12, 'no file'],
  ])('document %i for bob: %s, with what to do, and no request to the archive server', async (id, verdict) => {
    expect(expectedVerdict(id)).toBe(verdict);
    const before = cli.world.archive.requests.length;
    const result = await run(['why', 'bob', String(id)]);
    expect(result.code).toBe(0);
    expect(result.err).toBe('');
    expect(result.out.split('\n')[0]).toMatch(new RegExp(`^Document ${id} for bob: ${verdict}[.,]`));
    if (verdict === 'shown') expect(result.out).toContain(`, at /Archive/Doc [P${id}].pdf.`);
    else expect(result.out).toContain(`Document ${id}: `);
    expect(cli.world.archive.requests.length).toBe(before);
  });

  test('no file: says that the archive server was not asked, so an id it does not have looks the same', async () => {
    const result = await run(['why', 'bob', '99999']);
    expect(result.code).toBe(0);
    expect(result.out).toMatch(/^Document 99999 for bob: no file\./);
    expect(result.out).toContain('why does not ask the archive server: if it has no document 99999 (search for it), nothing is wrong here.');
    const shown = await run(['why', 'bob', '3']);
    expect(shown.out).not.toContain('does not ask');
  });

  test('--json, and the marker form of the id', async () => {
    const result = await run(['why', 'bob', '[P8]', '--json']);
    expect(result.code).toBe(0);
    const answer = JSON.parse(result.out) as Record<string, unknown>;
    expect(Object.keys(answer).sort()).toEqual(['explanation', 'id', 'owner', 'path', 'verdict']);
    expect(answer).toMatchObject({ id: 8, verdict: 'not shared', path: '/Private/Doc [P8].pdf', owner: 'archive' });
    expect(String(answer.explanation)).toContain('share the file or a folder holding it');
  });

  test('the audit log says which administrator asked about whom and which document', async () => {
    await run(['why', 'bob', '16']);
    const audit = readFileSync(join(cli.dir, 'audit.log'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(audit.at(-1)).toMatchObject({ action: 'verdict_as_user', user: 'bob', detail: { document: 16 } });
  });

  test.each([[['why', 'bob', 'twelve']], [['why', 'bob', '0']], [['why', 'bob']], [['why', '', '3']]])(
    'a wrong call %j exits 2 with a coded message',
    async (argv) => {
      const result = await run(argv);
      expect(result.code).toBe(2);
      expect(result.err).toContain('Error [usage]');
      expect(result.err).not.toMatch(/\n\s+at /);
    },
  );

  test('an unknown user: exit 1, coded', async () => {
    const result = await run(['why', 'nobody', '3']);
    expect(result.code).toBe(1);
    expect(result.err).toContain('unknown_user');
  });
});
