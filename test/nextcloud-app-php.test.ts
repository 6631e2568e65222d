/**
 * The bridge app's own PHP, run outside Nextcloud (test/support/php-app): what it tells the
 * service and what it passes on of the service's answers (issue 23). What Nextcloud does around
 * it (its middleware, its routes, its OCS answers) is test/nextcloud-bridge/'s, in a real Nextcloud.
 */
import { describe, expect, test } from '@jest/globals';
import { phpMissing, runAppPhp } from './support/php-app/index.js';

if (phpMissing) process.stdout.write("SKIP the bridge app's PHP: php is not installed\n");
const withPhp = phpMissing ? test.skip : test;
const NOW = 1_800_000_000;

/** A PHP expression giving `value` (through JSON: arrays stay arrays). */
function php(value: unknown): string {
  return `json_decode('${JSON.stringify(value).replaceAll('\\', '\\\\').replaceAll("'", "\\'")}', true)`;
}

describe('Save and Disconnect tell the service "confirmed" only after a typed password', () => {
  const confirmedFlag = (session: Record<string, unknown>, action: 'save' | 'disconnect' | 'show'): unknown =>
    runAppPhp(`
      Fake::$session = ${php(session)};
      Fake::answer(['url' => '']);
      $controller = new OCA\\DocsUnifiedSearch\\Controller\\SettingsController(Fake::request(['url' => 'https://archive.example']), Fake::bridge(), Fake::userSession(), Fake::session(), Fake::time(), Fake::l10n());
      $controller->${action}();
      echo json_encode(Fake::$sent[0]['headers']['X-DUS-Bridge-Confirmed']);
    `);

  withPhp.each([
    ['the login password, typed ten minutes ago', { 'last-password-confirm': NOW - 600 }, '1'],
    ["the login password, typed 30 minutes and 15 s ago (Nextcloud's own window)", { 'last-password-confirm': NOW - 1815 }, '1'],
    ['the login password, typed 31 minutes ago', { 'last-password-confirm': NOW - 1860 }, '0'],
    ['no confirmation at all', {}, '0'],
    // Nextcloud lets these through its PasswordConfirmationMiddleware: a stolen device token must not.
    ['an app password (Basic or Bearer), whatever else the session holds', { app_password: 'app-token', 'last-password-confirm': NOW }, '0'],
    ['a one-time token', { one_time_token: 'once', 'last-password-confirm': NOW }, '0'],
    ["AppAPI's call", { app_api: true, 'last-password-confirm': NOW }, '0'],
  ])('%s', (_name, session, flag) => {
    expect(confirmedFlag(session, 'save')).toBe(flag);
    expect(confirmedFlag(session, 'disconnect')).toBe(flag);
  });

  withPhp('routes without the attribute never send it, even just after a typed password', () => {
    expect(confirmedFlag({ 'last-password-confirm': NOW }, 'show')).toBe('0');
  });
});

describe("the app passes on no more of the service's answers than of any other server's", () => {
  const OWN = 'https://cloud.example.com';
  /** What the app's search provider makes of one answer of the service, and the log lines it wrote. */
  const search = (answer: unknown, times = 1): { results: { name: string; cursor: string | null; entries: Record<string, unknown>[] }[]; logs: string[] } =>
    runAppPhp(`
      Fake::answer(${typeof answer === 'string' ? `'${answer}'` : php(answer)});
      $provider = new OCA\\DocsUnifiedSearch\\Search\\DocumentsProvider(Fake::bridge(), Fake::userSession(), new class implements OCP\\IDateTimeZone {}, Fake::urls('${OWN}'), Fake::l10n());
      $query = new class implements OCP\\Search\\ISearchQuery {
        public function getTerm(): string { return 'invoice'; }
        public function getLimit(): int { return 10; }
        public function getCursor(): ?string { return null; }
        public function getFilter(string $name): ?object { return null; }
      };
      $results = [];
      for ($i = 0; $i < ${times}; $i++) {
        $result = $provider->search(Fake::user(), $query);
        $results[] = ['name' => $result->name, 'cursor' => $result->cursor, 'entries' => array_map(fn ($entry) => (array)$entry, $result->entries)];
      }
      echo json_encode(['results' => $results, 'logs' => Fake::$logs]);
    `) as { results: { name: string; cursor: string | null; entries: Record<string, unknown>[] }[]; logs: string[] };
  const ocs = (data: unknown): unknown => ({ ocs: { meta: { status: 'ok', statuscode: 200 }, data } });
  const entry = (fields: Record<string, unknown>): Record<string, unknown> => ({
    thumbnailUrl: `${OWN}/core/preview?fileId=7&x=64&y=64`,
    title: 'Invoice',
    subline: '2026-11-01',
    resourceUrl: `${OWN}/f/7`,
    icon: '/core/mimeicon?mime=application%2Fpdf',
    rounded: false,
    attributes: { documentId: '1' },
    ...fields,
  });

  withPhp("URLs are kept only when relative or on Nextcloud's own origin, over http(s)", () => {
    const urls: [string, string][] = [
      [`${OWN}/f/7`, `${OWN}/f/7`],
      ['/index.php/f/7', '/index.php/f/7'],
      ['https://CLOUD.example.com:443/f/7', 'https://CLOUD.example.com:443/f/7'],
      ['javascript:alert(document.cookie)', ''],
      [' javascript:alert(1)', ''],
      ['data:text/html,<script>alert(1)</script>', ''],
      ['https://evil.example/f/7', ''],
      ['//evil.example/f/7', ''],
      ['/\\evil.example/f/7', ''],
      ['http://cloud.example.com/f/7', ''], // another scheme is another origin
      ['https://cloud.example.com:8443/f/7', ''],
      ['https://cloud.example.com@evil.example/f/7', ''],
      ['https://user@cloud.example.com/f/7', ''],
      ['java\tscript:alert(1)', ''],
    ];
    const { results, logs } = search(ocs({ name: 'Archive', entries: urls.map(([url]) => entry({ resourceUrl: url, thumbnailUrl: url, icon: url })) }));
    expect(results[0]?.entries.map((e) => [e.resourceUrl, e.thumbnailUrl, e.icon])).toEqual(urls.map(([, kept]) => [kept, kept, kept]));
    expect(logs).toEqual([]);
  });

  withPhp('titles and texts are capped (500 and 1000 characters) and carry no C0, C1 or bidi control', () => {
    const title = `\u202Egnp.exe\u001B[2J ${'é'.repeat(512 * 1024)}`; // 1 MiB of UTF-8
    const { results } = search(
      ocs({
        name: 'Arch\u0007ive',
        entries: [
          entry({ title, subline: `a\tb\nc\u0085d\u2066e\u200Ff ${'x'.repeat(5000)}`, attributes: { excerpt: `\u001B]0;owned\u0007${'y'.repeat(2000)}` } }),
        ],
      }),
    );
    const [shown] = results[0]?.entries ?? [];
    // The result's name is the app's own (IL10N, the user's language): the service's control characters never reach it.
    expect(results[0]?.name).toBe('Archive documents');
    expect(shown?.title).toBe(`gnp.exe[2J ${'é'.repeat(500 - 11)}`);
    expect(shown?.subline).toBe(`a b cdef ${'x'.repeat(1000 - 9)}`);
    expect((shown?.attributes as Record<string, string>).excerpt).toBe(`]0;owned${'y'.repeat(1000 - 8)}`);
  });

  withPhp.each([
    ['entries of strings', { entries: ['a string'] }],
    ['entries not a list', { entries: 'a string' }],
    ['an entry whose title is an object', { entries: [entry({ title: { text: 'x' } })] }],
    ['an entry whose URL is a number', { entries: [entry({ resourceUrl: 7 })] }],
    ['attributes not an object', { entries: [entry({ attributes: 'x' })] }],
    ['rounded not a boolean', { entries: [entry({ rounded: 'yes' })] }],
  ])('a wrong shape (%s) gives an empty result and one log line naming the field, never an error', (_name, data) => {
    const { results, logs } = search(ocs({ name: 'Archive', ...data }), 2);
    expect(results.map((result) => result.entries)).toEqual([[], []]);
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatch(
      /^warning: The docs-unified-search service answered in a shape the app does not take \(search\): (entries|entries\[0\]\.\w*) is not/,
    );
  });

  withPhp('an answer over 2 MiB is not read whole: refused, empty, logged once; one just under is taken', () => {
    const padded = (bytes: number): string => {
      const body = JSON.stringify(ocs({ name: 'Archive', entries: [entry({})], pad: '' }));
      return body.replace('"pad":""', `"pad":"${'p'.repeat(bytes - body.length)}"`);
    };
    const over = search(padded(2 * 1024 * 1024 + 1), 2);
    expect(over.results.map((result) => result.entries)).toEqual([[], []]);
    expect(over.logs).toEqual(['warning: The docs-unified-search service did not answer: the answer was over 2 MiB, refused']);
    const under = search(padded(2 * 1024 * 1024));
    expect(under.results[0]?.entries).toHaveLength(1);
    expect(under.logs).toEqual([]);
  });

  withPhp("the dashboard's items and buttons and the smart picker's reference get the same rules", () => {
    const out = runAppPhp(`
      $widget = new OCA\\DocsUnifiedSearch\\Dashboard\\RecentWidget(Fake::bridge(), Fake::urls('${OWN}'), Fake::userSession(), Fake::l10n());
      Fake::answer(${php(ocs({ 'docs_unified_search-recent': { items: [{ title: '\u202Eevil', subtitle: 's', link: 'javascript:alert(1)', iconUrl: 'https://evil.example/i.png', sinceId: 7, overlayIconUrl: '/o.svg' }], emptyContentMessage: 'None' } }))});
      $items = $widget->getItemsV2('alice');
      Fake::answer(${php(ocs({ 'docs_unified_search-recent': { items: [['not', 'an', 'item']] } }))});
      $wrong = $widget->getItemsV2('alice');
      $provider = new OCA\\DocsUnifiedSearch\\Reference\\DocumentsReferenceProvider(Fake::bridge(), Fake::urls('${OWN}'), Fake::userSession(), Fake::l10n());
      $link = '${OWN}/f/7';
      Fake::answer(${php(ocs({ references: { [`${OWN}/f/7`]: { accessible: true, richObjectType: 'file', richObject: { id: '7', name: 'a\u001Bb', link: 'https://evil.example/f/7' }, openGraphObject: { name: 'n', description: null, thumb: 'https://evil.example/t.png', link: 'javascript:x' } } } }))});
      $reference = $provider->resolveReference($link);
      echo json_encode(['items' => array_map(fn ($item) => (array)$item, $items->items), 'wrong' => $wrong->items, 'reference' => $reference->set, 'logs' => Fake::$logs]);
    `);
    expect(out).toEqual({
      items: [{ title: 'evil', subtitle: 's', link: '', iconUrl: '', sinceId: '7', overlayIconUrl: '/o.svg' }],
      wrong: [],
      reference: {
        setAccessible: [true],
        setTitle: ['n'],
        setDescription: [''],
        setImageUrl: [''],
        setUrl: [`${OWN}/f/7`],
        setRichObject: ['file', { id: '7', name: 'ab', link: '' }],
      },
      logs: ['warning: The docs-unified-search service answered in a shape the app does not take (dashboard items): items[0] is not an object'],
    });
  });
});

describe('a challenge binds the call to the serve at service_url (issue 36)', () => {
  const calls = (servedAddress: string | null, serviceUrl = 'http://127.0.0.1:9'): { answer: unknown; sent: number; challenges: number; logs: string[] } =>
    runAppPhp(`
      Fake::$serviceUrl = '${serviceUrl}';
      Fake::$servedAddress = ${servedAddress === null ? 'null' : `'${servedAddress}'`};
      Fake::answer(['ocs' => ['data' => []]]);
      $answer = Fake::bridge()->call('GET', '/ocs/v2.php/search/providers', [], 'alice');
      echo json_encode(['answer' => $answer === null ? null : $answer['status'], 'sent' => count(Fake::$sent), 'challenges' => count(Fake::$challenges), 'logs' => Fake::$logs]);
    `) as { answer: unknown; sent: number; challenges: number; logs: string[] };

  withPhp('a challenge naming its own service_url (a trailing / aside): the signed call goes out', () => {
    expect(calls(null)).toEqual({ answer: 200, sent: 1, challenges: 1, logs: [] });
    expect(calls('http://127.0.0.1:9', 'http://127.0.0.1:9/')).toEqual({ answer: 200, sent: 1, challenges: 1, logs: [] });
  });

  withPhp('a challenge of another serve holding the secret (relayed by whatever took this address): nothing signed is sent, one log line names both', () => {
    expect(calls('http://127.0.0.1:8081')).toEqual({
      answer: null,
      sent: 0,
      challenges: 1,
      logs: [
        expect.stringContaining(
          'the service that answered at service_url serves http://127.0.0.1:8081, not http://127.0.0.1:9, no signed call was sent',
        ) as unknown as string,
      ],
    });
    expect(calls('unix:///run/other/serve.sock', 'unix:///run/docs-unified-search/serve.sock').sent).toBe(0);
  });
});
