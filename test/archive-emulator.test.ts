import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { connect } from 'node:net';
import { Agent, request } from 'undici';
import { sampleArchive, startArchiveEmulator, type ArchiveEmulator, type EmulatorDocument } from './support/archive-emulator/index.js';

const TOKEN = 'emulator-token';
const V9 = 'application/json; version=9';
const V10 = 'application/json; version=10';

interface Answer {
  status: number;
  headers: Record<string, string | undefined>;
  text: string;
  json: () => Record<string, unknown>;
}

interface GetOptions {
  token?: string | null;
  accept?: string | null;
  headers?: Record<string, string>;
  method?: 'GET' | 'POST' | 'HEAD';
  dispatcher?: Agent;
  headersTimeout?: number;
}

async function get(emulator: ArchiveEmulator, path: string, options: GetOptions = {}): Promise<Answer> {
  const headers: Record<string, string> = { ...options.headers };
  const token = options.token === undefined ? TOKEN : options.token;
  if (token !== null) headers['authorization'] = `Token ${token}`;
  const accept = options.accept === undefined ? V9 : options.accept;
  if (accept !== null) headers['accept'] = accept;
  const response = await request(`${emulator.url}${path}`, {
    method: options.method ?? 'GET',
    headers,
    ...(options.dispatcher === undefined ? {} : { dispatcher: options.dispatcher }),
    ...(options.headersTimeout === undefined ? {} : { headersTimeout: options.headersTimeout }),
  });
  const text = await response.body.text();
  const flat: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(response.headers)) flat[name] = Array.isArray(value) ? value.join(', ') : value;
  return { status: response.statusCode, headers: flat, text, json: () => JSON.parse(text) as Record<string, unknown> };
}

function results(answer: Answer): Array<Record<string, unknown>> {
  return answer.json()['results'] as Array<Record<string, unknown>>;
}

function doc(
  id: number,
  title: string,
  content: string,
  created: string,
  added?: string,
  correspondent: number | null = null,
  documentType: number | null = null,
): EmulatorDocument {
  return { id, title, content, created, added: added ?? `${created}T10:00:00.000001Z`, correspondent, documentType };
}

/** 57 documents whose two newest are the ones of reference example E1. */
function e1Archive(): EmulatorDocument[] {
  const documents = sampleArchive(57).documents;
  documents[56] = doc(57, 'Invoice 2024-118', 'Invoice 2024-118 of ACME', '2024-11-02', '2024-11-05T09:13:44.512301Z', 1, 1);
  documents[55] = doc(56, 'Bank statement Oct', 'Statement of October', '2024-10-31', '2024-11-04T18:01:02.004411Z', 2, 2);
  return documents;
}

/** Three 2024 invoices (31 ranks above 12 above 7), an older invoice, and other documents (E3/E4). */
function e3Archive(): EmulatorDocument[] {
  return [
    doc(3, 'Old invoice', 'An invoice from long ago', '2023-05-01'),
    doc(7, 'Electricity bill', 'The electricity invoice for March', '2024-03-10'),
    doc(12, 'ACME invoice', 'Please pay this invoice within 14 days', '2024-04-01'),
    doc(20, 'Shopping list', 'Milk, bread & <coffee> "beans" and tea', '2024-05-01'),
    doc(31, 'Invoice March', 'Invoice: the invoice of Müller & Söhne <GmbH> office', '2024-06-01'),
    doc(40, 'Password reset', 'How to reset a password', '2024-07-01'),
  ];
}

describe('reference §9 examples', () => {
  let e: ArchiveEmulator;
  beforeAll(async () => {
    e = await startArchiveEmulator({ documents: e1Archive() });
  });
  afterAll(async () => e.close());

  test('E1: 2.20 plain list, v9: headers, key order, all, sorted re-encoded next link, only the asked fields', async () => {
    e.version = '2.20';
    const a = await get(e, '/api/documents/?page_size=2&ordering=-added&fields=id,title,created,added');
    expect(a.status).toBe(200);
    expect(a.headers['content-type']).toBe('application/json');
    expect(a.headers['x-api-version']).toBe('9');
    expect(a.headers['x-version']).toBe('2.20.15');
    const body = a.json();
    expect(Object.keys(body)).toEqual(['count', 'next', 'previous', 'all', 'results']);
    expect(body['count']).toBe(57);
    expect(body['next']).toBe(`${e.url}/api/documents/?fields=id%2Ctitle%2Ccreated%2Cadded&ordering=-added&page=2&page_size=2`);
    expect(body['previous']).toBeNull();
    const all = body['all'] as number[];
    expect(all).toHaveLength(57);
    expect(all.slice(0, 3)).toEqual([57, 56, 55]);
    expect(new Set(all).size).toBe(57);
    expect(body['results']).toEqual([
      { id: 57, title: 'Invoice 2024-118', created: '2024-11-02', added: '2024-11-05T09:13:44.512301Z' },
      { id: 56, title: 'Bank statement Oct', created: '2024-10-31', added: '2024-11-04T18:01:02.004411Z' },
    ]);
  });

  test('E2: 3.0 with version=10 drops all; version=9 brings it back', async () => {
    e.version = '3.0';
    const a = await get(e, '/api/documents/?page_size=2&ordering=-added&fields=id,title,created,added', { accept: V10 });
    expect(a.status).toBe(200);
    expect(a.headers['x-api-version']).toBe('10');
    expect(a.headers['x-version']).toBe('3.0.5');
    expect(Object.keys(a.json())).toEqual(['count', 'next', 'previous', 'results']);
    expect(a.json()['next']).toBe(`${e.url}/api/documents/?fields=id%2Ctitle%2Ccreated%2Cadded&ordering=-added&page=2&page_size=2`);
    expect(results(a).map((r) => r['id'])).toEqual([57, 56]);
    const v9 = await get(e, '/api/documents/?page_size=2&ordering=-added&fields=id,title,created,added', { accept: V9 });
    expect(v9.headers['x-api-version']).toBe('10');
    expect(Object.keys(v9.json())).toEqual(['count', 'next', 'previous', 'all', 'results']);
    expect((v9.json()['all'] as number[]).length).toBe(57);
  });

  test('E5: a page past the end is 404 Invalid page. on every version, with the version headers', async () => {
    for (const version of ['2.20', '3.0'] as const) {
      e.version = version;
      const a = await get(e, '/api/documents/?page=9&page_size=25');
      expect(a.status).toBe(404);
      expect(a.json()).toEqual({ detail: 'Invalid page.' });
      expect(a.headers['x-version']).toBe(version === '3.0' ? '3.0.5' : '2.20.15');
    }
    for (const page of ['0', '-1', 'abc', '4']) expect((await get(e, `/api/documents/?page=${page}&page_size=25`)).status).toBe(404);
    const last = await get(e, '/api/documents/?page=last&page_size=25&fields=id');
    expect(last.status).toBe(200);
    expect(results(last)).toHaveLength(7);
    expect(last.json()['next']).toBeNull();
    expect(last.json()['previous']).toBe(`${e.url}/api/documents/?fields=id&page=2&page_size=25`);
  });

  test('E6: missing or bad token is 401 with the challenge of the release and no version headers', async () => {
    for (const [version, challenge] of [
      ['2.20', 'Token'],
      ['3.0', 'Token'],
      ['2.15', 'Basic realm="api"'],
    ] as const) {
      e.version = version;
      const accept = version === '2.15' ? 'application/json; version=8' : V9;
      const missing = await get(e, '/api/documents/', { token: null, accept });
      expect(missing.status).toBe(401);
      expect(missing.json()).toEqual({ detail: 'Authentication credentials were not provided.' });
      expect(missing.headers['www-authenticate']).toBe(challenge);
      expect(missing.headers['x-api-version']).toBeUndefined();
      expect(missing.headers['x-version']).toBeUndefined();
      const wrong = await get(e, '/api/documents/', { token: 'wrong', accept });
      expect(wrong.status).toBe(401);
      expect(wrong.json()).toEqual({ detail: 'Invalid token.' });
      expect(wrong.headers['x-version']).toBeUndefined();
    }
  });

  test('E6 variants: malformed Token headers, unknown schemes, Basic', async () => {
    e.version = '3.0';
    const cases: Array<[string, number, string, string]> = [
      ['Token', 401, 'Invalid token header. No credentials provided.', 'Token'],
      ['Token a b', 401, 'Invalid token header. Token string should not contain spaces.', 'Token'],
      ['Bearer emulator-token', 401, 'Authentication credentials were not provided.', 'Token'],
      ['Basic dXNlcjpwYXNz', 401, 'Invalid username/password.', 'Basic realm="api"'],
    ];
    for (const [authorization, status, detail, challenge] of cases) {
      const a = await get(e, '/api/documents/', { token: null, headers: { authorization } });
      expect(a.status).toBe(status);
      expect(a.json()).toEqual({ detail });
      expect(a.headers['www-authenticate']).toBe(challenge);
    }
    const lower = await get(e, '/api/documents/?fields=id', { token: null, headers: { authorization: `token ${TOKEN}` } });
    expect(lower.status).toBe(200);
  });

  test('E7: a token without view permission is 403 with the version headers', async () => {
    const f = await startArchiveEmulator({ version: '3.0', forbiddenTokens: ['no-view'] });
    try {
      for (const path of ['/api/documents/', '/api/correspondents/', '/api/document_types/']) {
        const a = await get(f, path, { token: 'no-view', accept: V10 });
        expect(a.status).toBe(403);
        expect(a.json()).toEqual({ detail: 'You do not have permission to perform this action.' });
        expect(a.headers['x-api-version']).toBe('10');
        expect(a.headers['x-version']).toBe('3.0.5');
      }
    } finally {
      await f.close();
    }
  });

  test('E8: an unsupported version is 406, before authentication', async () => {
    const cases: Array<[typeof e.version, string]> = [
      ['2.20', V10],
      ['3.0', 'application/json; version=8'],
      ['3.0', 'application/json; version=11'],
      ['3.0', 'application/json; version=9.0'],
      ['2.15', V9],
    ];
    for (const [version, accept] of cases) {
      e.version = version;
      for (const token of [TOKEN, 'wrong', null]) {
        const a = await get(e, '/api/documents/', { accept, token });
        expect(a.status).toBe(406);
        expect(a.headers['content-type']).toBe('application/json');
        expect(a.json()).toEqual({ detail: 'Invalid version in "Accept" header.' });
        expect(a.headers['x-version']).toBeUndefined();
      }
    }
    e.version = '3.0';
    const xml = await get(e, '/api/documents/', { accept: 'application/xml' });
    expect(xml.status).toBe(406);
    expect(xml.json()).toEqual({ detail: 'Could not satisfy the request Accept header.' });
    const format = await get(e, '/api/documents/?format=xml');
    expect(format.status).toBe(406);
    expect(format.json()).toEqual({ detail: 'Could not satisfy the request format suffix or query.' });
    expect((await get(e, '/api/documents/?format=json&fields=id')).status).toBe(200);
    const listed = await get(e, '/api/documents/?fields=id', { accept: 'text/html, application/json; version=9, */*;q=0.8' });
    expect(listed.status).toBe(200);
    expect(Object.keys(listed.json())).toContain('all');
    const wildcard = await get(e, '/api/documents/?fields=id', { accept: '*/*; version=9' });
    expect(wildcard.status).toBe(200);
    expect(Object.keys(wildcard.json())).toContain('all');
  });

  test('E11: no trailing slash redirects to the login page; /api/ redirects to the schema view', async () => {
    e.version = '3.0';
    const bare = await get(e, '/api/documents?page=2');
    expect(bare.status).toBe(302);
    expect(bare.headers['location']).toBe('/accounts/login/?next=/api/documents%3Fpage%3D2');
    expect(bare.headers['x-version']).toBeUndefined();
    const plain = await get(e, '/api/documents');
    expect(plain.headers['location']).toBe('/accounts/login/?next=/api/documents');
    const login = await get(e, '/accounts/login/?next=/api/documents');
    expect(login.status).toBe(200);
    expect(login.headers['content-type']).toBe('text/html; charset=utf-8');
    const unknown = await get(e, '/api/foo/');
    expect(unknown.status).toBe(302);
    const root = await get(e, '/api/', { token: 'wrong' });
    expect(root.status).toBe(302);
    expect(root.headers['location']).toBe('schema/view/');
    const schema = await get(e, '/api/schema/view/', { token: null });
    expect(schema.status).toBe(200);
    expect(schema.headers['content-type']).toBe('text/html; charset=utf-8');
  });
});

describe('reference §9 search examples', () => {
  let e: ArchiveEmulator;
  beforeAll(async () => {
    e = await startArchiveEmulator({ documents: e3Archive(), correspondents: [], documentTypes: [] });
  });
  afterAll(async () => e.close());
  const E3 = '/api/documents/?query=invoice&page=2&page_size=1&fields=id,title&created__date__gte=2024-01-01';

  test('E3: 3.0 search page 2: links, <b> highlights, null note_highlights, 1-based rank, no all, corrected_query null', async () => {
    e.version = '3.0';
    const a = await get(e, E3, { accept: V10 });
    expect(a.status).toBe(200);
    const body = a.json();
    expect(Object.keys(body)).toEqual(['count', 'next', 'previous', 'results', 'corrected_query']);
    expect(body['count']).toBe(3);
    expect(body['next']).toBe(`${e.url}/api/documents/?created__date__gte=2024-01-01&fields=id%2Ctitle&page=3&page_size=1&query=invoice`);
    expect(body['previous']).toBe(`${e.url}/api/documents/?created__date__gte=2024-01-01&fields=id%2Ctitle&page_size=1&query=invoice`);
    expect(body['corrected_query']).toBeNull();
    const [hit] = results(a);
    expect(Object.keys(hit ?? {})).toEqual(['id', 'title', '__search_hit__']);
    expect(hit?.['id']).toBe(12);
    expect(hit?.['title']).toBe('ACME invoice');
    const searchHit = hit?.['__search_hit__'] as Record<string, unknown>;
    expect(Object.keys(searchHit)).toEqual(['score', 'highlights', 'note_highlights', 'rank']);
    expect(searchHit['highlights']).toBe('Please pay this <b>invoice</b> within 14 days');
    expect(searchHit['note_highlights']).toBeNull();
    expect(searchHit['rank']).toBe(2);
    expect(typeof searchHit['score']).toBe('number');
  });

  test('E3: 3.0 scores are raw, not normalised, and fall with the rank', async () => {
    e.version = '3.0';
    const a = await get(e, '/api/documents/?query=invoice&created__date__gte=2024-01-01&fields=id', { accept: V10 });
    const hits = results(a).map((r) => r['__search_hit__'] as { score: number; rank: number });
    expect(results(a).map((r) => r['id'])).toEqual([31, 12, 7]);
    expect(hits.map((h) => h.rank)).toEqual([1, 2, 3]);
    expect(hits[0]?.score).toBeGreaterThan(1);
    expect(hits[0]?.score).toBeGreaterThan(hits[1]?.score ?? Infinity);
  });

  test('E4: 2.20 the same search: all, span markup, "" note_highlights, 0-based rank, best score 1.0', async () => {
    e.version = '2.20';
    const a = await get(e, E3);
    const body = a.json();
    expect(Object.keys(body)).toEqual(['count', 'next', 'previous', 'all', 'results', 'corrected_query']);
    expect(body['all']).toEqual([31, 12, 7]);
    expect(body['next']).toBe(`${e.url}/api/documents/?created__date__gte=2024-01-01&fields=id%2Ctitle&page=3&page_size=1&query=invoice`);
    const searchHit = results(a)[0]?.['__search_hit__'] as Record<string, unknown>;
    expect(searchHit['highlights']).toBe('Please pay this <span class="match term0">invoice</span> within 14 days');
    expect(searchHit['note_highlights']).toBe('');
    expect(searchHit['rank']).toBe(1);
    expect(searchHit['score']).toBeGreaterThan(0);
    expect(searchHit['score']).toBeLessThan(1);
    const first = await get(e, '/api/documents/?query=invoice&created__date__gte=2024-01-01&fields=id');
    expect((results(first)[0]?.['__search_hit__'] as Record<string, unknown>)['score']).toBe(1);
    const sorted = await get(e, '/api/documents/?query=invoice&ordering=-added&fields=id');
    expect(results(sorted).map((r) => r['id'])).toEqual([31, 12, 7, 3]);
    for (const r of results(sorted)) expect((r['__search_hit__'] as Record<string, unknown>)['score']).toBeNull();
  });

  test('highlights escape HTML and number distinct terms on 2.x; Tantivy escapes quotes too', async () => {
    e.version = '2.20';
    const a = await get(e, '/api/documents/?query=invoice%20m%C3%BCller&fields=id');
    expect(results(a).map((r) => r['id'])).toEqual([31]);
    expect((results(a)[0]?.['__search_hit__'] as Record<string, unknown>)['highlights']).toBe(
      '<span class="match term0">Invoice</span>: the <span class="match term0">invoice</span> of <span class="match term1">Müller</span> &amp; Söhne &lt;GmbH&gt; office',
    );
    e.version = '3.0';
    const b = await get(e, '/api/documents/?query=coffee&fields=id', { accept: V10 });
    expect((results(b)[0]?.['__search_hit__'] as Record<string, unknown>)['highlights']).toBe(
      'Milk, bread &amp; &lt;<b>coffee</b>&gt; &quot;beans&quot; and tea',
    );
  });

  test('E9: 3.0 query errors: bad date, two search modes, unknown field, unbalanced syntax, dangling field', async () => {
    e.version = '3.0';
    const date = await get(e, '/api/documents/?query=added:invalid-date', { accept: V10 });
    expect(date.status).toBe(400);
    expect(date.json()).toEqual({ query: ["Invalid date value 'invalid-date' for field 'added'."] });
    expect(date.headers['x-api-version']).toBe('10');
    const two = await get(e, '/api/documents/?text=bank&query=bank', { accept: V10 });
    expect(two.status).toBe(400);
    expect(two.json()).toEqual({ detail: 'Specify only one of text, title_search, query, or more_like_id.' });
    for (const query of ['nosuchfield:foo', '%22abc', '(invoice', 'invoice)', 'title:', 'invoice%20AND', 'OR%20invoice']) {
      const bad = await get(e, `/api/documents/?query=${query}`, { accept: V10 });
      expect([query, bad.status]).toEqual([query, 400]);
      expect(bad.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(bad.text).toBe('Error listing search results, check logs for more detail.');
    }
    const dangling = await get(e, '/api/documents/?query=invoice%20-&fields=id', { accept: V10 });
    expect(dangling.status).toBe(200);
    expect(dangling.json()['count']).toBe(4);
  });

  test('E9 on 2.20: a bad date matches nothing and lenient syntax is accepted', async () => {
    e.version = '2.20';
    const date = await get(e, '/api/documents/?query=added:invalid-date');
    expect(date.status).toBe(200);
    expect(date.text).toBe('{"count":0,"next":null,"previous":null,"all":[],"results":[],"corrected_query":null}');
    for (const query of ['%22invoice', '(invoice', 'invoice%20AND', 'title:']) {
      const a = await get(e, `/api/documents/?query=${query}&fields=id`);
      expect([query, a.status]).toEqual([query, 200]);
    }
    expect((await get(e, '/api/documents/?query=%22invoice&fields=id')).json()['count']).toBe(4);
  });

  test('E12: 2.x ignores text and answers the unfiltered list; 3.0 text is a substring search', async () => {
    e.version = '2.20';
    const a = await get(e, '/api/documents/?text=invoice&fields=id');
    expect(a.status).toBe(200);
    expect(a.json()['count']).toBe(6);
    expect(Object.keys(a.json())).not.toContain('corrected_query');
    for (const r of results(a)) expect(r).not.toHaveProperty('__search_hit__');
    e.version = '3.0';
    const b = await get(e, '/api/documents/?text=sswo&fields=id,title', { accept: V10 });
    expect(results(b).map((r) => r['id'])).toEqual([40]);
    expect((results(b)[0]?.['__search_hit__'] as Record<string, unknown>)['highlights']).toBe('');
    const c = await get(e, '/api/documents/?text=invoice&fields=id', { accept: V10 });
    expect(c.json()['count']).toBe(4);
    const phrase = await get(e, '/api/documents/?text=sswo%20re&fields=id', { accept: V10 });
    expect(results(phrase).map((r) => r['id'])).toEqual([40]);
    expect((await get(e, '/api/documents/?text=re%20sswo', { accept: V10 })).json()['count']).toBe(0);
    const folded = await get(e, '/api/documents/?text=MULLER&fields=id', { accept: V10 });
    expect(results(folded).map((r) => r['id'])).toEqual([31]);
    const d = await get(e, '/api/documents/?title_search=bill&fields=id', { accept: V10 });
    expect(results(d).map((r) => r['id'])).toEqual([7]);
    const symbols = await get(e, '/api/documents/?text=%2B%2B%2B', { accept: V10 });
    expect(symbols.json()['count']).toBe(0);
  });

  test('query language: OR by default on 3.0, AND on 2.x; NOT, -, +, phrases, fields, prefixes, dates', async () => {
    // Sorted here: `ordering=id` is not a Whoosh sort field, so 2.x keeps relevance order.
    const ids = async (query: string): Promise<number[]> =>
      results(await get(e, `/api/documents/?query=${encodeURIComponent(query)}&fields=id`))
        .map((r) => Number(r['id']))
        .sort((a, b) => a - b);
    e.version = '3.0';
    expect(await ids('invoice march')).toEqual([3, 7, 12, 31]);
    expect(await ids('+invoice +march')).toEqual([7, 31]);
    expect(await ids('coffee OR password')).toEqual([20, 40]);
    expect(await ids('invoice -march')).toEqual([3, 12]);
    expect(await ids('invoice NOT march')).toEqual([3, 12]);
    expect(await ids('"pay this invoice"')).toEqual([12]);
    expect(await ids('"invoice pay"')).toEqual([]);
    expect(await ids('title:invoice')).toEqual([3, 12, 31]);
    expect(await ids('pass*')).toEqual([40]);
    expect(await ids('invoice AND created:2024-04-01')).toEqual([12]);
    expect(await ids('created:[2024-01-01 to 2024-04-30]')).toEqual([7, 12]);
    expect(await ids('invoice AND (bill OR acme)')).toEqual([7, 12]);
    expect(await ids('muller')).toEqual([31]);
    // Only exclusions: Tantivy refuses ("Only excluding terms given"), Paperless answers 400.
    expect((await get(e, `/api/documents/?query=${encodeURIComponent('-invoice')}`)).status).toBe(400);
    expect((await get(e, '/api/documents/?query=')).json()['count']).toBe(0);
    e.version = '2.20';
    expect(await ids('invoice march')).toEqual([7, 31]);
    expect(await ids('invoice created:2024-04-01')).toEqual([12]);
    expect(await ids('INVOICE (bill OR acme)')).toEqual([7, 12]);
    expect(await ids('muller')).toEqual([]);
    expect(await ids('müller')).toEqual([31]);
    // Whoosh's default parser has no +/- operators: the analyzer drops the sign and the word is sought.
    expect(await ids('-invoice')).toEqual(await ids('invoice'));
    expect(await ids('NOT invoice')).toEqual([20, 40]);
  });

  test('3.0 relevance: title hits weigh double, +required clauses keep optional ones for scoring', async () => {
    e.version = '3.0';
    const a = await get(e, '/api/documents/?query=%2Binvoice%20march&fields=id', { accept: V10 });
    expect(results(a).map((r) => r['id'])).toEqual([31, 7, 3, 12]);
    e.version = '2.20';
    const whoosh = await get(e, '/api/documents/?query=invoice&ordering=id&fields=id');
    expect(results(whoosh).map((r) => r['id'])).toEqual([31, 3, 12, 7]);
    expect((results(whoosh)[0]?.['__search_hit__'] as Record<string, unknown>)['score']).toBe(1);
  });

  test('corrected_query: a Whoosh spelling suggestion on 2.x, always null on 3.0', async () => {
    e.version = '2.20';
    const a = await get(e, '/api/documents/?query=invoise');
    expect(a.json()['count']).toBe(0);
    expect(a.json()['corrected_query']).toBe('invoice');
    expect((await get(e, '/api/documents/?query=invoice')).json()['corrected_query']).toBeNull();
    // A correction that still finds nothing is not offered.
    expect((await get(e, '/api/documents/?query=invoise%20qqqqqqq')).json()['corrected_query']).toBeNull();
    e.version = '3.0';
    expect((await get(e, '/api/documents/?query=invoise', { accept: V10 })).json()['corrected_query']).toBeNull();
  });

  test('more_like_id: similar documents; an unknown id is 403 text/html', async () => {
    for (const version of ['2.20', '3.0'] as const) {
      e.version = version;
      const a = await get(e, '/api/documents/?more_like_id=12&fields=id');
      expect(a.status).toBe(200);
      const got = results(a).map((r) => r['id']);
      expect(got).not.toContain(12);
      expect(got).toContain(31);
      const bad = await get(e, '/api/documents/?more_like_id=999');
      expect(bad.status).toBe(403);
      expect(bad.text).toBe('Invalid more_like_id');
    }
  });

  test('3.0 ordering in search: ORM fields sort, score/-score is relevance, scores stay numbers', async () => {
    e.version = '3.0';
    const byTitle = await get(e, '/api/documents/?query=invoice&ordering=title&fields=id', { accept: V10 });
    expect(results(byTitle).map((r) => r['id'])).toEqual([12, 7, 31, 3]);
    for (const r of results(byTitle)) expect(typeof (r['__search_hit__'] as Record<string, unknown>)['score']).toBe('number');
    const ascending = await get(e, '/api/documents/?query=invoice&ordering=score&fields=id&created__date__gte=2024-01-01', { accept: V10 });
    expect(results(ascending).map((r) => r['id'])).toEqual([7, 12, 31]);
  });
});

describe('documents list parameters', () => {
  let e: ArchiveEmulator;
  beforeAll(async () => {
    e = await startArchiveEmulator({ version: '3.0' });
  });
  afterAll(async () => e.close());

  test('fields: exact set, empty means all, unknown names ignored, whitespace not stripped', async () => {
    const keys = async (fields: string): Promise<string[]> => Object.keys(results(await get(e, `/api/documents/?page_size=1&fields=${fields}`))[0] ?? {});
    expect(await keys('id')).toEqual(['id']);
    expect(await keys('content')).toEqual(['content']);
    expect(await keys('id,conteasdnt')).toEqual(['id']);
    expect(await keys('dgfhs')).toEqual([]);
    expect(await keys('id,%20title')).toEqual(['id']);
    const all = await keys('');
    expect(all).toEqual(
      expect.arrayContaining(['id', 'correspondent', 'document_type', 'title', 'content', 'tags', 'created', 'created_date', 'added', 'notes', 'versions']),
    );
    e.version = '2.20';
    expect(await keys('')).not.toContain('versions');
    e.version = '3.0';
  });

  test('default ordering is -created, -id; ordering parameter with unknown fields dropped', async () => {
    const all = (await get(e, '/api/documents/?page_size=100&fields=id,created')).json()['results'] as Array<{ id: number; created: string }>;
    expect(all).toHaveLength(60);
    for (let i = 1; i < all.length; i++) {
      const [p, c] = [all[i - 1], all[i]];
      if (p === undefined || c === undefined) throw new Error('missing');
      expect(p.created > c.created || (p.created === c.created && p.id > c.id)).toBe(true);
    }
    const byId = results(await get(e, '/api/documents/?page_size=3&ordering=nonsense,id&fields=id')).map((r) => r['id']);
    expect(byId).toEqual([1, 2, 3]);
    const byTitle = results(await get(e, '/api/documents/?page_size=100&ordering=-title&fields=title')).map((r) => String(r['title']).toLowerCase());
    expect(byTitle).toEqual([...byTitle].sort().reverse());
    const custom = await get(e, '/api/documents/?ordering=custom_field_4');
    expect(custom.status).toBe(400);
    expect(custom.json()).toEqual({ custom_field_4: ['Custom field not found'] });
  });

  test('date filters: created__date__gte/lt/lte, created__gte, added__date__gt; bad dates are 400', async () => {
    const docs = sampleArchive().documents;
    const created = async (query: string): Promise<number> => (await get(e, `/api/documents/?${query}&fields=id`)).json()['count'] as number;
    expect(await created('created__date__gte=2021-01-01&created__date__lt=2022-01-01')).toBe(
      docs.filter((d) => d.created >= '2021-01-01' && d.created < '2022-01-01').length,
    );
    expect(await created('created__date__lte=2020-06-30')).toBe(docs.filter((d) => d.created <= '2020-06-30').length);
    expect(await created('created__gte=2022-01-01')).toBe(docs.filter((d) => d.created >= '2022-01-01').length);
    expect(await created('added__date__gt=2022-01-01')).toBe(docs.filter((d) => d.added.slice(0, 10) > '2022-01-01').length);
    expect(await created('created__date__gte=')).toBe(60);
    const bad = await get(e, '/api/documents/?created__date__gte=2024-13-01&created__date__lt=soon');
    expect(bad.status).toBe(400);
    expect(bad.json()).toEqual({ created__date__gte: ['Enter a valid date.'], created__date__lt: ['Enter a valid date.'] });
  });

  test('id, id__in (empty means no filter), correspondent and type filters; unknown params ignored', async () => {
    const ids = async (query: string): Promise<unknown[]> =>
      results(await get(e, `/api/documents/?${query}&fields=id&ordering=id&page_size=100`)).map((r) => r['id']);
    expect(await ids('id__in=5,3,99')).toEqual([3, 5]);
    expect(await ids('id=7')).toEqual([7]);
    expect(await ids('id__in=')).toHaveLength(60);
    expect(await ids('id__range=1,2&whatever=1')).toHaveLength(60);
    const docs = sampleArchive().documents;
    expect(await ids('correspondent__id=2')).toEqual(docs.filter((d) => d.correspondent === 2).map((d) => d.id));
    expect(await ids('document_type__id__in=1,3')).toEqual(docs.filter((d) => d.documentType === 1 || d.documentType === 3).map((d) => d.id));
    expect(await ids('correspondent__isnull=true')).toEqual(docs.filter((d) => d.correspondent === null).map((d) => d.id));
    expect(await ids('title_content=bread')).toEqual(docs.filter((d) => d.content.includes('bread')).map((d) => d.id));
    const bad = await get(e, '/api/documents/?id__in=1,a');
    expect(bad.status).toBe(400);
    expect(bad.json()).toEqual({ id__in: ['Enter a number.'] });
  });

  test('page_size: default 25, unusable values fall back to 25; links keep repeated and spaced parameters', async () => {
    for (const size of ['', '0', '-3', 'ten']) expect(results(await get(e, `/api/documents/?page_size=${size}&fields=id`))).toHaveLength(25);
    expect(results(await get(e, '/api/documents/?page_size=1000000&fields=id'))).toHaveLength(60);
    const a = await get(e, '/api/documents/?query=bank%20statement&page=2&page_size=2&fields=id&fields=title');
    expect(a.json()['next']).toBe(`${e.url}/api/documents/?fields=id&fields=title&page=3&page_size=2&query=bank+statement`);
    expect(a.json()['previous']).toBe(`${e.url}/api/documents/?fields=id&fields=title&page_size=2&query=bank+statement`);
    expect(Object.keys(results(a)[0] ?? {})).toEqual(['title', '__search_hit__']);
    const bare = await get(e, '/api/documents/?page=2&page_size=50');
    expect(bare.json()['previous']).toBe(`${e.url}/api/documents/?page_size=50`);
  });

  test('created is a datetime for API versions below 9 (2.20 with version=8, 2.15 by default)', async () => {
    e.version = '2.20';
    const v8 = results(await get(e, '/api/documents/?page_size=1&fields=created,created_date', { accept: 'application/json; version=8' }))[0];
    expect(String(v8?.['created'])).toMatch(/^\d{4}-\d{2}-\d{2}T00:00:00\+00:00$/);
    expect(String(v8?.['created_date'])).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    e.version = '2.15';
    const old = await get(e, '/api/documents/?page_size=1&fields=created', { accept: 'application/json' });
    expect(old.headers['x-version']).toBe('2.15.3');
    expect(old.headers['x-api-version']).toBe('8');
    expect(String(results(old)[0]?.['created'])).toMatch(/^\d{4}-\d{2}-\d{2}T00:00:00Z$/);
    e.version = '2.20';
    const none = await get(e, '/api/documents/?page_size=1&fields=created', { accept: null });
    expect(String(results(none)[0]?.['created'])).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(Object.keys(none.json())).toContain('all');
    e.version = '3.0';
    const defaulted = await get(e, '/api/documents/?page_size=1', { accept: null });
    expect(Object.keys(defaulted.json())).not.toContain('all');
  });

  test('document detail, truncate_content, HEAD and 405 for writes', async () => {
    const one = await get(e, '/api/documents/5/?fields=id,title');
    expect(one.json()).toEqual({ id: 5, title: sampleArchive().documents[4]?.title });
    expect((await get(e, '/api/documents/999/')).status).toBe(404);
    e.documents = [doc(1, 'Long', 'x'.repeat(600), '2024-01-01')];
    try {
      const t = results(await get(e, '/api/documents/?truncate_content=true&fields=content'))[0];
      expect(String(t?.['content'])).toHaveLength(550);
    } finally {
      e.documents = sampleArchive().documents;
    }
    const head = await get(e, '/api/documents/', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
    const post = await get(e, '/api/documents/', { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.json()).toEqual({ detail: 'Method "POST" not allowed.' });
  });

  test('/api/token/ probe: 406 for a bad version, 405 for a good one', async () => {
    expect((await get(e, '/api/token/', { token: null, accept: 'application/json; version=7' })).status).toBe(406);
    const probe = await get(e, '/api/token/', { token: null });
    expect(probe.status).toBe(405);
  });
});

describe('correspondents and document types', () => {
  let e: ArchiveEmulator;
  beforeAll(async () => {
    e = await startArchiveEmulator({ version: '3.0' });
  });
  afterAll(async () => e.close());

  test('E10: id__in, ordered by lower-cased name, object shape, all only below v10', async () => {
    const a = await get(e, '/api/correspondents/?id__in=1,3,99', { accept: V10 });
    expect(a.status).toBe(200);
    const body = a.json();
    expect(Object.keys(body)).toEqual(['count', 'next', 'previous', 'results']);
    expect(body['count']).toBe(2);
    const docs = sampleArchive().documents;
    expect(body['results']).toEqual([
      {
        id: 1,
        slug: 'acme-corp',
        name: 'ACME Corp',
        match: '',
        matching_algorithm: 1,
        is_insensitive: true,
        document_count: docs.filter((d) => d.correspondent === 1).length,
        owner: null,
        user_can_change: true,
      },
      {
        id: 3,
        slug: 'city-utilities',
        name: 'City Utilities',
        match: '',
        matching_algorithm: 1,
        is_insensitive: true,
        document_count: docs.filter((d) => d.correspondent === 3).length,
        owner: null,
        user_can_change: true,
      },
    ]);
    const v9 = await get(e, '/api/correspondents/?id__in=3,1', { accept: V9 });
    expect(v9.json()['all']).toEqual([1, 3]);
    e.version = '2.20';
    expect((await get(e, '/api/document_types/?id__in=2,1')).json()['all']).toEqual([2, 1]);
    e.version = '3.0';
  });

  test('document types, empty id__in, bad id__in, name filters, last_correspondence', async () => {
    const types = await get(e, '/api/document_types/?id__in=5,1', { accept: V10 });
    expect(results(types).map((r) => r['name'])).toEqual(['Invoice', 'Tax return']);
    expect(results(types)[0]).not.toHaveProperty('last_correspondence');
    expect((await get(e, '/api/correspondents/?id__in=')).json()['count']).toBe(6);
    const bad = await get(e, '/api/correspondents/?id__in=1,x');
    expect(bad.status).toBe(400);
    expect(bad.json()).toEqual({ id__in: ['Enter a number.'] });
    expect(results(await get(e, '/api/correspondents/?name__icontains=BANK')).map((r) => r['id'])).toEqual([2]);
    const last = results(await get(e, '/api/correspondents/?id__in=1&last_correspondence=true'))[0];
    const latest = sampleArchive()
      .documents.filter((d) => d.correspondent === 1)
      .map((d) => d.created)
      .sort()
      .pop();
    expect(last?.['last_correspondence']).toBe(latest);
    expect((await get(e, '/api/correspondents/', { token: null })).status).toBe(401);
    expect((await get(e, '/api/correspondents/?page=2')).status).toBe(404);
  });
});

describe('knobs', () => {
  let e: ArchiveEmulator;
  beforeAll(async () => {
    e = await startArchiveEmulator({ version: '3.0', tokens: ['alpha', 'beta'] });
  });
  afterAll(async () => e.close());

  test('tokens option: only the listed tokens are accepted', async () => {
    expect((await get(e, '/api/documents/?fields=id', { token: 'beta' })).status).toBe(200);
    expect((await get(e, '/api/documents/?fields=id', { token: TOKEN })).status).toBe(401);
  });

  test('requests are recorded with path, decoded query and lowercased headers; clearRequests empties them', async () => {
    e.clearRequests();
    await get(e, '/api/documents/?query=bank+statement&fields=id%2Ctitle', { token: 'alpha', headers: { 'User-Agent': 'Host-Docs-Unified-Search/0.4.0' } });
    expect(e.requests).toHaveLength(1);
    const r = e.requests[0];
    expect(r?.method).toBe('GET');
    expect(r?.path).toBe('/api/documents/');
    expect(r?.query).toEqual({ query: 'bank statement', fields: 'id,title' });
    expect(r?.headers['user-agent']).toBe('Host-Docs-Unified-Search/0.4.0');
    expect(r?.headers['accept']).toBe(V9);
    expect(typeof r?.at).toBe('number');
    e.clearRequests();
    expect(e.requests).toHaveLength(0);
  });

  test('documents and version are settable at any time; in-place edits are searched', async () => {
    const only = doc(1, 'Only one', 'single', '2024-01-01');
    e.documents = [only];
    try {
      expect((await get(e, '/api/documents/', { token: 'alpha' })).json()['count']).toBe(1);
      expect((await get(e, '/api/documents/?query=single', { token: 'alpha' })).json()['count']).toBe(1);
      only.content = 'double';
      expect((await get(e, '/api/documents/?query=single', { token: 'alpha' })).json()['count']).toBe(0);
      expect((await get(e, '/api/documents/?query=double', { token: 'alpha' })).json()['count']).toBe(1);
      e.documents.push(doc(2, 'Second', 'double too', '2024-01-02'));
      expect((await get(e, '/api/documents/?query=double', { token: 'alpha' })).json()['count']).toBe(2);
      e.version = '2.20';
      expect((await get(e, '/api/documents/', { token: 'alpha' })).headers['x-version']).toBe('2.20.15');
    } finally {
      e.documents = sampleArchive().documents;
      e.version = '3.0';
    }
  });

  test('faults: status and body, match and times, then normal answers again', async () => {
    e.faults = [{ match: '/api/documents/', times: 1, status: 502, body: '<h1>Bad Gateway</h1>' }];
    const faulted = await get(e, '/api/documents/', { token: 'alpha' });
    expect(faulted.status).toBe(502);
    expect(faulted.text).toBe('<h1>Bad Gateway</h1>');
    expect(faulted.headers['content-type']).toBe('text/html; charset=utf-8');
    expect((await get(e, '/api/documents/', { token: 'alpha' })).status).toBe(200);
    e.faults = [{ match: '/api/correspondents/', status: 500, body: '{"detail":"boom"}' }];
    expect((await get(e, '/api/documents/?fields=id', { token: 'alpha' })).status).toBe(200);
    const json = await get(e, '/api/correspondents/', { token: 'alpha' });
    expect(json.status).toBe(500);
    expect(json.headers['content-type']).toBe('application/json');
    expect((await get(e, '/api/correspondents/', { token: 'alpha' })).status).toBe(500);
    e.faults = [{ headers: { 'X-Version': '9.9.9' } }];
    const decorated = await get(e, '/api/documents/?fields=id', { token: 'alpha' });
    expect(decorated.status).toBe(200);
    expect(decorated.headers['x-version']).toBe('9.9.9');
    e.faults = [];
  });

  test('faults: garbage, huge body, redirects', async () => {
    e.faults = [{ garbage: true, times: 1 }];
    const garbage = await get(e, '/api/documents/', { token: 'alpha' });
    expect(garbage.status).toBe(200);
    expect((): unknown => JSON.parse(garbage.text)).toThrow();
    e.faults = [{ hugeBodyBytes: 3_000_000, times: 1 }];
    const huge = await get(e, '/api/documents/', { token: 'alpha' });
    expect(huge.status).toBe(200);
    expect(Buffer.byteLength(huge.text)).toBe(3_000_000);
    expect(huge.headers['content-length']).toBeUndefined();
    expect(huge.text.startsWith('{"count":')).toBe(true);
    e.faults = [
      { redirectTo: 'https://elsewhere.example/api/documents/', times: 1 },
      { redirectTo: '/moved/', redirectStatus: 301, times: 1 },
    ];
    const first = await get(e, '/api/documents/', { token: 'alpha' });
    expect(first.status).toBe(302);
    expect(first.headers['location']).toBe('https://elsewhere.example/api/documents/');
    const second = await get(e, '/api/documents/', { token: 'alpha' });
    expect(second.status).toBe(301);
    expect(second.headers['location']).toBe('/moved/');
    e.faults = [];
  });

  test('faults: destroySocket closes without an answer; hangMs answers nothing until the client gives up', async () => {
    e.faults = [{ destroySocket: true, times: 1 }];
    await expect(get(e, '/api/documents/', { token: 'alpha' })).rejects.toThrow();
    e.faults = [{ hangMs: 60_000, times: 1 }];
    await expect(get(e, '/api/documents/', { token: 'alpha', headersTimeout: 100 })).rejects.toMatchObject({ code: 'UND_ERR_HEADERS_TIMEOUT' });
    e.faults = [{ hangMs: 20, times: 1 }];
    expect((await get(e, '/api/documents/?fields=id', { token: 'alpha' })).status).toBe(200);
    e.faults = [];
  });

  test('faults: slowBodyMs sends the headers, then the normal body in several pieces', async () => {
    e.faults = [{ slowBodyMs: 100, times: 1 }];
    const response = await request(`${e.url}/api/documents/?fields=id&page_size=5`, { headers: { authorization: 'Token alpha', accept: V9 } });
    expect(response.statusCode).toBe(200);
    const pieces: Buffer[] = [];
    for await (const chunk of response.body) pieces.push(chunk as Buffer);
    expect(pieces.length).toBeGreaterThan(1);
    const body = JSON.parse(Buffer.concat(pieces).toString('utf8')) as Record<string, unknown>;
    expect((body['results'] as unknown[]).length).toBe(5);
    e.faults = [];
  });

  test('latencyMs delays every answer (a client with a shorter timeout gives up)', async () => {
    e.latencyMs = 60_000;
    try {
      await expect(get(e, '/api/documents/', { token: 'alpha', headersTimeout: 100 })).rejects.toMatchObject({ code: 'UND_ERR_HEADERS_TIMEOUT' });
    } finally {
      e.latencyMs = 0;
    }
    expect((await get(e, '/api/documents/?fields=id', { token: 'alpha' })).status).toBe(200);
  });

  test('connections counts accepted TCP connections, not requests', async () => {
    const before = e.connections;
    const requestsBefore = e.requests.length;
    for (let i = 0; i < 2; i++) {
      const agent = new Agent();
      try {
        await get(e, '/api/documents/?fields=id', { token: 'alpha', dispatcher: agent });
      } finally {
        await agent.close();
      }
    }
    expect(e.connections - before).toBe(2);
    const socket = connect(e.port, '127.0.0.1');
    const raw = 'GET /api/documents/?fields=id&page_size=1 HTTP/1.1\r\nHost: x\r\nAuthorization: Token alpha\r\n\r\n';
    socket.write(raw + raw.replace('HTTP/1.1\r\n', 'HTTP/1.1\r\nConnection: close\r\n'));
    let received = '';
    for await (const chunk of socket) received += String(chunk);
    expect(received.match(/HTTP\/1\.1 200 OK/g)).toHaveLength(2);
    expect(e.connections - before).toBe(3);
    expect(e.requests.length - requestsBefore).toBe(4);
  });
});

describe('owners (reference §7)', () => {
  test('a token mapped to a user sees unowned and own documents only; others stay superusers', async () => {
    const documents = [
      { ...doc(1, 'Public invoice', 'invoice for all', '2024-01-01', undefined, 1, 1), owner: null },
      { ...doc(2, 'Alice invoice', 'invoice of alice', '2024-01-02', undefined, 1, 1), owner: 10 },
      { ...doc(3, 'Bob invoice', 'invoice of bob', '2024-01-03', undefined, 1, 2), owner: 11 },
    ];
    const e = await startArchiveEmulator({ version: '3.0', documents, tokens: ['alice', 'admin'], tokenUsers: { alice: 10 } });
    try {
      const ids = async (path: string, token: string): Promise<unknown[]> => results(await get(e, path, { token })).map((r) => r['id']);
      expect(await ids('/api/documents/?ordering=id&fields=id', 'alice')).toEqual([1, 2]);
      expect(await ids('/api/documents/?ordering=id&fields=id', 'admin')).toEqual([1, 2, 3]);
      const search = await get(e, '/api/documents/?query=invoice&fields=id,owner', { token: 'alice' });
      expect(search.json()['count']).toBe(2);
      expect(search.json()['all']).toEqual(expect.arrayContaining([1, 2]));
      expect(results(search).find((r) => r['id'] === 2)?.['owner']).toBe(10);
      expect((await get(e, '/api/documents/3/', { token: 'alice' })).status).toBe(404);
      expect((await get(e, '/api/documents/3/', { token: 'admin' })).status).toBe(200);
      const hidden = await get(e, '/api/documents/?more_like_id=3', { token: 'alice' });
      expect(hidden.status).toBe(403);
      expect(hidden.text).toBe('Insufficient permissions.');
      const types = await get(e, '/api/document_types/?id__in=1,2', { token: 'alice' });
      expect(results(types).map((r) => [r['id'], r['document_count']])).toEqual([
        [2, 0],
        [1, 2],
      ]);
    } finally {
      await e.close();
    }
  });
});

describe('path prefix, TLS, IPv6, close', () => {
  test('pathPrefix: the API lives under it, the login redirect keeps it, outside is 404', async () => {
    const e = await startArchiveEmulator({ pathPrefix: '/paperless/' });
    try {
      expect(e.url).toBe(`${e.origin}/paperless`);
      const a = await get(e, '/api/documents/?page_size=1&fields=id');
      expect(a.status).toBe(200);
      expect(a.json()['next']).toBe(`${e.url}/api/documents/?fields=id&page=2&page_size=1`);
      const bare = await get(e, '/api/documents');
      expect(bare.headers['location']).toBe('/paperless/accounts/login/?next=/paperless/api/documents');
      const outside = await request(`${e.origin}/api/documents/`, { headers: { authorization: `Token ${TOKEN}` } });
      expect(outside.statusCode).toBe(404);
      await outside.body.text();
      expect(e.requests.map((r) => r.path)).toEqual(['/paperless/api/documents/', '/paperless/api/documents', '/api/documents/']);
    } finally {
      await e.close();
    }
  });

  test('https: serves the committed certificate, trusted only with ca', async () => {
    const e = await startArchiveEmulator({ https: true });
    const trusting = new Agent({ connect: { ca: e.ca ?? '' } });
    const localhost = new Agent({ connect: { ca: e.ca ?? '', servername: 'localhost' } });
    try {
      expect(e.url.startsWith('https://127.0.0.1:')).toBe(true);
      expect(e.ca).toContain('BEGIN CERTIFICATE');
      const a = await get(e, '/api/documents/?page_size=1&fields=id', { dispatcher: trusting });
      expect(a.status).toBe(200);
      expect(a.json()['next']).toBe(`${e.url}/api/documents/?fields=id&page=2&page_size=1`);
      const byName = await request(`https://localhost:${e.port}/api/documents/?fields=id`, {
        dispatcher: localhost,
        headers: { authorization: `Token ${TOKEN}` },
      });
      expect(byName.statusCode).toBe(200);
      await byName.body.text();
      await expect(get(e, '/api/documents/')).rejects.toThrow();
    } finally {
      await trusting.close();
      await localhost.close();
      await e.close();
    }
  });

  test('host ::1 serves over IPv6 (skipped with a reason when the machine has no IPv6 loopback)', async () => {
    let e: ArchiveEmulator;
    try {
      e = await startArchiveEmulator({ host: '::1' });
    } catch (error) {
      console.log(`skipped: no IPv6 loopback (${String(error)})`);
      return;
    }
    try {
      expect(e.origin).toBe(`http://[::1]:${e.port}`);
      expect((await get(e, '/api/documents/?fields=id')).status).toBe(200);
    } finally {
      await e.close();
    }
  });

  test('close() ends hanging answers instead of waiting for them', async () => {
    const e = await startArchiveEmulator();
    e.faults = [{ hangMs: 600_000 }];
    const pending = get(e, '/api/documents/').catch((error: unknown) => error);
    while (e.requests.length === 0) await new Promise((resolve) => setImmediate(resolve));
    await e.close();
    expect(await pending).toBeInstanceOf(Error);
  });
});

describe('sampleArchive', () => {
  test('is deterministic, sized by count, and common words span several pages', () => {
    const a = sampleArchive();
    expect(a).toEqual(sampleArchive());
    expect(a.documents).toHaveLength(60);
    expect(sampleArchive(200).documents).toHaveLength(200);
    expect(a.documents.map((d) => d.id)).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
    const added = a.documents.map((d) => Date.parse(d.added));
    expect(added).toEqual([...added].sort((x, y) => x - y));
    for (const d of a.documents) {
      expect(d.created).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(d.added).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/);
      expect(d.created <= d.added.slice(0, 10)).toBe(true);
    }
    expect(a.documents.filter((d) => /invoice/i.test(`${d.title} ${d.content}`)).length).toBeGreaterThan(25);
    expect(new Set(a.documents.map((d) => d.created.slice(0, 4))).size).toBeGreaterThan(3);
    expect(a.documents.some((d) => d.correspondent === null)).toBe(true);
  });
});
