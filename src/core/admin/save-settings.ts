import { createArchiveClient } from '../archive/archive-client.js';
import { logConnectionTestFailed } from '../archive/connection-test-log.js';
import type { ArchiveConnection, ArchiveVersions } from '../archive/types.js';
import type { ServiceContext } from '../context-types.js';
import { DusError, isDusError, messageOf, type ErrorCode } from '../errors.js';
import { msg, type Message } from '../i18n/catalog.js';
import type { HostLocation } from '../host/types.js';
import { LOG_MESSAGES } from '../log.js';
import { hostLocationPatch } from '../settings/host-location.js';
import { settingsResponse, type SettingsResponse } from './settings-response.js';
import { storedTokenFor } from '../settings/token-rule.js';
import type { AppConfig } from '../settings/types.js';
import { normalizeArchiveUrl, originOf } from '../settings/url-rules.js';

/** What an administrator submits (settings route or `setup`); an omitted field keeps its stored value. */
export interface SaveSettingsInput {
  readonly url: string;
  /** Blank or omitted keeps the stored token, only for the server it was saved for. */
  readonly token?: string;
  /** '' means the synchronization add-on's account. */
  readonly archiveOwner?: string;
  readonly allowLocal?: boolean;
  readonly alwaysSearch?: boolean;
  /** Where the host is, to be stored with the settings (`setup`). */
  readonly hostLocation?: HostLocation;
}

interface TokenChoice {
  readonly token: string;
  /** Whether the token is new and must be written. */
  readonly fresh: boolean;
}

function chooseToken(context: ServiceContext, given: string | undefined, url: string): TokenChoice {
  const typed = given?.trim() ?? '';
  if (typed !== '') return { token: typed, fresh: true };
  return { token: storedTokenFor(context.credentials.load(), url), fresh: false };
}

async function testConnection(context: ServiceContext, connection: ArchiveConnection): Promise<ArchiveVersions> {
  const client = createArchiveClient(connection, context.archiveClientOptions);
  try {
    const result = await client.testConnection();
    return result.versions;
  } catch (error: unknown) {
    const failure = isDusError(error) ? error : new DusError('internal', msg('internal.connection_test'), { cause: error });
    logConnectionTestFailed(context.logger, failure);
    throw failure;
  } finally {
    await client.close();
  }
}

/** The archive account to store: the host's spelling of the given one, or undefined for the sync add-on's account. */
async function resolveArchiveOwner(context: ServiceContext, owner: string): Promise<string | undefined> {
  try {
    // Opened even for the sync add-on's account: the answer names it, and a host that cannot be
    // reached must stop the save before anything is stored.
    const host = await context.host();
    if (owner === '') return undefined;
    const account = await host.findAccount(owner);
    if (account === null) {
      throw new DusError('unknown_archive_account', msg('unknown_archive_account.given', { account: owner }));
    }
    return account.uid;
  } catch (error: unknown) {
    throw failedAfterTest(context, error, msg('internal.not_saved_host', { reason: hostFailureOf(error) }));
  }
}

/**
 * What went wrong with the host, for the administrator: the code tells the cases apart, and
 * the host's own message stays in the log, as it names files, servers and database names.
 */
function hostFailureOf(error: unknown): Message {
  if (!isDusError(error)) return msg('internal.host_failed');
  switch (error.code) {
    case 'host_unreachable':
      return msg('host_unreachable.reason');
    case 'host_schema':
      return msg('host_schema.reason');
    case 'host_config':
      return msg('host_config.reason');
    default:
      return msg('internal.host_read_failed', { code: error.code });
  }
}

/**
 * The save of the spec's configuration lifecycle: URL rules, token rule, connection test,
 * archive account, then everything stored together. A failed test stores nothing; a failure
 * while storing puts the previous token back and leaves the settings file as it was. After the
 * test, only a refusal keeps its own code; a host that cannot be read is `internal` too.
 */
export async function saveSettings(context: ServiceContext, input: SaveSettingsInput): Promise<SettingsResponse> {
  // The stored URL is what this save replaces: one the URL rules refuse must not block it.
  const stored = context.settings.readWithoutRefusedUrl();
  const url = normalizeArchiveUrl(input.url);
  const token = chooseToken(context, input.token, url);
  const allowLocal = input.allowLocal ?? stored.allow_local ?? false;
  const versions = await testConnection(context, { url, token: token.token, allowLocal });
  const givenOwner = input.archiveOwner?.trim();
  const archiveOwner = await resolveArchiveOwner(context, (givenOwner ?? stored.archive_owner ?? '').trim());

  // Built from the settings as they are under the lock: a key this save was not given keeps
  // what another process wrote while the connection was tested.
  const patchOver = (current: AppConfig): Partial<AppConfig> => ({
    ...(input.hostLocation === undefined ? {} : hostLocationPatch(input.hostLocation)),
    docs_url: url,
    allow_local: input.allowLocal ?? current.allow_local ?? false,
    always_search: input.alwaysSearch ?? current.always_search ?? false,
    archive_owner: givenOwner === undefined && current.archive_owner !== stored.archive_owner ? current.archive_owner : archiveOwner,
    docs_version: versions.version ?? undefined,
    docs_api_version: versions.apiVersion ?? undefined,
  });
  store(context, patchOver, token, url);
  return settingsResponse(context);
}

/**
 * The token rule applied again under the lock: a kept token was chosen before the connection
 * test, and another save may have stored a token for another server since. Without this the
 * URL of this save and the token of the other would be left together.
 */
function checkKeptTokenUnchanged(context: ServiceContext, url: string): void {
  try {
    storedTokenFor(context.credentials.load(), url);
  } catch (error: unknown) {
    if (!isDusError(error)) throw error;
    throw new DusError(error.code, msg('internal.token_changed', { detail: error.localizable ?? error.message }), {
      cause: error,
    });
  }
}

function store(context: ServiceContext, patchOver: (current: AppConfig) => Partial<AppConfig>, token: TokenChoice, url: string): void {
  try {
    context.settings.transaction(() => {
      if (!token.fresh) checkKeptTokenUnchanged(context, url);
      const patch = patchOver(context.settings.readWithoutRefusedUrl());
      const previous = context.credentials.snapshot();
      try {
        if (token.fresh) context.credentials.save(token.token, originOf(url));
        context.settings.update(patch);
      } catch (error: unknown) {
        context.credentials.restore(previous);
        throw error;
      }
    });
  } catch (error: unknown) {
    throw failedAfterTest(context, error, msg('internal.not_saved'));
  }
}

/** Refusals after the connection test that are the answer itself: the administrator corrects the input. */
const REFUSALS_AFTER_TEST: ReadonlySet<ErrorCode> = new Set<ErrorCode>(['unknown_archive_account', 'token_required', 'token_for_other_server']);

/**
 * The one rule for a failure after the connection test (spec, Errors: HTTP 500 `internal`,
 * detail in the host log): a refusal passes as it is; a config file that cannot be written
 * names itself (`config_access`); anything else becomes `internal` with `message`. Both are
 * logged once, as the spec's Error line, with the original code and message as detail.
 */
function failedAfterTest(context: ServiceContext, error: unknown, message: Message): DusError {
  if (isDusError(error) && REFUSALS_AFTER_TEST.has(error.code)) return error;
  const failure = isDusError(error) && error.code === 'config_access' ? error : new DusError('internal', message, { cause: error });
  context.logger.error({ detail: isDusError(error) ? `${error.code}: ${error.message}` : messageOf(error) }, LOG_MESSAGES.saveFailed(failure.code));
  return failure;
}
