/**
 * Human output on a terminal: text from the archive server and the host never controls the
 * terminal or breaks a table (issue 11 §2), and tables fit the terminal's width (issue 12 §3).
 */
import { beforeAll, describe, expect, test } from '@jest/globals';
import fc from 'fast-check';
import { createRequire } from 'node:module';
import { failure, line, prose, styled, success, type Piece } from '../src/cli/format.js';
import { table, type Column } from '../src/cli/table.js';
import { displayWidth, safeText, shortenMiddle } from '../src/cli/terminal-text.js';
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

describe('displayWidth counts as string-width does', () => {
  const stringWidth = createRequire(import.meta.url)('string-width') as (text: string) => number;
  // The ranges displayWidth counts itself, one column each (src/cli/terminal-text.ts), and more.
  const own: readonly (readonly [number, number])[] = [
    [0x20, 0x7e],
    [0xa0, 0x2ff],
    [0x370, 0x10ff],
    [0x2010, 0x2027],
    [0x2030, 0x205e],
  ];
  const ownChar = fc.constantFrom(...own.flatMap(([from, to]) => Array.from({ length: to - from + 1 }, (_, i) => String.fromCodePoint(from + i))));

  test('every character of the Basic Multilingual Plane, alone, measures as string-width measures it', () => {
    const differing: string[] = [];
    for (let code = 0; code <= 0xffff; code += 1) {
      if (code >= 0xd800 && code <= 0xdfff) continue; // surrogates: halves of a character, not one
      const text = String.fromCodePoint(code);
      if (displayWidth(text) !== stringWidth(text)) differing.push(code.toString(16));
    }
    expect(differing).toEqual([]);
  });

  test('property: any text, its own characters mixed with wide, combining, emoji and escapes, measures the same', () => {
    const other = fc.constantFrom(
      '日',
      '\u0301',
      '😀',
      '👩‍💻',
      '\ufe0f',
      '\u200d',
      '\u001b[31m',
      '\u001b[0m',
      '\t',
      '\u0085',
      '1\ufe0f\u20e3',
      '\u{1f1e9}\u{1f1ea}',
    );
    fc.assert(
      fc.property(fc.array(fc.oneof(ownChar, other, fc.string({ unit: 'grapheme' }))), (parts) => {
        const text = parts.join('');
        expect(displayWidth(text)).toBe(stringWidth(text));
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

/** The text of wrapped lines put back on one line: each line's indent dropped, joined by one space. */
function unwrapped(text: string): string {
  return text
    .split('\n')
    .map((l) => l.trim())
    .join(' ');
}

describe('prose: sentences for people fit the terminal, broken at spaces', () => {
  const EXPLANATION =
    'Document 21: the archive account archive has /Paperless/Contracts/Document [P21].pdf but bob cannot open it: bob has not accepted the share of /Paperless/Contracts from archive: bob accepts it in Files, under Shares.';

  test.each([40, 80, 200])('at %i columns no line is wider, no word is cut, and the following lines hang under the first', (width) => {
    const out = prose({ color: false, width }, 2, EXPLANATION);
    const outLines = out.split('\n');
    expect(Math.max(...outLines.map(displayWidth))).toBeLessThanOrEqual(width);
    expect(unwrapped(out)).toBe(EXPLANATION);
    for (const l of outLines.slice(1)) expect(l).toMatch(/^ {2}\S/);
    // Filled: the next word would not have fitted on the line before.
    for (const [i, l] of outLines.slice(0, -1).entries()) {
      const next = (outLines[i + 1] ?? '').trim().split(' ')[0] ?? '';
      expect(displayWidth(l) + 1 + displayWidth(next)).toBeGreaterThan(width);
    }
  });

  test('a sentence that fits the terminal stays one line', () => {
    expect(prose({ color: false, width: displayWidth(EXPLANATION) }, 2, EXPLANATION)).toBe(EXPLANATION);
    expect(prose({ color: false, width: displayWidth(EXPLANATION) - 1 }, 2, EXPLANATION)).toContain('\n');
  });

  test('not on a terminal the sentence is one line, exactly as line() prints it', () => {
    expect(prose({ color: false }, 2, EXPLANATION)).toBe(EXPLANATION);
    expect(prose({ color: true }, 2, styled('yellow', 'Note:'), ' ', EXPLANATION)).toBe(line({ color: true }, styled('yellow', 'Note:'), ' ', EXPLANATION));
  });

  test('wide characters count two columns, colours none; a coloured word keeps its colour on whichever line it lands', () => {
    const pieces: Piece[] = ['Document 7 for ', WIDE, ': ', styled('yellow', 'not shared'), '.'];
    const out = prose({ color: true, width: 30 }, 2, ...pieces);
    expect(Math.max(...out.split('\n').map(displayWidth))).toBeLessThanOrEqual(30);
    expect(out).toContain('\u001b[33mnot\u001b[39m');
    expect(out).toContain('\u001b[33mshared\u001b[39m');
    expect(unwrapped(out).replace(/\u001b\[\d+m/g, '')).toBe(`Document 7 for ${WIDE}: not shared.`);
  });

  test('a word wider than the terminal stays whole on a line of its own; control characters are escaped before measuring', () => {
    const path = `/Paperless/${'x'.repeat(90)}/File[P1].pdf`;
    const out = prose({ color: false, width: 40 }, 2, `Document 1: see ${path} \u001b[2J now.`);
    expect(out.split('\n')).toContain(`  ${path}`);
    expect(out).toContain('\\x1b[2J');
    expect(out).not.toContain('\u001b');
  });

  test('check marks hang their text under the text, after their indent', () => {
    const out = success({ color: false, width: 40 }, 'Connected to the archive server at http://127.0.0.1:8000: version 2.20.15, API version 9.', '  ');
    const outLines = out.split('\n');
    expect(outLines[0]).toMatch(/^ {2}✓ Connected/);
    for (const l of outLines.slice(1)) expect(l).toMatch(/^ {4}\S/);
    expect(failure({ color: false }, 'x y')).toBe('✗ x y');
  });

  test('property: whatever the words and the width, lines fit unless one word alone is wider, and no text is lost', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.string({ minLength: 1, maxLength: 30 }).map((w) => w.replace(/\s/g, '_')),
          { minLength: 1, maxLength: 40 },
        ),
        fc.integer({ min: 10, max: 200 }),
        (words, width) => {
          const text = words.map(safeText).join(' ');
          const out = prose({ color: false, width }, 2, text);
          expect(unwrapped(out)).toBe(text.trim());
          for (const l of out.split('\n')) if (displayWidth(l) > width) expect(l.trim()).not.toContain(' ');
        },
      ),
    );
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
    for (const args of [
      ['why', 'bob', '101'],
      ['search', 'bob', 'quokka', '--explain', '--limit=50'],
    ]) {
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

describe('explanations fit the terminal', () => {
  const explained: readonly (readonly string[])[] = [
    ['why', 'bob', '101'],
    ['search', 'bob', 'quokka', '--explain', '--limit=50'],
  ];

  test.each(explained)('%s %s %s at 80 and 200 columns: every sentence line fits, words whole; piped: one line per sentence', async (...args) => {
    const piped = await cli.run(args);
    expect(piped.code).toBe(0);
    const sentences = piped.out.split('\n').filter((l) => l.startsWith('Document ') || l.startsWith('The archive server found') || l.startsWith('File: '));
    expect(sentences.some((l) => displayWidth(l) > 80)).toBe(true);
    for (const columns of [80, 200]) {
      const run = await cli.run(args, { tty: true, columns, env: { NO_COLOR: '1' } });
      expect(run.code).toBe(0);
      const prosePart = run.out.split('\n').filter((l) => !/^[│┌└├]/u.test(l));
      expect(Math.max(...prosePart.map(displayWidth))).toBeLessThanOrEqual(columns);
      // The same sentences, only broken at spaces: put back together they are the piped lines.
      const joined = prosePart
        .join('\n')
        .replace(/\n {2}/g, ' ')
        .split('\n')
        .filter((l) => l !== '');
      expect(joined).toEqual(sentences);
    }
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

(noPty === null ? describe : describe.skip)('why on a real pseudo-terminal', () => {
  test.each([80, 200])('at %i columns the explanation is broken at spaces within the terminal', async (columns) => {
    const run = await runOnPty(columns, ['--config-dir', cli.dir, 'why', 'bob', '101']);
    expect(run.code).toBe(0);
    const screen = run.screen
      .replace(/\u001b\[\d+m/g, '')
      .split(/\r?\n/)
      .filter((l) => l !== '');
    expect(Math.max(...screen.map(displayWidth))).toBeLessThanOrEqual(columns);
    expect(screen[1]).toMatch(/^Document 101: /);
    if (columns === 80) expect(screen.length).toBeGreaterThan(2);
    for (const l of screen.slice(2)) expect(l).toMatch(/^ {2}\S/);
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
