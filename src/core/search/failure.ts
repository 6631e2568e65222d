import type { ServiceContext } from '../context-types.js';
import { recordProblem, recordRecovery } from '../diagnostics/history.js';
import { isDusError, messageOf } from '../errors.js';
import { LOG_MESSAGES } from '../log.js';
import type { AppConfig } from '../settings/types.js';

export interface SearchFailure {
  readonly code: string;
  readonly message: string;
  readonly status?: number | undefined;
}

export function failureOf(error: unknown): SearchFailure {
  if (isDusError(error)) return { code: error.code, message: error.message, status: error.status };
  return { code: 'internal', message: messageOf(error) };
}

/**
 * The spec's "search fails": a warning in the host log, a history entry, `diagnostics_pending`
 * raised. `secrets` (the term, the token) are scrubbed from what is stored.
 */
export function reportSearchFailure(ctx: ServiceContext, error: unknown, secrets: readonly string[]): SearchFailure {
  const failure = failureOf(error);
  ctx.logger.warn(LOG_MESSAGES.searchFailed(failure.code));
  try {
    const entry = recordProblem(ctx.settings, failure, secrets);
    return { ...failure, message: entry.message };
  } catch (storeError: unknown) {
    // The search already failed; a history that cannot be written must not hide why.
    ctx.logger.error(LOG_MESSAGES.saveFailed(failureOf(storeError).code));
    return failure;
  }
}

/**
 * A search that worked lowers `diagnostics_pending`. Given the settings the search read at its
 * start, nothing is read again when the flag was down then (a failure recorded meanwhile waits
 * for the next search that works).
 */
export function reportSearchWorked(ctx: ServiceContext, readAtStart?: AppConfig): void {
  if (readAtStart !== undefined && readAtStart.diagnostics_pending !== true) return;
  try {
    recordRecovery(ctx.settings);
  } catch (storeError: unknown) {
    ctx.logger.error(LOG_MESSAGES.saveFailed(failureOf(storeError).code));
  }
}

/** The token of the stored connection, so that it can be scrubbed from anything stored. */
export function secretsOf(ctx: ServiceContext, term: string): string[] {
  const token = ctx.credentials.load();
  return token.status === 'ok' ? [term, token.token] : [term];
}
