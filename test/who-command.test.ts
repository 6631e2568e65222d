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
const validLine = ajv.compile(JSON.parse(readFileSync(join(schemas, 'who-all.schema.json'), 'utf8')) as object);

/** RFC 4180 records (CRLF ends, quoted fields with doubled quotes), as a spreadsheet reads them. */
function csvRecords(text: string): string[][] {
  const records: string[][] = [];
  let field = '';
  let record: string[] = [];
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i += 1;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      record.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      record.push(field);
      records.push(record);
      field = '';
      record = [];
      i += 1;
    } else field += c;
  }
  return records;
}

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

  test('--quiet: the table of accounts only, without the summary sentence', async () => {
    const told = await run(['who', '3']);
    const quiet = await run(['--quiet', 'who', '3']);
    expect(told.out).toMatch(/account\(s\) can open document 3/);
    expect(quiet).toMatchObject({ code: 0 });
    expect(quiet.out).not.toMatch(/can open document/);
    expect(quiet.out).toContain('bob');
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

  test('who --all: CSV with a header, every document, each the rows who <id> gives; --json: one object a line by its schema', async () => {
    const csv = await run(['who', '--all']);
    expect([csv.code, csv.err]).toEqual([0, '']);
    expect(csv.out.endsWith('\r\n')).toBe(true);
    const [header, ...records] = csvRecords(csv.out);
    expect(header).toEqual(['document', 'account', 'path', 'through']);
    const documents = [...new Set(records.map((r) => Number(r[0])))];
    expect(documents).toEqual([...documents].sort((a, b) => a - b));
    expect(documents.length).toBeGreaterThan(1);
    for (const id of documents) {
      const who = JSON.parse((await run(['who', String(id), '--json'])).out) as { accounts: { account: string; path: string; through: string }[] };
      expect(records.filter((r) => r[0] === String(id)).map((r) => r.slice(1))).toEqual(who.accounts.map((a) => [a.account, a.path, a.through]));
    }
    const lines = await run(['who', '--all', '--json']);
    expect(lines.code).toBe(0);
    const objects = lines.out
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    for (const o of objects) expect(validLine(o)).toBe(true);
    expect(objects.map((o) => [String(o.document), o.account, o.path, o.through])).toEqual(records);
  });

  test('csvField quotes commas, quotes and line ends only', async () => {
    const { csvField } = await import('../src/commands/who.js');
    expect(['/a/b.pdf', '/a,b.pdf', 'say "hi"', 'x\ny'].map(csvField)).toEqual(['/a/b.pdf', '"/a,b.pdf"', '"say ""hi"""', '"x\ny"']);
  });

  test.each([[['who', '--all', '3']], [['who', '--all', '--include-blocked']], [['who', '--all', '--output', 'json_pretty']]])(
    '%j is a usage error, exit 2',
    async (argv) => {
      const result = await run(argv);
      expect(result.code).toBe(2);
      expect(result.err).toContain('Error [usage]');
    },
  );

  test('an unknown --user: exit 1, coded', async () => {
    const result = await run(['who', '3', '--user', 'nobody']);
    expect(result.code).toBe(1);
    expect(result.err).toContain('unknown_user');
  });
});
