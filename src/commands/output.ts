import { isDusError } from '../core/errors.js';

/** One line naming the error code and what to correct; never a stack trace. */
export function formatError(error: unknown): string {
  if (isDusError(error)) return `Error [${error.code}]: ${error.message}`;
  const detail = error instanceof Error ? error.message : String(error);
  return `Error [internal]: ${detail}`;
}
