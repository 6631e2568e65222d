/** The who command (issue 27) as an administrator runs it: the table, --json by its schema, the exit codes, the audit line. */
import { beforeAll, describe, expect, test } from '@jest/globals';
import { Ajv } from 'ajv';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { csvCell, csvRecord } from '../src/cli/csv.js';
import { useCliWorld } from './support/cli-world.js';
import { ARCHIVE_ACCOUNT } from './support/search-world.js';

const cli = useCliWorld();
const run = (args: readonly string[]) => cli.run(args);
const schemas = join(import.meta.dirname, '..', 'docs', 'json');
const ajv = new Ajv({ allErrors: true });
ajv.addSchema(JSON.parse(readFileSync(join(schemas, 'error.schema.json'), 'utf8')) as object);
const validWho = ajv.compile(JSON.parse(readFileSync(join(schemas, 'who.schema.json'), 'utf8')) as object);
const validLine = ajv.compile(JSON.parse(readFileSync(join(schemas, 'who-all.schema.json'), 'utf8')) as object);

/**
 * Accounts a user or another account backend may name (issue 36): each starts with a character
 * a spreadsheet would take for a formula, or with the `'` the rule itself adds.
 */
const FORMULA_ACCOUNTS = ['=HYPERLINK("http://evil.example/?x","open")', '+1+1', '-1-1', '@foo', '\tx', '\rcr', "'quoted"];
/** A group and a share target a recipient can rename, with terminal controls: ESC, OSC, U+202E. */
const HOSTILE_GROUP = 'grp\u001b]0;pwned\u0007';
const HOSTILE_TARGET = '/Sh\u001b[2Jare\u202eevil';
const HOSTILE_DOCUMENT = 5001;

beforeAll(async () => {
  const host = cli.world.host;
  for (const uid of FORMULA_ACCOUNTS) await host.addUser(uid);
  await host.addGroup(HOSTILE_GROUP, [...FORMULA_ACCOUNTS]);
  await host.addFile(ARCHIVE_ACCOUNT, `Hostile/x\u009b31m [P${HOSTILE_DOCUMENT}].pdf`);
  const folder = await host.addFolder(ARCHIVE_ACCOUNT, 'Hostile');
  await host.share({ owner: ARCHIVE_ACCOUNT, fileId: folder, type: 'group', with: HOSTILE_GROUP, target: HOSTILE_TARGET });
});

/** A cell as the CSV rule (src/cli/csv.ts) writes it, read back: one leading `'` dropped. */
const valueOf = (cell: string): string => (cell.startsWith("'") ? cell.slice(1) : cell);

/** RFC 4180 records (CRLF ends, quoted fields with doubled quotes), as a spreadsheet reads them; cells read back by the `'` rule. */
function csvRecords(text: string): string[][] {
  return rawCsvRecords(text).map((record) => record.map(valueOf));
}

function rawCsvRecords(text: string): string[][] {
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

  test('csvCell quotes commas, quotes and line ends only', () => {
    expect(['/a/b.pdf', '/a,b.pdf', 'say "hi"', 'x\ny', 'a=b', 'x-1'].map((cell) => csvCell(cell))).toEqual([
      '/a/b.pdf',
      '"/a,b.pdf"',
      '"say ""hi"""',
      '"x\ny"',
      'a=b',
      'x-1',
    ]);
    expect(csvRecord([3, 'bob', '/A,B'])).toBe('3,bob,"/A,B"\r\n');
  });

  // OWASP's rule for CSV injection: a cell a spreadsheet would run as a formula gets a leading '.
  test.each([
    ['=', '=HYPERLINK("http://evil.example","open")', `"'=HYPERLINK(""http://evil.example"",""open"")"`],
    ['+', '+1+1', "'+1+1"],
    ['-', '-1-1', "'-1-1"],
    ['@', '@SUM(A1)', "'@SUM(A1)"],
    ['tab', '\t=1', "'\t=1"],
    ['CR', '\r=1', `"'\r=1"`],
    ["' (so that the rule reads back)", "'=1", "''=1"],
  ])('a cell starting with %s is written with a leading quote', (_name, value, written) => {
    expect(csvCell(value)).toBe(written);
    const [[cell = ''] = []] = rawCsvRecords(`${written}\r\n`);
    expect(valueOf(cell)).toBe(value);
  });

  test('who --all: no account, group or share name reaches a spreadsheet as a formula; read back, the exact names', async () => {
    const all = await run(['who', '--all']);
    expect(all.code).toBe(0);
    const raw = rawCsvRecords(all.out).filter((record) => record[0] === String(HOSTILE_DOCUMENT) && record[1] !== ARCHIVE_ACCOUNT);
    expect(raw.map((record) => record[1]).sort()).toEqual(FORMULA_ACCOUNTS.map((uid) => `'${uid}`).sort());
    for (const record of rawCsvRecords(all.out)) for (const cell of record.slice(1)) expect(cell).not.toMatch(/^[=+\-@\t\r]/);
    // Piped, the exact text: the names come back whole once the rule is read back.
    const records = csvRecords(all.out).filter((record) => record[0] === String(HOSTILE_DOCUMENT));
    const path = `${HOSTILE_TARGET}/x\u009b31m [P${HOSTILE_DOCUMENT}].pdf`;
    expect(records.find((record) => record[1] === '-1-1')).toEqual([String(HOSTILE_DOCUMENT), '-1-1', path, expect.stringContaining(HOSTILE_GROUP)]);
  });

  test('who --all on a terminal: ESC, OSC, C1 and U+202E of folder, group and share names are escaped as the tables escape them', async () => {
    const UNSAFE = /[\p{Cc}\p{Bidi_Control}]/u;
    const csv = await cli.run(['who', '--all'], { tty: true });
    expect(csv.code).toBe(0);
    const lines = csv.out.split('\r\n');
    expect(lines.at(-1)).toBe('');
    for (const line of lines) expect(line).not.toMatch(UNSAFE);
    const hostile = lines.filter((line) => line.startsWith(`${HOSTILE_DOCUMENT},`) && !line.startsWith(`${HOSTILE_DOCUMENT},${ARCHIVE_ACCOUNT},`));
    expect(hostile).toHaveLength(FORMULA_ACCOUNTS.length);
    expect(hostile.join('\n')).toContain(`,'-1-1,/Sh\\x1b[2Jare\\u202eevil/x\\x9b31m [P${HOSTILE_DOCUMENT}].pdf,group grp\\x1b]0;pwned\\x07: share of`);
    expect(hostile.join('\n')).toContain(`${HOSTILE_DOCUMENT},\\x09x,`);
    const table = await cli.run(['who', String(HOSTILE_DOCUMENT)], { tty: true });
    expect(table.out).toContain('Sh\\x1b[2Jare\\u202eevil');
    // JSON on a terminal: the same values (JSON's own escapes), and no raw control either.
    const json = await cli.run(['who', '--all', '--json'], { tty: true });
    for (const line of json.out.split('\n')) expect(line).not.toMatch(UNSAFE);
    const parsed = json.out
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as { document: number; account: string; path: string })
      .filter((o) => o.document === HOSTILE_DOCUMENT);
    expect(parsed.map((o) => o.path)).toContain(`${HOSTILE_TARGET}/x\u009b31m [P${HOSTILE_DOCUMENT}].pdf`);
    const one = await cli.run(['who', String(HOSTILE_DOCUMENT), '--json'], { tty: true });
    expect(one.out.trimEnd()).not.toMatch(UNSAFE);
    expect((JSON.parse(one.out) as { accounts: { path: string }[] }).accounts.map((a) => a.path)).toContain(
      `${HOSTILE_TARGET}/x\u009b31m [P${HOSTILE_DOCUMENT}].pdf`,
    );
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
