import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { lazyArchiveClient } from './archive/lazy-archive-client.js';
import type { ArchiveClient, ArchiveConnection, ArchiveVersions } from './archive/types.js';
import { FileAuditLog } from './audit.js';
import { MemoryCache } from './cache/memory-cache.js';
import type { ServiceContext, ServiceOptions } from './context-types.js';
import { DusError, messageOf } from './errors.js';
import { msg } from './i18n/catalog.js';
import { openHost } from './host/open-host.js';
import type { HostAdapter, ResolvedArchiveAccount } from './host/types.js';
import { createLogger, type Logger } from './log.js';
import { FileCredentialStore } from './settings/credential-store.js';
import { withFileAccess } from './settings/file-access.js';
import { effectiveHostLocation } from './settings/host-location.js';
import { AUDIT_FILE, configDirectory, LOG_FILE, MARKER_INDEX_FILE } from './settings/paths.js';
import { FileSettingsStore } from './settings/settings-store.js';
import type { AppConfig, SettingsStore } from './settings/types.js';
import { originOf } from './settings/url-rules.js';

/** Keeps the versions of the archive server's last answer, writing only when they change. */
function versionRecorder(settings: SettingsStore, logger: Logger): (versions: ArchiveVersions) => void {
  return (versions) => {
    try {
      const stored = settings.read();
      const version = versions.version ?? stored.docs_version;
      const apiVersion = versions.apiVersion ?? stored.docs_api_version;
      if (version === stored.docs_version && apiVersion === stored.docs_api_version) return;
      settings.update({ docs_version: version, docs_api_version: apiVersion });
    } catch (error: unknown) {
      // A search must not fail because the versions could not be noted.
      logger.debug({ detail: messageOf(error) }, 'versions of the archive server not stored');
    }
  };
}

/** The versions the archive server named before (they tell a server that dropped API version 9 from an old one). */
function storedVersions(settings: SettingsStore): ArchiveVersions {
  try {
    const stored = settings.read();
    return { version: stored.docs_version ?? null, apiVersion: stored.docs_api_version ?? null };
  } catch {
    return { version: null, apiVersion: null };
  }
}

/** `DUS_MARKER_INDEX=off` (or `0`): one-shot commands neither read nor write the index file. */
function markerIndexOff(value: string | undefined): boolean {
  return value !== undefined && /^(off|0|no|false)$/i.test(value.trim());
}

export function openContext(options: ServiceOptions = {}): ServiceContext {
  const env = options.env ?? process.env;
  const directory = configDirectory(options.configDir, env);
  // Private before anything (the log first) creates it with the default mode.
  withFileAccess(directory, 'create', () => mkdirSync(directory, { recursive: true, mode: 0o700 }));
  const level = env.DUS_LOG_LEVEL;
  const logger = createLogger({ destination: options.logFile ?? join(directory, LOG_FILE), ...(level === undefined || level === '' ? {} : { level }) });
  const settings = new FileSettingsStore(directory);
  const credentials = new FileCredentialStore({ directory, env, logger });
  const audit = new FileAuditLog(join(directory, AUDIT_FILE));
  const cache = options.cache ?? new MemoryCache();
  const archiveClientOptions = { logger, ...options.archiveClientOptions };
  let hostPromise: Promise<HostAdapter> | undefined;

  function host(): Promise<HostAdapter> {
    hostPromise ??= (async () => {
      const location = effectiveHostLocation(settings.readWithoutRefusedUrl(), options.hostLocation);
      if (location.dbUrl === undefined && location.nextcloudDir === undefined) {
        throw new DusError('host_config', msg('host_config.unknown'));
      }
      // serve keeps its index in memory; one-shot commands keep theirs in the config directory
      // between runs, unless DUS_MARKER_INDEX=off asks them to scan the names every time.
      const inMemory = options.markerIndex === true;
      const inFile = !inMemory && !markerIndexOff(env.DUS_MARKER_INDEX);
      return openHost(location, { logger, markerIndex: inMemory, ...(inFile ? { markerIndexFile: join(directory, MARKER_INDEX_FILE) } : {}) });
    })();
    const opening = hostPromise;
    // A host that could not be opened (a database restarting, say) is tried again at the next call.
    opening.catch(() => {
      if (hostPromise === opening) hostPromise = undefined;
    });
    return opening;
  }

  function archiveConnection(readNow?: AppConfig): ArchiveConnection | null {
    const stored = readNow ?? settings.read();
    if (stored.docs_url === undefined) return null;
    const token = credentials.load();
    // The token goes only to the server it was saved for.
    if (token.status !== 'ok' || token.origin !== originOf(stored.docs_url)) return null;
    return { url: stored.docs_url, token: token.token, allowLocal: stored.allow_local ?? false };
  }

  /** One client while the connection stays the same, so that its kept-alive connections serve the next requests. */
  let current: { readonly key: string; readonly client: ArchiveClient } | undefined;

  function archiveClient(given?: ArchiveConnection | null): ArchiveClient | null {
    const connection = given === undefined ? archiveConnection() : given;
    if (connection === null) return null;
    const key = JSON.stringify([connection.url, connection.token, connection.allowLocal]);
    if (current?.key !== key) {
      // The old client is left to its requests still running; its idle connections close after 1 s by themselves.
      current = {
        key,
        client: lazyArchiveClient(connection, {
          ...archiveClientOptions,
          onVersions: versionRecorder(settings, logger),
          knownVersions: () => storedVersions(settings),
        }),
      };
    }
    return current.client;
  }

  async function archiveAccount(): Promise<string | null> {
    const adapter = await host();
    const named = settings.readWithoutRefusedUrl().archive_owner ?? (await adapter.syncAccount());
    if (named === null || named === '') return null;
    const account = await adapter.findAccount(named);
    return account?.uid ?? null;
  }

  /** The search's archive account and the `archive_owner` value it was resolved under. */
  let kept: { readonly owner: string | undefined; readonly account: ResolvedArchiveAccount } | undefined;

  async function searchArchiveAccount(readNow?: AppConfig): Promise<ResolvedArchiveAccount | null> {
    const owner = (readNow ?? settings.readWithoutRefusedUrl()).archive_owner;
    if (kept !== undefined && kept.owner === owner) return kept.account;
    const adapter = await host();
    const named = owner ?? (await adapter.syncAccount());
    if (named === null || named === '') return null;
    const found = await adapter.findAccount(named);
    if (found === null) return null;
    const account = { uid: found.uid, hostNamed: owner === undefined ? named : null };
    kept = { owner, account };
    return account;
  }

  function forgetArchiveAccount(): void {
    kept = undefined;
  }

  async function close(): Promise<void> {
    await current?.client.close();
    current = undefined;
    if (hostPromise !== undefined) {
      const opened = await hostPromise.catch(() => null);
      await opened?.close();
    }
    if (options.cache === undefined) await cache.close();
    logger.close();
  }

  return {
    settings,
    credentials,
    logger,
    audit,
    cache,
    archiveClientOptions,
    host,
    archiveConnection,
    archiveClient,
    archiveAccount,
    searchArchiveAccount,
    forgetArchiveAccount,
    close,
  };
}
