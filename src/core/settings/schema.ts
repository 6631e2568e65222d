import { OBSOLETE_KEYS, type AppConfigKey } from './types.js';

/** The value types occ names (`--type`); this store uses two of them. */
export type ConfigValueType = 'string' | 'boolean';

export interface KeyDefinition {
  readonly type: ConfigValueType;
  /** Loaded only when read (the spec's `diagnostics`); reported by `config:app:get --details`. */
  readonly lazy: boolean;
}

/** Every key the store accepts, with its fixed type: like a host config lexicon in strict mode. */
export const KEY_DEFINITIONS: Readonly<Record<AppConfigKey, KeyDefinition>> = {
  docs_url: { type: 'string', lazy: false },
  allow_local: { type: 'boolean', lazy: false },
  archive_owner: { type: 'string', lazy: false },
  always_search: { type: 'boolean', lazy: false },
  docs_version: { type: 'string', lazy: false },
  docs_api_version: { type: 'string', lazy: false },
  diagnostics: { type: 'string', lazy: true },
  diagnostics_pending: { type: 'boolean', lazy: false },
  enabled: { type: 'boolean', lazy: false },
  installed_version: { type: 'string', lazy: false },
  host_db: { type: 'string', lazy: false },
  table_prefix: { type: 'string', lazy: false },
  nextcloud_dir: { type: 'string', lazy: false },
  host_url: { type: 'string', lazy: false },
  last_failure: { type: 'string', lazy: false },
  last_recovery: { type: 'string', lazy: false },
};

export const APP_CONFIG_KEYS = Object.keys(KEY_DEFINITIONS) as AppConfigKey[];

/** The keys of this version: what completion offers and refusals list (the obsolete ones are only read and deleted). */
export const CURRENT_APP_CONFIG_KEYS = APP_CONFIG_KEYS.filter((key) => !OBSOLETE_KEYS.includes(key));

export function isAppConfigKey(name: string): name is AppConfigKey {
  return Object.hasOwn(KEY_DEFINITIONS, name);
}
