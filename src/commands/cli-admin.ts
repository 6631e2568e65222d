import { userInfo } from 'node:os';
import type { ServiceContext } from '../core/context-types.js';
import { repairAfterUpdate } from '../core/diagnostics/repair.js';

/** Who runs an administrative command, for the audit log: the operating-system account (as occ runs as the web server's). */
export function cliAdmin(): string {
  try {
    return `cli:${userInfo().username}`;
  } catch {
    return 'cli';
  }
}

/**
 * The host runs the repair step after an update; here the first command of a new suite
 * version does. A failure is logged and does not stop the command.
 */
export function repairIfUpdated(service: ServiceContext): void {
  try {
    const result = repairAfterUpdate(service.settings);
    if (result !== null && result.deleted.length > 0) service.logger.info({ deleted: result.deleted }, 'Repair step after an update deleted obsolete keys');
  } catch (error: unknown) {
    service.logger.debug({ detail: error instanceof Error ? error.message : String(error) }, 'repair step after an update not run');
  }
}
