import type { CommandSpec } from '../cli/types.js';

/** A command's names (its name, then its aliases) and how to load its module. */
export interface CatalogEntry {
  readonly names: readonly string[];
  load(): Promise<CommandSpec>;
}

/**
 * Every command by name, in the order `--help` lists them (index.ts holds the same commands
 * loaded): the executable loads only the module of the command it runs, so `why` does not load
 * `serve`'s, `setup`'s or `completion`'s modules and what they import. test/cli-start-imports
 * fails when this list and the commands' own names differ.
 */
export const CATALOG: readonly CatalogEntry[] = [
  { names: ['docs_unified_search:setup', 'setup'], load: async () => (await import('./setup.js')).command },
  { names: ['docs_unified_search:test', 'test'], load: async () => (await import('./test.js')).command },
  { names: ['docs_unified_search:search', 'search'], load: async () => (await import('./search.js')).command },
  { names: ['docs_unified_search:why', 'why'], load: async () => (await import('./why.js')).command },
  { names: ['docs_unified_search:check', 'check'], load: async () => (await import('./check.js')).command },
  { names: ['config:app:get', 'config:get'], load: async () => (await import('./config-app-get.js')).command },
  { names: ['config:app:set', 'config:set'], load: async () => (await import('./config-app-set.js')).command },
  { names: ['config:app:delete', 'config:delete'], load: async () => (await import('./config-app-delete.js')).command },
  { names: ['setupchecks', 'checks'], load: async () => (await import('./setupchecks.js')).command },
  { names: ['maintenance:repair', 'repair'], load: async () => (await import('./maintenance-repair.js')).command },
  { names: ['serve', 'http'], load: async () => (await import('./serve.js')).command },
  { names: ['docs_unified_search:bridge-secret', 'bridge:secret'], load: async () => (await import('./bridge-secret.js')).command },
  { names: ['completion'], load: async () => (await import('./completion.js')).command },
];

/** Global options followed by a value (`--config-dir DIR` or `--config-dir=DIR`). */
export const VALUED_GLOBALS: readonly string[] = ['--config-dir', '--nextcloud', '--host-db', '--table-prefix', '--host-url', '--log-file'];
export const FLAG_GLOBALS: readonly string[] = ['--no-color'];

/**
 * The catalog entry of the command `argv` runs, when the global options before its name leave
 * no doubt; undefined for anything else (`help`, `--help`, an unknown name, an option commander
 * is to judge), and then every command is loaded, as commander's answers list or suggest them.
 */
export function commandOfArgv(argv: readonly string[]): CatalogEntry | undefined {
  for (let at = 0; at < argv.length; at += 1) {
    const arg = argv[at] ?? '';
    if (VALUED_GLOBALS.includes(arg)) {
      at += 1;
      continue;
    }
    if (FLAG_GLOBALS.includes(arg) || VALUED_GLOBALS.some((option) => arg.startsWith(`${option}=`))) continue;
    if (arg.startsWith('-')) return undefined;
    return CATALOG.find((entry) => entry.names.includes(arg));
  }
  return undefined;
}
