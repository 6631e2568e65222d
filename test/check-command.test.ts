import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { main } from '../src/cli.js';
import { checkCoverage } from '../src/core/diagnostics/coverage.js';
import { captureIO } from './support/capture-io.js';
import { buildSearchWorld, expectedVerdict, TOKEN, type SearchWorld } from './support/search-world.js';

let world: SearchWorld;

beforeAll(async () => {
  world = await buildSearchWorld(60);
});

afterAll(async () => {
  await world.close();
});

async function run(dir: string, args: readonly string[], tty = false): Promise<{ code: number; out: string; err: string }> {
  const io = captureIO({ env: {}, tty });
  const code = await main(['--config-dir', dir, ...args], io);
  return { code, out: io.out(), err: io.err() };
}

const withFile = (): number => world.archive.documents.filter((d) => ['shown', 'not shared'].includes(expectedVerdict(d.id))).length;
const withoutFile = (): number[] => world.archive.documents.map((d) => d.id).filter((id) => !['shown', 'not shared'].includes(expectedVerdict(id)));

describe('check command', () => {
  test('the three kinds of lines and exit 0 when documents can show', async () => {
    const { dir } = await world.context();
    const result = await run(dir, ['check']);
    expect(result.code).toBe(0);
    const lines = result.out.trim().split('\n');
    expect(lines[0]).toContain(`Connected to the archive server at ${world.archive.url}: version 2.20.15, API version 9.`);
    expect(lines[1]).toContain('The archive account archive exists.');
    expect(lines[2]).toContain(`${withFile()} of 60 document(s) seen by the token's account have a file of the archive account.`);
    expect(lines[2]).toContain(`Without a file, for example: ${withoutFile().slice(0, 10).join(', ')}.`);
    expect(result.err).toBe('');
  });

  test('archive server 3: versions named, same coverage', async () => {
    const { dir } = await world.context();
    world.archive.version = '3.0';
    try {
      const result = await run(dir, ['check']);
      expect(result.code).toBe(0);
      expect(result.out).toContain('version 3.0.5, API version 10.');
      expect(result.out).toContain(`${withFile()} of 60 document(s)`);
    } finally {
      world.archive.version = '2.20';
    }
  });

  test('--json for CI', async () => {
    const { dir } = await world.context();
    const result = await run(dir, ['check', '--json']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.out)).toEqual({
      ok: true,
      accessRules: null,
      connection: { url: world.archive.url, version: '2.20.15', apiVersion: '9' },
      archiveAccount: 'archive',
      problem: null,
      coverage: {
        documents: 60,
        withFile: withFile(),
        markedFiles: withFile(),
        unsupportedShares: { talkRooms: 0, deckBoards: 0 },
        examplesWithoutFile: withoutFile().slice(0, 10),
        percent: Math.round((withFile() / 60) * 1000) / 10,
        minimum: null,
        unreadableStorages: [],
      },
      failures: [],
    });
  });

  test('a token of a non-superuser that sees documents through view grants to it and its groups: coverage and test count those', async () => {
    const { dir } = await world.context();
    const original = world.archive.documents;
    // Everything belongs to another user; a third is granted to the token's user, a third to a group it is in.
    world.archive.documents = original.map((d) => ({ ...d, owner: 99, ...(d.id % 3 === 0 ? { viewUsers: [5] } : d.id % 3 === 1 ? { viewGroups: [9] } : {}) }));
    world.archive.tokenUsers = { [TOKEN]: 5 };
    world.archive.userGroups = { 5: [9] };
    const hasFile = (id: number): boolean => ['shown', 'not shared'].includes(expectedVerdict(id));
    try {
      const visible = original.map((d) => d.id).filter((id) => id % 3 !== 2);
      const json = JSON.parse((await run(dir, ['check', '--json'])).out) as {
        coverage: { documents: number; withFile: number; examplesWithoutFile: number[] };
      };
      expect(json.coverage.documents).toBe(visible.length);
      expect(json.coverage.withFile).toBe(visible.filter(hasFile).length);
      expect(json.coverage.examplesWithoutFile.every((id) => visible.includes(id) && !hasFile(id))).toBe(true);
      expect((await run(dir, ['test'])).out).toContain(`the token's account sees ${visible.length} document(s)`);
      // Group membership is read when Paperless answers: out of the group, its grants show nothing.
      world.archive.userGroups = {};
      const own = visible.filter((id) => id % 3 === 0);
      expect((JSON.parse((await run(dir, ['check', '--json'])).out) as { coverage: { documents: number } }).coverage.documents).toBe(own.length);
      expect((await run(dir, ['test'])).out).toContain(`the token's account sees ${own.length} document(s)`);
    } finally {
      world.archive.documents = original;
      world.archive.tokenUsers = {};
      world.archive.userGroups = {};
    }
  });

  test("the archive account's Talk room and Deck board shares are reported: no one is shown a document through them", async () => {
    const { dir } = await world.context();
    const folder = await world.host.addFolder('archive', 'Unsupported');
    const shares = [
      await world.host.share({ owner: 'archive', fileId: folder, type: 'room', with: 'roomtoken' }),
      await world.host.share({ owner: 'archive', fileId: folder, type: 'room', with: 'otherroom' }),
      await world.host.share({ owner: 'archive', fileId: folder, type: 'deck', with: '7' }),
    ];
    try {
      const plain = await run(dir, ['check']);
      expect(plain.code).toBe(0);
      expect(plain.out).toContain('The archive account shares 2 file(s) or folder(s) with Talk rooms and 1 with Deck boards: such shares are not supported');
      const json = JSON.parse((await run(dir, ['check', '--json'])).out) as { coverage: { unsupportedShares: unknown } };
      expect(json.coverage.unsupportedShares).toEqual({ talkRooms: 2, deckBoards: 1 });
    } finally {
      await world.host.exec(`DELETE FROM ${world.host.prefix}share WHERE id IN (${shares.join(', ')})`);
    }
  });

  test('no document with a file: exit 1 and what to correct', async () => {
    const { dir, ctx } = await world.context();
    ctx.settings.update({ archive_owner: 'bob' });
    const result = await run(dir, ['check']);
    expect(result.code).toBe(1);
    expect(result.out).toContain('0 of 60 document(s)');
    expect(result.out).toContain('No document has a file of the archive account bob');
  });

  test('unknown archive account: exit 1, the connection still shown, the code in the failures', async () => {
    const { dir, ctx } = await world.context();
    ctx.settings.update({ archive_owner: 'ghost' });
    const result = await run(dir, ['check', '--json']);
    expect(result.code).toBe(1);
    const json = JSON.parse(result.out) as Record<string, unknown>;
    expect(json).toMatchObject({
      ok: false,
      problem: 'misconfigured',
      connection: { url: world.archive.url, version: '2.20.15', apiVersion: '9' },
      archiveAccount: null,
      coverage: { documents: 60, withFile: null, markedFiles: null },
      error: { code: 'unknown_archive_account', message: expect.stringContaining('"ghost" (archive_owner)') },
      failures: [
        { part: 'archive account', code: 'unknown_archive_account', kind: 'misconfigured', message: expect.stringContaining('run setup --archive-account=ID') },
      ],
    });
    expect(result.err).toMatch(/^Error \[unknown_archive_account\]: /);
  });

  test('the archive server refuses the token: exit 1, coded, misconfigured', async () => {
    const { dir } = await world.context();
    world.archive.faults = [{ match: '/api/documents/', status: 401, body: '{"detail":"Invalid token."}', contentType: 'application/json' }];
    try {
      const result = await run(dir, ['check']);
      expect(result.code).toBe(1);
      expect(result.err).toMatch(/^Error \[unauthorized\]: /);
      expect(result.out).toContain('The archive account archive exists.');
      const json = JSON.parse((await run(dir, ['check', '--json'])).out) as Record<string, unknown>;
      expect(json).toMatchObject({ ok: false, problem: 'misconfigured', failures: [{ part: 'connection', code: 'unauthorized', kind: 'misconfigured' }] });
    } finally {
      world.archive.faults = [];
    }
  });

  test('the archive server down: every host part still runs and shows, problem unreachable, exit 1', async () => {
    const { dir } = await world.context();
    world.archive.faults = [{ match: '/api/documents/', destroySocket: true }];
    try {
      const plain = await run(dir, ['check']);
      expect(plain.code).toBe(1);
      const lines = plain.out.trim().split('\n');
      expect(lines[0]).toMatch(/^✗ The connection to the archive server at .* failed \(unreachable\): did not answer, a later run may pass/);
      expect(lines[1]).toBe('✓ The archive account archive exists.');
      expect(lines[2]).toContain(`The archive account archive has ${withFile()} marked file(s)`);
      expect(plain.err).toMatch(/^Error \[unreachable\]: /);

      const result = await run(dir, ['check', '--json']);
      expect(result.code).toBe(1);
      expect(JSON.parse(result.out)).toEqual({
        ok: false,
        problem: 'unreachable',
        accessRules: null,
        connection: { url: world.archive.url, version: null, apiVersion: null },
        archiveAccount: 'archive',
        coverage: {
          documents: null,
          withFile: null,
          markedFiles: withFile(),
          unsupportedShares: { talkRooms: 0, deckBoards: 0 },
          examplesWithoutFile: [],
          percent: null,
          minimum: null,
          unreadableStorages: [],
        },
        error: { code: 'unreachable', message: expect.any(String) },
        failures: [{ part: 'connection', code: 'unreachable', kind: 'unreachable', message: expect.any(String) }],
      });
    } finally {
      world.archive.faults = [];
    }
  });

  test("the host's parts run while the archive server answers; the progress line goes back to it, the report is the same", async () => {
    const { ctx } = await world.context();
    const steps = async (): Promise<{ steps: string[]; report: Awaited<ReturnType<typeof checkCoverage>> }> => {
      const seen: string[] = [];
      const report = await checkCoverage(ctx, { step: (step) => seen.push(step) });
      return { steps: seen, report };
    };
    const prompt = await steps();
    expect(prompt.report.failures).toEqual([]);
    // The answer waits long after the host's parts (milliseconds on SQLite) are done.
    world.archive.faults = [{ match: '/api/documents/', hangMs: 1500, times: 1 }];
    try {
      const slow = await steps();
      expect(slow.steps).toEqual(['connection', 'archive account', 'marked files', 'connection']);
      expect(slow.report).toEqual(prompt.report);
    } finally {
      world.archive.faults = [];
    }
  });

  test('a failing host part and a failing connection: the failures in the order of the parts', async () => {
    const { ctx } = await world.context();
    ctx.settings.update({ archive_owner: 'nobody-here' });
    world.archive.faults = [{ match: '/api/documents/', hangMs: 300, status: 503, times: 1 }];
    try {
      const report = await checkCoverage(ctx);
      expect(report.failures.map((failure) => [failure.part, failure.error.code])).toEqual([
        ['connection', 'http'],
        ['archive account', 'unknown_archive_account'],
      ]);
    } finally {
      world.archive.faults = [];
    }
  });

  test('HTTP 503 is unreachable; down and a missing account together are misconfigured (a later run will not fix it)', async () => {
    const { dir, ctx } = await world.context();
    world.archive.faults = [{ match: '/api/documents/', status: 503, body: 'down', contentType: 'text/plain' }];
    try {
      const down = JSON.parse((await run(dir, ['check', '--json'])).out) as Record<string, unknown>;
      expect(down).toMatchObject({ problem: 'unreachable', failures: [{ code: 'http', kind: 'unreachable' }] });
      ctx.settings.update({ archive_owner: 'ghost' });
      const both = await run(dir, ['check', '--json']);
      expect(both.code).toBe(1);
      expect(JSON.parse(both.out)).toMatchObject({
        problem: 'misconfigured',
        failures: [
          { part: 'connection', kind: 'unreachable' },
          { part: 'archive account', kind: 'misconfigured' },
        ],
      });
      expect(both.err.trim().split('\n')).toEqual([expect.stringMatching(/^Error \[http\]/), expect.stringMatching(/^Error \[unknown_archive_account\]/)]);
    } finally {
      world.archive.faults = [];
    }
  });

  test('--min-coverage: below it exit 1 with low_coverage, at or above it exit 0; a bad value is a wrong call', async () => {
    const { dir } = await world.context();
    const percent = Math.round((withFile() / 60) * 1000) / 10;
    const below = await run(dir, ['check', '--json', '--min-coverage', String(Math.ceil(percent + 1))]);
    expect(below.code).toBe(1);
    expect(JSON.parse(below.out)).toMatchObject({
      ok: false,
      problem: 'low_coverage',
      coverage: { percent, minimum: Math.ceil(percent + 1) },
      correction: expect.stringContaining('below --min-coverage'),
      failures: [],
    });
    const plain = await run(dir, ['check', `--min-coverage=${Math.ceil(percent + 1)}%`]);
    expect(plain.code).toBe(1);
    expect(plain.out).toMatch(/^✗ \d+ of 60 document/m);
    expect(plain.out).toContain(`${percent}% of the documents have a file, below --min-coverage`);
    const met = await run(dir, ['check', '--json', '--min-coverage', String(Math.floor(percent))]);
    expect(met.code).toBe(0);
    expect(JSON.parse(met.out)).toMatchObject({ ok: true, problem: null, coverage: { percent, minimum: Math.floor(percent) } });
    for (const bad of ['abc', '101', '-5']) {
      const wrong = await run(dir, ['check', `--min-coverage=${bad}`]);
      expect(wrong.code).toBe(2);
      expect(wrong.err).toMatch(/^Error \[usage\]: --min-coverage takes a percentage/);
    }
  });

  test('--quiet: a passing check prints nothing (no waiting line either), a failing one still says everything', async () => {
    const { dir } = await world.context();
    const passed = await run(dir, ['--quiet', 'check'], true);
    expect(passed).toEqual({ code: 0, out: '', err: '' });
    expect((await run(dir, ['check', '--quiet', '--json'])).out).toContain('"ok":true');
    world.archive.faults = [{ match: '/api/documents/', destroySocket: true }];
    try {
      const failed = await run(dir, ['--quiet', 'check']);
      expect(failed.code).toBe(1);
      expect(failed.out).toContain('The archive account archive exists.');
      expect(failed.err).toMatch(/^Error \[unreachable\]: /);
    } finally {
      world.archive.faults = [];
    }
  });

  test('Error lines on a terminal are broken at spaces to its width; piped they stay one line', async () => {
    const { dir, ctx } = await world.context();
    ctx.settings.update({ archive_owner: 'ghost' });
    const piped = await run(dir, ['check']);
    const line = piped.err.trim();
    expect(line).toMatch(/^Error \[unknown_archive_account\]: /);
    expect(line.length).toBeGreaterThan(60);
    const io = captureIO({ env: {}, tty: true, columns: 60 });
    // --quiet keeps the waiting lines, drawn on the same terminal, out of what is measured.
    expect(await main(['--config-dir', dir, '--no-color', '--quiet', 'check'], io)).toBe(1);
    const lines = io.err().trimEnd().split('\n');
    expect(lines.length).toBeGreaterThan(1);
    for (const wrapped of lines) expect(wrapped.length).toBeLessThanOrEqual(60);
    expect(lines.join('\n').replace(/\n {2}/g, ' ')).toBe(line);
  });

  test('a progress line on stderr only when stderr is a terminal, while reading a large account', async () => {
    await world.host.addUser('dave');
    for (let id = 1; id <= 520; id += 1) await world.host.addFile('dave', `Big/B [P${id}].pdf`);
    const { dir, ctx } = await world.context();
    ctx.settings.update({ archive_owner: 'dave' });
    const quiet = await run(dir, ['check'], false);
    expect(quiet.code).toBe(0);
    expect(quiet.err).toBe('');
    const drawn = await run(dir, ['check'], true);
    expect(drawn.code).toBe(0);
    expect(drawn.err).toContain('Reading the marked files of the archive account dave…');
    expect(drawn.out).toContain('60 of 60 document(s)');
  });
});
