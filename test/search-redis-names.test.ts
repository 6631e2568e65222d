/** Names fetched by one wrapper process serve the next through a shared Redis cache. */
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { RedisCache } from '../src/core/cache/redis-cache.js';
import { runSearch } from '../src/core/search/pipeline.js';
import { buildSearchWorld, type SearchWorld } from './support/search-world.js';
import { describeWithRedis, REDIS_URL } from './support/redis-probe.js';

const prefix = `dus-search-test-${randomBytes(6).toString('hex')}:`;
const describeRedis = await describeWithRedis('search names through Redis');

describeRedis('names through a shared Redis cache', () => {
  let world: SearchWorld;
  const caches: RedisCache[] = [];

  beforeAll(async () => {
    world = await buildSearchWorld(30);
  });

  afterAll(async () => {
    for (const cache of caches) await cache.close();
    await world.close();
  });

  test('the second process asks for no names the first one fetched', async () => {
    const first = new RedisCache({ url: REDIS_URL, keyPrefix: prefix });
    const second = new RedisCache({ url: REDIS_URL, keyPrefix: prefix });
    caches.push(first, second);
    const a = await world.context({ cache: first });
    const b = await world.context({ cache: second });
    const names = (): number => world.archive.requests.filter((r) => /\/api\/(correspondents|document_types)\//.test(r.path)).length;
    world.archive.clearRequests();
    const one = await runSearch(a.ctx, { user: 'bob', term: 'invoice', limit: 5 });
    expect(names()).toBe(2);
    world.archive.clearRequests();
    const two = await runSearch(b.ctx, { user: 'bob', term: 'invoice', limit: 5 });
    expect(names()).toBe(0);
    expect(two.entries.map((entry) => [entry.correspondent, entry.documentType])).toEqual(
      one.entries.map((entry) => [entry.correspondent, entry.documentType]),
    );
    expect(one.entries.some((entry) => entry.correspondent !== null)).toBe(true);
  });

  test('a warm search reads every name it needs from Redis in one command (MGET), seen by MONITOR', async () => {
    const cache = new RedisCache({ url: REDIS_URL, keyPrefix: prefix });
    caches.push(cache);
    const { ctx } = await world.context({ cache });
    const cold = await runSearch(ctx, { user: 'bob', term: 'invoice', limit: 8 });
    expect(cold.entries.some((entry) => entry.correspondent !== null) && cold.entries.some((entry) => entry.documentType !== null)).toBe(true);
    // monitor() opens a connection of its own beside the client's: both are closed at the end.
    const client = new Redis(REDIS_URL);
    const monitor = await client.monitor();
    const seen: string[][] = [];
    let flushed: () => void = () => undefined;
    const flushSeen = new Promise<void>((resolve) => {
      flushed = resolve;
    });
    monitor.on('monitor', (_time: string, args: string[]) => {
      if (args.some((arg) => arg.startsWith(`${prefix}names:`))) seen.push(args);
      if (args.includes(`${prefix}flush`)) flushed();
    });
    try {
      world.archive.clearRequests();
      const warm = await runSearch(ctx, { user: 'bob', term: 'invoice', limit: 8 });
      // MONITOR reports a command after it ran, on a connection of its own: once it has reported a
      // GET sent after the search, it has reported every command of the search.
      await cache.get('flush');
      await flushSeen;
      expect(warm.entries.map((e) => [e.correspondent, e.documentType])).toEqual(cold.entries.map((e) => [e.correspondent, e.documentType]));
      expect(seen.map((args) => args[0]?.toLowerCase())).toEqual(['mget']);
      expect(world.archive.requests.filter((r) => /\/api\/(correspondents|document_types)\//.test(r.path))).toHaveLength(0);
    } finally {
      monitor.disconnect();
      client.disconnect();
    }
  });
});
