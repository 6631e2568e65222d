import { isDusError, messageOf } from '../core/errors.js';

/** One line naming the error code and what to correct; never a stack trace. */
export function formatError(error: unknown): string {
  if (isDusError(error)) return `Error [${error.code}]: ${error.message}`;
  const detail = messageOf(error);
  return `Error [internal]: ${detail}`;
}
