import { beforeEach, describe, expect, it } from '@jest/globals';
import { createArchiveClient } from '../src/core/archive/archive-client.js';
import type { ArchiveClientOptions, ArchiveVersions } from '../src/core/archive/types.js';
import { USER_AGENT } from '../src/core/version.js';
import { CONNECTION_TEST_QUERY, WIDGET_QUERY, dayAfter, endpoint, nameChunks, namesQuery, searchQuery } from '../src/core/archive/requests.js';
import { failureOf, useArchiveEmulator } from './support/archive-client-helpers.js';
import { captureLogger } from './support/host-fixtures/capture-log.js';
import { startArchiveEmulator } from './support/archive-emulator/index.js';
import type { ArchiveEmulator, EmulatorDocument } from './support/archive-emulator/types.js';

/**
 * The requests of the spec's table against the archive-server emulator over loopback: exact
 * paths and query parameters, headers, answers mapped, rejected queries, the 3.x `text` retry.
 * The emulator is local, so the client runs with the local-network switch on.
 */

const TOKEN = 'client-test-token-7f3a9c';
const FAST: ArchiveClientOptions['timeouts'] = { connectMs: 1000, answerMs: 3000, widgetAnswerMs: 3000, retryWindowMs: 3500 };

function documents(count: number): EmulatorDocument[] {
  return Array.from({ length: count }, (_, index) => {
    const id = index + 1;
    return {
      id,
      title: `Invoice ${id}`,
      content: `invoice number ${id} for the gardening work`,
      created: `2024-0${(index % 3) + 1}-${String((index % 28) + 1).padStart(2, '0')}`,
      added: `2024-05-01T10:${String(index % 60).padStart(2, '0')}:00Z`,
      correspondent: (index % 4) + 1,
      documentType: index % 2 === 0 ? 1 : null,
    };
  });
}

const CORRESPONDENTS = Array.from({ length: 40 }, (_, index) => ({ id: index + 1, name: `Correspondent ${index + 1}` }));
const TYPES = [
  { id: 1, name: 'Invoice' },
  { id: 2, name: 'Letter' },
];

describe.each(['2.20', '3.0'] as const)('archive server %s', (version) => {
  let emulator: ArchiveEmulator;
  const seen: ArchiveVersions[] = [];
  const client = () =>
    createArchiveClient({ url: emulator.url, token: TOKEN, allowLocal: true }, { timeouts: FAST, onVersions: (versions) => seen.push(versions) });

  useArchiveEmulator(
    { version, documents: documents(30), correspondents: CORRESPONDENTS, documentTypes: TYPES, tokens: [TOKEN] },
    (started) => (emulator = started),
  );
  beforeEach(() => {
    seen.length = 0;
  });

  it('tests the connection with page_size=1 and fields=id and the spec headers', async () => {
    const result = await client().testConnection();
    expect(result.count).toBe(30);
    // `all` exists under API version 9, which is what the client asks for on every server.
    expect(result.allIds === null ? null : [...result.allIds].sort((a, b) => a - b)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
    expect(emulator.requests).toHaveLength(1);
    const [request] = emulator.requests;
    expect(request?.path).toBe('/api/documents/');
    expect(request?.query).toEqual({ page_size: '1', fields: 'id' });
    expect(request?.headers.authorization).toBe(`Token ${TOKEN}`);
    expect(request?.headers.accept).toBe('application/json; version=9');
    expect(request?.headers['user-agent']).toBe(USER_AGENT);
    expect(USER_AGENT).toMatch(/^Host-Docs-Unified-Search\/\d+\.\d+\.\d+/);
  });

  it('passes the versions of every answer on', async () => {
    const result = await client().testConnection();
    const expected = version === '2.20' ? { version: '2.20.15', apiVersion: '9' } : { version: '3.0.5', apiVersion: '10' };
    expect(result.versions).toEqual(expected);
    expect(seen).toEqual([expected]);
  });

  it.each([
    ['the token echoed back', TOKEN],
    ['markup', '<script>x</script>'],
    ['a line of text', '2.20 (patched by ops)'],
    ['an endless string', '9'.repeat(40)],
  ])('ignores a version header holding %s: it would be stored and shown', async (_name, value) => {
    emulator.faults = [{ match: '/api/documents/', times: 1, headers: { 'X-Version': value, 'X-Api-Version': '11' } }];
    const result = await client().testConnection();
    expect(result.versions).toEqual({ version: null, apiVersion: '11' });
  });

  it('searches one page of 25 with the exact query, fields and date bounds', async () => {
    const page = await client().search({ term: 'invoice', page: 1, since: '2024-01-05', until: '2024-02-29' });
    expect(emulator.requests).toHaveLength(1);
    expect(emulator.requests[0]?.query).toEqual({
      query: 'invoice',
      page: '1',
      page_size: '25',
      fields: 'id,title,created,correspondent,document_type,__search_hit__',
      created__date__gte: '2024-01-05',
      created__date__lt: '2024-03-01',
    });
    for (const hit of page.hits) {
      expect(hit.created !== null && hit.created >= '2024-01-05' && hit.created < '2024-03-01').toBe(true);
    }
    expect(page.hits.length).toBe(Math.min(page.count, 25));
    expect(page.rejectedStatus ?? null).toBeNull();
  });

  it('maps the hits and derives hasMore from count, page after page', async () => {
    const first = await client().search({ term: 'invoice', page: 1 });
    expect(first.count).toBe(30);
    expect(first.hits).toHaveLength(25);
    expect(first.hasMore).toBe(true);
    const hit = first.hits.find((candidate) => candidate.id === 7);
    expect(hit).toMatchObject({ id: 7, title: 'Invoice 7', created: '2024-01-07', correspondent: 3, documentType: 1 });
    expect(hit?.highlights).toMatch(version === '2.20' ? /<span class="match term0">invoice<\/span>/i : /<b>invoice<\/b>/i);
    const second = await client().search({ term: 'invoice', page: 2 });
    expect(second.hits).toHaveLength(5);
    expect(second.hasMore).toBe(false);
    expect(new Set([...first.hits, ...second.hits].map((h) => h.id)).size).toBe(30);
    expect(emulator.requests.map((r) => r.query.page)).toEqual(['1', '2']);
  });

  it('reports a page past the last as rejected (404), logs the debug line, and does not throw', async () => {
    const log = captureLogger();
    const page = await createArchiveClient({ url: emulator.url, token: TOKEN, allowLocal: true }, { timeouts: FAST, logger: log.logger }).search({
      term: 'invoice',
      page: 3,
    });
    expect(page).toMatchObject({ count: 0, hits: [], hasMore: false, rejectedStatus: 404, page: 3 });
    const lines = log.lines();
    expect(lines).toEqual([expect.objectContaining({ level: 20, msg: 'The archive server rejected the query of a search with HTTP status 404' })]);
    expect(JSON.stringify(lines)).not.toContain('invoice');
  });

  it('fetches the newest documents with the widget query', async () => {
    const newest = await client().newest();
    expect(emulator.requests[0]?.query).toEqual({ ordering: '-added', page: '1', page_size: '25', fields: 'id,title,added,correspondent,document_type' });
    expect(newest.documents).toHaveLength(25);
    const added = newest.documents.map((document) => document.added);
    expect(added).toEqual([...added].sort().reverse());
    expect(newest.documents[0]).toMatchObject({ id: 30, title: 'Invoice 30', added: '2024-05-01T10:29:00Z', correspondent: 2, documentType: null });
  });

  it('looks names up by id__in, 25 ids a request, never with an empty list', async () => {
    const none = await client().names('correspondents', []);
    expect(none.size).toBe(0);
    expect(emulator.requests).toHaveLength(0);

    const two = await client().names('document_types', [2, 1, 2]);
    expect([...two.entries()].sort()).toEqual([
      [1, 'Invoice'],
      [2, 'Letter'],
    ]);
    expect(emulator.requests.map((r) => [r.path, r.query])).toEqual([['/api/document_types/', { id__in: '2,1' }]]);

    emulator.clearRequests();
    const ids = Array.from({ length: 30 }, (_, i) => i + 1);
    const many = await client().names('correspondents', ids);
    expect(many.size).toBe(30);
    expect(many.get(30)).toBe('Correspondent 30');
    expect(emulator.requests.map((r) => r.query.id__in?.split(',').length)).toEqual([25, 5]);
    expect(emulator.requests.every((r) => r.path === '/api/correspondents/' && r.query.id__in !== '')).toBe(true);
  });
});

describe('archive server 3: queries it cannot parse', () => {
  let emulator: ArchiveEmulator;
  useArchiveEmulator(
    { version: '3.0', documents: documents(30), correspondents: CORRESPONDENTS, documentTypes: TYPES, tokens: [TOKEN] },
    (started) => (emulator = started),
  );

  it('repeats a query rejected with 400 exactly once with text instead of query, cut to what cannot fail', async () => {
    const page = await createArchiveClient({ url: emulator.url, token: TOKEN, allowLocal: true }, { timeouts: FAST }).search({
      term: 'invoice "gard',
      page: 1,
    });
    // A later chunk that starts with punctuation ends the phrase (see docs/archive-client.md).
    expect(emulator.requests.map((r) => [r.query.query, r.query.text])).toEqual([
      ['invoice "gard', undefined],
      [undefined, 'invoice'],
    ]);
    expect(emulator.requests[1]?.query).toMatchObject({ page: '1', page_size: '25', fields: 'id,title,created,correspondent,document_type,__search_hit__' });
    // The answer of the `text` request is the page: not a rejection.
    expect(page.rejectedStatus ?? null).toBeNull();
    expect(page.versions.apiVersion).toBe('10');
  });

  it('knows archive server 3 from an earlier answer when the 400 names no versions', async () => {
    const rejectOnce = { match: '/api/documents/', times: 1, status: 400, contentType: 'text/html; charset=utf-8', body: 'Error listing search results' };
    const fresh = createArchiveClient({ url: emulator.url, token: TOKEN, allowLocal: true }, { timeouts: FAST });
    emulator.faults = [{ ...rejectOnce }];
    expect((await fresh.search({ term: 'invoice:', page: 1 })).rejectedStatus).toBe(400);
    expect(emulator.requests).toHaveLength(1);

    emulator.clearRequests();
    const seasoned = createArchiveClient({ url: emulator.url, token: TOKEN, allowLocal: true }, { timeouts: FAST });
    await seasoned.testConnection();
    emulator.faults = [{ ...rejectOnce }];
    const page = await seasoned.search({ term: 'invoice:', page: 1 });
    expect(page.rejectedStatus ?? null).toBeNull();
    expect(emulator.requests.map((r) => r.query.text ?? null)).toEqual([null, null, 'invoice']);
  });

  it('a 400 for the text repeat is a fault, not a query being typed: that value cannot be a syntax error', async () => {
    const log = captureLogger();
    emulator.faults = [
      {
        match: '/api/documents/',
        status: 400,
        contentType: 'text/html; charset=utf-8',
        body: 'Error listing search results, check logs for more detail.',
        headers: { 'X-Version': '3.0.5', 'X-Api-Version': '10' },
      },
    ];
    const search = createArchiveClient({ url: emulator.url, token: TOKEN, allowLocal: true }, { timeouts: FAST, logger: log.logger }).search({
      term: "O'Brien",
      page: 1,
    });
    await expect(search).rejects.toMatchObject({ code: 'http', status: 400 });
    expect(emulator.requests).toHaveLength(2);
    expect(emulator.requests[1]?.query.text).toBe('Brien');
    expect(log.lines()).toEqual([]);
  });
});

describe('archive server 2', () => {
  let emulator: ArchiveEmulator;
  useArchiveEmulator({ version: '2.20', documents: documents(5), tokens: [TOKEN], pathPrefix: '/paperless' }, (started) => (emulator = started));

  it('never gets text: a rejected query stays rejected after one request', async () => {
    emulator.faults = [
      {
        match: '/api/documents/',
        status: 400,
        contentType: 'text/html; charset=utf-8',
        body: 'Error listing search results, check logs for more detail.',
        headers: { 'X-Version': '2.20.15', 'X-Api-Version': '9' },
      },
    ];
    const page = await createArchiveClient({ url: emulator.url, token: TOKEN, allowLocal: true }, { timeouts: FAST }).search({ term: 'in(voice', page: 1 });
    expect(page.rejectedStatus).toBe(400);
    expect(emulator.requests).toHaveLength(1);
    expect(emulator.requests.some((r) => 'text' in r.query)).toBe(false);
  });

  it('keeps the path prefix of the URL', async () => {
    const result = await createArchiveClient({ url: emulator.url, token: TOKEN, allowLocal: true }, { timeouts: FAST }).testConnection();
    expect(result.count).toBe(5);
    expect(emulator.requests[0]?.path).toBe('/paperless/api/documents/');
  });

  it('reports a wrong path as not_found, on search too', async () => {
    const wrong = createArchiveClient({ url: emulator.origin, token: TOKEN, allowLocal: true }, { timeouts: FAST });
    expect((await failureOf(wrong.testConnection(), TOKEN)).code).toBe('not_found');
    const failure = await failureOf(wrong.search({ term: 'invoice', page: 1 }), TOKEN);
    expect(failure.code).toBe('not_found');
    expect(failure.status).toBe(404);
  });

  it('refuses dates that are not days', async () => {
    const client = createArchiveClient({ url: emulator.url, token: TOKEN, allowLocal: true }, { timeouts: FAST });
    expect((await failureOf(client.search({ term: 'x', page: 1, until: '2024-02-30' }), TOKEN)).code).toBe('usage');
    expect((await failureOf(client.search({ term: 'x', page: 0 }), TOKEN)).code).toBe('usage');
    expect(emulator.requests).toHaveLength(0);
  });
});

describe('archive server older than 2.16', () => {
  it('answers 406, reported as unsupported_version', async () => {
    const emulator = await startArchiveEmulator({ version: '2.15', tokens: [TOKEN] });
    try {
      const failure = await failureOf(createArchiveClient({ url: emulator.url, token: TOKEN, allowLocal: true }, { timeouts: FAST }).testConnection(), TOKEN);
      expect(failure.code).toBe('unsupported_version');
      expect(failure.status).toBe(406);
    } finally {
      await emulator.close();
    }
  });
});

describe('request URLs', () => {
  it('keeps the path prefix, adds the trailing slash and writes the spec query', () => {
    const base = new URL('https://docs.example.com/paperless');
    expect(endpoint(base, 'documents', CONNECTION_TEST_QUERY).href).toBe('https://docs.example.com/paperless/api/documents/?page_size=1&fields=id');
    expect(endpoint(new URL('https://docs.example.com/paperless/'), 'documents', WIDGET_QUERY).href).toBe(
      'https://docs.example.com/paperless/api/documents/?ordering=-added&page=1&page_size=25&fields=id,title,added,correspondent,document_type',
    );
    expect(endpoint(new URL('http://10.0.0.5:8000'), 'correspondents', namesQuery([3, 1])).href).toBe('http://10.0.0.5:8000/api/correspondents/?id__in=3,1');
    expect(endpoint(base, 'documents', searchQuery({ term: 'tax & fees, 2024', page: 2, since: '2024-01-01', until: '2024-12-31' }, 'query')).href).toBe(
      'https://docs.example.com/paperless/api/documents/?query=tax+%26+fees,+2024&page=2&page_size=25&fields=id,title,created,correspondent,document_type,__search_hit__&created__date__gte=2024-01-01&created__date__lt=2025-01-01',
    );
  });

  it('puts the upper bound on the day after until, across months, leap days and years', () => {
    expect(dayAfter('2024-02-28')).toBe('2024-02-29');
    expect(dayAfter('2023-02-28')).toBe('2023-03-01');
    expect(dayAfter('2024-12-31')).toBe('2025-01-01');
  });

  it('never builds an empty id__in', () => {
    expect(nameChunks([])).toEqual([]);
    expect(nameChunks([0, -1, 1.5])).toEqual([]);
    expect(nameChunks([5, 5, 6])).toEqual([[5, 6]]);
  });
});
