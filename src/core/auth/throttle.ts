import ipaddr from 'ipaddr.js';
import type { Cache } from '../cache/types.js';

/**
 * Failed-login throttling per client address, after the host's brute-force protection:
 * failures counted over 12 hours; the next attempt from that address waits
 * 100 ms × 2^failures (capped at 25 s); past 10 failures the address is refused (HTTP 429)
 * until the window ends. A successful login clears the address's count. Like the host, an
 * IPv6 client is counted by its /56 network (one end user's allocation holds billions of
 * addresses), and an IPv4-mapped IPv6 address as the IPv4 address it is.
 */
export const THROTTLE_WINDOW_MS = 12 * 60 * 60 * 1000;
export const THROTTLE_BASE_MS = 100;
export const THROTTLE_MAX_DELAY_MS = 25_000;
export const THROTTLE_MAX_FAILURES = 10;
/** Longest turn of one check: the longest wait plus time to verify the password; a crashed holder's turn ends then. */
export const THROTTLE_TURN_MS = THROTTLE_MAX_DELAY_MS + 15_000;

interface FailureCount {
  readonly failures: number;
  readonly since: number;
}

export type ThrottleVerdict = { readonly refused: true } | { readonly refused: false; readonly delayMs: number };

export class LoginThrottle {
  constructor(
    private readonly cache: Cache,
    private readonly now: () => number = Date.now,
  ) {}

  async verdict(address: string): Promise<ThrottleVerdict> {
    const failures = await this.failures(address);
    if (failures > THROTTLE_MAX_FAILURES) return { refused: true };
    return { refused: false, delayMs: delayFor(failures) };
  }

  async registerFailure(address: string): Promise<void> {
    const key = keyOf(address);
    const current = await this.cache.get<FailureCount>(key);
    const now = this.now();
    const fresh = current !== undefined && now - current.since < THROTTLE_WINDOW_MS;
    const next: FailureCount = fresh ? { failures: current.failures + 1, since: current.since } : { failures: 1, since: now };
    await this.cache.set(key, next, THROTTLE_WINDOW_MS - (now - next.since));
  }

  /**
   * Runs the checks of one client network one after another, across every process sharing
   * the cache, so that each reads the failures of the ones before it: a burst of concurrent
   * guesses otherwise all read "no failures" and none waits.
   */
  async oneAtATime<T>(address: string, check: () => Promise<T>): Promise<T> {
    return this.cache.exclusive(`auth:throttle-turn:${throttleSubnet(address)}`, THROTTLE_TURN_MS, check);
  }

  async reset(address: string): Promise<void> {
    await this.cache.delete(keyOf(address));
  }

  private async failures(address: string): Promise<number> {
    const current = await this.cache.get<FailureCount>(keyOf(address));
    if (current === undefined || this.now() - current.since >= THROTTLE_WINDOW_MS) return 0;
    return current.failures;
  }
}

function delayFor(failures: number): number {
  if (failures <= 0) return 0;
  return Math.min(THROTTLE_BASE_MS * 2 ** failures, THROTTLE_MAX_DELAY_MS);
}

/** The IPv6 prefix length the host's brute-force protection counts as one client by default. */
const THROTTLE_IPV6_PREFIX = 56;

/** The network a client address is counted under: the IPv4 address, or its IPv6 /56. */
function throttleSubnet(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  const parsed = ipaddr.process(address);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const bytes = parsed.toByteArray().map((byte, index) => (index < THROTTLE_IPV6_PREFIX / 8 ? byte : 0));
  return `${ipaddr.fromByteArray(bytes).toString()}/${THROTTLE_IPV6_PREFIX}`;
}

function keyOf(address: string): string {
  return `auth:throttle:${throttleSubnet(address)}`;
}
