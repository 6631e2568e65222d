import { homedir } from 'node:os';
import { join } from 'node:path';

export const CONFIG_DIR_NAME = 'docs-unified-search';

/**
 * The settings directory: the one given, else `DUS_CONFIG_DIR`, else the XDG config
 * directory. Empty values count as absent so that `DUS_CONFIG_DIR=` does not mean the cwd.
 */
export function configDirectory(given: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  if (given !== undefined && given !== '') return given;
  const fromEnv = env.DUS_CONFIG_DIR;
  if (fromEnv !== undefined && fromEnv !== '') return fromEnv;
  const xdg = env.XDG_CONFIG_HOME;
  const base = xdg !== undefined && xdg !== '' ? xdg : join(env.HOME ?? homedir(), '.config');
  return join(base, CONFIG_DIR_NAME);
}

export const SETTINGS_FILE = 'settings.json';
export const CREDENTIALS_FILE = 'credentials.json';
export const SECRET_FILE = 'secret';
export const LOG_FILE = 'docs_unified_search.log';
export const AUDIT_FILE = 'audit.log';
/** The marker index of one-shot commands (src/core/host/index/marker-index-file.ts). */
export const MARKER_INDEX_FILE = 'marker-index.bin';
