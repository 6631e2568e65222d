import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { RedisCache } from '../src/core/cache/redis-cache.js';
import { describeWithRedis, REDIS_URL } from './support/redis-probe.js';

const runPrefix = `dus-test-${randomBytes(6).toString('hex')}:`;
const describeRedis = await describeWithRedis('redis-cache tests');

describeRedis('RedisCache', () => {
  const caches: RedisCache[] = [];
  const open = (suffix: string, options: { lockMs?: number; pollMs?: number } = {}): RedisCache => {
    const cache = new RedisCache({ url: REDIS_URL, keyPrefix: `${runPrefix}${suffix}:`, ...options });
    caches.push(cache);
    return cache;
  };

  beforeAll(async () => {
    await Promise.all(caches.map((c) => c.connect()));
  });

  afterAll(async () => {
    for (const cache of caches) {
      await cache.clearPrefix();
      await cache.close();
    }
  });

  test('getMany: one MGET, values in the order asked, undefined for missing and expired keys', async () => {
    const cache = open('many');
    await cache.connect();
    await cache.set('a', { n: 1 }, 60_000);
    await cache.set('b', 'B', 60_000);
    await cache.set('gone', 'x', 1);
    await new Promise((r) => setTimeout(r, 20));
    expect(await cache.getMany(['b', 'missing', 'a', 'gone'])).toEqual(['B', undefined, { n: 1 }, undefined]);
    expect(await cache.getMany([])).toEqual([]);
  });

  test('exclusive: work of two processes under one key never overlaps, and a failing turn lets the next one run', async () => {
    const first = open('turns', { pollMs: 5 });
    const second = open('turns', { pollMs: 5 });
    let running = 0;
    let most = 0;
    const order: number[] = [];
    const work = (n: number) => async (): Promise<number> => {
      running += 1;
      most = Math.max(most, running);
      await new Promise((r) => setTimeout(r, 15));
      running -= 1;
      order.push(n);
      if (n === 2) throw new Error('turn 2 fails');
      return n;
    };
    const results = await Promise.allSettled(Array.from({ length: 6 }, (_, n) => (n % 2 === 0 ? first : second).exclusive('k', 5_000, work(n))));
    expect(most).toBe(1);
    expect(order.sort()).toEqual([0, 1, 2, 3, 4, 5]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled', 'fulfilled', 'fulfilled']);
  });

  test('exclusive: a turn left by a process that died is taken over once its hold time is over', async () => {
    const cache = open('takeover', { pollMs: 5 });
    const other = open('takeover', { pollMs: 5 });
    // The other process takes its turn and never ends it (its work never settles).
    let entered: () => void = () => undefined;
    const inside = new Promise<void>((resolve) => {
      entered = resolve;
    });
    void other.exclusive('k', 200, () => {
      entered();
      return new Promise<never>(() => undefined);
    });
    await inside;
    let ran = false;
    await cache.exclusive('k', 200, async () => {
      ran = true;
    });
    expect(ran).toBe(true);
  });

  test('stores JSON values, including null and false, until they expire', async () => {
    const cache = open('basic');
    await cache.set('a', { n: 1, s: 'x' }, 60_000);
    await cache.set('nothing', null, 60_000);
    await cache.set('no', false, 60_000);
    expect(await cache.get('a')).toEqual({ n: 1, s: 'x' });
    expect(await cache.get('nothing')).toBeNull();
    expect(await cache.get('no')).toBe(false);
    expect(await cache.get('missing')).toBeUndefined();
    await cache.set('short', 1, 30);
    await new Promise((r) => setTimeout(r, 80));
    expect(await cache.get('short')).toBeUndefined();
    await cache.delete('a');
    expect(await cache.get('a')).toBeUndefined();
  });

  test('three instances with 50 concurrent callers each produce once', async () => {
    const shared = `${randomBytes(4).toString('hex')}`;
    const instances = [open(shared), open(shared), open(shared)];
    let produced = 0;
    const produce = async (): Promise<{ docs: number[] }> => {
      produced += 1;
      await new Promise((r) => setTimeout(r, 60));
      return { docs: [3, 2, 1] };
    };
    const calls = instances.flatMap((cache) => Array.from({ length: 50 }, () => cache.getOrProduce('newest', 60_000, produce)));
    const results = await Promise.all(calls);
    expect(produced).toBe(1);
    for (const result of results) expect(result).toEqual({ docs: [3, 2, 1] });
    // A later call is served from Redis without producing again.
    expect(await instances[2]?.getOrProduce('newest', 60_000, produce)).toEqual({ docs: [3, 2, 1] });
    expect(produced).toBe(1);
  });

  test('a producer that throws releases the lock; a waiting instance then produces', async () => {
    const shared = `${randomBytes(4).toString('hex')}`;
    const first = open(shared, { pollMs: 10 });
    const second = open(shared, { pollMs: 10 });
    let attempts = 0;
    // The second caller starts only once the first holds the lock: a fixed delay let a slow
    // connect hand the lock to the second caller first (CI saw the first resolve to 'fresh').
    let holding: () => void = () => undefined;
    const firstHolds = new Promise<void>((resolve) => {
      holding = resolve;
    });
    const failing = first.getOrProduce('k', 60_000, async () => {
      attempts += 1;
      holding();
      await new Promise((r) => setTimeout(r, 40));
      throw new Error('archive down');
    });
    await firstHolds;
    const waiting = second.getOrProduce('k', 60_000, async () => {
      attempts += 1;
      return 'fresh';
    });
    await expect(failing).rejects.toThrow('archive down');
    await expect(waiting).resolves.toBe('fresh');
    expect(attempts).toBe(2);
  });

  test('a lock left by a vanished holder expires and the value is produced', async () => {
    const shared = `${randomBytes(4).toString('hex')}`;
    const holder = open(shared, { lockMs: 100, pollMs: 10 });
    const other = open(shared, { lockMs: 100, pollMs: 10 });
    // The holder never finishes: its produce hangs past the lock's lifetime. The other caller
    // starts once the holder is inside its produce, so it is the expiry that lets it in.
    let holding: () => void = () => undefined;
    const holderInside = new Promise<void>((resolve) => {
      holding = resolve;
    });
    void holder.getOrProduce('stuck', 60_000, () => {
      holding();
      return new Promise<string>(() => undefined);
    });
    await holderInside;
    await expect(other.getOrProduce('stuck', 60_000, async () => 'recovered')).resolves.toBe('recovered');
  });
});
