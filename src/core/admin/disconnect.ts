import type { ServiceContext } from '../context-types.js';
import { DusError, isDusError, messageOf } from '../errors.js';
import { msg } from '../i18n/catalog.js';
import { LOG_MESSAGES } from '../log.js';
import { DISCONNECT_KEYS } from '../settings/types.js';

/**
 * The spec's Disconnect: deletes URL, token, switches, archive account, versions and history.
 * `diagnostics_pending`, the host's generic keys and where the host is stay.
 */
export function disconnect(context: ServiceContext): void {
  try {
    context.settings.transaction(() => {
      context.settings.delete(DISCONNECT_KEYS);
      context.credentials.delete();
    });
  } catch (error: unknown) {
    // A file that cannot be written names itself; anything else is a bug to look up in the log.
    const failure = isDusError(error) && error.code === 'config_access' ? error : new DusError('internal', msg('internal.not_deleted'), { cause: error });
    context.logger.error({ detail: messageOf(error) }, LOG_MESSAGES.saveFailed(failure.code));
    throw failure;
  }
}
