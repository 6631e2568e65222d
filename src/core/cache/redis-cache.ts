import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { cacheUnusable } from './redis-failure.js';
import { TurnQueue } from './turn-queue.js';
import type { Cache } from './types.js';

export interface RedisCacheOptions {
  /** `redis://[user:password@]host:port[/db]`. */
  readonly url: string;
  /** Prepended to every key so that several instances (and test runs) can share one Redis. */
  readonly keyPrefix?: string;
  /**
   * How long a producer may hold the cross-process lock. Bounds how long a crashed producer
   * can block the others; longer than the widget's 5-second answer timeout by design.
   */
  readonly lockMs?: number;
  /** Pause between looks for the value while another process produces it. */
  readonly pollMs?: number;
}

/** Values are wrapped so that `null` and `false` results are cached like any other. */
interface Envelope<T> {
  readonly v: T;
}

// Deletes the lock only when this process still owns it (it may have expired and been taken).
const RELEASE_SCRIPT = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;

/**
 * The shared cache on Redis (`--cache redis://…`). `getOrProduce` is single-flight across
 * processes: one SET NX PX lock per key; the others poll for the value (bounded by the lock's
 * lifetime) and, should the holder vanish, take the lock themselves. `exclusive` takes turns
 * through another SET NX PX lock, released only by its owner.
 */
export class RedisCache implements Cache {
  private readonly redis: Redis;
  private readonly prefix: string;
  private readonly lockMs: number;
  private readonly pollMs: number;
  /** In-process single flight: callers of one process share one wait on Redis. */
  private readonly inFlight = new Map<string, Promise<unknown>>();
  private readonly turns = new TurnQueue();
  private readonly url: string;
  /** The connection's last failure: ioredis reports the cause of a refused connection only as an event. */
  private lastError: unknown;

  constructor(options: RedisCacheOptions) {
    this.url = options.url;
    this.redis = new Redis(options.url, { lazyConnect: true, maxRetriesPerRequest: 2, enableOfflineQueue: true, connectTimeout: 3_000 });
    // Without a listener ioredis prints every connection error with its stack; the commands that
    // fail reject their callers, and the health check reports the cache.
    this.redis.on('error', (error: unknown) => {
      this.lastError = error;
    });
    this.prefix = options.keyPrefix ?? 'docs_unified_search:';
    this.lockMs = options.lockMs ?? 15_000;
    this.pollMs = options.pollMs ?? 25;
  }

  /**
   * Connects now and proves the cache usable, so that a wrong address, login or database fails
   * at start (`cache_unreachable`), not at the first request. ioredis' own SELECT of the URL's
   * database fails only as an event and leaves the connection on database 0, so it is repeated
   * here where its refusal is seen.
   */
  async connect(): Promise<void> {
    try {
      if (this.redis.status === 'wait') await this.redis.connect();
      await this.redis.select(this.redis.options.db ?? 0);
      await this.redis.ping();
    } catch (error: unknown) {
      const cause = error instanceof Error && /Connection is closed/i.test(error.message) && this.lastError !== undefined ? this.lastError : error;
      throw cacheUnusable(this.url, cause, [this.redis.options.password ?? '', this.redis.options.username ?? '']);
    }
  }

  async get<T>(key: string): Promise<T | undefined> {
    return (await this.readEnvelope<T>(this.prefix + key))?.v;
  }

  async getMany<T>(keys: readonly string[]): Promise<(T | undefined)[]> {
    if (keys.length === 0) return [];
    const raws = await this.redis.mget(...keys.map((key) => this.prefix + key));
    return raws.map((raw) => envelopeOf<T>(raw)?.v);
  }

  async set<T>(key: string, value: T, ttlMs: number): Promise<void> {
    const envelope: Envelope<T> = { v: value };
    await this.redis.set(this.prefix + key, JSON.stringify(envelope), 'PX', Math.max(1, Math.round(ttlMs)));
  }

  async delete(key: string): Promise<void> {
    await this.redis.del(this.prefix + key);
  }

  getOrProduce<T>(key: string, ttlMs: number, produce: () => Promise<T>): Promise<T> {
    const running = this.inFlight.get(key);
    if (running !== undefined) return running as Promise<T>;
    const started = this.produceShared(key, ttlMs, produce).finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, started);
    return started;
  }

  private async produceShared<T>(key: string, ttlMs: number, produce: () => Promise<T>): Promise<T> {
    const valueKey = this.prefix + key;
    const lockKey = `${this.prefix}lock:${key}`;
    for (;;) {
      const cached = await this.readEnvelope<T>(valueKey);
      if (cached !== undefined) return cached.v;
      const owner = randomBytes(12).toString('hex');
      const locked = await this.redis.set(lockKey, owner, 'PX', this.lockMs, 'NX');
      if (locked === 'OK') {
        try {
          // The previous holder may have stored the value between our read and our lock.
          const again = await this.readEnvelope<T>(valueKey);
          if (again !== undefined) return again.v;
          const value = await produce();
          await this.set(key, value, ttlMs);
          return value;
        } finally {
          await this.redis.eval(RELEASE_SCRIPT, 1, lockKey, owner);
        }
      }
      const waited = await this.waitForValue<T>(valueKey, lockKey);
      if (waited !== undefined) return waited.v;
      // The holder released the lock without a value (its produce threw): try ourselves.
    }
  }

  exclusive<T>(key: string, holdMs: number, work: () => Promise<T>): Promise<T> {
    // Callers of this process queue here, so that only one of them at a time polls Redis.
    return this.turns.run(key, async () => {
      const lockKey = `${this.prefix}turn:${key}`;
      const owner = randomBytes(12).toString('hex');
      const hold = Math.max(1, Math.round(holdMs));
      while ((await this.redis.set(lockKey, owner, 'PX', hold, 'NX')) !== 'OK') {
        await new Promise((resolve) => setTimeout(resolve, this.pollMs));
      }
      try {
        return await work();
      } finally {
        await this.redis.eval(RELEASE_SCRIPT, 1, lockKey, owner);
      }
    });
  }

  private async waitForValue<T>(valueKey: string, lockKey: string): Promise<Envelope<T> | undefined> {
    const deadline = Date.now() + this.lockMs + this.pollMs;
    while (Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, this.pollMs));
      const [value, lock] = await this.redis.mget(valueKey, lockKey);
      if (value !== null && value !== undefined) return JSON.parse(value) as Envelope<T>;
      if (lock === null || lock === undefined) return undefined;
    }
    return undefined;
  }

  private async readEnvelope<T>(valueKey: string): Promise<Envelope<T> | undefined> {
    return envelopeOf<T>(await this.redis.get(valueKey));
  }

  /** Deletes every key under this cache's prefix (tests and `serve` never share prefixes). */
  async clearPrefix(): Promise<void> {
    let cursor = '0';
    do {
      const [next, keys] = await this.redis.scan(cursor, 'MATCH', `${this.prefix}*`, 'COUNT', 500);
      if (keys.length > 0) await this.redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  }

  async close(): Promise<void> {
    if (this.redis.status !== 'ready') {
      this.redis.disconnect();
      return;
    }
    await this.redis.quit();
  }
}

/** A stored value as `set` wrote it, or undefined where the key holds none. */
function envelopeOf<T>(raw: string | null): Envelope<T> | undefined {
  return raw === null ? undefined : (JSON.parse(raw) as Envelope<T>);
}
