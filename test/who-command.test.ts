/** The who command (issue 27) as an administrator runs it: the table, --json by its schema, the exit codes, the audit line. */
import { describe, expect, test } from '@jest/globals';
import { Ajv } from 'ajv';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { useCliWorld } from './support/cli-world.js';

const cli = useCliWorld();
const run = (args: readonly string[]) => cli.run(args);
const schemas = join(import.meta.dirname, '..', 'docs', 'json');
const ajv = new Ajv({ allErrors: true });
ajv.addSchema(JSON.parse(readFileSync(join(schemas, 'error.schema.json'), 'utf8')) as object);
const validWho = ajv.compile(JSON.parse(readFileSync(join(schemas, 'who.schema.json'), 'utf8')) as object);

describe('who command', () => {
  test('every account that opens document 3, the same path why gives, and no request to the archive server', async () => {
    const before = cli.world.archive.requests.length;
    const result = await run(['who', '3', '--json']);
    expect(result.code).toBe(0);
    const answer = JSON.parse(result.out) as { accounts: { account: string; path: string | null }[] };
    expect(validWho(answer)).toBe(true);
    const bob = answer.accounts.find((a) => a.account === 'bob');
    const why = JSON.parse((await run(['why', 'bob', '3', '--json'])).out) as { verdict: string; path: string };
    expect([bob?.path, why.verdict]).toEqual([why.path, 'shown']);
    expect(cli.world.archive.requests.length).toBe(before);
  });

  test('a document without a file: the no file sentence, exit 1; the --json answer by its schema', async () => {
    const plain = await run(['who', '12']);
    expect([plain.code, plain.out]).toEqual([1, expect.stringContaining('Document 12: no file of the archive account') as unknown as string]);
    const json = await run(['who', '[P12]', '--json']);
    expect(json.code).toBe(1);
    const answer = JSON.parse(json.out) as { accounts: unknown[]; noFile: string };
    expect(validWho(answer)).toBe(true);
    expect(answer.accounts).toEqual([]);
  });

  test('the audit log says which administrator asked about which document', async () => {
    await run(['who', '8']);
    const audit = readFileSync(join(cli.dir, 'audit.log'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(audit.at(-1)).toMatchObject({ action: 'who_can_open', detail: { document: 8 } });
  });

  test.each([[['who', 'twelve']], [['who', '0']], [['who']], [['who', '3', '--user', ' ']]])('a wrong call %j exits 2 with a coded message', async (argv) => {
    const result = await run(argv);
    expect(result.code).toBe(2);
    expect(result.err).toContain('Error [usage]');
    expect(result.err).not.toMatch(/\n\s+at /);
  });

  test('an unknown --user: exit 1, coded', async () => {
    const result = await run(['who', '3', '--user', 'nobody']);
    expect(result.code).toBe(1);
    expect(result.err).toContain('unknown_user');
  });
});
