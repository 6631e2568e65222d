import ipaddr from 'ipaddr.js';

/**
 * The host's local-network rule: which addresses and names an app may not reach unless the
 * administrator lifted the protection for it. An address counts as local unless it is plainly
 * a public unicast address; anything the rule does not understand counts as local, because a
 * wrong "public" lets a request into the host's own network while a wrong "local" only costs
 * the administrator the local-network switch.
 */

/** IPv4 ranges of ipaddr.js that are reachable on the public internet. */
const PUBLIC_V4_RANGES: ReadonlySet<string> = new Set(['unicast', 'as112', 'amt']);
/** IPv6 ranges of ipaddr.js that are reachable on the public internet. */
const PUBLIC_V6_RANGES: ReadonlySet<string> = new Set(['unicast', 'as112v6', 'amt']);

/**
 * Cloud metadata and host-agent endpoints that sit on public-looking addresses; the ones on
 * link-local, CGNAT or unique-local addresses are caught by their range already.
 */
const METADATA_ADDRESSES: ReadonlySet<string> = new Set([
  '168.63.129.16', // Azure wire server
]);

/** Top-level names the host treats as local networks (Nextcloud's HostnameClassifier). */
const LOCAL_TOP_LEVEL_NAMES: readonly string[] = ['local', 'localhost', 'intranet', 'internal', 'private', 'corp', 'home', 'lan'];

/**
 * The address a URL host stands for when it is an IP literal, in the form the WHATWG URL
 * parser gives it (decimal `2130706433`, octal `0177.0.0.1`, hex `0x7f.1`, short `127.1` and
 * bracketed IPv6 all become the plain address); null when the host is a name.
 */
export function literalAddress(host: string): string | null {
  const trimmed = host.trim();
  if (trimmed === '') return null;
  const unbracketed = trimmed.startsWith('[') && trimmed.endsWith(']') ? trimmed.slice(1, -1) : trimmed;
  if (unbracketed.includes(':')) {
    const withoutZone = unbracketed.split('%')[0] ?? '';
    return ipaddr.IPv6.isValid(withoutZone) ? ipaddr.IPv6.parse(withoutZone).toRFC5952String() : null;
  }
  let normalised: string;
  try {
    normalised = new URL(`http://${unbracketed}/`).hostname;
  } catch {
    return null;
  }
  return ipaddr.IPv4.isValidFourPartDecimal(normalised) ? normalised : null;
}

/** Whether an IP address (any spelling `literalAddress` accepts) is in the host's local network. */
export function isLocalAddress(address: string): boolean {
  const literal = literalAddress(address);
  if (literal === null) return true;
  if (literal.includes(':')) {
    const zoned = address.includes('%');
    return zoned || isLocalV6(ipaddr.IPv6.parse(literal));
  }
  return isLocalV4(ipaddr.IPv4.parse(literal));
}

/** Whether a host name is local by its form alone: no dot, or a local-network top-level name. */
export function isLocalHostname(hostname: string): boolean {
  const name = hostname.trim().toLowerCase().replace(/\.+$/, '');
  if (name === '' || !name.includes('.')) return true;
  const topLevel = name.slice(name.lastIndexOf('.') + 1);
  return LOCAL_TOP_LEVEL_NAMES.includes(topLevel);
}

function isLocalV4(address: ipaddr.IPv4): boolean {
  if (METADATA_ADDRESSES.has(address.toString())) return true;
  return !PUBLIC_V4_RANGES.has(address.range());
}

function isLocalV6(address: ipaddr.IPv6): boolean {
  const parts = address.parts;
  // IPv4-compatible (::a.b.c.d, deprecated) and the unspecified/loopback addresses share ::/96.
  if (parts.slice(0, 6).every((part) => part === 0)) return true;
  const range = address.range();
  switch (range) {
    case 'ipv4Mapped':
    case 'rfc6145':
      return isLocalV4(embeddedV4(parts[6], parts[7]));
    case 'rfc6052':
      // 64:ff9b:1::/48 is for NAT64 inside one network only (RFC 8215).
      if (parts[2] === 1) return true;
      return isLocalV4(embeddedV4(parts[6], parts[7]));
    case '6to4':
      return isLocalV4(embeddedV4(parts[1], parts[2]));
    case 'teredo':
      return isLocalV4(embeddedV4(parts[2], parts[3])) || isLocalV4(embeddedV4(invert16(parts[6]), invert16(parts[7])));
    default:
      return !PUBLIC_V6_RANGES.has(range);
  }
}

function embeddedV4(high: number | undefined, low: number | undefined): ipaddr.IPv4 {
  const h = high ?? 0;
  const l = low ?? 0;
  return new ipaddr.IPv4([h >> 8, h & 0xff, l >> 8, l & 0xff]);
}

/** Teredo stores the client's IPv4 address with every bit flipped. */
function invert16(part: number | undefined): number {
  return ~(part ?? 0) & 0xffff;
}
