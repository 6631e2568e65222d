import { msg, render, type Message } from '../core/i18n/catalog.js';

/**
 * A refusal of the wrapper itself (authentication, CSRF, input), with an HTTP status and a
 * code. Codes of the wrapper: `unauthenticated` 401, `forbidden` 403,
 * `password_confirmation_required` 403, `csrf` 412, `throttled` 429, `usage` 400,
 * `not_found` 404, `internal` 500. Failures of the core keep the spec's codes.
 */
export class HttpError extends Error {
  /** The message as a catalog entry, where it has one: the answer is written in the caller's language. */
  readonly localizable: Message | undefined;

  constructor(
    readonly status: number,
    readonly code: string,
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
