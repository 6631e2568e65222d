/** Names fetched by one wrapper process serve the next through a shared Redis cache. */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { RedisCache } from '../src/core/cache/redis-cache.js';
import { runSearch } from '../src/core/search/pipeline.js';
import { buildSearchWorld, type SearchWorld } from './search-world.js';

const REDIS_URL = process.env.DUS_TEST_REDIS ?? 'redis://127.0.0.1:6379';
const prefix = `dus-search-test-${randomBytes(6).toString('hex')}:`;

async function reachable(): Promise<boolean> {
  const probe = new RedisCache({ url: REDIS_URL, keyPrefix: prefix });
  try {
    await probe.connect();
    await probe.get('probe');
    return true;
  } catch {
    return false;
  } finally {
    await probe.close().catch(() => undefined);
  }
}

const redisUp = await reachable();
if (!redisUp) process.stdout.write(`SKIP search names through Redis: Redis at ${REDIS_URL} is unreachable\n`);

(redisUp ? describe : describe.skip)('names through a shared Redis cache', () => {
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
    expect(two.entries.map((entry) => [entry.correspondent, entry.documentType])).toEqual(one.entries.map((entry) => [entry.correspondent, entry.documentType]));
    expect(one.entries.some((entry) => entry.correspondent !== null)).toBe(true);
  });
});
