import { describe, expect, test } from '@jest/globals';
import { MemoryCache } from '../src/core/cache/memory-cache.js';

function clock(): { now: () => number; advance: (ms: number) => void } {
  let t = 1_000_000;
  return { now: () => t, advance: (ms) => (t += ms) };
}

describe('memory cache', () => {
  test('keeps a value until its TTL has passed', async () => {
    const time = clock();
    const cache = new MemoryCache({ now: time.now });
    await cache.set('names', { 1: 'ACME' }, 600_000);
    time.advance(599_999);
    expect(await cache.get('names')).toEqual({ 1: 'ACME' });
    time.advance(1);
    expect(await cache.get('names')).toBeUndefined();
  });

  test('getMany: the fresh values in the order asked, undefined for missing and expired keys', async () => {
    const time = clock();
    const cache = new MemoryCache({ now: time.now });
    await cache.set('a', 'A', 1_000);
    await cache.set('b', 'B', 10_000);
    time.advance(1_000);
    expect(await cache.getMany(['b', 'a', 'c', 'b'])).toEqual(['B', undefined, undefined, 'B']);
    expect(await cache.getMany([])).toEqual([]);
  });

  test('caches falsy results and deletes on request', async () => {
    const cache = new MemoryCache();
    await cache.set('zero', 0, 1000);
    await cache.set('null', null, 1000);
    expect(await cache.get('zero')).toBe(0);
    expect(await cache.get('null')).toBeNull();
    await cache.delete('zero');
    expect(await cache.get('zero')).toBeUndefined();
  });

  test('getOrProduce runs one producer for concurrent callers and reuses its fresh result', async () => {
    const time = clock();
    const cache = new MemoryCache({ now: time.now });
    let runs = 0;
    let release: (value: string) => void = () => undefined;
    const produce = (): Promise<string> => {
      runs += 1;
      return new Promise<string>((r) => (release = r));
    };
    const callers = [
      cache.getOrProduce('newest', 60_000, produce),
      cache.getOrProduce('newest', 60_000, produce),
      cache.getOrProduce('newest', 60_000, produce),
    ];
    release('page-1');
    expect(await Promise.all(callers)).toEqual(['page-1', 'page-1', 'page-1']);
    expect(runs).toBe(1);
    time.advance(59_999);
    expect(await cache.getOrProduce('newest', 60_000, async () => 'page-2')).toBe('page-1');
    time.advance(1);
    expect(await cache.getOrProduce('newest', 60_000, async () => 'page-2')).toBe('page-2');
  });

  test('a failed producer is not cached: waiting callers share its failure, the next call tries again', async () => {
    const cache = new MemoryCache();
    let runs = 0;
    const failing = async (): Promise<string> => {
      runs += 1;
      await Promise.resolve();
      throw new Error('unreachable');
    };
    const results = await Promise.allSettled([cache.getOrProduce('k', 1000, failing), cache.getOrProduce('k', 1000, failing)]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(runs).toBe(1);
    expect(await cache.getOrProduce('k', 1000, async () => 'ok')).toBe('ok');
  });
});
