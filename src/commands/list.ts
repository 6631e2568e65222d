import { commandWordOf } from '../cli/global-options.js';
import type { CommandDefinition, CommandSpec } from '../cli/types.js';

/** A command as the list names it: its name, its other names, and how its file is loaded. */
export interface ListedCommand {
  readonly name: string;
  readonly aliases: readonly string[];
  /** The command with its names, its file loaded (the file's `command`). */
  load(): Promise<CommandSpec>;
}

function listed(name: string, aliases: readonly string[], file: () => Promise<{ command: CommandDefinition }>): ListedCommand {
  return { name, aliases, load: async () => ({ name, aliases, ...(await file()).command }) };
}

/**
 * Every command of the suite, the one place its names are written (npm/cli's cmd-list), in
 * the order `--help` lists them. A command's file, src/commands/<word>.ts, holds the rest of it
 * (help, options, exit codes, what it does); its word is its name without occ's app prefix,
 * `:` made `-` (pageName: `docs_unified_search:why` → why). From this list come the program's
 * commands, `help`, the man pages and completion (scripts/build-man.mjs, `completion`), and
 * the code-cache word of each name (scripts/build-help.mjs → dist/commands.json → bin/).
 * A file is loaded only when its command runs, or when every command is needed (`help`, a
 * name the list lacks, completion): test/cli-start-imports holds each entry to its file.
 */
export const COMMAND_LIST: readonly ListedCommand[] = [
  listed('docs_unified_search:setup', ['setup'], () => import('./setup.js')),
  listed('docs_unified_search:test', ['test'], () => import('./test.js')),
  listed('docs_unified_search:search', ['search'], () => import('./search.js')),
  listed('docs_unified_search:why', ['why'], () => import('./why.js')),
  listed('docs_unified_search:who', ['who'], () => import('./who.js')),
  listed('docs_unified_search:check', ['check'], () => import('./check.js')),
  listed('config:app:get', ['config:get'], () => import('./config-app-get.js')),
  listed('config:app:set', ['config:set'], () => import('./config-app-set.js')),
  listed('config:app:delete', ['config:delete'], () => import('./config-app-delete.js')),
  listed('setupchecks', ['checks'], () => import('./setupchecks.js')),
  listed('maintenance:repair', ['repair'], () => import('./maintenance-repair.js')),
  listed('serve', ['http'], () => import('./serve.js')),
  listed('docs_unified_search:bridge-secret', ['bridge:secret'], () => import('./bridge-secret.js')),
  listed('completion', [], () => import('./completion.js')),
];

/** The listed command a name or alias calls, if any. */
export function listedCommand(word: string): ListedCommand | undefined {
  return COMMAND_LIST.find((entry) => entry.name === word || entry.aliases.includes(word));
}

/**
 * The listed command `argv` runs, when the global options before its name leave no doubt;
 * undefined for anything else (`help`, `--help`, an unknown name, an option commander is to
 * judge), and then every command is loaded, as commander's answers list or suggest them.
 */
export function commandOfArgv(argv: readonly string[]): ListedCommand | undefined {
  const word = commandWordOf(argv);
  return word === undefined ? undefined : listedCommand(word);
}

/** Every command, loaded, in the list's order. */
export function loadCommands(): Promise<CommandSpec[]> {
  return Promise.all(COMMAND_LIST.map((entry) => entry.load()));
}
