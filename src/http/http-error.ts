import type { ErrorCode } from '../core/errors.js';
import { msg, render, type Message } from '../core/i18n/catalog.js';

/** The wrapper's own codes, beside the core's (docs/errors.md lists both; a test holds them together). */
export const WRAPPER_ERROR_CODES = [
  'unauthenticated',
  'forbidden',
  'password_confirmation_required',
  'csrf',
  'throttled',
  'too_large',
  'bridge_refused',
] as const;

export type WrapperErrorCode = (typeof WRAPPER_ERROR_CODES)[number];

/**
 * A refusal of the wrapper itself (authentication, CSRF, input), with an HTTP status and a
 * code. Codes of the wrapper: `unauthenticated` 401, `forbidden` 403,
 * `password_confirmation_required` 403, `csrf` 412, `throttled` 429, `usage` 400,
 * `not_found` 404, `internal` 500, `too_large` 413/431, `bridge_refused` 401. Failures of the
 * core keep the spec's codes.
 */
export class HttpError extends Error {
  /** The message as a catalog entry, where it has one: the answer is written in the caller's language. */
  readonly localizable: Message | undefined;

  constructor(
    readonly status: number,
    readonly code: WrapperErrorCode | ErrorCode,
    message: string | Message,
  ) {
    super(typeof message === 'string' ? message : render(message));
    this.name = 'HttpError';
    this.localizable = typeof message === 'string' ? undefined : message;
  }
}

export const unauthenticated = (): HttpError => new HttpError(401, 'unauthenticated', msg('unauthenticated'));
export const forbidden = (): HttpError => new HttpError(403, 'forbidden', msg('forbidden'));
export const confirmationRequired = (): HttpError => new HttpError(403, 'password_confirmation_required', msg('password_confirmation_required'));
export const csrfFailed = (): HttpError => new HttpError(412, 'csrf', msg('csrf'));
export const throttled = (): HttpError => new HttpError(429, 'throttled', msg('throttled'));
export const badInput = (message: string | Message): HttpError => new HttpError(400, 'usage', message);
