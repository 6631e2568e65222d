import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { call, HOST_URL, PASSWORDS, startHarness, type Harness } from './http-harness.js';

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
    return answer.json<Envelope<{ references: Record<string, { accessible: boolean; richObject: Record<string, string> | null } | null> }>>().ocs.data.references[reference];
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

  test('links that are not archive files of this host are not this provider\'s', async () => {
    expect(await resolve('alice', `https://elsewhere.example/f/${h.files.get(1)}`)).toBeNull();
    expect(await resolve('alice', `${HOST_URL}/apps/deck/board/1`)).toBeNull();
    const missing = await call(h, 'GET', RESOLVE, as('alice'));
    expect(missing.status).toBe(400);
  });
});
