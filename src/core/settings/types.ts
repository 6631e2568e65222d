/**
 * The app configuration keys of the spec ("App configuration keys"), with their types,
 * plus this project's own keys for finding the host. Stored by `settings-store.ts`.
 */
export interface AppConfig {
  docs_url?: string;
  allow_local?: boolean;
  archive_owner?: string;
  always_search?: boolean;
  docs_version?: string;
  docs_api_version?: string;
  /** History of search problems as JSON text (lazy: loaded only when read). */
  diagnostics?: string;
  diagnostics_pending?: boolean;
  /** Host generic keys that survive Disconnect. */
  enabled?: boolean;
  installed_version?: string;
  /** Where the host is (this project's own keys; `setup` stores what it was given). */
  host_db?: string;
  table_prefix?: string;
  nextcloud_dir?: string;
  host_url?: string;
  /** Keys of app version 0.3.0 that the repair step deletes. */
  last_failure?: string;
  last_recovery?: string;
}

export type AppConfigKey = keyof AppConfig;

/** Keys of app version 0.3.0, replaced in 0.4.0 by the history: the repair step deletes them. */
export const OBSOLETE_KEYS: readonly AppConfigKey[] = ['last_failure', 'last_recovery'];

/**
 * Keys the spec's Disconnect deletes: everything but `diagnostics_pending`, the host's generic
 * keys and where the host is. The obsolete keys too, left by 0.3.0 when repair has not run yet.
 */
export const DISCONNECT_KEYS: readonly AppConfigKey[] = [
  'docs_url',
  'allow_local',
  'archive_owner',
  'always_search',
  'docs_version',
  'docs_api_version',
  'diagnostics',
  ...OBSOLETE_KEYS,
];

export interface SettingsStore {
  /**
   * The whole stored configuration, validated by the rules of saving it: the schema, and the
   * URL rules for `docs_url` (a refused URL throws with the rule's code, e.g. `unsupported_scheme`).
   */
  read(): AppConfig;
  /**
   * The same, except that a `docs_url` the URL rules refuse is left out instead of thrown: for
   * the uses that do not read it (where the host is) or replace it (setup), so a bad stored URL
   * does not block its own repair.
   */
  readWithoutRefusedUrl(): AppConfig;
  get<K extends AppConfigKey>(key: K): AppConfig[K];
  /** Writes the given keys atomically; `undefined` values delete the key. */
  update(patch: Partial<AppConfig>): void;
  /** Deletes the keys; returns those that were set. */
  delete(keys: readonly AppConfigKey[]): AppConfigKey[];
  /**
   * Runs `work` holding the store's cross-process lock, so that a use case writing the
   * settings and the credential store together is never interleaved with another writer.
   */
  transaction<T>(work: () => T): T;
  /** Directory holding the settings, the secret, the credential store and the logs. */
  readonly directory: string;
}

/** What the credential store holds for `docs_unified_search.api-token`. */
export type StoredToken =
  { readonly status: 'none' } | { readonly status: 'unreadable' } | { readonly status: 'ok'; readonly token: string; readonly origin: string };

export interface CredentialStore {
  load(): StoredToken;
  /** Saves the token bound to the origin (scheme://host:port) it was given for. */
  save(token: string, origin: string): void;
  delete(): void;
  /** The stored record as it is on disk (null when none), for putting it back after a failed save. */
  snapshot(): CredentialSnapshot;
  restore(snapshot: CredentialSnapshot): void;
}

/** Opaque copy of the credential store's record; encrypted, never the token in clear. */
export type CredentialSnapshot = { readonly record: string | null };
