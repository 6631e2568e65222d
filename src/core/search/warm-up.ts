import type { ServiceContext } from '../context-types.js';
import { isDusError, messageOf } from '../errors.js';
import { msg } from '../i18n/catalog.js';
import { monotonicMs } from '../monotonic.js';
import { archiveAccountMissing } from '../admin/archive-account-missing.js';

/**
 * Prepares a long-running process for its first search: opens the host and builds the marker
 * index of the archive account. Never fails: what goes wrong here goes wrong again, and is
 * reported, at the first search; `warn` hears it at once, as one coded line (serve's console),
 * so that a broken host is not found only by the first user who searches.
 */
export async function warmUp(ctx: ServiceContext, warn: (said: string) => void = () => undefined): Promise<void> {
  try {
    const host = await ctx.host();
    const archiveAccount = await ctx.archiveAccount();
    if (archiveAccount === null) {
      const missing = await archiveAccountMissing(ctx, msg('unknown_archive_account.advice_warm_up'));
      warn(`Warning: Error [${missing.code}]: ${missing.message}`);
      return;
    }
    const started = monotonicMs();
    const size = await host.prepareMarkerIndex(archiveAccount);
    if (size !== null) ctx.logger.info({ ...size, ms: Math.round(monotonicMs() - started) }, 'marker index of the archive account built');
  } catch (error: unknown) {
    ctx.logger.debug({ detail: messageOf(error) }, 'search not prepared at start');
    if (isDusError(error)) warn(`Warning: Error [${error.code}]: ${error.message} serve answers, but searches fail until this is fixed.`);
  }
}
