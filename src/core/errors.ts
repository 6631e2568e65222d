/**
 * The spec's error codes ("Errors" table) and the one error type the core throws.
 * Every failure that reaches a user carries exactly one of these codes; commands and
 * routes turn it into a message, an exit code or an HTTP status, never a stack trace.
 */
import { render, type Message, type Surface } from './i18n/catalog.js';
export const ARCHIVE_ERROR_CODES = [
  'unauthorized',
  'not_found',
  'redirect',
  'http',
  'unsupported_version',
  'not_paperless',
  'local_address',
  'tls',
  'tls_handshake',
  'unknown_host',
  'timeout',
  'unreachable',
] as const;

export const SETTINGS_ERROR_CODES = [
  'invalid_url',
  'unsupported_scheme',
  'url_extras',
  'host_not_ascii',
  'token_required',
  'token_for_other_server',
  'unknown_archive_account',
  'internal',
] as const;

/** Codes of this project beyond the spec's table: wrong calls and host problems. */
export const LOCAL_ERROR_CODES = [
  'usage',
  'host_config',
  'host_unreachable',
  'host_schema',
  'unknown_user',
  'not_configured',
  'config_refused',
  'unsupported_share',
  'cache_unreachable',
  'config_access',
  'listen_failed',
] as const;

export type ArchiveErrorCode = (typeof ARCHIVE_ERROR_CODES)[number];
export type SettingsErrorCode = (typeof SETTINGS_ERROR_CODES)[number];
export type LocalErrorCode = (typeof LOCAL_ERROR_CODES)[number];
export type ErrorCode = ArchiveErrorCode | SettingsErrorCode | LocalErrorCode;

export class DusError extends Error {
  readonly code: ErrorCode;
  /** HTTP status of the archive server's answer, where one was received. */
  readonly status: number | undefined;
  /** Whether the failure happened before a connection was established (second-try rule). */
  readonly beforeConnection: boolean;
  /** The message as a catalog entry, where it has one: routes and commands write it in their reader's language. `message` is its English. */
  readonly localizable: Message | undefined;

  constructor(code: ErrorCode, message: string | Message, options: { status?: number; beforeConnection?: boolean; cause?: unknown } = {}) {
    super(typeof message === 'string' ? message : render(message), options.cause === undefined ? undefined : { cause: options.cause });
    this.localizable = typeof message === 'string' ? undefined : message;
    this.name = 'DusError';
    this.code = code;
    this.status = options.status;
    this.beforeConnection = options.beforeConnection ?? false;
  }
}

/** An error's message in `language` (a Nextcloud language code; null = English) where the catalog has it, else its English. */
export function localizedMessage(error: unknown, language: string | null, surface: Surface = 'page'): string {
  if (error instanceof DusError && error.localizable !== undefined) return render(error.localizable, language, surface);
  return messageOf(error);
}

export function isDusError(value: unknown): value is DusError {
  return value instanceof DusError;
}

export function isArchiveErrorCode(code: string): code is ArchiveErrorCode {
  return (ARCHIVE_ERROR_CODES as readonly string[]).includes(code);
}

/** The message of anything thrown, for a log detail or a wrapping error. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
