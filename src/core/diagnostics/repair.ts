import type { Logger } from '../log.js';
import { OBSOLETE_KEYS, type AppConfigKey, type SettingsStore } from '../settings/types.js';
import { SUITE_VERSION } from '../version.js';
import { messageOf } from '../errors.js';

export interface RepairResult {
  /** Keys that were present and are now deleted. */
  readonly deleted: readonly AppConfigKey[];
}

/** The spec's repair step: idempotent, needs no user and no archive server. */
export function runRepair(settings: SettingsStore): RepairResult {
  return settings.transaction(() => {
    const stored = settings.read();
    const deleted = OBSOLETE_KEYS.filter((key) => stored[key] !== undefined);
    if (deleted.length > 0) settings.delete(deleted);
    return { deleted };
  });
}

/**
 * The host runs the repair step after every update of the app. Here there is no installer, so
 * the first command of a new suite version runs it: `installed_version` differs from the
 * running version (or is absent), the step runs, and the running version is recorded.
 * Returns null when the stored version is current (nothing ran).
 */
export function repairAfterUpdate(settings: SettingsStore, version: string = SUITE_VERSION): RepairResult | null {
  if (settings.get('installed_version') === version) return null;
  return settings.transaction(() => {
    if (settings.get('installed_version') === version) return null;
    const result = runRepair(settings);
    settings.update({ installed_version: version });
    return result;
  });
}

/**
 * Runs `repairAfterUpdate` for a starting command or wrapper process: a failure (a broken
 * settings file, a held lock) is logged and left to the command itself to report.
 */
export function repairOnStart(settings: SettingsStore, logger: Logger): void {
  try {
    const result = repairAfterUpdate(settings);
    if (result !== null && result.deleted.length > 0) logger.info({ deleted: result.deleted }, 'Repair step after an update deleted obsolete keys');
  } catch (error: unknown) {
    logger.debug({ detail: messageOf(error) }, 'repair step after an update not run');
  }
}
