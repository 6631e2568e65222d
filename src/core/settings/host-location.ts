import type { HostLocation } from '../host/types.js';
import type { AppConfig } from './types.js';

/**
 * The database URL and the Nextcloud directory are two ways to name one host, each with
 * its own table prefix: a given location replaces the stored one as a whole, so a stored
 * database URL never outranks a Nextcloud directory given now.
 */
function namesHost(location: HostLocation): boolean {
  return location.dbUrl !== undefined || location.nextcloudDir !== undefined;
}

export function storedHostLocation(stored: AppConfig): HostLocation {
  return {
    ...(stored.host_db === undefined
      ? {}
      : { dbUrl: stored.host_db, dbUrlSource: `the stored host_db setting (${stored.host_db.replace(/\/\/[^/@]*@/, '//…@')})` }),
    ...(stored.nextcloud_dir === undefined ? {} : { nextcloudDir: stored.nextcloud_dir }),
    ...(stored.table_prefix === undefined ? {} : { tablePrefix: stored.table_prefix }),
    ...(stored.host_url === undefined ? {} : { hostUrl: stored.host_url, hostUrlSource: 'host_url' }),
  };
}

/** The location to open: the given one over the stored one. */
export function effectiveHostLocation(stored: AppConfig, given: HostLocation = {}): HostLocation {
  const base = namesHost(given) ? {} : storedHostLocation(stored);
  const merged: Record<string, string> = { ...base };
  for (const [key, value] of Object.entries(given)) {
    if (typeof value === 'string' && value !== '') merged[key] = value;
  }
  // A host URL given now is named as given, not as the stored one it replaces.
  if (given.hostUrl !== undefined && given.hostUrl !== '' && given.hostUrlSource === undefined) delete merged.hostUrlSource;
  return merged;
}

/** The settings keys that store a given location (`setup` keeps it so later commands need none). */
export function hostLocationPatch(given: HostLocation): Partial<AppConfig> {
  const patch: Partial<AppConfig> = {};
  if (namesHost(given)) {
    patch.host_db = given.dbUrl;
    patch.nextcloud_dir = given.nextcloudDir;
    patch.table_prefix = given.tablePrefix;
  } else if (given.tablePrefix !== undefined) {
    patch.table_prefix = given.tablePrefix;
  }
  if (given.hostUrl !== undefined) patch.host_url = given.hostUrl;
  return patch;
}
