import { beforeEach, describe, expect, it } from '@jest/globals';
import { createArchiveClient } from '../src/core/archive/archive-client.js';
import type { ArchiveClientOptions, ResolvedAddress } from '../src/core/archive/types.js';
import { isLocalAddress } from '../src/core/net/address-guard.js';
import { failureOf, useArchiveEmulator } from './support/archive-client-helpers.js';
import { startArchiveEmulator } from './support/archive-emulator/index.js';
import type { ArchiveEmulator } from './support/archive-emulator/types.js';

/**
 * Redirect rules and the local-address guard over loopback. Test-only seams stand in for
 * the public network: `archive.test` and `other.test` resolve to 127.0.0.1, and the address
 * rule treats 127.0.0.1 as public while every other address keeps the real rule.
 */

const TOKEN = 'redirect-test-token-Pw93kd';
const TIMEOUTS = { connectMs: 500, answerMs: 2000, widgetAnswerMs: 2000, retryWindowMs: 3500 };

const NAMES: Record<string, readonly ResolvedAddress[]> = {
  'archive.test': [{ address: '127.0.0.1', family: 4 }],
  'other.test': [{ address: '127.0.0.1', family: 4 }],
  [`${'redirect-test-token-Pw93kd'.toLowerCase()}.test`]: [{ address: '127.0.0.1', family: 4 }],
  'zoned6.test': [{ address: 'fe80::1%eth0', family: 6 }],
  'garbage.test': [{ address: 'not-an-address', family: 4 }],
  'mixed.test': [
    { address: '93.184.215.14', family: 4 },
    { address: '10.0.0.7', family: 4 },
  ],
  'mixed-families.test': [
    { address: '2606:4700:4700::1111', family: 6 },
    { address: '93.184.215.14', family: 4 },
    { address: '::ffff:10.0.0.7', family: 6 },
  ],
  'mapped.test': [{ address: '::ffff:192.168.0.10', family: 6 }],
  'mapped-hex.test': [{ address: '::ffff:a9fe:a9fe', family: 6 }],
  'private6.test': [{ address: 'fd00::5', family: 6 }],
  'linklocal6.test': [{ address: 'fe80::1', family: 6 }],
  'metadata.test': [{ address: '169.254.169.254', family: 4 }],
  'cgnat.test': [{ address: '100.100.100.200', family: 4 }],
  'zero.test': [{ address: '0.0.0.0', family: 4 }],
  'loop6.test': [{ address: '::1', family: 6 }],
  'nat64.test': [{ address: '64:ff9b::a00:1', family: 6 }],
  'sixtofour.test': [{ address: '2002:c0a8:1::1', family: 6 }],
  'odd.test': [{ address: '0x7f.1', family: 4 }],
};

const lookups: string[] = [];
async function resolver(hostname: string): Promise<readonly ResolvedAddress[]> {
  lookups.push(hostname);
  // DNS rebinding: the first answer is public, every later one local.
  if (hostname === 'rebind.test') {
    return [{ address: lookups.filter((name) => name === hostname).length === 1 ? '127.0.0.1' : '10.0.0.7', family: 4 }];
  }
  const answers = NAMES[hostname];
  if (answers === undefined) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  return answers;
}

/** Loopback 127.0.0.1 plays the public internet; everything else is judged by the real rule. */
function testNetworkIsLocal(address: string): boolean {
  return address === '127.0.0.1' ? false : isLocalAddress(address);
}

const seams: ArchiveClientOptions = { timeouts: TIMEOUTS, resolver, isLocalAddress: testNetworkIsLocal };

describe('redirects', () => {
  let emulator: ArchiveEmulator;
  let base: string;
  useArchiveEmulator({ version: '2.20', tokens: [TOKEN], pathPrefix: '/paperless' }, (started) => {
    emulator = started;
    base = `http://archive.test:${started.port}/paperless`;
  });
  beforeEach(() => {
    lookups.length = 0;
  });

  it('follows a same-origin redirect and keeps the token', async () => {
    emulator.faults = [
      { match: '/old/', times: 1, redirectTo: `http://archive.test:${emulator.port}/paperless/api/documents/?page_size=1&fields=id`, redirectStatus: 301 },
    ];
    const client = createArchiveClient({ url: `http://archive.test:${emulator.port}/paperless/old`, token: TOKEN, allowLocal: false }, seams);
    const result = await client.testConnection();
    expect(result.count).toBeGreaterThan(0);
    expect(emulator.requests.map((r) => [r.path, r.headers.authorization])).toEqual([
      ['/paperless/old/api/documents/', `Token ${TOKEN}`],
      ['/paperless/api/documents/', `Token ${TOKEN}`],
    ]);
    expect(lookups).toEqual(['archive.test', 'archive.test']);
  });

  it('leaves the token out on a hop to another origin (the archive server then refuses)', async () => {
    emulator.faults = [{ match: '/api/documents/', times: 1, redirectTo: `http://other.test:${emulator.port}/paperless/api/documents/?page_size=1&fields=id` }];
    const failure = await failureOf(createArchiveClient({ url: base, token: TOKEN, allowLocal: false }, seams).testConnection(), TOKEN);
    expect(failure.code).toBe('unauthorized');
    // What to correct is the address, not the token.
    expect(failure.message).toContain(`forwards to other.test:${emulator.port}`);
    expect(emulator.requests.map((r) => [r.headers.host, r.headers.authorization])).toEqual([
      [`archive.test:${emulator.port}`, `Token ${TOKEN}`],
      [`other.test:${emulator.port}`, undefined],
    ]);
  });

  it("a token refused on the same origin after a redirect is the token's fault", async () => {
    emulator.faults = [{ match: '/api/documents/', times: 1, redirectTo: '/paperless/api/documents/?page_size=1&fields=id' }];
    const failure = await failureOf(createArchiveClient({ url: base, token: 'not-the-token', allowLocal: false }, seams).testConnection(), TOKEN);
    expect(failure.code).toBe('unauthorized');
    expect(failure.message).toContain('refused the API token');
  });

  it('leaves the token out on a hop to another port of the same host', async () => {
    const other = await startArchiveEmulator({ version: '2.20', tokens: [TOKEN] });
    try {
      emulator.faults = [{ match: '/api/documents/', times: 1, redirectTo: `http://archive.test:${other.port}/api/documents/?page_size=1&fields=id` }];
      const failure = await failureOf(createArchiveClient({ url: base, token: TOKEN, allowLocal: false }, seams).testConnection(), TOKEN);
      expect([failure.code, failure.status]).toEqual(['unauthorized', 401]);
      expect(emulator.requests[0]?.headers.authorization).toBe(`Token ${TOKEN}`);
      expect(other.requests.map((r) => r.headers.authorization)).toEqual([undefined]);
    } finally {
      await other.close();
    }
  });

  it('keeps the token on a relative redirect, which stays on the same origin', async () => {
    emulator.faults = [{ match: '/api/documents/', times: 1, redirectTo: '../../api/documents/?page_size=1&fields=id' }];
    await createArchiveClient({ url: base, token: TOKEN, allowLocal: false }, seams).testConnection();
    expect(emulator.requests.map((r) => [r.path, r.headers.authorization])).toEqual([
      ['/paperless/api/documents/', `Token ${TOKEN}`],
      ['/paperless/api/documents/', `Token ${TOKEN}`],
    ]);
  });

  it('leaves the token out on a scheme-relative redirect (//host) to another host', async () => {
    emulator.faults = [{ match: '/api/documents/', times: 1, redirectTo: `//other.test:${emulator.port}/paperless/api/documents/?page_size=1&fields=id` }];
    const failure = await failureOf(createArchiveClient({ url: base, token: TOKEN, allowLocal: false }, seams).testConnection(), TOKEN);
    expect(failure.code).toBe('unauthorized');
    expect(emulator.requests.map((r) => [r.headers.host, r.headers.authorization])).toEqual([
      [`archive.test:${emulator.port}`, `Token ${TOKEN}`],
      [`other.test:${emulator.port}`, undefined],
    ]);
  });

  it('leaves the token out when a redirect drops from https to http', async () => {
    const secure = await startArchiveEmulator({ version: '2.20', tokens: [TOKEN], https: true });
    try {
      secure.faults = [
        { match: '/api/documents/', times: 1, redirectTo: `http://archive.test:${emulator.port}/paperless/api/documents/?page_size=1&fields=id` },
      ];
      // The test certificate names 127.0.0.1, which the seams count as public.
      const client = createArchiveClient({ url: `https://127.0.0.1:${secure.port}`, token: TOKEN, allowLocal: false }, { ...seams, ca: secure.ca });
      const failure = await failureOf(client.testConnection(), TOKEN);
      expect(failure.code).toBe('unauthorized');
      expect(secure.requests.map((r) => r.headers.authorization)).toEqual([`Token ${TOKEN}`]);
      expect(emulator.requests.map((r) => r.headers.authorization)).toEqual([undefined]);
    } finally {
      await secure.close();
    }
  });

  it('connects to the address it checked: a second, local DNS answer is never asked for or used', async () => {
    const client = createArchiveClient({ url: `http://rebind.test:${emulator.port}/paperless`, token: TOKEN, allowLocal: false }, seams);
    await expect(client.testConnection()).resolves.toMatchObject({ count: expect.any(Number) });
    expect(lookups).toEqual(['rebind.test']);
    expect(emulator.requests).toHaveLength(1);
    // The next request resolves anew and meets the local answer.
    const failure = await failureOf(client.testConnection(), TOKEN);
    expect(failure.code).toBe('local_address');
    expect(emulator.requests).toHaveLength(1);
  });

  it.each([
    ['answers without the token', (port: number) => `http://${TOKEN.toLowerCase()}.test:${port}/paperless/api/documents/`, 'unauthorized'],
    ['does not resolve', (port: number) => `http://x${TOKEN}.test:${port}/`, 'unknown_host'],
    ['is local', (_port: number) => `http://${TOKEN}.local/`, 'local_address'],
  ])('a forward to a host named after the token that %s: the failure does not repeat it', async (_name, target, code) => {
    emulator.faults = [{ match: '/api/documents/', times: 1, redirectTo: target(emulator.port) }];
    const failure = await failureOf(createArchiveClient({ url: base, token: TOKEN, allowLocal: false }, seams).testConnection(), TOKEN);
    expect(failure.code).toBe(code);
    const printable = [failure.message, String(failure.stack), String(failure.cause), JSON.stringify(failure)].join('\n').toLowerCase();
    expect(printable).not.toContain(TOKEN.toLowerCase());
  });

  it('follows up to 5 redirects', async () => {
    emulator.faults = [
      { match: '/hop1/', times: 1, redirectTo: '/paperless/hop2/' },
      { match: '/hop2/', times: 1, redirectTo: '/paperless/hop3/' },
      { match: '/hop3/', times: 1, redirectTo: '/paperless/hop4/' },
      { match: '/hop4/', times: 1, redirectTo: '/paperless/api/documents/?page_size=1&fields=id' },
      { match: '/api/documents/', times: 1, redirectTo: '/paperless/hop1/' },
    ];
    const result = await createArchiveClient({ url: base, token: TOKEN, allowLocal: false }, seams).testConnection();
    expect(result.count).toBeGreaterThan(0);
    expect(emulator.requests).toHaveLength(6);
  });

  it('refuses a sixth redirect', async () => {
    emulator.faults = [{ match: '/api/documents/', redirectTo: '/paperless/api/documents/?page_size=1&fields=id' }];
    const failure = await failureOf(createArchiveClient({ url: base, token: TOKEN, allowLocal: false }, seams).testConnection(), TOKEN);
    expect(failure.code).toBe('redirect');
    expect(emulator.requests).toHaveLength(6);
  });

  it('follows none with the local-network switch on', async () => {
    emulator.faults = [{ match: '/api/documents/', times: 1, redirectTo: '/paperless/api/documents/?page_size=1&fields=id' }];
    const failure = await failureOf(createArchiveClient({ url: emulator.url, token: TOKEN, allowLocal: true }, { timeouts: TIMEOUTS }).testConnection(), TOKEN);
    expect(failure.code).toBe('redirect');
    expect(failure.status).toBe(302);
    expect(emulator.requests).toHaveLength(1);
  });

  it.each([
    ['a loopback address', (port: number) => `http://127.0.0.2:${port}/paperless/api/documents/`],
    ['an odd spelling of loopback', (port: number) => `http://2130706434:${port}/paperless/api/documents/`],
    ['a private address', (_port: number) => 'http://10.1.2.3/api/documents/'],
    ['the metadata address', (_port: number) => 'http://169.254.169.254/latest/meta-data/'],
    ['an IPv4-mapped loopback', (port: number) => `http://[::ffff:127.0.0.2]:${port}/paperless/api/documents/`],
    ['localhost', (port: number) => `http://localhost:${port}/paperless/api/documents/`],
    ['a dot-less name', (port: number) => `http://paperless:${port}/paperless/api/documents/`],
    ['a name resolving to a local address', (_port: number) => 'http://metadata.test/'],
  ])('never follows one to %s', async (_name, target) => {
    emulator.faults = [{ match: '/api/documents/', times: 1, redirectTo: target(emulator.port) }];
    const failure = await failureOf(createArchiveClient({ url: base, token: TOKEN, allowLocal: false }, seams).testConnection(), TOKEN);
    expect(failure.code).toBe('local_address');
    expect(emulator.requests).toHaveLength(1);
  });

  it('with the switch on, follows none even back to the same local server', async () => {
    emulator.faults = [{ match: '/api/documents/', times: 1, redirectTo: `http://127.0.0.1:${emulator.port}/paperless/api/documents/` }];
    const failure = await failureOf(
      createArchiveClient({ url: `http://localhost:${emulator.port}/paperless`, token: TOKEN, allowLocal: true }, { timeouts: TIMEOUTS }).testConnection(),
      TOKEN,
    );
    expect(failure.code).toBe('redirect');
    expect(emulator.requests).toHaveLength(1);
  });

  it.each(['ftp://archive.test/api/documents/', 'file:///etc/passwd', 'http://user:secret@archive.test/paperless/api/documents/'])(
    'refuses a redirect to %s',
    async (target) => {
      emulator.faults = [{ match: '/api/documents/', times: 1, redirectTo: target }];
      const failure = await failureOf(createArchiveClient({ url: base, token: TOKEN, allowLocal: false }, seams).testConnection(), TOKEN);
      expect(failure.code).toBe('redirect');
      expect(failure.message).not.toContain('secret');
      expect(emulator.requests).toHaveLength(1);
    },
  );
});

describe('local-network addresses are refused before any connection', () => {
  let emulator: ArchiveEmulator;
  useArchiveEmulator({ version: '2.20', tokens: [TOKEN] }, (started) => (emulator = started));

  const literalHosts = (port: number): string[] => [
    `127.0.0.1:${port}`,
    `127.0.0.2:${port}`,
    `2130706433:${port}`,
    `0177.0.0.1:${port}`,
    `0x7f.1:${port}`,
    `0x7f000001:${port}`,
    `127.1:${port}`,
    `017700000001:${port}`,
    `[::1]:${port}`,
    `[::ffff:127.0.0.1]:${port}`,
    `[::ffff:7f00:1]:${port}`,
    `[0:0:0:0:0:ffff:7f00:1]:${port}`,
    `[::127.0.0.1]:${port}`,
    `[64:ff9b::7f00:1]:${port}`,
    `[2002:7f00:1::]:${port}`,
    '10.0.0.1',
    '172.16.5.4',
    '192.168.178.1',
    '169.254.169.254',
    '0xA9FEA9FE',
    '100.64.0.1',
    '100.100.100.200',
    '0.0.0.0',
    '0',
    '224.0.0.1',
    '255.255.255.255',
    '198.18.0.1',
    '168.63.129.16',
    '[fe80::1]',
    '[fc00::1]',
    '[fd00:ec2::254]',
    '[::]',
    '[ff02::1]',
    '[::ffff:10.0.0.1]',
    '[::ffff:a9fe:a9fe]',
    `localhost:${port}`,
    `LOCALHOST.:${port}`,
    `localhost%2e:${port}`, // percent-encoded trailing dot
    `ｌｏｃａｌｈｏｓｔ:${port}`, // full-width letters, mapped by IDNA
    `①②⑦.⓪.⓪.①:${port}`, // circled digits, mapped to 127.0.0.1
    `127。0。0。1:${port}`, // ideographic full stops
    `paperless:${port}`,
    'archive.local',
    'docs.internal',
    'nas.lan',
    'server.home',
  ];

  const resolvedHosts = [
    'mixed.test', // a public answer first, a local one second
    'mixed-families.test', // public IPv6 and IPv4 answers, then an IPv4-mapped local one
    'mapped.test',
    'mapped-hex.test',
    'private6.test',
    'linklocal6.test',
    'metadata.test',
    'cgnat.test',
    'zero.test',
    'loop6.test',
    'nat64.test',
    'sixtofour.test',
    'odd.test',
    'zoned6.test', // a link-local answer with a zone id
    'garbage.test', // an answer that is no address at all
  ];

  it('refuses at least 40 local forms with local_address and never reaches the server', async () => {
    const hosts = [...literalHosts(emulator.port), ...resolvedHosts];
    expect(hosts.length).toBeGreaterThanOrEqual(40);
    const refused: string[] = [];
    for (const host of hosts) {
      emulator.clearRequests();
      lookups.length = 0;
      // The real address rule; the resolver seam only supplies the answers of the .test names.
      const client = createArchiveClient({ url: `http://${host}`, token: TOKEN, allowLocal: false }, { timeouts: TIMEOUTS, resolver });
      const failure = await failureOf(client.testConnection(), TOKEN);
      if (failure.code === 'local_address' && failure.beforeConnection && emulator.requests.length === 0) refused.push(host);
      expect(lookups.length).toBeLessThanOrEqual(1);
    }
    expect(refused).toEqual(hosts);
    expect(emulator.connections).toBe(0);
  });

  it('lets the configured origin be local with the switch on, and only that origin', async () => {
    const local = createArchiveClient({ url: `http://localhost:${emulator.port}`, token: TOKEN, allowLocal: true }, { timeouts: TIMEOUTS });
    await expect(local.testConnection()).resolves.toMatchObject({ count: expect.any(Number) });
  });
});
