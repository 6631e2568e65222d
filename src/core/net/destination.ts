import type { ResolvedAddress } from './resolve.js';
import { isLocalHostname, literalAddress } from './address-guard.js';

/**
 * Decides where one request may connect: the URL's host is resolved once and every address
 * is checked; the connection may then use those addresses only, in the resolver's order.
 */

export interface DestinationRules {
  /** The local-network switch applies to this host (it is the configured origin). */
  readonly localAllowed: boolean;
  readonly isLocalAddress: (address: string) => boolean;
  readonly resolver: (hostname: string) => Promise<readonly ResolvedAddress[]>;
}

export type Destination =
  | {
      readonly kind: 'pinned';
      /** Every checked address, in the resolver's order; the connection may use these and no other. */
      readonly addresses: readonly [ResolvedAddress, ...ResolvedAddress[]];
      readonly hostname: string;
      readonly hostIsAddress: boolean;
    }
  | { readonly kind: 'local' }
  | { readonly kind: 'unresolved'; readonly cause: unknown };

/** The URL parser's host without IPv6 brackets. */
export function bareHostname(url: URL): string {
  const host = url.hostname;
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}

export async function chooseDestination(url: URL, rules: DestinationRules): Promise<Destination> {
  const hostname = bareHostname(url);
  const literal = literalAddress(hostname);
  if (literal !== null) {
    if (!rules.localAllowed && rules.isLocalAddress(literal)) return { kind: 'local' };
    return { kind: 'pinned', addresses: [asResolved(literal)], hostname, hostIsAddress: true };
  }
  if (!rules.localAllowed && isLocalHostname(hostname)) return { kind: 'local' };
  let answers: readonly ResolvedAddress[];
  try {
    answers = await rules.resolver(hostname);
  } catch (error) {
    return { kind: 'unresolved', cause: error };
  }
  // A resolver answer is checked in its normalised form; one that is no address at all counts as local.
  const addresses = answers.map((answer) => literalAddress(answer.address));
  if (addresses.length === 0) return { kind: 'unresolved', cause: null };
  if (!rules.localAllowed && addresses.some((address) => address === null || rules.isLocalAddress(address))) {
    return { kind: 'local' };
  }
  const usable = [...new Set(addresses.filter((address): address is string => address !== null))].map(asResolved);
  const [first, ...rest] = usable;
  if (first === undefined) return { kind: 'unresolved', cause: null };
  return { kind: 'pinned', addresses: [first, ...rest], hostname, hostIsAddress: false };
}

function asResolved(address: string): ResolvedAddress {
  return { address, family: address.includes(':') ? 6 : 4 };
}
