import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { call, HOST_URL, PASSWORDS, startHarness, type Harness } from './support/http-harness.js';

const PROVIDERS = '/ocs/v2.php/search/providers';
const RESOLVE = '/ocs/v2.php/references/resolve';

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});

afterAll(async () => {
  await h.close();
});

type User = keyof typeof PASSWORDS;
const as = (user: User) => ({ basic: [user, PASSWORDS[user]] as const });

interface Envelope<T> {
  ocs: { meta: { status: string; statuscode: number }; data: T };
}

describe('provider lists', () => {
  test('the search provider is listed as external unless always-search is on', async () => {
    const listed = await call(h, 'GET', PROVIDERS, as('alice'));
    expect(listed.status).toBe(200);
    const providers = listed.json<Envelope<{ id: string; isExternalProvider: boolean; filters: Record<string, string> }[]>>().ocs.data;
    expect(providers).toEqual([expect.objectContaining({ id: 'docs_unified_search_documents', appId: 'docs_unified_search', isExternalProvider: true })]);
    expect(providers[0]?.filters).toEqual({ term: 'string', since: 'datetime', until: 'datetime' });
    h.context.settings.update({ always_search: true });
    const always = (await call(h, 'GET', PROVIDERS, as('alice'))).json<Envelope<{ isExternalProvider: boolean }[]>>().ocs.data;
    expect(always[0]?.isExternalProvider).toBe(false);
    h.context.settings.update({ always_search: false });
  });

  test('the smart picker lists the reference provider that searches through the search provider', async () => {
    const listed = await call(h, 'GET', '/ocs/v2.php/references/providers', as('bob'));
    expect(listed.json<Envelope<unknown[]>>().ocs.data).toEqual([
      { id: 'docs_unified_search-documents', title: expect.any(String), icon_url: '', order: 50, search_providers_ids: ['docs_unified_search_documents'] },
    ]);
  });
});

describe('resolving an inserted file link', () => {
  const resolve = async (user: User, reference: string) => {
    const answer = await call(h, 'GET', `${RESOLVE}?reference=${encodeURIComponent(reference)}`, as(user));
    expect(answer.status).toBe(200);
    return answer.json<Envelope<{ references: Record<string, { accessible: boolean; richObject: Record<string, string> | null } | null> }>>().ocs.data
      .references[reference];
  };

  test('a reader who can open the file gets the rich object; others only "not accessible"', async () => {
    const fileId = h.files.get(2);
    const link = `${HOST_URL}/f/${fileId}`;
    const forAlice = await resolve('alice', link);
    expect(forAlice?.accessible).toBe(true);
    expect(forAlice?.richObject).toMatchObject({ id: String(fileId), name: 'Invoice two [P2].pdf', path: '/Shared/Invoice two [P2].pdf', link });
    const forBob = await resolve('bob', link);
    expect(forBob).toEqual(expect.objectContaining({ accessible: false, richObject: null }));
    expect(JSON.stringify(forBob)).not.toContain('Invoice two');
    const indexForm = await resolve('alice', `${HOST_URL}/index.php/apps/files/?dir=/Shared&fileid=${fileId}`);
    expect(indexForm?.accessible).toBe(true);
  });

  test("links that are not archive files of this host are not this provider's", async () => {
    expect(await resolve('alice', `https://elsewhere.example/f/${h.files.get(1)}`)).toBeNull();
    expect(await resolve('alice', `${HOST_URL}/apps/deck/board/1`)).toBeNull();
    // A file with a marker that the archive account does not own is the host's Files provider's.
    const foreign = await h.fixture.addFile('alice', 'files/Copy of Invoice one [P1].pdf');
    expect(await resolve('alice', `${HOST_URL}/f/${foreign}`)).toBeNull();
    expect(await resolve('bob', `${HOST_URL}/f/${foreign}`)).toBeNull();
    const missing = await call(h, 'GET', RESOLVE, as('alice'));
    expect(missing.status).toBe(400);
  });
});

describe('the search provider', () => {
  const SEARCH = '/ocs/v2.php/search/providers/docs_unified_search_documents/search';
  interface Entry {
    thumbnailUrl: string;
    title: string;
    subline: string;
    resourceUrl: string;
    icon: string;
    rounded: boolean;
    attributes: Record<string, string>;
  }
  interface Result {
    name: string;
    isPaginated: boolean;
    entries: Entry[];
    cursor: string | null;
  }
  const search = async (user: User, query: string) => {
    const answer = await call(h, 'GET', `${SEARCH}?${query}`, as(user));
    return { status: answer.status, data: answer.status === 200 ? answer.json<Envelope<Result>>().ocs.data : null, raw: answer };
  };
  const searchRequests = (): number => h.emulator.requests.filter((r) => r.path.endsWith('/api/documents/') && r.query.ordering === undefined).length;

  test('each user gets only documents whose file they can open, as unified-search entries', async () => {
    const alice = await search('alice', 'term=invoice');
    expect(alice.status).toBe(200);
    expect(alice.data?.name).toBe('Archive documents');
    expect(alice.data?.isPaginated).toBe(true);
    expect(alice.data?.entries.map((e) => e.title).sort()).toEqual(['Contract three', 'Invoice one', 'Invoice two']);
    const one = alice.data?.entries.find((e) => e.title === 'Invoice one');
    const fileId = h.files.get(1);
    expect(one).toMatchObject({
      resourceUrl: `${HOST_URL}/f/${fileId}`,
      thumbnailUrl: `${HOST_URL}/core/preview?fileId=${fileId}&x=64&y=64&mimeFallback=1`,
      rounded: false,
      attributes: expect.objectContaining({ documentId: '1', fileId: String(fileId), path: '/Shared/Invoice one [P1].pdf' }),
    });
    expect(one?.subline).toContain('ACME Corp');
    expect((await search('bob', 'term=invoice')).data?.entries.map((e) => e.title)).toEqual(['Invoice one']);
    expect((await search('admin', 'term=invoice')).data?.entries).toEqual([]);
  });

  test('limit and cursor page through the results', async () => {
    const first = await search('alice', 'term=invoice&limit=2');
    expect(first.data?.entries).toHaveLength(2);
    expect(first.data?.cursor).not.toBeNull();
    const rest = await search('alice', `term=invoice&limit=2&cursor=${first.data?.cursor ?? ''}`);
    expect(rest.data?.entries).toHaveLength(1);
    expect(rest.data?.cursor).toBeNull();
    const all = [...(first.data?.entries ?? []), ...(rest.data?.entries ?? [])].map((e) => e.title).sort();
    expect(all).toEqual(['Contract three', 'Invoice one', 'Invoice two']);
  });

  test('no term asks nothing; a limit outside 1–50, a malformed cursor or date is a 400 with a code', async () => {
    h.emulator.clearRequests();
    const empty = await search('alice', 'term=');
    expect(empty.data?.entries).toEqual([]);
    expect(searchRequests()).toBe(0);
    const badLimit = await search('alice', 'term=invoice&limit=lots');
    expect(badLimit.status).toBe(400);
    expect(badLimit.raw.json<Envelope<{ code: string }>>().ocs.data.code).toBe('usage');
    for (const query of ['limit=0', 'limit=51', 'limit=7.5', 'since=someday', 'until=2026-11-01Tnoon']) {
      const refused = await search('alice', `term=invoice&${query}`);
      expect([query, refused.status]).toEqual([query, 400]);
      expect(refused.raw.json<Envelope<{ code: string }>>().ocs.data.code).toBe('usage');
    }
    expect((await search('alice', 'term=invoice&limit=50')).status).toBe(200);
    const badCursor = await search('alice', 'term=invoice&cursor=-4');
    expect(badCursor.status).toBe(400);
    expect(badCursor.raw.json<Envelope<{ code: string }>>().ocs.data.code).toBe('usage');
    expect((await call(h, 'GET', `${SEARCH}?term=invoice`)).status).toBe(401);
  });

  test('a term too long for the archive server is a 400 usage; it never reaches the archive server or the history', async () => {
    h.context.settings.delete(['diagnostics', 'diagnostics_pending']);
    h.emulator.clearRequests();
    // 5000 characters (over the route's 1000) and 1000 characters that take 9000 bytes in a URL (over the core's 3000).
    for (const term of ['a'.repeat(5000), '日'.repeat(1000)]) {
      const refused = await search('alice', `term=${encodeURIComponent(term)}`);
      expect([term.length, refused.status, refused.raw.json<Envelope<{ code: string }>>().ocs.data.code]).toEqual([term.length, 400, 'usage']);
      const tried = await call(h, 'POST', '/apps/docs_unified_search/settings/try', {
        basic: ['admin', PASSWORDS.admin],
        headers: { 'ocs-apirequest': 'true' },
        json: { term, user: 'bob' },
      });
      expect([tried.status, tried.json().code]).toEqual([400, 'usage']);
    }
    // 100 000 characters make a request head larger than Node reads (16 KiB): refused before any route runs.
    const huge = await search('alice', `term=${'a'.repeat(100_000)}`);
    expect([huge.status, huge.raw.json().code]).toEqual([431, 'too_large']);
    expect(h.emulator.requests).toEqual([]);
    expect(h.context.settings.get('diagnostics')).toBeUndefined();
    expect((await search('alice', `term=${encodeURIComponent('日'.repeat(300))}`)).status).toBe(200);
  });

  test('a failing archive server gives no results, a history entry, and never the term in log or history', async () => {
    h.emulator.faults = [{ match: '/api/documents/', status: 500 }];
    const failed = await search('alice', 'term=zebrasecretterm');
    h.emulator.faults = [];
    expect(failed.status).toBe(200);
    expect(failed.data?.entries).toEqual([]);
    expect(h.context.settings.get('diagnostics_pending')).toBe(true);
    const history = await call(h, 'GET', '/apps/docs_unified_search/settings/diagnostics', as('admin'));
    expect(history.json<{ entries: { code: string }[] }>().entries[0]?.code).toBe('http');
    expect(history.text).not.toContain('zebrasecretterm');
    expect(readFileSync(join(h.configDir, 'host.log'), 'utf8')).not.toContain('zebrasecretterm');
  });
});

describe('Try a search', () => {
  const TRY = '/apps/docs_unified_search/settings/try';
  const admin = { ...as('admin'), headers: { 'ocs-apirequest': 'true' } };

  test('per document: id, title, whether it shows and why not; no file, path or content', async () => {
    const answer = await call(h, 'POST', TRY, { ...admin, form: { term: 'invoice', user: 'Bob' } });
    expect(answer.status).toBe(200);
    const body = answer.json<{
      user: string;
      found: number;
      note: string | null;
      documents: { id: number; title: string; shown: boolean; whyNot: string | null }[];
    }>();
    expect(body.user).toBe('bob');
    expect(body.found).toBe(4);
    // bob is an account of the database backend: nothing the verdicts cannot see.
    expect(body.note).toBeNull();
    const byId = new Map(body.documents.map((d) => [d.id, d]));
    expect(byId.get(1)).toMatchObject({ title: 'Invoice one', shown: true, whyNot: null });
    expect(byId.get(2)).toMatchObject({ shown: false, verdict: 'not shared' });
    expect(byId.get(2)?.whyNot).toContain('share the file or a folder holding it');
    expect(answer.text).not.toContain('/Shared');
    expect(answer.text).not.toContain('.pdf');
    expect(answer.text).not.toContain('content');
  });

  test('the audit log and the host log say which administrator searched as whom, without the term', async () => {
    await call(h, 'POST', TRY, { ...admin, form: { term: 'walrusterm', user: 'alice' } });
    const audit = readFileSync(join(h.configDir, 'config', 'audit.log'), 'utf8');
    expect(audit).toContain('alice');
    expect(audit).toContain('admin');
    expect(audit).not.toContain('walrusterm');
    const log = readFileSync(join(h.configDir, 'host.log'), 'utf8');
    expect(log).toContain('Administrator admin tried a search as alice');
    expect(log).not.toContain('walrusterm');
  });

  test('a term Paperless-ngx refuses with its own message: the provider lists nothing and keeps no problem; Try a search names the message', async () => {
    h.context.settings.delete(['diagnostics', 'diagnostics_pending']);
    const version = h.emulator.version;
    h.emulator.version = '3.2';
    h.emulator.clearRequests();
    try {
      const typed = await call(
        h,
        'GET',
        `/ocs/v2.php/search/providers/docs_unified_search_documents/search?term=${encodeURIComponent('title:200[1-9]')}`,
        as('alice'),
      );
      expect(typed.status).toBe(200);
      expect(typed.json<Envelope<{ entries: unknown[] }>>().ocs.data.entries).toEqual([]);
      expect(h.emulator.requests.map((r) => r.query.query)).toEqual(['title:200[1-9]']);
      expect(h.context.settings.get('diagnostics')).toBeUndefined();
      const tried = await call(h, 'POST', TRY, { ...admin, form: { term: 'title:200[1-9]', user: 'bob' } });
      expect(tried.status).toBe(200);
      expect(tried.json()).toMatchObject({
        rejected: true,
        rejection: 'refused',
        documents: [],
        rejectionMessage: expect.stringMatching(
          /^The archive server refused the search term \(HTTP 400\): '200\[1-9\]' looks like a bracket range for field 'title'/,
        ) as unknown as string,
      });
      const history = await call(h, 'GET', '/apps/docs_unified_search/settings/diagnostics', as('admin'));
      expect(history.json<{ entries: unknown[] }>().entries).toEqual([]);
    } finally {
      h.emulator.version = version;
    }
  });

  test('refusals: non-administrators 403, unknown user 400, missing term 400', async () => {
    expect((await call(h, 'POST', TRY, { ...as('alice'), headers: { 'ocs-apirequest': 'true' }, form: { term: 'x', user: 'bob' } })).status).toBe(403);
    const ghost = await call(h, 'POST', TRY, { ...admin, form: { term: 'invoice', user: 'ghost' } });
    expect(ghost.status).toBe(400);
    expect(ghost.json().code).toBe('unknown_user');
    const noTerm = await call(h, 'POST', TRY, { ...admin, form: { user: 'bob' } });
    expect(noTerm.status).toBe(400);
    expect(noTerm.json().code).toBe('usage');
  });
});

describe('Who can open a document', () => {
  const WHO = '/apps/docs_unified_search/settings/who';
  const admin = { ...as('admin'), headers: { 'ocs-apirequest': 'true' } };
  interface WhoBody {
    document: number;
    files: string[];
    noFile: string | null;
    accounts: { account: string; path: string | null; through: string | null; blocked: string | null }[];
  }

  test('every account that opens the file, with its path and the share; the blocked ones on request', async () => {
    const answer = await call(h, 'POST', WHO, { ...admin, form: { document: '[P1]' } });
    expect(answer.status).toBe(200);
    const body = answer.json<WhoBody>();
    expect(body.files).toEqual(['/files/Shared/Invoice one [P1].pdf']);
    // The harness's files sit in a folder named files (files/files/Shared): each path is as that account sees it.
    expect(body.accounts.map((a) => [a.account, a.path, a.through])).toEqual([
      ['alice', '/Shared/Invoice one [P1].pdf', 'user share of /files/Shared from archive'],
      ['archive', '/files/Shared/Invoice one [P1].pdf', "owner (the archive account's own folders)"],
      ['bob', '/Invoice one [P1].pdf', 'user share of /files/Shared/Invoice one [P1].pdf from archive'],
    ]);
    // carol (disabled) receives nothing here; the blocked list adds no one and keeps the order.
    const withBlocked = (await call(h, 'POST', WHO, { ...admin, form: { document: '1', includeBlocked: 'true' } })).json<WhoBody>();
    expect(withBlocked.accounts.map((a) => a.account)).toEqual(['alice', 'archive', 'bob']);
    const none = (await call(h, 'POST', WHO, { ...admin, form: { document: '99' } })).json<WhoBody>();
    expect([none.accounts, none.noFile?.includes('carries [P99]')]).toEqual([[], true]);
  });

  test('the audit log records which administrator asked about which document', async () => {
    await call(h, 'POST', WHO, { ...admin, form: { document: '4' } });
    const lines = readFileSync(join(h.configDir, 'config', 'audit.log'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { action: string; admin: string; detail?: { document?: number } });
    expect(lines.at(-1)).toMatchObject({ action: 'who_can_open', admin: 'admin', detail: { document: 4 } });
  });

  test('refusals: non-administrators 403, a document that is not an id 400, a call without the OCS-APIRequest header or request token 412', async () => {
    expect((await call(h, 'POST', WHO, { ...as('alice'), headers: { 'ocs-apirequest': 'true' }, form: { document: '1' } })).status).toBe(403);
    const bad = await call(h, 'POST', WHO, { ...admin, form: { document: 'twelve' } });
    expect([bad.status, bad.json().code]).toEqual([400, 'usage']);
    expect((await call(h, 'POST', WHO, { ...as('admin'), form: { document: '1' } })).status).toBe(412);
  });
});
