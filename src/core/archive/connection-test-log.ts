import { isDusError } from '../errors.js';
import { LOG_MESSAGES, type Logger } from '../log.js';
import { errorCodeOf } from './failures.js';

/**
 * The spec's warning for a failed connection test: "failed: reason (error)", the reason being
 * the settings routes' code and the error what the archive server or the network said (the
 * HTTP status, the system's or TLS's code), which tells e.g. a refused connection from a reset
 * one. Neither can hold the token or a URL.
 */
export function logConnectionTestFailed(logger: Logger, error: unknown): void {
  const code = isDusError(error) ? error.code : 'internal';
  const said = isDusError(error) && error.status !== undefined ? `HTTP ${error.status}` : errorCodeOf(error instanceof Error ? error.cause : null);
  logger.warn(LOG_MESSAGES.connectionTestFailed(code, said !== null && /^[\w .-]{1,64}$/.test(said) ? said : code));
}
