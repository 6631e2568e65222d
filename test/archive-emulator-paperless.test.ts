/**
 * The emulator against the table "Emulator differences found" of the reference
 * (paperless-3x.md, checked against paperless-ngx v2.20.15 / v3.0.5 and tantivy 0.26's
 * query grammar): each row here is the real server's answer.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { createArchiveClient } from '../src/core/archive/archive-client.js';
import { failureOf } from './support/archive-client-helpers.js';
import { startArchiveEmulator, type ArchiveEmulator, type EmulatorDocument } from './support/archive-emulator/index.js';
import { emulatorGet, LISTING_ERROR, type EmulatorAnswer } from './support/emulator-http.js';

const TOKEN = 'facts-token';

let e: ArchiveEmulator;

function get(path: string, accept = 'application/json; version=9', token = TOKEN): Promise<EmulatorAnswer> {
  return emulatorGet(e.url, path, token, accept);
}

function q(value: string): string {
  return encodeURIComponent(value);
}

async function idsOf(path: string): Promise<number[]> {
  const answer = await get(path);
  expect(answer.status).toBe(200);
  return (JSON.parse(answer.text) as { results: Array<{ id: number }> }).results.map((r) => r.id).sort((a, b) => a - b);
}

function doc(id: number, title: string, content: string, correspondent: number | null = null): EmulatorDocument {
  return { id, title, content, created: '2024-03-01', added: '2024-03-02T10:00:00.000001Z', correspondent, documentType: correspondent };
}

beforeAll(async () => {
  e = await startArchiveEmulator({
    documents: [
      doc(1, "Letter to Mr O'Brien", "Dear Mr O'Brien, see the hatt' note.", 1),
      doc(2, 'Invoice march', 'Invoice for march.', 1),
      doc(3, 'Coffee', 'Coffee beans for the office.'),
      doc(4, 'Invoice april', 'Invoice for april.'),
    ],
    correspondents: [{ id: 1, name: 'ACME' }],
    documentTypes: [{ id: 1, name: 'Bill' }],
    tokens: [TOKEN, 'documents-only', 'names-only', 'someone'],
    tokenPermissions: { 'documents-only': ['documents'], 'names-only': ['correspondents', 'document_types'] },
    tokenUsers: { someone: 7 },
  });
});

afterAll(async () => {
  await e.close();
});

describe('3.x: Tantivy parse failures answer 400 text/html (2.x: Whoosh is lenient, 200)', () => {
  const failing = ['-invoice', 'NOT invoice', "hatt'", "O'Brien", 'Re: invoice', 'Invoice:', '"abc', '(draft', 'NOT', 'nosuchfield:foo', 'a{b'];

  test.each(failing)('%j', async (term) => {
    e.version = '3.0';
    const real = await get(`/api/documents/?query=${q(term)}`);
    expect(real).toMatchObject({ status: 400, type: 'text/html; charset=utf-8', text: LISTING_ERROR, versioned: true });
    e.version = '2.20';
    expect((await get(`/api/documents/?query=${q(term)}`)).status).toBe(200);
  });

  test.each(['invoice', 'invoice -march', 'invoice NOT march', '"invoice for"', 'title:invoice', "'invoice for'", 'invoice^2', 'e-invoice', 'pay*'])(
    '%j parses',
    async (term) => {
      e.version = '3.0';
      expect((await get(`/api/documents/?query=${q(term)}`)).status).toBe(200);
    },
  );
});

describe('3.x text mode: the highlighting step parses each \\S+ chunk again', () => {
  test('400 for punctuation the parser rejects when there are hits; 200 without hits', async () => {
    e.version = '3.0';
    expect(await get(`/api/documents/?text=${q("O'Brien")}`)).toMatchObject({ status: 400, text: LISTING_ERROR });
    expect(await get(`/api/documents/?text=${q("hatt'")}`)).toMatchObject({ status: 400 });
    const none = await get(`/api/documents/?text=${q("Zq'x")}`);
    expect(none.status).toBe(200);
    expect(JSON.parse(none.text)).toMatchObject({ count: 0 });
    // Page past the hits: no highlighting, so no failure either (the page itself is 404).
    expect((await get(`/api/documents/?text=${q("O'Brien")}&page=2`)).status).toBe(404);
  });

  test('chunks of non-space characters: a fragment of a chunk matches, highlights come from the parsed words', async () => {
    e.version = '3.0';
    expect(await idsOf(`/api/documents/?text=Brien`)).toEqual([1]);
    expect(await idsOf(`/api/documents/?text=${q('Mr O')}`)).toEqual([1]);
    const page = JSON.parse((await get(`/api/documents/?text=Brien`)).text) as { results: Array<{ __search_hit__: { highlights: string } }> };
    expect(page.results[0]?.__search_hit__.highlights).toContain('<b>Brien</b>');
  });
});

describe('plain words: OR on 3.x, AND on 2.x; no +/- operators on 2.x', () => {
  test('OR / AND', async () => {
    e.version = '3.0';
    expect(await idsOf(`/api/documents/?query=${q('invoice coffee')}`)).toEqual([2, 3, 4]);
    e.version = '2.20';
    expect(await idsOf(`/api/documents/?query=${q('invoice coffee')}`)).toEqual([]);
    expect(await idsOf(`/api/documents/?query=${q('invoice march')}`)).toEqual([2]);
  });

  test('2.x reads + and - as part of the word (the analyzer drops them)', async () => {
    e.version = '2.20';
    expect(await idsOf(`/api/documents/?query=${q('-invoice')}`)).toEqual([2, 4]);
    expect(await idsOf(`/api/documents/?query=${q('invoice -march')}`)).toEqual([2]);
    expect(await idsOf(`/api/documents/?query=${q('+coffee')}`)).toEqual([3]);
    e.version = '3.0';
    expect(await idsOf(`/api/documents/?query=${q('invoice -march')}`)).toEqual([4]);
  });
});

describe('separate view permissions for documents, correspondents and document types', () => {
  test.each(['2.20', '3.0'] as const)('%s: each list needs its own permission; 403 carries the version headers', async (version) => {
    e.version = version;
    expect((await get('/api/documents/', undefined, 'documents-only')).status).toBe(200);
    expect(await get('/api/correspondents/?id__in=1', undefined, 'documents-only')).toMatchObject({ status: 403, versioned: true });
    expect((await get('/api/document_types/?id__in=1', undefined, 'documents-only')).status).toBe(403);
    expect((await get('/api/documents/', undefined, 'names-only')).status).toBe(403);
    expect((await get('/api/correspondents/', undefined, 'names-only')).status).toBe(200);
  });
});

describe('a bad date in the query', () => {
  test('3.x names the field as typed (modified), 2.x matches nothing', async () => {
    e.version = '3.0';
    const real = await get(`/api/documents/?query=${q('modified:notadate')}`);
    expect(real.status).toBe(400);
    expect(JSON.parse(real.text)).toEqual({ query: ["Invalid date value 'notadate' for field 'modified'."] });
    e.version = '2.20';
    expect(await idsOf(`/api/documents/?query=${q('modified:notadate')}`)).toEqual([]);
  });
});

describe("Accept: text/html gets DRF's browsable page (BrowsableAPIRenderer is a default renderer), not 406", () => {
  test.each(['2.20', '3.0'] as const)('%s', async (version) => {
    e.version = version;
    const page = await get('/api/documents/?fields=id', 'text/html');
    expect(page).toMatchObject({ status: 200, type: 'text/html; charset=utf-8', versioned: true });
    expect(page.text).toContain('&quot;count&quot;'.replace(/&quot;/g, '"'));
    expect(page.text).toMatch(/^<!DOCTYPE html>/);
    // The JSON renderer comes first among equally specific types; */* is JSON too.
    expect((await get('/api/documents/?fields=id', 'text/html, application/json')).type).toBe('application/json');
    expect((await get('/api/documents/?fields=id', '*/*')).type).toBe('application/json');
    expect((await get('/api/documents/?format=api', '*/*')).type).toBe('text/html; charset=utf-8');
    expect((await get('/api/documents/?format=api')).status).toBe(406);
    expect((await get('/api/documents/', 'application/xml')).status).toBe(406);
  });

  test('the product never asks for HTML; if a proxy rewrote Accept, the page is not_paperless', async () => {
    e.version = '3.0';
    const html = await get('/api/documents/?page_size=1&fields=id', 'text/html');
    e.faults = [{ match: '/api/documents/', status: 200, body: html.text, contentType: html.type, headers: { 'X-Api-Version': '10', 'X-Version': '3.0.5' } }];
    try {
      const client = createArchiveClient({ url: e.url, token: TOKEN, allowLocal: true });
      expect((await failureOf(client.testConnection(), TOKEN)).code).toBe('not_paperless');
      await client.close();
    } finally {
      e.faults = [];
    }
  });
});

describe('searchBroken: Paperless answers 400 for any exception while searching', () => {
  test.each(['2.20', '3.0'] as const)('%s: every search mode fails, the plain list works', async (version) => {
    e.version = version;
    e.searchBroken = true;
    try {
      expect(await get(`/api/documents/?query=invoice`)).toMatchObject({ status: 400, type: 'text/html; charset=utf-8', text: LISTING_ERROR });
      if (version === '3.0') expect((await get(`/api/documents/?text=invoice`)).status).toBe(400);
      expect((await get('/api/documents/')).status).toBe(200);
    } finally {
      e.searchBroken = false;
    }
  });

  test('non-superusers only (#13200: a stale index without viewer_group_id)', async () => {
    e.version = '3.0';
    e.searchBroken = 'non-superusers';
    try {
      expect((await get(`/api/documents/?query=invoice`)).status).toBe(200);
      expect((await get(`/api/documents/?query=invoice`, undefined, 'someone')).status).toBe(400);
    } finally {
      e.searchBroken = false;
    }
  });
});

describe('a non-superuser sees what it owns, what has no owner, and what view_document grants it or one of its groups', () => {
  test.each(['2.20', '3.0', '3.2'] as const)('%s: lists, all, search and detail; group membership as it is now', async (version) => {
    e.version = version;
    const original = e.documents;
    e.documents = [
      { ...doc(1, 'Invoice own', 'Invoice one.'), owner: 7 },
      { ...doc(2, 'Invoice granted', 'Invoice two.'), owner: 8, viewUsers: [7] },
      { ...doc(3, 'Invoice group', 'Invoice three.'), owner: 8, viewGroups: [3] },
      { ...doc(4, 'Invoice other', 'Invoice four.'), owner: 8, viewUsers: [9], viewGroups: [4] },
      doc(5, 'Invoice unowned', 'Invoice five.'),
    ];
    e.userGroups = { 7: [3] };
    try {
      const someone = async (path: string): Promise<EmulatorAnswer> => get(path, 'application/json; version=9', 'someone');
      const page = JSON.parse((await someone('/api/documents/?fields=id')).text) as { count: number; all: number[] };
      expect(page).toMatchObject({ count: 4, all: [5, 3, 2, 1] });
      const searched = JSON.parse((await someone(`/api/documents/?query=invoice&fields=id`)).text) as { results: Array<{ id: number }> };
      expect(searched.results.map((r) => r.id).sort()).toEqual([1, 2, 3, 5]);
      expect((await someone('/api/documents/3/')).status).toBe(200);
      expect((await someone('/api/documents/4/')).status).toBe(404);
      expect(await idsOf('/api/documents/?fields=id')).toEqual([1, 2, 3, 4, 5]);
      e.userGroups = { 7: [4] };
      const moved = JSON.parse((await someone('/api/documents/?fields=id')).text) as { all: number[] };
      expect([...moved.all].sort()).toEqual([1, 2, 4, 5]);
    } finally {
      e.documents = original;
      e.userGroups = {};
    }
  });
});
