/**
 * The emulator as Paperless-ngx 3.1.3 and 3.2.0 answer (docs/archive-emulator.md "Releases 3.1.x
 * and 3.2.0", where each fact names the file and commit, pull request or release note it rests on).
 * Every answer here is read over real HTTP, as the product reads it.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { startArchiveEmulator, type ArchiveEmulator, type EmulatorDocument } from './support/archive-emulator/index.js';
import { emulatorGet, LISTING_ERROR, type EmulatorAnswer } from './support/emulator-http.js';

const TOKEN = 'releases-token';

let e: ArchiveEmulator;

function get(query: string): Promise<EmulatorAnswer> {
  return emulatorGet(e.url, `/api/documents/?${query}`, TOKEN);
}

function param(name: string, value: string): string {
  return `${name}=${encodeURIComponent(value)}`;
}

async function ids(query: string): Promise<number[]> {
  const answer = await get(query);
  expect(answer.status).toBe(200);
  return (JSON.parse(answer.text) as { results: Array<{ id: number }> }).results.map((r) => r.id).sort((a, b) => a - b);
}

/** The 400 of a SearchQueryError: `{"query": [messages]}` as JSON. */
async function refusal(query: string): Promise<string[]> {
  const answer = await get(query);
  expect(answer).toMatchObject({ status: 400, type: 'application/json' });
  const body = JSON.parse(answer.text) as { query: string[] };
  expect(Object.keys(body)).toEqual(['query']);
  return body.query;
}

function doc(id: number, title: string, content: string): EmulatorDocument {
  return { id, title, content, created: '2024-03-01', added: '2024-03-02T10:00:00.000001Z', correspondent: null, documentType: null };
}

beforeAll(async () => {
  e = await startArchiveEmulator({
    documents: [
      doc(1, "Letter to Mr O'Brien", "Dear Mr O'Brien, see the hatt' note."),
      doc(2, 'Invoice march', 'Invoice for march.'),
      doc(3, 'Coffee', 'Coffee beans for the office.'),
      doc(4, 'Invoice april', 'Invoice for april.'),
      doc(5, 'Z-Berichte 16', 'Quarterly Z-Berichte 16 filed.'),
      doc(6, 'Z-Berichte 6', 'Quarterly Z-Berichte 6 filed.'),
    ],
    correspondents: [],
    documentTypes: [],
    tokens: [TOKEN],
  });
});

afterAll(async () => {
  await e.close();
});

describe('version headers', () => {
  test.each([
    ['3.1', '3.1.3'],
    ['3.2', '3.2.1'],
    ['3.3', '3.3.0'],
  ] as const)('%s answers as %s with API version 10 (settings allow 9 and 10)', async (version, release) => {
    e.version = version;
    expect(await get('fields=id')).toMatchObject({ status: 200, version: release, apiVersion: '10' });
  });
});

describe("3.1.3: `text` requires every word (#13504), `query` is still Tantivy's strict parser", () => {
  test('words in any order and either field; 3.0.5 wanted them as a phrase', async () => {
    e.version = '3.1';
    expect(await ids(param('text', 'march invoice'))).toEqual([2]);
    expect(await ids(param('text', 'coffee office'))).toEqual([3]);
    e.version = '3.0';
    expect(await ids(param('text', 'march invoice'))).toEqual([]);
    expect(await ids(param('text', 'coffee office'))).toEqual([]);
  });

  test('among several words a number must start a chunk or follow punctuation; alone it matches inside one', async () => {
    e.version = '3.1';
    expect(await ids(param('text', 'Berichte 6'))).toEqual([6]);
    expect(await ids(param('text', '6'))).toEqual([5, 6]);
    expect(await ids(param('text', 'erich'))).toEqual([5, 6]);
  });

  test('the highlighting step still parses the words: punctuation fails the request when there are hits', async () => {
    e.version = '3.1';
    expect(await get(param('text', "O'Brien"))).toMatchObject({ status: 400, type: 'text/html; charset=utf-8', text: LISTING_ERROR });
    expect((await get(param('text', "Zq'x"))).status).toBe(200);
  });

  test('`query` fails on Tantivy syntax as on 3.0.5, ORs plain words, and has no length cap', async () => {
    e.version = '3.1';
    expect(await get(param('query', "O'Brien"))).toMatchObject({ status: 400, text: LISTING_ERROR });
    expect(await get(param('query', '-invoice'))).toMatchObject({ status: 400, text: LISTING_ERROR });
    expect(await ids(param('query', 'invoice coffee'))).toEqual([2, 3, 4]);
    expect((await get(param('query', 'a'.repeat(5000)))).status).toBe(200);
  });
});

describe('3.2.0: whoosh-compat reads `query` (#14072)', () => {
  test.each(["O'Brien", 'Re: invoice', 'Invoice:', '"abc', '(draft', 'nosuchfield:foo', 'a{b', "hatt'", 'NOT', 'invoice AND'])(
    '%j is no syntax error: 200',
    async (term) => {
      e.version = '3.2';
      expect((await get(param('query', term))).status).toBe(200);
    },
  );

  test("plain words are ANDed (the parser's default group), as on 2.x", async () => {
    e.version = '3.2';
    expect(await ids(param('query', 'invoice coffee'))).toEqual([]);
    expect(await ids(param('query', 'invoice march'))).toEqual([2]);
    expect(await ids(param('query', 'invoice OR coffee'))).toEqual([2, 3, 4]);
  });

  test('-word is the word itself (no +/- operators); NOT excludes, alone too', async () => {
    e.version = '3.2';
    expect(await ids(param('query', '-invoice'))).toEqual([2, 4]);
    expect(await ids(param('query', 'invoice -march'))).toEqual([2]);
    expect(await ids(param('query', 'invoice NOT march'))).toEqual([4]);
    expect(await ids(param('query', 'NOT invoice'))).toEqual([1, 3, 5, 6]);
  });

  test('a bracket range without a wildcard is a SearchQueryError naming the value and the canonical field', async () => {
    e.version = '3.2';
    expect(await refusal(param('query', 'title:200[1-9]'))).toEqual([
      "'200[1-9]' looks like a bracket range for field 'title', but '[' is not a wildcard character on its own. Combine it with a wildcard, e.g. a trailing '*', or double-quote the value to search it as literal text.",
    ]);
    expect((await refusal(param('query', 'type:x[ab]')))[0]).toMatch(/^'x\[ab\]' looks like a bracket range for field 'document_type'/);
    expect((await get(param('query', 'title:*202[0-3]'))).status).toBe(200);
    expect((await get(param('query', 'title:"200[1-9]"'))).status).toBe(200);
    e.version = '3.1';
    expect(await get(param('query', 'title:200[1-9]'))).toMatchObject({ status: 400, text: LISTING_ERROR });
  });

  test('a bad date is InvalidDateQuery, as on 3.0.5 and 3.1.3 (Python repr of value and field)', async () => {
    for (const version of ['3.0', '3.1', '3.2'] as const) {
      e.version = version;
      expect(await refusal(param('query', 'created:2024-13-45'))).toEqual(["Invalid date value '2024-13-45' for field 'created'."]);
    }
    expect(await refusal(param('query', "added:it's"))).toEqual([`Invalid date value "it's" for field 'added'.`]);
    e.version = '2.20';
    expect(await ids(param('query', 'created:2024-13-45'))).toEqual([]);
  });

  test('QueryTooLongError: over 4096 characters (not bytes, not UTF-16 units) in query, text or title_search; 4096 is accepted', async () => {
    e.version = '3.2';
    expect((await get(param('query', 'a'.repeat(4096)))).status).toBe(200);
    expect((await get(param('query', `${'a'.repeat(4095)}😀`))).status).toBe(200);
    const message = 'The search query is too long (4097 characters). The maximum allowed length is 4096 characters.';
    expect(await refusal(param('query', 'a'.repeat(4097)))).toEqual([message]);
    expect(await refusal(param('query', `${'é'.repeat(1000)}${'a'.repeat(3097)}`))).toEqual([message]);
    expect(await refusal(param('text', 'a'.repeat(4097)))).toEqual([message]);
    expect(await refusal(param('title_search', 'a'.repeat(4097)))).toEqual([message]);
  });

  test('`text` requires every word and its highlighting cannot fail: each word is quoted as a phrase', async () => {
    e.version = '3.2';
    const answer = await get(param('text', "O'Brien"));
    expect(answer.status).toBe(200);
    const page = JSON.parse(answer.text) as { results: Array<{ id: number; __search_hit__: { highlights: string } }> };
    expect(page.results.map((r) => r.id)).toEqual([1]);
    expect(page.results[0]?.__search_hit__.highlights).toContain('<b>Brien</b>');
    expect(await ids(param('text', 'march invoice'))).toEqual([2]);
  });

  test("an exception that is no SearchQueryError is a 500 (3.1.3: 400 text/html); the query's own errors still come first", async () => {
    e.version = '3.2';
    e.searchBroken = true;
    try {
      expect(await get(param('query', 'invoice'))).toMatchObject({ status: 500, type: 'text/html; charset=utf-8', version: '3.2.1' });
      expect((await get(param('text', 'invoice'))).status).toBe(500);
      expect(await refusal(param('query', 'created:2024-13-45'))).toHaveLength(1);
      expect((await get('fields=id')).status).toBe(200);
      e.version = '3.1';
      expect(await get(param('query', 'invoice'))).toMatchObject({ status: 400, text: LISTING_ERROR });
    } finally {
      e.searchBroken = false;
    }
  });
});

describe.each(['3.2', '3.3'] as const)('%s: whoosh-compat 0.2.0+ and 3.2’s field registry', (version) => {
  test('an unquoted date value of several words is refused as a whole; quoted, it is one date; a plain word after a date stays a term', async () => {
    e.version = version;
    expect(await refusal(param('query', 'created:march 2024'))).toEqual(["Invalid date value 'march 2024' for field 'created'."]);
    expect(await refusal(param('query', 'created:2020 to 2021'))).toEqual(["Invalid date value '2020 to 2021' for field 'created'."]);
    expect(await refusal(param('query', '(added:march 2024)'))).toEqual(["Invalid date value 'march 2024' for field 'added'."]);
    expect(await refusal(param('query', 'created:previous month to now'))).toEqual(["Invalid date value 'previous month to now' for field 'created'."]);
    expect(await ids(param('query', 'created:"march 2024"'))).toEqual([1, 2, 3, 4, 5, 6]);
    expect(await ids(param('query', 'created:"march 2023"'))).toEqual([]);
    expect(await ids(param('query', 'created:"2020 to 2024"'))).toEqual([1, 2, 3, 4, 5, 6]);
    expect(await ids(param('query', 'created:2024 invoice'))).toEqual([2, 4]);
    expect(await ids(param('query', 'created:march title:2024'))).toEqual([]);
    expect((await get(param('query', 'created:previous month'))).status).toBe(200);
    expect((await get(param('query', 'created:march AND invoice'))).status).toBe(200);
  });

  test('asn, page_count and num_notes are numeric: a value that is no number is InvalidNumberQuery', async () => {
    e.version = version;
    expect(await refusal(param('query', 'asn:abc'))).toEqual(["Invalid numeric value 'abc' for field 'asn'."]);
    expect(await refusal(param('query', 'page_count:x'))).toEqual(["Invalid numeric value 'x' for field 'page_count'."]);
    expect(await refusal(param('query', 'num_notes:two'))).toEqual(["Invalid numeric value 'two' for field 'num_notes'."]);
    expect(await ids(param('query', 'asn:12'))).toEqual([]);
    expect(await ids(param('query', 'asn:[1 TO 5]'))).toEqual([]);
  });

  test('original_filename, path and checksum are fields (empty here); owner is none, so owner:x is text', async () => {
    e.version = version;
    for (const field of ['original_filename', 'path', 'storage_path', 'checksum']) expect(await ids(param('query', `${field}:coffee`))).toEqual([]);
    expect(await ids(param('query', 'owner:coffee'))).toEqual([]);
    expect(await ids(param('query', 'owner:coffee OR beans'))).toEqual([3]);
    e.documents = [...e.documents, doc(7, 'Owner change', 'The new owner of the coffee machine.')];
    try {
      expect(await ids(param('query', 'owner:coffee'))).toEqual([7]);
    } finally {
      e.documents = e.documents.filter((d) => d.id !== 7);
    }
  });

  test('modified is a date field of its own, not the day the document was added', async () => {
    e.version = version;
    e.documents = e.documents.map((d) => (d.id === 3 ? { ...d, modified: '2025-06-01T08:00:00.000001Z' } : d));
    try {
      expect(await ids(param('query', 'modified:2025-06-01'))).toEqual([3]);
      expect(await ids(param('query', 'added:2025-06-01'))).toEqual([]);
      expect(await ids(param('query', 'modified:2024-03-02'))).toEqual([1, 2, 4, 5, 6]);
      const listed = JSON.parse((await get('id__in=3&fields=id,modified,added')).text) as { results: Array<{ modified: string; added: string }> };
      expect(listed.results[0]).toEqual({ id: 3, modified: '2025-06-01T08:00:00.000001Z', added: '2024-03-02T10:00:00.000001Z' });
    } finally {
      e.documents = e.documents.map(({ modified: _modified, ...d }) => d);
    }
  });

  test('check order: two modes, then the filters and the ordering, then the length cap, then the query', async () => {
    e.version = version;
    const long = `created:bad ${'a'.repeat(4100)}`;
    expect(await get(`${param('query', 'x')}&${param('text', 'x')}&ordering=custom_field_9&created__date__gt=bad`)).toMatchObject({
      status: 400,
      text: '{"detail":"Specify only one of text, title_search, query, or more_like_id."}',
    });
    expect(JSON.parse((await get(`${param('query', long)}&created__date__gt=bad`)).text)).toEqual({ created__date__gt: ['Enter a valid date.'] });
    expect((await refusal(param('query', long)))[0]).toMatch(/^The search query is too long \(4112 characters\)/);
    expect(await refusal(param('query', 'created:bad'))).toEqual(["Invalid date value 'bad' for field 'created'."]);
  });
});

describe('the Whoosh grammars know month names; Tantivy 3.0 does not', () => {
  test('2.20: created:march is March of this year, "march 2024" one date, and unquoted words after it are terms', async () => {
    e.version = '2.20';
    expect(await ids(param('query', 'created:"march 2024"'))).toEqual([1, 2, 3, 4, 5, 6]);
    expect(await ids(param('query', 'created:march 2024 invoice'))).toEqual(new Date().getUTCFullYear() === 2024 ? [2, 4] : []);
  });

  test('3.0.5: a month name is no date of its handwritten translation', async () => {
    e.version = '3.0';
    expect(await refusal(param('query', 'created:march'))).toEqual(["Invalid date value 'march' for field 'created'."]);
  });
});

describe("3.0.5's text phrase in a large archive (paperless-ngx#13673)", () => {
  test('several words fail with "Error listing…" once their index terms pass the ceiling; one word, or 3.1, never', async () => {
    e.version = '3.0';
    // "invoice" matches one content term and "for" one more: two expansions, over a ceiling of 1.
    e.phraseMaxExpansions = 1;
    try {
      expect(await get(param('text', 'invoice for'))).toMatchObject({ status: 400, text: LISTING_ERROR });
      expect(await get(param('title_search', 'z-berichte 1'))).toMatchObject({ status: 400, text: LISTING_ERROR });
      expect(await ids(param('text', 'invoice'))).toEqual([2, 4]);
      // A word that matches no index term ends the phrase before the ceiling.
      expect(await ids(param('text', 'nosuchword for'))).toEqual([]);
      e.version = '3.1';
      expect(await ids(param('text', 'invoice for'))).toEqual([2, 4]);
    } finally {
      e.phraseMaxExpansions = 16_384;
    }
    e.version = '3.0';
    expect(await ids(param('text', 'invoice for'))).toEqual([2, 4]);
  });
});
