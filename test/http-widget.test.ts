import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { MESSAGE_EMPTY, MESSAGE_UNREACHABLE, WIDGET_ID } from '../src/core/widget/widget-items.js';
import { call, DEFAULT_DOCUMENTS, doc, HOST_URL, PASSWORDS, startHarness, type Harness } from './support/http-harness.js';

const ITEMS = '/ocs/v2.php/apps/dashboard/api/v2/widget-items';
const WIDGETS = '/ocs/v2.php/apps/dashboard/api/v1/widgets';

interface Item {
  title: string;
  subtitle: string;
  link: string;
  iconUrl: string;
  sinceId: string;
  overlayIconUrl: string;
}
interface Items {
  items: Item[];
  emptyContentMessage: string;
  halfEmptyContentMessage: string;
  moreUrl: string | null;
}

let h: Harness;

beforeAll(async () => {
  h = await startHarness({ clockedCache: true });
});

afterAll(async () => {
  await h.close();
});

type User = keyof typeof PASSWORDS;

async function widget(user: User, query = '', harness: Harness = h): Promise<Items | undefined> {
  const answer = await call(harness, 'GET', `${ITEMS}?widgets[]=${WIDGET_ID}${query}`, { basic: [user, PASSWORDS[user]] });
  expect(answer.status).toBe(200);
  return answer.json<{ ocs: { data: Record<string, Items> } }>().ocs.data[WIDGET_ID];
}

const newestRequests = (): number => h.emulator.requests.filter((r) => r.path.endsWith('/api/documents/') && r.query.ordering === '-added').length;

describe('the newest documents, per user', () => {
  test('each user sees only documents whose file they can open, newest first, with the host link and preview', async () => {
    const alice = await widget('alice');
    expect(alice?.items.map((i) => i.title)).toEqual(['Contract three', 'Invoice two', 'Invoice one']);
    const first = alice?.items[0];
    const file3 = h.files.get(3);
    expect(first).toEqual({
      title: 'Contract three',
      subtitle: 'Nov 3, 2026 · Contract',
      link: `${HOST_URL}/f/${file3}`,
      iconUrl: `${HOST_URL}/core/preview?fileId=${file3}&x=64&y=64&mimeFallback=1`,
      sinceId: '2026-11-03T10:00:00+00:00',
      overlayIconUrl: '',
    });
    expect(alice?.items[1]?.subtitle).toBe('Nov 2, 2026 · Bank of Springfield · Bank statement');
    expect((await widget('bob'))?.items.map((i) => i.title)).toEqual(['Invoice one']);
    // The day is written in the user's language.
    await h.fixture.setUserPreference('bob', 'core', 'lang', 'de_DE');
    expect((await widget('bob'))?.items[0]?.subtitle).toBe('01.11.2026 · ACME Corp · Invoice');
    expect((await widget('archive'))?.items).toHaveLength(4);
    const admin = await widget('admin');
    expect(admin?.items).toEqual([]);
    expect(admin?.emptyContentMessage).toBe(MESSAGE_EMPTY);
  });

  test('the archive server was asked once for all of them, with the spec query', () => {
    expect(newestRequests()).toBe(1);
    const asked = h.emulator.requests.find((r) => r.query.ordering === '-added');
    expect(asked?.query).toMatchObject({ ordering: '-added', page: '1', page_size: '25', fields: 'id,title,added,correspondent,document_type' });
  });

  test('sinceIds lists only documents added after the given moment', async () => {
    const since = encodeURIComponent(DEFAULT_DOCUMENTS[0]?.added ?? '');
    const later = await widget('alice', `&sinceIds[${WIDGET_ID}]=${since}`);
    expect(later?.items.map((i) => i.title)).toEqual(['Contract three', 'Invoice two']);
    const bad = await call(h, 'GET', `${ITEMS}?widgets[]=${WIDGET_ID}&sinceIds[${WIDGET_ID}]=yesterday-ish`, { basic: ['alice', PASSWORDS.alice] });
    expect(bad.status).toBe(400);
  });

  test('limit: default 7, 1 to 30 (else 400); the list-full link only when full and never for the archive account', async () => {
    const two = await widget('alice', '&limit=2');
    expect(two?.items).toHaveLength(2);
    expect(two?.moreUrl).toBe(`${HOST_URL}/apps/files/sharingin`);
    expect((await widget('alice'))?.moreUrl).toBeNull();
    const archive = await widget('archive', '&limit=2');
    expect(archive?.items).toHaveLength(2);
    expect(archive?.moreUrl).toBeNull();
    expect((await widget('archive', '&limit=30'))?.items).toHaveLength(4);
    for (const limit of ['many', '0', '31', '500', '2.5']) {
      const bad = await call(h, 'GET', `${ITEMS}?widgets[]=${WIDGET_ID}&limit=${limit}`, { basic: ['alice', PASSWORDS.alice] });
      expect([limit, bad.status]).toEqual([limit, 400]);
      expect(bad.json<{ ocs: { data: { code: string } } }>().ocs.data.code).toBe('usage');
    }
  });

  test('other widgets asked for get nothing from this one; v1 returns the bare items', async () => {
    const other = await call(h, 'GET', `${ITEMS}?widgets[]=recommendations`, { basic: ['alice', PASSWORDS.alice] });
    expect(other.json<{ ocs: { data: object } }>().ocs.data).toEqual({});
    const v1 = await call(h, 'GET', `/ocs/v2.php/apps/dashboard/api/v1/widget-items?widgets[]=${WIDGET_ID}`, { basic: ['bob', PASSWORDS.bob] });
    expect(v1.json<{ ocs: { data: Record<string, Item[]> } }>().ocs.data[WIDGET_ID]?.map((i) => i.title)).toEqual(['Invoice one']);
  });

  test('100 concurrent loads by four users within the minute ask the archive server no more', async () => {
    const users: User[] = ['alice', 'bob', 'archive', 'admin'];
    await Promise.all(Array.from({ length: 100 }, (_, i) => widget(users[i % users.length] ?? 'alice')));
    expect(newestRequests()).toBe(1);
  });

  test('after a minute the list is asked for again', async () => {
    h.clock.now += 61_000;
    await widget('alice');
    expect(newestRequests()).toBe(2);
  });
});

describe('more new documents than the default limit', () => {
  // A harness of its own: the shared one has too few documents to tell a default of 7 from a smaller one.
  let many: Harness;
  const letters = [5, 6, 7, 8, 9, 10].map((id) => doc(id, `Letter ${id}`, `2026-11-${String(id).padStart(2, '0')}T10:00:00+00:00`));

  beforeAll(async () => {
    many = await startHarness({ documents: [...DEFAULT_DOCUMENTS, ...letters] });
    for (const letter of letters) many.files.set(letter.id, await many.fixture.addFile('archive', `files/Shared/${letter.title} [P${letter.id}].pdf`));
  });

  afterAll(async () => {
    await many.close();
  });

  test('without limit, exactly 7 of the 9 that alice can open, the newest first', async () => {
    const all = await widget('alice', '&limit=30', many);
    expect(all?.items.map((i) => i.title)).toEqual([
      'Letter 10',
      'Letter 9',
      'Letter 8',
      'Letter 7',
      'Letter 6',
      'Letter 5',
      'Contract three',
      'Invoice two',
      'Invoice one',
    ]);
    const byDefault = await widget('alice', '', many);
    expect(byDefault?.items.map((i) => i.title)).toEqual(all?.items.slice(0, 7).map((i) => i.title));
    expect(byDefault?.moreUrl).toBe(`${HOST_URL}/apps/files/sharingin`);
  });
});

describe('an archive server that does not answer', () => {
  test('rests a minute; the widget says it is unreachable; then it is asked again', async () => {
    h.emulator.faults = [{ match: '/api/documents/', status: 503 }];
    h.clock.now += 61_000;
    const down = await widget('alice');
    expect(down?.items).toEqual([]);
    expect(down?.emptyContentMessage).toBe(MESSAGE_UNREACHABLE);
    expect(newestRequests()).toBe(3);
    await widget('bob');
    await widget('alice');
    expect(newestRequests()).toBe(3);
    h.emulator.faults = [];
    h.clock.now += 61_000;
    expect((await widget('alice'))?.items).toHaveLength(3);
    expect(newestRequests()).toBe(4);
  });
});

describe('offering the widget', () => {
  test('the widgets list names it, with the shared-with-you button except for the archive account', async () => {
    const alice = await call(h, 'GET', WIDGETS, { basic: ['alice', PASSWORDS.alice] });
    const entry = alice.json<{ ocs: { data: Record<string, { title: string; buttons: { type: string; link: string }[] }> } }>().ocs.data[WIDGET_ID];
    expect(entry?.title).toBe('New in the archive');
    expect(entry?.buttons).toEqual([{ type: 'more', text: expect.any(String), link: `${HOST_URL}/apps/files/sharingin` }]);
    const archive = await call(h, 'GET', WIDGETS, { basic: ['archive', PASSWORDS.archive] });
    expect(archive.json<{ ocs: { data: Record<string, { buttons: unknown[] }> } }>().ocs.data[WIDGET_ID]?.buttons).toEqual([]);
  });

  test('not offered when the archive account does not exist, nor without an archive server', async () => {
    h.context.settings.update({ archive_owner: 'ghost' });
    expect((await call(h, 'GET', WIDGETS, { basic: ['alice', PASSWORDS.alice] })).json<{ ocs: { data: object } }>().ocs.data).toEqual({});
    expect(await widget('alice')).toBeUndefined();
    h.context.settings.update({ archive_owner: 'archive', docs_url: undefined });
    expect(await widget('alice')).toBeUndefined();
  });
});
