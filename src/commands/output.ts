import { isDusError, messageOf } from '../core/errors.js';
import { safeText } from './terminal-text.js';

/** One line naming the error code and what to correct; never a stack trace, never a control character. */
export function formatError(error: unknown): string {
  return `Error [${isDusError(error) ? error.code : 'internal'}]: ${safeText(messageOf(error))}`;
}
