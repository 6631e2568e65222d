import { describe, expect, test } from '@jest/globals';
import { main } from '../src/cli.js';
import { ARCHIVE_QUERY_MAX_CHARACTERS, TERM_MAX_CHARACTERS } from '../src/core/search/inputs.js';
import { captureIO } from './support/capture-io.js';
import { useCliWorld } from './support/cli-world.js';
import { expectedVerdict } from './support/search-world.js';

const cli = useCliWorld();
const { run } = cli;

describe('search command', () => {
  test('table with ID, Title, Verdict, File and the summary', async () => {
    const result = await run(['search', 'bob', 'invoice']);
    expect(result.code).toBe(0);
    expect(result.err).toBe('');
    expect(result.out).toMatch(/ID\s*│\s*Title\s*│\s*Verdict\s*│\s*File/);
    expect(result.out).toMatch(/The archive server found \d+ document\(s\); \d+ of the 10 listed \(1–10 of its result\) show to bob\./);
    expect(result.out).toContain('More: run again with --cursor 10 for the next 10.');
    expect(result.out).toContain('hidden');
    expect(result.out).not.toContain('\u001b[');
  });

  test('--explain adds one line per document that does not show', async () => {
    const json = await run(['search', 'bob', 'invoice', '--explain', '--limit=50', '--json']);
    const items = JSON.parse(json.out) as { id: number; verdict: string }[];
    const notShown = items.filter((item) => item.verdict !== 'shown').length;
    const result = await run(['search', 'bob', 'invoice', '--explain', '--limit=50']);
    expect(result.code).toBe(0);
    const explanations = result.out.split('\n').filter((line) => /^Document \d+: /.test(line));
    expect(explanations).toHaveLength(notShown);
    expect(result.out).toContain('not shared');
    expect(result.out).toContain('no file');
  });

  test('--explain for an LDAP account says that its LDAP groups are not seen; a database account gets no such note', async () => {
    const host = cli.world.host;
    await host.exec(
      `CREATE TABLE ${host.prefix}ldap_user_mapping (ldap_dn VARCHAR(4000) NOT NULL, owncloud_name VARCHAR(64) NOT NULL PRIMARY KEY, directory_uuid VARCHAR(255) NOT NULL)`,
    );
    await host.exec(`INSERT INTO ${host.prefix}ldap_user_mapping (ldap_dn, owncloud_name, directory_uuid) VALUES (?, ?, ?)`, [
      'uid=lena,dc=example,dc=org',
      'lena',
      'u-9',
    ]);
    // A fresh context opens the host anew and finds the LDAP table.
    const fresh = (await cli.world.context()).dir;
    const io = captureIO({ env: {} });
    expect(await main(['--config-dir', fresh, 'search', 'lena', 'invoice', '--explain'], io)).toBe(0);
    expect(io.out()).toContain('lena is an account of user_ldap (LDAP): its groups in that backend are not in the host database');
    const bob = await run(['search', 'bob', 'invoice', '--explain']);
    expect(bob.out).not.toContain('Note:');
  });

  test('a term too long for the archive server is a wrong call (exit 2): nothing is asked, nothing lands in the history', async () => {
    cli.world.archive.clearRequests();
    // Ours is the lower limit, so a term Paperless-ngx 3.2 would refuse (QueryTooLongError) never goes out.
    expect(TERM_MAX_CHARACTERS).toBeLessThanOrEqual(ARCHIVE_QUERY_MAX_CHARACTERS);
    for (const version of ['2.20', '3.2'] as const) {
      cli.world.archive.version = version;
      for (const term of ['x'.repeat(100_000), 'x'.repeat(ARCHIVE_QUERY_MAX_CHARACTERS + 1), 'é'.repeat(1001), 'ü'.repeat(600)]) {
        const result = await run(['search', 'bob', term]);
        expect([term.length, result.code]).toEqual([term.length, 2]);
        // Both limits: ours, and the archive server's own.
        expect(result.err).toMatch(
          /^Error \[usage\]: The search term is too long: at most 1000 characters .*Paperless-ngx 3\.2 itself refuses more than 4096\.\n/,
        );
        expect(result.err.length).toBeLessThan(300);
      }
    }
    cli.world.archive.version = '2.20';
    expect(cli.world.archive.requests).toEqual([]);
    const history = await run(['config:app:get', 'docs_unified_search', 'diagnostics']);
    expect(history.out).not.toContain('414');
    expect((await run(['search', 'bob', 'é'.repeat(500)])).code).toBe(0);
  });

  test("--json: the spec's five fields, then the explanation --explain prints, the total found and each item's cursor", async () => {
    const result = await run(['search', 'bob', 'invoice', '--json', '--explain', '--limit=20']);
    expect(result.code).toBe(0);
    const items = JSON.parse(result.out) as Record<string, unknown>[];
    expect(items).toHaveLength(20);
    const plain = await run(['search', 'bob', 'invoice', '--explain', '--limit=20']);
    const found = Number(/found (\d+) document/.exec(plain.out)?.[1]);
    for (const [index, item] of items.entries()) {
      expect(Object.keys(item)).toEqual(['id', 'title', 'verdict', 'path', 'owner', 'explanation', 'found', 'cursor']);
      expect(item.verdict).toBe(expectedVerdict(item.id as number));
      expect(item).toMatchObject({ found, cursor: index + 1 });
      if (item.verdict === 'shown') expect(item.explanation).toBeNull();
      else expect(plain.out.split('\n')).toContain(item.explanation);
    }
    const hidden = JSON.parse((await run(['search', 'bob', 'invoice', '--json'])).out) as Record<string, unknown>[];
    expect(hidden.filter((item) => item.verdict === 'hidden').map((item) => item.explanation)).toEqual(expect.arrayContaining([null]));
  });

  test("--cursor pages through the archive server's result as the provider's cursor does, across its 25-hit pages", async () => {
    const all = JSON.parse((await run(['search', 'bob', 'invoice', '--json', '--limit=50'])).out) as { id: number; found: number; cursor: number }[];
    const found = all[0]?.found ?? 0;
    expect(found).toBeGreaterThan(25);
    expect(all).toHaveLength(Math.min(found, 50));
    const paged: number[] = [];
    let cursor = 0;
    for (let round = 0; round < 20 && cursor < found; round += 1) {
      const page = JSON.parse((await run(['search', 'bob', 'invoice', '--json', '--limit=7', `--cursor=${cursor}`])).out) as { id: number; cursor: number }[];
      paged.push(...page.map((item) => item.id));
      cursor = page.at(-1)?.cursor ?? found;
    }
    expect(paged).toEqual(all.map((item) => item.id));
    const last = await run(['search', 'bob', 'invoice', `--cursor=${found - 2}`]);
    expect(last.out).toContain(`of the 2 listed (${found - 1}–${found} of its result)`);
    expect(last.out).not.toContain('More:');
    const past = await run(['search', 'bob', 'invoice', `--cursor=${found + 30}`, '--json']);
    expect(past).toMatchObject({ code: 0, out: '[]\n' });
    expect((await run(['search', 'bob', 'invoice', `--cursor=${found + 30}`])).out).toBe(
      `The archive server's result has no document from --cursor ${found + 30} on.\n`,
    );
    for (const bad of ['-1', 'x', '1.5']) {
      const wrong = await run(['search', 'bob', 'invoice', `--cursor=${bad}`]);
      expect(wrong.code).toBe(2);
      expect(wrong.err).toMatch(/^Error \[usage\]: --cursor takes the number/);
    }
  });

  test('--quiet: the table and the summary, without hints (--explain, More:, the File legend)', async () => {
    const loud = await run(['search', 'bob', 'invoice', '--limit=50']);
    expect(loud.out).toContain('Run again with --explain');
    const quiet = await run(['--quiet', 'search', 'bob', 'invoice', '--limit=10']);
    expect(quiet.code).toBe(0);
    expect(quiet.out).toMatch(/The archive server found \d+ document\(s\)/);
    expect(quiet.out).not.toMatch(/Run again|More:|File: /);
    const explained = await run(['search', 'bob', 'invoice', '--explain', '--quiet']);
    expect(explained.out).toMatch(/^Document \d+: /m);
  });

  test('nothing found is said as such, not "0 of the 0 listed show"', async () => {
    const result = await run(['search', 'bob', 'nothingmatchesthisterm']);
    expect(result).toMatchObject({ code: 0, out: 'The archive server found no document for this term.\n' });
  });

  test("the File column says whose path: the user's, (owner's) for another owner's file, owner:path in the archive account's own files", async () => {
    const result = await run(['search', 'bob', 'invoice', '--explain', '--limit=50']);
    const items = JSON.parse((await run(['search', 'bob', 'invoice', '--explain', '--limit=50', '--json'])).out) as {
      verdict: string;
      path: string | null;
      owner: string | null;
    }[];
    const notShared = items.find((item) => item.verdict === 'not shared');
    const notOwned = items.find((item) => item.verdict === 'not owned');
    const shown = items.find((item) => item.verdict === 'shown');
    expect(result.out).toContain(`│ archive:${notShared?.path ?? '?'} `);
    expect(result.out).toContain(`│ ${notOwned?.path ?? '?'} (carol's) `);
    expect(result.out).toContain(`│ ${shown?.path ?? '?'} `);
    expect(result.out).toContain(
      "File: the path bob sees, with (owner's) when another account owns the file; owner:path is a path in that account's own files",
    );
  });

  test.each([['0'], ['51'], ['ten'], ['-3']])('--limit=%s is a wrong call (exit 2)', async (limit) => {
    const result = await run(['search', 'bob', 'invoice', `--limit=${limit}`]);
    expect(result.code).toBe(2);
    expect(result.err).toMatch(/^Error \[usage\]: --limit must be a whole number from 1 to 50/);
  });

  test('missing arguments: exit 2', async () => {
    expect((await run(['search', 'bob'])).code).toBe(2);
  });

  test('a bad date filter: exit 2', async () => {
    const result = await run(['search', 'bob', 'invoice', '--since=yesterday']);
    expect(result.code).toBe(2);
    expect(result.err).toContain('Error [usage]');
  });

  test('an inverted --since/--until range: exit 2 naming both days (before the host or the archive server is opened)', async () => {
    const result = await run(['search', 'bob', 'invoice', '--since=2024-12-31', '--until=2024-01-01']);
    expect(result.code).toBe(2);
    expect(result.err).toMatch(/^Error \[usage\]: --since 2024-12-31 is after --until 2024-01-01: no day is in that range; swap them\.\n/);
    expect((await run(['search', 'bob', 'invoice', '--since=2024-01-01', '--until=2024-01-01'])).code).toBe(0);
  });

  test('unknown user: clear message, exit 1', async () => {
    const result = await run(['search', 'nobody', 'invoice']);
    expect(result.code).toBe(1);
    expect(result.err).toBe('Error [unknown_user]: The user nobody does not exist in the host.\n');
  });

  test('the archive server does not answer: coded message, exit 1, no stack', async () => {
    cli.world.archive.faults = [{ match: '/api/documents/', status: 503 }];
    try {
      const result = await run(['search', 'bob', 'invoice']);
      expect(result.code).toBe(1);
      expect(result.err).toMatch(/^Error \[http\]: /);
      expect(result.err).not.toContain('    at ');
      expect(result.out).toBe('');
    } finally {
      cli.world.archive.faults = [];
    }
  });

  test('a query the archive server rejects: exit 0, no documents', async () => {
    cli.world.archive.faults = [{ match: '/api/documents/', status: 400, body: 'Error listing search results', contentType: 'text/html' }];
    try {
      const result = await run(['search', 'bob', 'inv"', '--json']);
      expect(result).toMatchObject({ code: 0, out: '[]\n' });
    } finally {
      cli.world.archive.faults = [];
    }
  });

  test('colours only on a terminal, and never with NO_COLOR or --no-color', async () => {
    expect((await run(['search', 'bob', 'invoice'], { tty: true })).out).toContain('\u001b[');
    expect((await run(['search', 'bob', 'invoice'], { tty: true, env: { NO_COLOR: '1' } })).out).not.toContain('\u001b[');
    expect((await run(['--no-color', 'search', 'bob', 'invoice'], { tty: true })).out).not.toContain('\u001b[');
  });

  test('--since and --until reach the archive server as its date bounds', async () => {
    cli.world.archive.clearRequests();
    const result = await run(['search', 'bob', 'invoice', '--since=2020-01-01', '--until=2020-12-31', '--json']);
    expect(result.code).toBe(0);
    const request = cli.world.archive.requests.find((r) => r.query.query === 'invoice');
    expect(request?.query).toMatchObject({ created__date__gte: '2020-01-01', created__date__lt: '2021-01-01' });
    const items = JSON.parse(result.out) as { id: number }[];
    const created = new Map(cli.world.archive.documents.map((d) => [d.id, d.created]));
    for (const item of items) expect(created.get(item.id)?.startsWith('2020-')).toBe(true);
  });
});
