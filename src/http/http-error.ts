/**
 * A refusal of the wrapper itself (authentication, CSRF, input), with an HTTP status and a
 * code. Codes of the wrapper: `unauthenticated` 401, `forbidden` 403,
 * `password_confirmation_required` 403, `csrf` 412, `throttled` 429, `usage` 400,
 * `not_found` 404, `internal` 500. Failures of the core keep the spec's codes.
 */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export const unauthenticated = (): HttpError => new HttpError(401, 'unauthenticated', 'Log in with your login and password or an app password.');
export const forbidden = (): HttpError => new HttpError(403, 'forbidden', 'Only administrators may do this.');
export const confirmationRequired = (): HttpError =>
  new HttpError(403, 'password_confirmation_required', 'Confirm your password first: it was last confirmed more than 30 minutes ago.');
export const csrfFailed = (): HttpError =>
  new HttpError(412, 'csrf', 'CSRF check failed: send the request token of your session, or log in with HTTP Basic and the header OCS-APIRequest: true.');
export const throttled = (): HttpError => new HttpError(429, 'throttled', 'Too many failed logins from your address. Try again later.');
export const badInput = (message: string): HttpError => new HttpError(400, 'usage', message);
