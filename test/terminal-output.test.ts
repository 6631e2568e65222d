/**
 * Human output on a terminal: text from the archive server and the host never controls the
 * terminal or breaks a table (issue 11 §2), and tables fit the terminal's width (issue 12 §3).
 */
import { beforeAll, describe, expect, test } from '@jest/globals';
import fc from 'fast-check';
import { styled, table, type Column } from '../src/commands/format.js';
import { displayWidth, safeText, shortenMiddle } from '../src/commands/terminal-text.js';
import { useCliWorld } from './support/cli-world.js';
import { ptyUnavailable, runOnPty } from './support/pty.js';
import { ARCHIVE_ACCOUNT } from './support/search-world.js';

/** Every character of the class: C0, DEL, C1, bidi controls, line and paragraph separators. */
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/u;

const LONG = `Annual statement of the pension fund ${'with many annexes and remarks '.repeat(12)}end`;
const WIDE = '請求書 2024年 東京都 株式会社 😀 領収書と明細書の控え 👍 請求書 2024年 東京都 株式会社 領収書と明細書の控え';
const HOSTILE = 'Quokka \u001b[31mred\u001b[0m\tcolumn\u202eevil\u0007bell\u009b31m';
const HOSTILE_FILE = 'Docs/\u001b[2Jwiped\tname\u2066 [P100].pdf';
const HOSTILE_PRIVATE = 'Private/\u001b]0;title\u0007\u202e [P101].pdf';

const COLUMNS: readonly Column[] = [
  { head: 'ID', fit: 'whole' },
  { head: 'Title', fit: 'shorten' },
  { head: 'Verdict', fit: 'whole' },
  { head: 'File', fit: 'shorten' },
];

function lines(text: string): string[] {
  return text.split('\n').filter((l) => l !== '');
}

describe('safeText', () => {
  test('each control and bidi character becomes its visible escape; other text is kept', () => {
    expect(safeText('a\u001b[31mb\tc\u007f\u0085\u202e\u2069\u200f\u2028é日😀')).toBe('a\\x1b[31mb\\x09c\\x7f\\x85\\u202e\\u2069\\u200f\\u2028é日😀');
  });

  test('property: no character of the class survives, and text without one is unchanged', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        const safe = safeText(text);
        expect(safe).not.toMatch(UNSAFE);
        if (!UNSAFE.test(text)) expect(safe).toBe(text);
      }),
    );
  });
});

describe('shortenMiddle and table widths', () => {
  test('a value is shortened in the middle to the width, never splitting a wide character or an emoji', () => {
    for (const width of [5, 12, 13, 30]) {
      for (const text of [LONG, WIDE, '👩‍💻'.repeat(20)]) {
        const short = shortenMiddle(text, width);
        expect(displayWidth(short)).toBeLessThanOrEqual(width);
        expect(short).toContain('…');
        expect(text.startsWith(short.slice(0, short.indexOf('…')))).toBe(true);
        expect(text.endsWith(short.slice(short.indexOf('…') + 1))).toBe(true);
      }
    }
    expect(shortenMiddle('short', 12)).toBe('short');
  });

  const rows = [
    [412, LONG, styled('green', 'shown'), '/Archive/Insurance/Pension fund statement 2024 with all annexes [P412].pdf'],
    [7, WIDE, styled('yellow', 'not shared'), '/Paperless/請求書/2024/領収書 [P7].pdf'],
    [100923, 'Short', styled('yellow', 'no file'), '—'],
  ] as const;

  test.each([80, 120, 200])('at %i columns every line is that wide or less, all lines equally wide, ids and verdicts whole', (width) => {
    const out = lines(table(COLUMNS, rows, { color: false, width }));
    const widths = out.map(displayWidth);
    expect(Math.max(...widths)).toBeLessThanOrEqual(width);
    expect(new Set(widths).size).toBe(1);
    for (const id of ['412', '100923']) expect(out.some((l) => l.includes(`│ ${id} `))).toBe(true);
    expect(out.filter((l) => l.includes('│ not shared │'))).toHaveLength(1);
    expect(out.filter((l) => l.includes('…')).length).toBeGreaterThan(0);
  });

  test('no lines between rows: header, one line per row, borders', () => {
    expect(lines(table(COLUMNS, rows, { color: false, width: 80 }))).toHaveLength(3 + rows.length + 1);
  });

  test('without a terminal width every value is printed whole, CJK and emoji still aligned', () => {
    const out = lines(table(COLUMNS, rows, { color: false }));
    expect(out.join('\n')).toContain(LONG);
    expect(out.join('\n')).toContain(WIDE);
    expect(new Set(out.map(displayWidth)).size).toBe(1);
    expect(out.join('\n')).not.toContain('…');
  });

  test('colours do not count towards the width', () => {
    const out = lines(table(COLUMNS, rows, { color: true, width: 80 }));
    expect(out.join('\n')).toContain('\u001b[32mshown\u001b[39m');
    expect(Math.max(...out.map(displayWidth))).toBeLessThanOrEqual(80);
  });
});

const cli = useCliWorld(16);

/** Long, wide and hostile titles; a host file name with control characters. */
beforeAll(async () => {
  const documents = cli.world.archive.documents;
  for (const document of documents.slice(0, 3)) document.title = `Quokka ${document.id} ${LONG}`;
  const fourth = documents[3];
  if (fourth !== undefined) fourth.title = `Quokka ${WIDE}`;
  const template = documents[0];
  if (template === undefined) throw new Error('the sample has documents');
  documents.push({ ...template, id: 100, title: HOSTILE });
  await cli.world.host.addFile(ARCHIVE_ACCOUNT, HOSTILE_FILE);
  documents.push({ ...template, id: 101, title: 'Quokka not shared' });
  await cli.world.host.addFile(ARCHIVE_ACCOUNT, HOSTILE_PRIVATE);
});

describe('commands with hostile text from the archive server and the host', () => {
  test('search: no control character of a title or a path reaches the terminal; --json keeps the exact text', async () => {
    const result = await cli.run(['search', 'bob', 'quokka', '--limit=50']);
    expect(result.code).toBe(0);
    for (const l of result.out.split('\n')) expect(l).not.toMatch(UNSAFE);
    expect(result.out).toContain(LONG);
    expect(result.out).toContain('Quokka \\x1b[31mred\\x1b[0m\\x09column\\u202eevil\\x07bell\\x9b31m');
    expect(result.out).toContain('/Archive/\\x1b[2Jwiped\\x09name\\u2066 [P100].pdf');
    const json = await cli.run(['search', 'bob', 'quokka', '--limit=50', '--json']);
    const items = JSON.parse(json.out) as { id: number; title: string; path: string | null }[];
    expect(items.find((item) => item.id === 100)).toMatchObject({ title: HOSTILE, path: `/Archive/${HOSTILE_FILE.slice('Docs/'.length)}` });
  });

  test('why and explanations: host paths are shown escaped', async () => {
    const shown = await cli.run(['why', 'bob', '100']);
    expect(shown.code).toBe(0);
    expect(shown.out).toContain('\\x1b[2Jwiped\\x09name\\u2066');
    expect(shown.out).not.toContain('\u001b');
    for (const args of [['why', 'bob', '101'], ['search', 'bob', 'quokka', '--explain', '--limit=50']]) {
      const explained = await cli.run(args);
      expect(explained.code).toBe(0);
      expect(explained.out).toMatch(/Document 101: .*\\x1b\]0;title\\x07\\u202e/u);
      expect(explained.out).not.toContain('\u001b');
      expect(explained.out).not.toContain('\u202e');
    }
  });

  test('error lines: a user name with control characters is escaped on stderr', async () => {
    const result = await cli.run(['search', 'no\u001b[31mbody', 'quokka']);
    expect(result.code).toBe(1);
    expect(result.err).toContain('no\\x1b[31mbody');
    expect(result.err).not.toContain('\u001b');
  });

  test('usage lines: what commander echoes of a wrong call is escaped too', async () => {
    const result = await cli.run(['sea\u001b[2Jrch', 'bob']);
    expect(result.code).toBe(2);
    expect(result.err).toContain("unknown command 'sea\\x1b[2Jrch'");
    expect(result.err).not.toContain('\u001b');
  });

  test('colours on a terminal come only from the suite: a title cannot add its own', async () => {
    const result = await cli.run(['search', 'bob', 'quokka', '--limit=50'], { tty: true });
    expect(result.out).toContain('\u001b[32mshown\u001b[39m');
    expect(result.out).not.toContain('\u001b[31m');
    expect(result.out).not.toContain('\u001b[2J');
  });
});

const noPty = ptyUnavailable();
if (noPty !== null) console.log(`SKIP pseudo-terminal tests: ${noPty}`);

(noPty === null ? describe : describe.skip)('search on a real pseudo-terminal', () => {
  test.each([80, 200])('at %i columns the table fits the terminal, titles shortened in the middle', async (columns) => {
    const run = await runOnPty(columns, ['--config-dir', cli.dir, 'search', 'bob', 'quokka', '--limit=50'], { NO_COLOR: '1' });
    expect({ code: run.code, screen: run.code === 0 ? '' : run.screen }).toEqual({ code: 0, screen: '' });
    const rows = run.screen.split(/\r?\n/).filter((l) => l.startsWith('│') || l.startsWith('┌') || l.startsWith('└') || l.startsWith('├'));
    expect(rows.length).toBeGreaterThan(5);
    const widths = rows.map(displayWidth);
    expect(Math.max(...widths)).toBeLessThanOrEqual(columns);
    expect(new Set(widths).size).toBe(1);
    expect(run.screen).toContain('…');
    expect(run.screen).not.toContain(LONG);
  });
});

(noPty === null ? describe : describe.skip)('check on a real pseudo-terminal', () => {
  test('while the archive server hangs, stderr says what check waits for, and the line is cleared before the result', async () => {
    cli.world.archive.faults = [{ match: '/api/documents/', hangMs: 1500, times: 1 }];
    try {
      const run = await runOnPty(80, ['--config-dir', cli.dir, 'check'], { NO_COLOR: '1' });
      expect(run.code).toBe(0);
      const waiting = run.screen.indexOf(`Waiting for the archive server at ${cli.world.archive.url} to answer…`);
      const connected = run.screen.indexOf(`Connected to the archive server at ${cli.world.archive.url}`);
      expect(waiting).toBeGreaterThanOrEqual(0);
      expect(connected).toBeGreaterThan(waiting);
      // Erased (carriage return, erase to end of line) before the first line of the result.
      expect(run.screen.slice(waiting, connected)).toMatch(/\r\u001b\[K(✓ )?$/u);
    } finally {
      cli.world.archive.faults = [];
    }
  });

  test.each([
    [['test'], 'Waiting for the archive server at'],
    [['search', 'bob', 'quokka'], 'Searching the archive server as bob…'],
  ])('%j says what it waits for too', async (args, said) => {
    cli.world.archive.faults = [{ match: '/api/documents/', hangMs: 1000, times: 1 }];
    try {
      const run = await runOnPty(120, ['--config-dir', cli.dir, ...args], { NO_COLOR: '1' });
      expect(run.code).toBe(0);
      expect(run.screen).toContain(said);
      expect(run.screen).toMatch(/…\r\u001b\[K/u);
    } finally {
      cli.world.archive.faults = [];
    }
  });

  test('not on a terminal: nothing extra on stderr', async () => {
    cli.world.archive.faults = [{ match: '/api/documents/', hangMs: 300, times: 1 }];
    try {
      for (const args of [['check'], ['test'], ['search', 'bob', 'quokka']]) {
        const result = await cli.run(args);
        expect({ code: result.code, err: result.err }).toEqual({ code: 0, err: '' });
        cli.world.archive.faults = [{ match: '/api/documents/', hangMs: 300, times: 1 }];
      }
    } finally {
      cli.world.archive.faults = [];
    }
  });
});
