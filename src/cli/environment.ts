import { BRIDGE_SECRET_FILE } from '../core/bridge/secret.js';
import { AUDIT_FILE, CREDENTIALS_FILE, LOG_FILE, MARKER_INDEX_FILE, SECRET_FILE, SETTINGS_FILE } from '../core/settings/paths.js';
import { wrap } from './help-layout.js';

/** A name and what it means, for `help environment` and the man pages' ENVIRONMENT and FILES. */
export interface Entry {
  readonly name: string;
  readonly meaning: string;
}

/** Every environment variable the suite reads (a test compares this with the code). */
export const ENVIRONMENT: readonly Entry[] = [
  { name: 'DUS_CONFIG_DIR', meaning: 'the settings directory, as --config-dir gives it (the option wins)' },
  { name: 'DUS_NEXTCLOUD', meaning: 'the Nextcloud directory holding config/config.php, as --nextcloud' },
  { name: 'DUS_HOST_DB', meaning: 'the Nextcloud database URL, as --host-db' },
  { name: 'DUS_TABLE_PREFIX', meaning: 'the Nextcloud table prefix, as --table-prefix' },
  { name: 'DUS_HOST_URL', meaning: 'the Nextcloud base URL for links, as --host-url' },
  { name: 'DUS_LOG_FILE', meaning: 'the host log file, as --log-file ("-" for stderr)' },
  { name: 'DUS_LOG_LEVEL', meaning: 'the host log level: fatal, error, warn, info (default), debug, trace or silent' },
  { name: 'DUS_SECRET', meaning: `the instance secret the stored token is encrypted under, used instead of the file ${SECRET_FILE}` },
  {
    name: 'DUS_MARKER_INDEX',
    meaning: `off: one-shot commands scan the archive account's file names every time instead of keeping the marker index in ${MARKER_INDEX_FILE} (serve keeps its own in memory)`,
  },
  { name: 'DUS_DEBUG', meaning: '1 adds the stack of an unexpected (internal) error to its one-line message' },
  { name: 'NEXTCLOUD_CONFIG_DIR', meaning: "Nextcloud's own: the directory config.php is read from, instead of <nextcloud>/config" },
  {
    name: 'LC_ALL',
    meaning:
      'the language of messages, as --lang (which wins): the first of LC_ALL, LC_MESSAGES and LANG that is set; en or de (de_DE.UTF-8 counts as de), anything else English; JSON output stays English unless --lang is given',
  },
  { name: 'LC_MESSAGES', meaning: 'the language of messages where LC_ALL is not set (see LC_ALL)' },
  { name: 'LANG', meaning: 'the language of messages where neither LC_ALL nor LC_MESSAGES is set (see LC_ALL)' },
  { name: 'NO_COLOR', meaning: 'any value: no colours (as --no-color); colours are only used on a terminal anyway' },
  { name: 'XDG_CONFIG_HOME', meaning: 'the default settings directory is $XDG_CONFIG_HOME/docs-unified-search' },
  {
    name: 'XDG_CACHE_HOME',
    meaning:
      'compiled code is kept in $XDG_CACHE_HOME/docs-unified-search (default $HOME/.cache; program.<command>.v8cache and node-compile-cache/, private), for a quicker start',
  },
  { name: 'NODE_COMPILE_CACHE', meaning: "Node's own: another directory for that compiled code; NODE_DISABLE_COMPILE_CACHE=1 keeps none" },
  { name: 'HOME', meaning: 'without XDG_CONFIG_HOME, the default settings directory is $HOME/.config/docs-unified-search' },
];

/** What setup reads through a variable the administrator names. */
export const NAMED_VARIABLE: Entry = {
  name: 'NAME',
  meaning: 'the variable setup --token-env=NAME names: the API token, which never stands on the command line',
};

/** The files in the settings directory, every one created with mode 0600 (the directory 0700). */
export const FILES: readonly Entry[] = [
  { name: SETTINGS_FILE, meaning: 'the app configuration keys (docs_url, archive_owner, allow_local, …) and where the host is' },
  { name: SECRET_FILE, meaning: 'the instance secret (unless DUS_SECRET is set)' },
  { name: CREDENTIALS_FILE, meaning: 'the API token, AES-256-GCM encrypted under the instance secret, bound to its server' },
  { name: LOG_FILE, meaning: 'the host log, JSON lines; never a term, token or URL query (or --log-file)' },
  { name: AUDIT_FILE, meaning: 'who searched as whom and when (never the term)' },
  {
    name: MARKER_INDEX_FILE,
    meaning:
      "where the archive account's marked files are, for one-shot commands; rebuilt when missing, broken or of another host; safe to delete (DUS_MARKER_INDEX=off: not used)",
  },
  { name: BRIDGE_SECRET_FILE, meaning: 'the secret the Nextcloud bridge app signs its calls with (bridge:secret)' },
];

function entryLines(entries: readonly Entry[], width: number): string[] {
  const column = Math.max(...entries.map((entry) => entry.name.length)) + 4;
  return entries.flatMap((entry) => {
    const [first = '', ...rest] = wrap(entry.meaning, width - column);
    return [`  ${entry.name.padEnd(column - 2)}${first}`, ...rest.map((line) => `${' '.repeat(column)}${line}`)];
  });
}

/** `help environment`: the variables, then the files they point at. */
export function environmentHelp(width: number): string {
  return [
    ...wrap('Environment variables (an option given on the command line wins over its variable):', width),
    '',
    ...entryLines([...ENVIRONMENT, NAMED_VARIABLE], width),
    '',
    ...wrap('Files in the settings directory (mode 0600; the directory 0700):', width),
    '',
    ...entryLines(FILES, width),
    '',
  ].join('\n');
}

/** Help topics beside the commands (`help environment`, as gh has), each laid out for a width. */
export const HELP_TOPICS: Readonly<Record<string, (width: number) => string>> = { environment: environmentHelp };
