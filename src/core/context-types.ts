import type { Logger } from './log.js';
import type { ArchiveClient, ArchiveClientOptions, ArchiveConnection } from './archive/types.js';
import type { Cache } from './cache/types.js';
import type { HostAdapter, HostLocation, ResolvedArchiveAccount } from './host/types.js';
import type { AppConfig, CredentialStore, SettingsStore } from './settings/types.js';

/** How a command or the HTTP wrapper asks for a service context (`context.ts` builds it). */
export interface ServiceOptions {
  /** Settings directory; else `DUS_CONFIG_DIR`, else the XDG config directory. */
  readonly configDir?: string;
  /** Where the host is, as given now; missing parts come from the stored settings. */
  readonly hostLocation?: HostLocation;
  /** Host log destination (file, `-` for stderr); default `<configDir>/docs_unified_search.log`. */
  readonly logFile?: string;
  readonly env?: NodeJS.ProcessEnv;
  readonly archiveClientOptions?: ArchiveClientOptions;
  readonly cache?: Cache;
  /**
   * Keep the host adapter's marker index in memory (docs/host-adapter.md): for long-running
   * processes (`serve`). Without it, the index is kept in the config directory's index file
   * between runs, unless `DUS_MARKER_INDEX=off` (then every question scans the names).
   */
  readonly markerIndex?: boolean;
}

/** Audit records: which administrator tried a search as which user; never the term. */
export interface AuditLog {
  record(event: { readonly action: string; readonly admin: string; readonly user?: string; readonly detail?: Record<string, string | number | boolean> }): void;
}

/** Everything the core's use cases need, built once per command run or per wrapper process. */
export interface ServiceContext {
  readonly settings: SettingsStore;
  readonly credentials: CredentialStore;
  readonly logger: Logger;
  readonly audit: AuditLog;
  readonly cache: Cache;
  readonly archiveClientOptions: ArchiveClientOptions;
  /** The host adapter, opened on first use from the given or stored location. */
  host(): Promise<HostAdapter>;
  /**
   * Stored URL and readable token, or null when not configured / token unreadable. A caller that
   * has just read the settings passes them (a search reads them once).
   */
  archiveConnection(readNow?: AppConfig): ArchiveConnection | null;
  /**
   * A client for the stored connection that records versions into the settings; null when not
   * configured. A caller that has just read `archiveConnection()` passes it, so it is not read twice.
   */
  archiveClient(connection?: ArchiveConnection | null): ArchiveClient | null;
  /** The archive account: `archive_owner`, else the sync add-on's account; as the host spells it; null when none exists. */
  archiveAccount(): Promise<string | null>;
  /**
   * The archive account for the search, resolved once per context and kept while the service's
   * `archive_owner` setting stays the same; the search's question 1 checks that the sync add-on
   * still names it (docs/search.md, "Host statements").
   */
  searchArchiveAccount(readNow?: AppConfig): Promise<ResolvedArchiveAccount | null>;
  /** Drops the kept archive account: question 1 saw the sync add-on name another one. */
  forgetArchiveAccount(): void;
  close(): Promise<void>;
}
