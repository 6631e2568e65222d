import { performance } from 'node:perf_hooks';
import type { ServiceContext } from '../context-types.js';
import { messageOf } from '../errors.js';

/**
 * Prepares a long-running process for its first search: opens the host and builds the marker
 * index of the archive account. Never fails: what goes wrong here goes wrong again, and is
 * reported, at the first search.
 */
export async function warmUp(ctx: ServiceContext): Promise<void> {
  try {
    const host = await ctx.host();
    const archiveAccount = await ctx.archiveAccount();
    if (archiveAccount === null) return;
    const started = performance.now();
    const size = await host.prepareMarkerIndex(archiveAccount);
    if (size !== null) ctx.logger.info({ ...size, ms: Math.round(performance.now() - started) }, 'marker index of the archive account built');
  } catch (error: unknown) {
    ctx.logger.debug({ detail: messageOf(error) }, 'search not prepared at start');
  }
}
