import { describe, expect, it, test } from '@jest/globals';
import { createArchiveClient } from '../src/core/archive/archive-client.js';
import { cannotBeSyntaxError, hasMinusExclusion, isExclusionsOnly, simpleTextOf } from '../src/core/archive/search-terms.js';
import type { ArchiveClientOptions, SearchPage } from '../src/core/archive/types.js';
import { failureOf, useArchiveEmulator } from './support/archive-client-helpers.js';
import type { ArchiveEmulator, EmulatedVersion, EmulatorDocument } from './support/archive-emulator/types.js';

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
async function searchOf(emulator: ArchiveEmulator, term: string): Promise<{ page: SearchPage; ids: number[]; requests: Array<{ query?: string; text?: string }> }> {
  emulator.clearRequests();
  const client = createArchiveClient({ url: emulator.url, token: TOKEN, allowLocal: true }, { timeouts: FAST });
  try {
    const page = await client.search({ term, page: 1 });
    const requests = emulator.requests.map((r) => ({ ...(r.query.query === undefined ? {} : { query: r.query.query }), ...(r.query.text === undefined ? {} : { text: r.query.text }) }));
    return { page, ids: page.hits.map((hit) => hit.id).sort((a, b) => a - b), requests };
  } finally {
    await client.close();
  }
}

/** The table of docs/archive-client.md "Terms with punctuation": term → requests → result, per release. */
const TABLE: Record<EmulatedVersion & ('2.20' | '3.0'), Array<[string, Array<{ query?: string; text?: string }>, number[] | 'exclusions_only' | 'minus_exclusion']>> = {
  '3.0': [
    ['invoice', [{ query: 'invoice' }], [2, 3, 7]],
    ['invoice coffee', [{ query: 'invoice coffee' }], [2, 3, 7, 8]],
    ["O'Brien", [{ query: "O'Brien" }, { text: 'Brien' }], [1, 6]],
    ['Re: invoice', [{ query: 'Re: invoice' }, { text: 'Re invoice' }], [2]],
    ['Invoice:', [{ query: 'Invoice:' }, { text: 'Invoice' }], [2, 3, 7]],
    ['"abc', [{ query: '"abc' }, { text: 'abc' }], [4]],
    ['(draft', [{ query: '(draft' }, { text: 'draft' }], [5]],
    ['-invoice', [{ query: '-invoice' }], 'exclusions_only'],
    ['NOT invoice', [{ query: 'NOT invoice' }], 'exclusions_only'],
    ['invoice -plain', [{ query: 'invoice -plain' }], [2, 3]],
    ['invoice NOT plain', [{ query: 'invoice NOT plain' }], [2, 3]],
  ],
  '2.20': [
    ['invoice', [{ query: 'invoice' }], [2, 3, 7]],
    ['invoice coffee', [{ query: 'invoice coffee' }], []],
    ["O'Brien", [{ query: "O'Brien" }], [1]],
    ['Re: invoice', [{ query: 'Re: invoice' }], [2]],
    ['Invoice:', [{ query: 'Invoice:' }], [2, 3, 7]],
    ['"abc', [{ query: '"abc' }], [4]],
    ['(draft', [{ query: '(draft' }], [5]],
    ['-invoice', [{ query: '-invoice' }], 'minus_exclusion'],
    ['invoice -plain', [{ query: 'invoice -plain' }], 'minus_exclusion'],
    ['invoice NOT plain', [{ query: 'invoice NOT plain' }], [2, 3]],
    ['NOT invoice', [{ query: 'NOT invoice' }], [1, 4, 5, 6, 8]],
  ],
};

describe.each(['3.0', '2.20'] as const)('archive server %s: term → requests → result', (version) => {
  let emulator: ArchiveEmulator;
  useArchiveEmulator({ version, documents: DOCUMENTS, correspondents: [], documentTypes: [], tokens: [TOKEN] }, (started) => (emulator = started));

  test.each(TABLE[version])('%j', async (term, requests, result) => {
    const found = await searchOf(emulator, term);
    expect(found.requests).toEqual(requests);
    expect(found.requests.length).toBeLessThanOrEqual(2);
    if (typeof result === 'string') {
      expect(found.page).toMatchObject({ hits: [], hasMore: false, rejection: result });
    } else {
      expect(found.page.rejection ?? null).toBeNull();
      expect(found.ids).toEqual(result);
    }
  });
});

describe.each(['3.0', '2.20'] as const)('archive server %s with a broken search backend (paperless-ngx#13200)', (version) => {
  let emulator: ArchiveEmulator;
  useArchiveEmulator({ version, documents: DOCUMENTS, correspondents: [], documentTypes: [], tokens: [TOKEN], searchBroken: true }, (started) => (emulator = started));

  it('a term of letters, digits and spaces fails with http 400: not a query being typed', async () => {
    const client = createArchiveClient({ url: emulator.url, token: TOKEN, allowLocal: true }, { timeouts: FAST });
    const failure = await failureOf(client.search({ term: 'invoice 2024', page: 1 }), TOKEN);
    expect(failure).toMatchObject({ code: 'http', status: 400 });
    expect(failure.message).toContain('cannot be a syntax error');
    // 3.x repeats once with text (the spec's rule), 2.x never gets text.
    expect(emulator.requests.map((r) => r.query.text ?? null)).toEqual(version === '3.0' ? [null, 'invoice 2024'] : [null]);
    await client.close();
  });

  it('a term with punctuation: 3.x fails after the text repeat, 2.x cannot tell it from syntax and rejects it', async () => {
    const client = createArchiveClient({ url: emulator.url, token: TOKEN, allowLocal: true }, { timeouts: FAST });
    if (version === '3.0') {
      expect((await failureOf(client.search({ term: "O'Brien", page: 1 }), TOKEN)).code).toBe('http');
    } else {
      expect(await client.search({ term: "O'Brien", page: 1 })).toMatchObject({ rejectedStatus: 400, rejection: 'query' });
    }
    await client.close();
  });

  it('the list without a search still works (the fault is in the search backend only)', async () => {
    const client = createArchiveClient({ url: emulator.url, token: TOKEN, allowLocal: true }, { timeouts: FAST });
    expect((await client.testConnection()).count).toBe(DOCUMENTS.length);
    await client.close();
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
    const client = createArchiveClient({ url: emulator.url, token: TOKEN, allowLocal: true }, { timeouts: FAST, knownVersions: () => ({ version: '3.2.0', apiVersion: '11' }) });
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
