import { describe } from '@jest/globals';
import { RedisCache } from '../../src/core/cache/redis-cache.js';

export const REDIS_URL = process.env.DUS_TEST_REDIS ?? 'redis://127.0.0.1:6379';

async function redisAnswers(): Promise<boolean> {
  const probe = new RedisCache({ url: REDIS_URL, keyPrefix: 'dus-test-probe:' });
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

/**
 * `describe` when Redis answers, else `describe.skip` with the reason printed: a test file
 * that needs Redis is skipped visibly, never counted as passed.
 */
export async function describeWithRedis(what: string): Promise<typeof describe | typeof describe.skip> {
  if (await redisAnswers()) return describe;
  process.stdout.write(`SKIP ${what}: Redis at ${REDIS_URL} is unreachable\n`);
  return describe.skip;
}
