import type { Command } from 'commander';
import { cliLanguageOf } from './language.js';
import type { CommandIO, GlobalOptions } from './types.js';

/**
 * The options every command accepts, declared on the program and given before or after the
 * command's name, in the order `--help` lists them: commander's flags and the description.
 * The executable finds the command's name past them without loading the program
 * (dist/commands.json, written at build, has VALUED_GLOBALS and FLAG_GLOBALS).
 */
export const GLOBAL_OPTIONS: readonly (readonly [flags: string, description: string])[] = [
  ['--config-dir <dir>', 'settings directory (env DUS_CONFIG_DIR; default: XDG config dir)'],
  ['--nextcloud <dir>', 'Nextcloud directory holding config/config.php (env DUS_NEXTCLOUD)'],
  ['--host-db <url>', 'Nextcloud database URL: sqlite:///path, postgres://…, mysql://… (env DUS_HOST_DB)'],
  ['--table-prefix <prefix>', 'Nextcloud table prefix (env DUS_TABLE_PREFIX; default oc_)'],
  ['--host-url <url>', 'Nextcloud base URL for links (env DUS_HOST_URL; default overwrite.cli.url)'],
  ['--log-file <file>', 'host log as JSON lines, "-" for stderr (env DUS_LOG_FILE)'],
  ['--lang <code>', 'language of messages: en or de (default: from LC_ALL, LC_MESSAGES or LANG, else English)'],
  ['--no-color', 'no colours (also NO_COLOR)'],
  [
    '--quiet',
    'only results and errors: no waiting lines, hints or notes; nothing when a check passes or a change worked (check, test, setupchecks, setup, config:app:set, config:app:delete, maintenance:repair)',
  ],
];

const longFlags = (valued: boolean): string[] =>
  GLOBAL_OPTIONS.filter(([flags]) => flags.includes(' <') === valued).map(([flags]) => flags.split(' ')[0] ?? flags);

/** Global options followed by a value (`--config-dir DIR` or `--config-dir=DIR`). */
export const VALUED_GLOBALS: readonly string[] = longFlags(true);
/** Global options that take none. */
export const FLAG_GLOBALS: readonly string[] = longFlags(false);

/** The global options of a run: each given option, else its environment variable; colour and width from the terminal. */
export function globalsOf(program: Command, io: CommandIO): GlobalOptions {
  const o = program.opts<{
    configDir?: string;
    nextcloud?: string;
    hostDb?: string;
    tablePrefix?: string;
    hostUrl?: string;
    logFile?: string;
    lang?: string;
    color?: boolean;
    quiet?: boolean;
  }>();
  const { language, asked } = cliLanguageOf(o.lang, io.env);
  const color = o.color !== false && io.env.NO_COLOR === undefined && io.stdout.isTTY === true;
  const width = io.stdout.isTTY === true && typeof io.stdout.columns === 'number' && io.stdout.columns > 0 ? io.stdout.columns : undefined;
  return {
    configDir: o.configDir ?? io.env.DUS_CONFIG_DIR,
    nextcloud: o.nextcloud ?? io.env.DUS_NEXTCLOUD,
    hostDb: o.hostDb ?? io.env.DUS_HOST_DB,
    tablePrefix: o.tablePrefix ?? io.env.DUS_TABLE_PREFIX,
    hostUrl: o.hostUrl ?? io.env.DUS_HOST_URL,
    logFile: o.logFile ?? io.env.DUS_LOG_FILE,
    color,
    quiet: o.quiet === true,
    ...(width === undefined ? {} : { width }),
    language,
    languageAsked: asked,
  };
}

/**
 * The word `argv` names its command by, when the global options before it leave no doubt;
 * undefined for anything else (no word, `--help`, an option commander is to judge).
 * bin/ reads a command line the same way (test/cli-start-imports holds the two to the same answers).
 */
export function commandWordOf(argv: readonly string[]): string | undefined {
  for (let at = 0; at < argv.length; at += 1) {
    const arg = argv[at] ?? '';
    if (VALUED_GLOBALS.includes(arg)) {
      at += 1;
      continue;
    }
    if (FLAG_GLOBALS.includes(arg) || VALUED_GLOBALS.some((option) => arg.startsWith(`${option}=`))) continue;
    return arg.startsWith('-') ? undefined : arg;
  }
  return undefined;
}
