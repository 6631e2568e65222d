import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { isLocalAddress, isLocalHostname, literalAddress } from '../src/core/net/address-guard.js';
import { chooseDestination } from '../src/core/net/destination.js';

const LOCAL_ADDRESSES = [
  '127.0.0.1',
  '127.255.255.254',
  '10.0.0.1',
  '10.255.255.255',
  '172.16.0.1',
  '172.31.255.254',
  '192.168.1.1',
  '169.254.0.1',
  '169.254.169.254', // AWS, GCP, Azure, OpenStack metadata
  '169.254.170.2', // ECS task metadata
  '100.64.0.1',
  '100.100.100.200', // Alibaba metadata (CGNAT)
  '100.127.255.254',
  '0.0.0.0',
  '0.1.2.3',
  '224.0.0.1',
  '239.255.255.250',
  '255.255.255.255',
  '240.0.0.1',
  '192.0.0.192', // Oracle metadata (IETF protocol assignments)
  '192.0.2.10',
  '198.18.0.1',
  '198.51.100.7',
  '203.0.113.9',
  '168.63.129.16', // Azure wire server
  '::',
  '::1',
  'fe80::1',
  'febf::1',
  'fc00::1',
  'fd00:ec2::254', // AWS metadata over IPv6
  'fd12:3456:789a::1',
  'ff02::1',
  'fec0::1',
  '::ffff:127.0.0.1',
  '::ffff:7f00:1',
  '::ffff:10.1.2.3',
  '::ffff:169.254.169.254',
  '::ffff:0:10.0.0.1', // RFC 6145 translated form
  '::127.0.0.1', // IPv4-compatible (deprecated)
  '::7f00:1',
  '64:ff9b::7f00:1', // NAT64 of 127.0.0.1
  '64:ff9b::a00:1', // NAT64 of 10.0.0.1
  '64:ff9b:1::808:808', // local-use NAT64 prefix
  '2002:7f00:1::1', // 6to4 of 127.0.0.1
  '2002:c0a8:101::1', // 6to4 of 192.168.1.1
  '2001:0:4136:e378:8000:63bf:80ff:fffe', // Teredo, client 127.0.0.1
  '2001:db8::1',
  '100::1',
  'fe80::1%eth0',
  '2606:4700:4700::1111%eth0', // a zone id makes sense on a local link only
];

const PUBLIC_ADDRESSES = [
  '8.8.8.8',
  '1.1.1.1',
  '93.184.215.14',
  '172.32.0.1',
  '172.15.255.255',
  '100.63.255.255',
  '100.128.0.1',
  '192.169.0.1',
  '2606:4700:4700::1111',
  '2a00:1450:4001:80b::200e',
  '::ffff:8.8.8.8',
  '64:ff9b::808:808', // NAT64 of a public address: how IPv6-only hosts reach IPv4 servers
  '2002:808:808::1', // 6to4 of a public address
];

describe('isLocalAddress', () => {
  it.each(LOCAL_ADDRESSES)('refuses %s', (address) => {
    expect(isLocalAddress(address)).toBe(true);
  });

  it.each(PUBLIC_ADDRESSES)('allows %s', (address) => {
    expect(isLocalAddress(address)).toBe(false);
  });

  it('counts what is no address at all as local', () => {
    expect(isLocalAddress('not-an-address')).toBe(true);
    expect(isLocalAddress('')).toBe(true);
    expect(isLocalAddress('1.2.3.999')).toBe(true);
  });

  it('judges an IPv4 address and its IPv4-mapped IPv6 form alike', () => {
    fc.assert(
      fc.property(fc.ipV4(), (v4) => {
        expect(isLocalAddress(`::ffff:${v4}`)).toBe(isLocalAddress(v4));
      }),
    );
  });

  it('refuses every address of the private, loopback, link-local and CGNAT ranges', () => {
    const inRange = (first: number, second: fc.Arbitrary<number>) =>
      fc.tuple(second, fc.integer({ min: 0, max: 255 }), fc.integer({ min: 0, max: 255 })).map(([b, c, d]) => `${first}.${b}.${c}.${d}`);
    const local = fc.oneof(
      inRange(10, fc.integer({ min: 0, max: 255 })),
      inRange(127, fc.integer({ min: 0, max: 255 })),
      inRange(172, fc.integer({ min: 16, max: 31 })),
      inRange(192, fc.constant(168)),
      inRange(169, fc.constant(254)),
      inRange(100, fc.integer({ min: 64, max: 127 })),
    );
    fc.assert(fc.property(local, (address) => isLocalAddress(address)));
  });
});

describe('literalAddress', () => {
  it.each([
    ['2130706433', '127.0.0.1'],
    ['0177.0.0.1', '127.0.0.1'],
    ['0x7f.1', '127.0.0.1'],
    ['0x7f000001', '127.0.0.1'],
    ['127.1', '127.0.0.1'],
    ['127.0.1', '127.0.0.1'],
    ['017700000001', '127.0.0.1'],
    ['0xA9.0xFE.0xA9.0xFE', '169.254.169.254'],
    ['10.0.0.1.', '10.0.0.1'],
    ['[::ffff:127.0.0.1]', '::ffff:7f00:1'],
    ['[0:0:0:0:0:0:0:1]', '::1'],
  ])('reads the host %s as %s', (host, address) => {
    expect(literalAddress(host)).toBe(address);
    expect(isLocalAddress(host)).toBe(true);
  });

  it('gives null for host names', () => {
    expect(literalAddress('archive.example.com')).toBeNull();
    expect(literalAddress('1.2.3.4.example')).toBeNull();
    expect(literalAddress('0x7g.1')).toBeNull();
  });

  it('agrees with the URL parser on every four-number spelling', () => {
    fc.assert(
      fc.property(fc.ipV4Extended(), (spelling) => {
        const hostname = new URL(`http://${spelling}/`).hostname;
        expect(literalAddress(spelling)).toBe(hostname);
      }),
    );
  });
});

describe('isLocalHostname', () => {
  it.each([
    'localhost',
    'paperless',
    'archive.local',
    'docs.localhost',
    'x.intranet',
    'metadata.google.internal',
    'a.private',
    'a.corp',
    'nas.home',
    'nas.lan',
    'PAPERLESS.LAN.',
    'paperless.',
  ])('refuses %s', (name) => {
    expect(isLocalHostname(name)).toBe(true);
  });

  it.each(['archive.example.com', 'paperless.example.org', 'localhost.example.com', 'home.example.net'])('allows %s', (name) => {
    expect(isLocalHostname(name)).toBe(false);
  });
});

describe('chooseDestination', () => {
  const publicResolver = (answers: string[]) => async () =>
    answers.map((address) => ({ address, family: address.includes(':') ? (6 as const) : (4 as const) }));

  it('refuses a name when any answer is local, even after a public one', async () => {
    const destination = await chooseDestination(new URL('https://archive.example.com/'), {
      localAllowed: false,
      isLocalAddress,
      resolver: publicResolver(['93.184.215.14', '127.0.0.1']),
    });
    expect(destination.kind).toBe('local');
  });

  it('keeps every checked answer, in the resolver order, when all are public', async () => {
    const destination = await chooseDestination(new URL('https://archive.example.com/'), {
      localAllowed: false,
      isLocalAddress,
      resolver: publicResolver(['93.184.215.14', '2606:4700:4700::1111']),
    });
    expect(destination).toEqual({
      kind: 'pinned',
      addresses: [
        { address: '93.184.215.14', family: 4 },
        { address: '2606:4700:4700::1111', family: 6 },
      ],
      hostname: 'archive.example.com',
      hostIsAddress: false,
    });
  });

  it('checks an odd IPv4 spelling in its normalised form without asking the resolver', async () => {
    let asked = 0;
    const destination = await chooseDestination(new URL('http://0x7f.1:8000/'), {
      localAllowed: false,
      isLocalAddress,
      resolver: async () => {
        asked += 1;
        return [];
      },
    });
    expect(destination.kind).toBe('local');
    expect(asked).toBe(0);
  });

  it('lets the configured origin be local with the switch on', async () => {
    const destination = await chooseDestination(new URL('http://paperless:8000/'), {
      localAllowed: true,
      isLocalAddress,
      resolver: publicResolver(['172.18.0.5']),
    });
    expect(destination).toEqual({ kind: 'pinned', addresses: [{ address: '172.18.0.5', family: 4 }], hostname: 'paperless', hostIsAddress: false });
  });

  it('reports a name without answers as unresolved', async () => {
    const destination = await chooseDestination(new URL('https://archive.example.com/'), { localAllowed: false, isLocalAddress, resolver: publicResolver([]) });
    expect(destination.kind).toBe('unresolved');
  });
});
