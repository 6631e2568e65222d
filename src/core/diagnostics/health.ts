import type { ServiceContext } from '../context-types.js';
import { isDusError } from '../errors.js';

/** One part the wrapper needs to answer anything: `ok`, or the code of what is wrong with it. */
export interface HealthReport {
  readonly status: 'ok' | 'unavailable';
  readonly settings: string;
  readonly host: string;
  readonly cache: string;
}

/**
 * What a load balancer or a container's health check asks of `serve`: can it read its
 * settings, its host database and its shared cache. It never asks the archive server (that
 * is `test`'s job, and a health check every few seconds must not add to the archive server's
 * load) and it names codes only: no URL, account, path or message.
 */
export async function healthOf(ctx: ServiceContext): Promise<HealthReport> {
  const settings = await part(async () => {
    ctx.settings.read();
  });
  const host = await part(async () => {
    await (await ctx.host()).syncAccount();
  });
  const cache = await part(async () => {
    await ctx.cache.get('health:probe');
  });
  const status = settings === 'ok' && host === 'ok' && cache === 'ok' ? 'ok' : 'unavailable';
  return { status, settings, host, cache };
}

async function part(probe: () => Promise<void>): Promise<string> {
  try {
    await probe();
    return 'ok';
  } catch (error: unknown) {
    return isDusError(error) ? error.code : 'unavailable';
  }
}
