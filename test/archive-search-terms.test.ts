import { readFileSync } from 'node:fs';
import { describe, expect, it, test } from '@jest/globals';
import { createArchiveClient } from '../src/core/archive/archive-client.js';
import {
  cannotBeSyntaxError,
  hasMinusExclusion,
  isExclusionsOnly,
  readsMinusAsWord,
  simpleTextOf,
  termReaderOf,
  type TermReader,
} from '../src/core/archive/search-terms.js';
import type { ArchiveClientOptions, ArchiveVersions, SearchPage, SearchRejection } from '../src/core/archive/types.js';
import { isNewerThanChecked, newerReleaseNote } from '../src/core/archive/releases.js';
import { failureOf, useArchiveEmulator } from './support/archive-client-helpers.js';
import { leaksIn } from './support/archive-emulator/hostile.js';
import type { ArchiveEmulator, EmulatedVersion, EmulatorDocument, Fault } from './support/archive-emulator/types.js';
import { DEFAULT_PHRASE_MAX_EXPANSIONS } from './support/archive-emulator/search/run.js';

const TOKEN = 'terms-token';
const FAST: ArchiveClientOptions['timeouts'] = { connectMs: 1000, answerMs: 3000, widgetAnswerMs: 3000, retryWindowMs: 3500 };

function doc(id: number, title: string, content: string): EmulatorDocument {
  return { id, title, content, created: '2024-03-01', added: `2024-03-0${(id % 9) + 1}T10:00:00.000000Z`, correspondent: null, documentType: null };
}

/** One document per term of issue 13 §1, plus neighbours that show where the simple mode reaches. */
const DOCUMENTS: EmulatorDocument[] = [
  doc(1, "Letter to Mr O'Brien", "Dear Mr O'Brien, thank you for the call."),
  doc(2, 'Re: invoice 17', 'Re: invoice 17 is paid in full.'),
  doc(3, 'Reminder', 'Invoice: 2024-118 is still open.'),
  doc(4, 'Quote', 'He said "abc" twice.'),
  doc(5, 'Plan', 'A (draft) of the plan for spring.'),
  doc(6, 'Brien Street', 'Moving to Brien Street soon.'),
  doc(7, 'Invoice', 'Plain invoice without any punctuation.'),
  doc(8, 'Notes', 'Notes about coffee and the garden.'),
];

describe('the text value and what a term means (unit)', () => {
  test.each([
    ["O'Brien", 'Brien'],
    ['Re: invoice', 'Re invoice'],
    ['Invoice:', 'Invoice'],
    ['"abc', 'abc'],
    ['(draft', 'draft'],
    ['invoice "gard', 'invoice'],
    ["Mr O'Brien", 'Mr O'],
    ['Müller & Söhne', 'Müller'],
    ['2024-118 invoice', '2024 invoice'],
    ['"', ''],
    ['() :', ''],
  ])('%j is repeated as text %j (letters and digits only)', (term, text) => {
    expect(simpleTextOf(term)).toBe(text);
    expect(/^[\p{L}\p{M}\p{N} ]*$/u.test(simpleTextOf(term))).toBe(true);
  });

  test.each([
    ["O'Brien", 'Brien'],
    ["Mr O'Brien", 'Mr Brien'],
    ['invoice "gard', 'invoice gard'],
    ['Re: invoice', 'Re invoice'],
    ['2024-118 invoice', '2024 invoice'],
    ['A-118 invoice', '118 invoice'],
    // 3.1 finds a number among several words only at a chunk's start or after ASCII punctuation.
    ['№123 invoice', 'invoice'],
    ['x№123-45678 invoice', '45678 invoice'],
    ['№123', '123'],
    ['"', ''],
  ])('3.1 (every word anywhere): %j is repeated as text %j', (term, text) => {
    expect(simpleTextOf(term, 'tantivy-all-words')).toBe(text);
  });

  test.each<[string, string | null, string | null, TermReader]>([
    ['2.20.15 / 9', '2.20.15', '9', 'whoosh'],
    ['3.0.5 / 10', '3.0.5', '10', 'tantivy'],
    ['3.1.3 / 10', '3.1.3', '10', 'tantivy-all-words'],
    ['3.1.0 / none', '3.1.0', null, 'tantivy-all-words'],
    ['3.2.0 / 10', '3.2.0', '10', 'whoosh-compat'],
    ['3.2.0-beta.rc1 / none', '3.2.0-beta.rc1', null, 'whoosh-compat'],
    ['3.10.1 / 10', '3.10.1', '10', 'whoosh-compat'],
    ['4.0.0 / 11', '4.0.0', '11', 'whoosh-compat'],
    ['2.20.15 / 10 (the release decides)', '2.20.15', '10', 'whoosh'],
    ['none / 10: a 3.x read as 3.0', null, '10', 'tantivy'],
    ['none / 9', null, '9', 'whoosh'],
    ['nothing named', null, null, 'whoosh'],
  ])('%s reads terms as %s', (_name, version, apiVersion, reader) => {
    const versions: ArchiveVersions = { version, apiVersion };
    expect(termReaderOf(versions)).toBe(reader);
  });

  test.each<[string | null, boolean]>([
    ['3.3.0', true],
    ['3.10.0', true],
    ['4.0.0-beta.rc1', true],
    ['3.2.1', false],
    ['3.2.0', false],
    ['3.0.5', false],
    ['2.20.15', false],
    [null, false],
  ])('release %s is newer than the checked ones (up to 3.2): %s; its terms are read as 3.2 reads them', (version, newer) => {
    expect(isNewerThanChecked(version)).toBe(newer);
    expect(newerReleaseNote(version) !== null).toBe(newer);
    if (newer) expect(termReaderOf({ version, apiVersion: '10' })).toBe('whoosh-compat');
  });

  test('-word is the word itself for Whoosh and whoosh-compat only', () => {
    expect((['whoosh', 'tantivy', 'tantivy-all-words', 'whoosh-compat'] as const).filter(readsMinusAsWord)).toEqual(['whoosh', 'whoosh-compat']);
  });

  test.each([
    ['-invoice', true, true],
    ['NOT invoice', true, false],
    ['-invoice -draft', true, true],
    ['NOT (invoice OR bill)', true, false],
    ['-"pay this"', true, true],
    ['invoice -draft', false, true],
    ['invoice NOT draft', false, false],
    ['- invoice', false, false],
    ['e-invoice', false, false],
    ['NOT', false, false],
  ])('%j: only exclusions %s, an exclusion written with - %s', (term, only, minus) => {
    expect(isExclusionsOnly(term)).toBe(only);
    expect(hasMinusExclusion(term)).toBe(minus);
  });

  test.each([
    ['invoice', true],
    ['Rechnung März 2024', true],
    ['NOT invoice', true],
    ["O'Brien", false],
    ['invoice:', false],
    ['e-invoice', false],
    ['   ', false],
  ])('%j cannot be a syntax error: %s', (term, plain) => {
    expect(cannotBeSyntaxError(term)).toBe(plain);
  });
});

/** What the client gets for a term, and the requests it took. */
async function searchOf(
  emulator: ArchiveEmulator,
  term: string,
): Promise<{ page: SearchPage; ids: number[]; requests: Array<{ query?: string; text?: string }> }> {
  emulator.clearRequests();
  const client = createArchiveClient({ url: emulator.url, token: TOKEN, allowLocal: true }, { timeouts: FAST });
  try {
    const page = await client.search({ term, page: 1 });
    return { page, ids: page.hits.map((hit) => hit.id).sort((a, b) => a - b), requests: requestsOf(emulator) };
  } finally {
    await client.close();
  }
}

function requestsOf(emulator: ArchiveEmulator): Array<{ query?: string; text?: string }> {
  return emulator.requests.map((r) => ({
    ...(r.query.query === undefined ? {} : { query: r.query.query }),
    ...(r.query.text === undefined ? {} : { text: r.query.text }),
  }));
}

/** The releases of the table's columns and the emulator's version for each. */
const COLUMNS = { '2.20.15': '2.20', '3.0.5': '3.0', '3.1.3': '3.1', '3.2.1': '3.2', '3.3.0': '3.3' } as const satisfies Record<string, EmulatedVersion>;
type Release = keyof typeof COLUMNS;
const RELEASES = Object.keys(COLUMNS) as Release[];

type Outcome =
  | { readonly kind: 'ids'; readonly ids: number[] }
  | { readonly kind: 'rejection'; readonly rejection: SearchRejection; readonly refusal: string | null }
  | { readonly kind: 'failure'; readonly status: number };

interface Cell {
  readonly requests: Array<{ query?: string; text?: string }>;
  readonly outcome: Outcome;
}

interface Row {
  readonly term: string;
  readonly broken: boolean;
  /** An archive large enough that 3.0's phrase of several words exceeds tantivy's expansions. */
  readonly large: boolean;
  readonly cells: Record<Release, Cell>;
}

const REJECTIONS: Record<string, SearchRejection> = { 'exclusions only': 'exclusions_only', '-word dropped': 'minus_exclusion', rejected: 'query' };

function outcomeOf(text: string): Outcome {
  if (text === 'none') return { kind: 'ids', ids: [] };
  if (/^\d+(, \d+)*$/.test(text)) return { kind: 'ids', ids: text.split(', ').map(Number) };
  const rejection = REJECTIONS[text];
  if (rejection !== undefined) return { kind: 'rejection', rejection, refusal: null };
  const refused = /^refused: (.+)$/.exec(text);
  if (refused !== null) return { kind: 'rejection', rejection: 'refused', refusal: refused[1] ?? '' };
  const failure = /^failure http (\d{3})$/.exec(text);
  if (failure !== null) return { kind: 'failure', status: Number(failure[1]) };
  throw new Error(`docs/archive-client.md: cannot read the result ${JSON.stringify(text)}`);
}

function cellOf(text: string, term: string): Cell {
  const [requests = '', result = ''] = text.split(' → ');
  return {
    requests: [...requests.matchAll(/`(query|text=[^`]*)`/g)].map((m) => (m[1] === 'query' ? { query: term } : { text: (m[1] ?? '').slice('text='.length) })),
    outcome: outcomeOf(result.trim()),
  };
}

/** The table "The table, per release" of docs/archive-client.md, as written there. */
function documentedTable(): Row[] {
  const lines = readFileSync(new URL('../docs/archive-client.md', import.meta.url), 'utf8').split('\n');
  const header = lines.findIndex((line) => line.startsWith('| term | 2.20.15 |'));
  const columns = (line: string): string[] => line.split(' | ').map((cell) => cell.replace(/^\| ?| ?\|$/g, '').trim());
  const heads = columns(lines[header] ?? '');
  expect(heads).toEqual(['term', ...RELEASES, 'source']);
  const rows: Row[] = [];
  for (const line of lines.slice(header + 2)) {
    if (!line.startsWith('|')) break;
    const cells = columns(line);
    const named = /^`(.+)`(, broken|, large)?$/.exec(cells[0] ?? '');
    if (named === null) throw new Error(`docs/archive-client.md: cannot read the term of ${line}`);
    const term = named[1] ?? '';
    const byRelease = Object.fromEntries(RELEASES.map((release, i) => [release, cellOf(cells[i + 1] ?? '', term)])) as Record<Release, Cell>;
    expect((cells[RELEASES.length + 1] ?? '').length).toBeGreaterThan(0);
    rows.push({ term, broken: named[2] === ', broken', large: named[2] === ', large', cells: byRelease });
  }
  return rows;
}

const TABLE = documentedTable();

test('the documented table has every row of the issue and a source for each', () => {
  expect(TABLE.map((row) => row.term)).toEqual(
    expect.arrayContaining(['invoice', "O'Brien", '-invoice', 'NOT invoice', 'invoice -plain', 'created:2024-13-45', 'title:200[1-9]', 'invoice 2024']),
  );
  expect(TABLE.filter((row) => row.large).map((row) => row.term)).toEqual(['Re: invoice', "Mr O'Brien"]);
  expect(TABLE.length).toBeGreaterThanOrEqual(19);
});

describe.each(RELEASES)('Paperless-ngx %s: every row of the table (term → requests → result)', (release) => {
  let emulator: ArchiveEmulator;
  useArchiveEmulator(
    { version: COLUMNS[release], documents: DOCUMENTS, correspondents: [], documentTypes: [], tokens: [TOKEN] },
    (started) => (emulator = started),
  );

  test.each(TABLE.map((row) => [`${row.term}${row.broken ? ', broken' : row.large ? ', large' : ''}`, row] as const))('%s', async (_name, row) => {
    const { requests, outcome } = row.cells[release];
    emulator.searchBroken = row.broken;
    emulator.phraseMaxExpansions = row.large ? 2 : DEFAULT_PHRASE_MAX_EXPANSIONS;
    try {
      if (outcome.kind === 'failure') {
        emulator.clearRequests();
        const client = createArchiveClient({ url: emulator.url, token: TOKEN, allowLocal: true }, { timeouts: FAST });
        const failure = await failureOf(client.search({ term: row.term, page: 1 }), TOKEN);
        await client.close();
        expect({ code: failure.code, status: failure.status }).toEqual({ code: 'http', status: outcome.status });
        expect(requestsOf(emulator)).toEqual(requests);
        return;
      }
      const found = await searchOf(emulator, row.term);
      expect(found.requests).toEqual(requests);
      // Two requests a page, but for 3.0's word-by-word search: one more per word and the page.
      expect(found.requests.length).toBeLessThanOrEqual(row.large ? 3 + row.term.split(' ').length : 2);
      if (outcome.kind === 'rejection') {
        expect(found.page).toMatchObject({ hits: [], hasMore: false, rejection: outcome.rejection, refusal: outcome.refusal });
      } else {
        expect(found.page.rejection ?? null).toBeNull();
        expect(found.ids).toEqual(outcome.ids);
      }
    } finally {
      emulator.searchBroken = false;
      emulator.phraseMaxExpansions = DEFAULT_PHRASE_MAX_EXPANSIONS;
    }
  });
});

describe.each(['2.20', '3.0', '3.1', '3.2'] as const)('archive server %s with a broken search backend (paperless-ngx#13200)', (version) => {
  let emulator: ArchiveEmulator;
  useArchiveEmulator(
    { version, documents: DOCUMENTS, correspondents: [], documentTypes: [], tokens: [TOKEN], searchBroken: true },
    (started) => (emulator = started),
  );

  it('the failure says what broke, and the list without a search still works (the fault is in the search backend only)', async () => {
    const client = createArchiveClient({ url: emulator.url, token: TOKEN, allowLocal: true }, { timeouts: FAST });
    const failure = await failureOf(client.search({ term: 'invoice 2024', page: 1 }), TOKEN);
    expect(failure.message).toMatch(version === '3.2' ? /answered HTTP 500/ : /failed to search \(HTTP 400 for a term that cannot be a syntax error\)/);
    expect((await client.testConnection()).count).toBe(DOCUMENTS.length);
    await client.close();
  });
});

/** An answer as Paperless-ngx 3.2.0 sends it, with its version headers. */
function answer32(status: number, body: string, contentType = 'application/json'): Fault {
  return { match: '/api/documents/', times: 1, status, body, contentType, headers: { 'X-Api-Version': '10', 'X-Version': '3.2.0' } };
}

describe('Paperless\'s own refusal of a term (SearchQueryError, 400 {"query": [...]})', () => {
  let emulator: ArchiveEmulator;
  useArchiveEmulator({ version: '3.2', documents: DOCUMENTS, correspondents: [], documentTypes: [], tokens: [TOKEN] }, (started) => (emulator = started));

  async function refusalOf(term: string): Promise<SearchPage> {
    const client = createArchiveClient({ url: emulator.url, token: TOKEN, allowLocal: true }, { timeouts: FAST });
    try {
      return await client.search({ term, page: 1 });
    } finally {
      await client.close();
    }
  }

  it('a hostile server echoing the token into the message: the refusal holds no form of it', async () => {
    emulator.echoToken = true;
    try {
      const page = await refusalOf('title:200[1-9]');
      expect(page.rejection).toBe('refused');
      expect(page.refusal).toMatch(/^'200\[1-9\]' looks like a bracket range for field 'title'/);
      expect(leaksIn(page.refusal ?? '', [TOKEN])).toEqual([]);
    } finally {
      emulator.echoToken = false;
    }
  });

  it('addresses, keys and control characters are taken out, several messages joined as Paperless joins them, long ones cut', async () => {
    const messages = [
      "Invalid date value 'https://evil.example/x' for field 'created'.",
      'See www.evil.example or ?session=abc&x=1 with key 9f86d081884c7d659a2feaa0c55ad015 and \u001b[31mred\u001b[0m text.',
    ];
    emulator.faults = [answer32(400, JSON.stringify({ query: messages }))];
    const page = await refusalOf('created:x');
    expect(page.refusal).toBe("Invalid date value [address] for field 'created'.; See [address] or [address] with key [redacted] and [31mred [0m text.");
    emulator.faults = [answer32(400, JSON.stringify({ query: ['x'.repeat(1000)] }))];
    const long = (await refusalOf('created:x')).refusal ?? '';
    expect([...long]).toHaveLength(400);
    expect(long.endsWith('…')).toBe(true);
  });

  test.each([
    ['a string, not a list', JSON.stringify({ query: 'Invalid date value' }), 'application/json'],
    ['another key', JSON.stringify({ detail: 'Invalid date value' }), 'application/json'],
    ['an empty list', JSON.stringify({ query: [] }), 'application/json'],
    ['the right shape labelled as HTML', JSON.stringify({ query: ['Invalid date value'] }), 'text/html; charset=utf-8'],
  ])("not a refusal (%s): on 3.2 a fault of the server, never the term's problem", async (_name, body, contentType) => {
    emulator.faults = [answer32(400, body, contentType)];
    const client = createArchiveClient({ url: emulator.url, token: TOKEN, allowLocal: true }, { timeouts: FAST });
    const failure = await failureOf(client.search({ term: "O'Brien", page: 1 }), TOKEN);
    await client.close();
    expect(failure).toMatchObject({ code: 'http', status: 400 });
    expect(failure.message).toContain('without a message about the term, the only way Paperless-ngx 3.2 refuses one');
    expect(emulator.requests).toHaveLength(1);
  });

  it('on any release: a 2.20 answering with such a body is refused the same way, never a connection failure', async () => {
    emulator.faults = [
      {
        match: '/api/documents/',
        times: 1,
        status: 400,
        body: JSON.stringify({ query: ['Invalid number.'] }),
        contentType: 'application/json',
        headers: { 'X-Api-Version': '9', 'X-Version': '2.20.15' },
      },
    ];
    expect(await refusalOf('asn:x')).toMatchObject({ rejectedStatus: 400, rejection: 'refused', refusal: 'Invalid number.', hits: [] });
  });
});

describe('a server that dropped API version 9 (HTTP 406)', () => {
  let emulator: ArchiveEmulator;
  useArchiveEmulator({ version: '3.0', documents: DOCUMENTS, tokens: [TOKEN] }, (started) => (emulator = started));
  const refuse9 = { status: 406, body: '{"detail":"Invalid version in \\"Accept\\" header."}' };

  it('after it announced a newer version: newer than this release supports, both versions named', async () => {
    const client = createArchiveClient({ url: emulator.url, token: TOKEN, allowLocal: true }, { timeouts: FAST });
    await client.testConnection();
    emulator.faults = [refuse9];
    const failure = await failureOf(client.testConnection(), TOKEN);
    expect(failure.code).toBe('unsupported_version');
    expect(failure.message).toMatch(/newer than this release supports/);
    expect(failure.message).toContain('API version 10');
    expect(failure.message).toContain('API version 9');
    expect(failure.message).not.toMatch(/older than/);
    await client.close();
  });

  it('known from the stored versions of an earlier answer', async () => {
    emulator.faults = [refuse9];
    const client = createArchiveClient(
      { url: emulator.url, token: TOKEN, allowLocal: true },
      { timeouts: FAST, knownVersions: () => ({ version: '3.2.0', apiVersion: '11' }) },
    );
    const failure = await failureOf(client.search({ term: 'invoice', page: 1 }), TOKEN);
    expect(failure.message).toMatch(/newer than this release supports: it announced API version 11, Paperless-ngx 3\.2\.0/);
    await client.close();
  });

  it('a server never heard from: both readings, since the 406 names no version', async () => {
    emulator.faults = [refuse9];
    const client = createArchiveClient({ url: emulator.url, token: TOKEN, allowLocal: true }, { timeouts: FAST });
    const failure = await failureOf(client.testConnection(), TOKEN);
    expect(failure.message).toMatch(/older than Paperless-ngx 2\.16 .*or newer than this release supports/);
    expect(emulator.requests.every((r) => r.headers.accept === 'application/json; version=9')).toBe(true);
    await client.close();
  });
});

describe('3.0 in a large archive: several words searched word by word (paperless-ngx#13673)', () => {
  let emulator: ArchiveEmulator;
  /** 30 documents holding both words (a comma glued to the first), 5 only one of them. */
  const MANY: EmulatorDocument[] = [
    ...Array.from({ length: 30 }, (_, i) => doc(i + 1, `Statement ${i + 1}`, `Card, payment number ${i + 1} of the month.`)),
    ...Array.from({ length: 5 }, (_, i) => doc(i + 31, `Receipt ${i + 31}`, 'Cash payment only.')),
  ];
  useArchiveEmulator(
    { version: '3.0', documents: MANY, correspondents: [], documentTypes: [], tokens: [TOKEN], phraseMaxExpansions: 1 },
    (started) => (emulator = started),
  );

  async function pageOf(term: string, page: number): Promise<SearchPage> {
    const client = createArchiveClient({ url: emulator.url, token: TOKEN, allowLocal: true }, { timeouts: FAST });
    try {
      return await client.search({ term, page });
    } finally {
      await client.close();
    }
  }

  it('the phrase fails as 3.0.5 fails; every word alone is asked for its ids, the page by id: counts and pages as one search', async () => {
    emulator.clearRequests();
    const first = await pageOf('Card: payment', 1);
    expect(first).toMatchObject({ count: 30, hasMore: true, rejection: null });
    expect(first.hits.map((hit) => hit.id)).toHaveLength(25);
    expect(emulator.requests.map((r) => r.query.query ?? `text=${r.query.text ?? ''}`)).toEqual([
      'Card: payment',
      'text=Card payment',
      'text=Card',
      'text=payment',
      'text=payment',
    ]);
    const [, phrase, card, , page] = emulator.requests;
    expect(phrase?.query).not.toHaveProperty('id__in');
    expect(card?.query).toMatchObject({ page: '1', page_size: '1', fields: 'id' });
    expect(page?.query.id__in?.split(',')).toHaveLength(25);
    const second = await pageOf('Card: payment', 2);
    expect(second).toMatchObject({ count: 30, hasMore: false, page: 2 });
    expect([...first.hits, ...second.hits].map((hit) => hit.id).sort((a, b) => a - b)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
    expect(second.hits.every((hit) => hit.highlights?.includes('<b>payment</b>'))).toBe(true);
    expect(await pageOf('Card: payment', 3)).toMatchObject({ hits: [], rejection: 'page', rejectedStatus: 404 });
  });

  it('words no document holds together: no results, and no page request', async () => {
    emulator.clearRequests();
    expect(await pageOf('Cash: month', 1)).toMatchObject({ count: 0, hits: [], hasMore: false, rejection: null });
    expect(emulator.requests).toHaveLength(4);
  });

  it('an answer without the `all` list: nothing to intersect, the term line instead of an outage', async () => {
    const noAll = JSON.stringify({ count: 30, next: null, previous: null, results: [{ id: 1, __search_hit__: {} }], corrected_query: null });
    emulator.faults = [
      { match: '/api/documents/', times: 2, headers: {} },
      {
        match: '/api/documents/',
        times: 1,
        status: 200,
        body: noAll,
        contentType: 'application/json',
        headers: { 'X-Api-Version': '10', 'X-Version': '3.0.5' },
      },
    ];
    try {
      expect(await pageOf('Card: payment', 1)).toMatchObject({ hits: [], rejection: 'words_too_broad', rejectedStatus: 400 });
    } finally {
      emulator.faults = [];
    }
  });

  it('a word alone answered 400 is a fault (it can neither be a syntax error nor too broad)', async () => {
    emulator.searchBroken = true;
    try {
      const client = createArchiveClient({ url: emulator.url, token: TOKEN, allowLocal: true }, { timeouts: FAST });
      const failure = await failureOf(client.search({ term: 'Card: payment', page: 1 }), TOKEN);
      await client.close();
      expect(failure).toMatchObject({ code: 'http', status: 400 });
    } finally {
      emulator.searchBroken = false;
    }
  });

  it('3.1 asks every word in one request: its phrase never fails', async () => {
    emulator.version = '3.1';
    try {
      emulator.clearRequests();
      expect(await pageOf('Card: payment', 1)).toMatchObject({ count: 30 });
      expect(emulator.requests).toHaveLength(2);
    } finally {
      emulator.version = '3.0';
    }
  });
});
