/**
 * The login throttle under a burst, with the sessions and failure counts in Redis as behind
 * several `serve` processes: every cache read is real I/O, so concurrent checks interleave
 * (the in-process cache answers at once and would hide a race).
 */
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { THROTTLE_MAX_FAILURES } from '../src/core/auth/throttle.js';
import { RedisCache } from '../src/core/cache/redis-cache.js';
import { call, PASSWORDS, startHarness, type Harness } from './support/http-harness.js';
import { describeWithRedis, REDIS_URL } from './support/redis-probe.js';

const describeRedis = await describeWithRedis('throttle-through-Redis tests');
const SETTINGS = '/apps/docs_unified_search/settings';

describeRedis('a burst of concurrent logins from one address', () => {
  const cache = new RedisCache({ url: REDIS_URL, keyPrefix: `dus-test-throttle-${randomBytes(6).toString('hex')}:` });
  let h: Harness;

  beforeAll(async () => {
    await cache.connect();
    h = await startHarness({ cache });
  });

  afterAll(async () => {
    await h.close();
    await cache.clearPrefix();
    await cache.close();
  });

  test('wrong guesses are checked one after another: each waits for the failures before it, and past the limit they are refused', async () => {
    h.delays.length = 0;
    const burst = await Promise.all(
      Array.from({ length: 20 }, async () => (await call(h, 'GET', SETTINGS, { basic: ['bob', 'guess'], from: '10.6.0.1' })).status),
    );
    expect(burst.filter((status) => status === 401)).toHaveLength(THROTTLE_MAX_FAILURES + 1);
    expect(burst.filter((status) => status === 429)).toHaveLength(20 - THROTTLE_MAX_FAILURES - 1);
    expect(h.delays).toEqual([200, 400, 800, 1600, 3200, 6400, 12800, 25000, 25000, 25000]);
  });

  test('good Basic calls from an address without failures all pass, with no wait', async () => {
    h.delays.length = 0;
    const calls = await Promise.all(Array.from({ length: 10 }, () => call(h, 'GET', SETTINGS, { basic: ['admin', PASSWORDS.admin], from: '10.6.0.2' })));
    expect(calls.map((answer) => answer.status)).toEqual(Array.from({ length: 10 }, () => 200));
    expect(h.delays).toEqual([]);
  });
});

describeRedis('a burst of wrong guesses spread over two serve processes sharing Redis', () => {
  const prefix = `dus-test-throttle-two-${randomBytes(6).toString('hex')}:`;
  // Two caches and two servers, as two processes would have; only Redis is shared.
  const caches = [new RedisCache({ url: REDIS_URL, keyPrefix: prefix }), new RedisCache({ url: REDIS_URL, keyPrefix: prefix })];
  const harnesses: Harness[] = [];

  beforeAll(async () => {
    for (const cache of caches) {
      await cache.connect();
      harnesses.push(await startHarness({ cache }));
    }
  });

  afterAll(async () => {
    for (const h of harnesses) await h.close();
    await caches[0]?.clearPrefix();
    for (const cache of caches) await cache.close();
  });

  test('the guesses take turns across both: each waits for every failure before it, and past the limit they are refused', async () => {
    const burst = await Promise.all(
      Array.from({ length: 20 }, async (_, index) => {
        const h = harnesses[index % 2];
        if (h === undefined) throw new Error('no harness');
        return (await call(h, 'GET', SETTINGS, { basic: ['bob', 'guess'], from: '10.7.0.1' })).status;
      }),
    );
    expect(burst.filter((status) => status === 401)).toHaveLength(THROTTLE_MAX_FAILURES + 1);
    expect(burst.filter((status) => status === 429)).toHaveLength(20 - THROTTLE_MAX_FAILURES - 1);
    const delays = harnesses.flatMap((h) => h.delays).sort((a, b) => a - b);
    expect(delays).toEqual([200, 400, 800, 1600, 3200, 6400, 12800, 25000, 25000, 25000]);
  });
});
