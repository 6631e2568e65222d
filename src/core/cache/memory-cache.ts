import { TurnQueue } from './turn-queue.js';
import type { Cache } from './types.js';

/** Expired entries are dropped every this many writes (one pass over the map). */
const SWEEP_EVERY = 1000;

interface Entry {
  readonly value: unknown;
  readonly expiresAt: number;
}

/**
 * The in-process cache (the default when no shared cache is configured). Entries expire by
 * their TTL; `getOrProduce` lets one producer run per key while the others wait for it.
 * `now` is a seam so tests can move time instead of sleeping.
 */
export class MemoryCache implements Cache {
  readonly #entries = new Map<string, Entry>();
  readonly #inFlight = new Map<string, Promise<unknown>>();
  readonly #turns = new TurnQueue();
  readonly #now: () => number;
  #setsSinceSweep = 0;

  constructor(options: { now?: () => number } = {}) {
    this.#now = options.now ?? Date.now;
  }

  async get<T>(key: string): Promise<T | undefined> {
    return this.#fresh(key)?.value as T | undefined;
  }

  async getMany<T>(keys: readonly string[]): Promise<(T | undefined)[]> {
    return keys.map((key) => this.#fresh(key)?.value as T | undefined);
  }

  async set<T>(key: string, value: T, ttlMs: number): Promise<void> {
    if (ttlMs <= 0) {
      this.#entries.delete(key);
      return;
    }
    this.#entries.set(key, { value, expiresAt: this.#now() + ttlMs });
    // Keys written once and never read again (the bridge's nonces) expire only when swept.
    if (++this.#setsSinceSweep >= SWEEP_EVERY) this.#sweep();
  }

  #sweep(): void {
    this.#setsSinceSweep = 0;
    const now = this.#now();
    for (const [key, entry] of this.#entries) if (entry.expiresAt <= now) this.#entries.delete(key);
  }

  async delete(key: string): Promise<void> {
    this.#entries.delete(key);
  }

  async getOrProduce<T>(key: string, ttlMs: number, produce: () => Promise<T>): Promise<T> {
    const cached = this.#fresh(key);
    if (cached !== undefined) return cached.value as T;
    const running = this.#inFlight.get(key);
    if (running !== undefined) return running as Promise<T>;
    const produced = (async () => {
      try {
        const value = await produce();
        await this.set(key, value, ttlMs);
        return value;
      } finally {
        this.#inFlight.delete(key);
      }
    })();
    this.#inFlight.set(key, produced);
    return produced;
  }

  exclusive<T>(key: string, _holdMs: number, work: () => Promise<T>): Promise<T> {
    return this.#turns.run(key, work);
  }

  async close(): Promise<void> {
    this.#entries.clear();
  }

  #fresh(key: string): Entry | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.expiresAt <= this.#now()) {
      this.#entries.delete(key);
      return undefined;
    }
    return entry;
  }
}
