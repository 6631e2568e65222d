import type { Command } from 'commander';
import { shownName } from './help-layout.js';

/**
 * Reading a command line the way help needs it, before commander parses it: which words are
 * the command (and help's topic) once options and their values are set aside. commander alone
 * answers `help environment --no-color` and `--help search` with the command list, and cannot
 * say which command a wrong call was meant for.
 */

/** Every option that takes its value from the next word (`--config-dir DIR`, `--limit 5`): that word is no command. */
function valuedOptions(program: Command): Set<string> {
  const flags = new Set<string>();
  for (const command of [program, ...program.commands]) {
    for (const option of command.options) {
      if (!option.required && !option.optional) continue;
      if (option.long !== undefined) flags.add(option.long);
      if (option.short !== undefined) flags.add(option.short);
    }
  }
  return flags;
}

interface ReadLine {
  /** The words that are neither options nor their values, up to `--`. */
  readonly words: readonly string[];
  /** Whether `--help` or `-h` stands before `--`. */
  readonly helpFlag: boolean;
}

function read(argv: readonly string[], program: Command): ReadLine {
  const valued = valuedOptions(program);
  const words: string[] = [];
  let helpFlag = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    // After `--` every word is an argument (a search term may read --help).
    if (arg === '--') break;
    if (arg === '--help' || arg === '-h') helpFlag = true;
    else if (arg.startsWith('-') && arg !== '-') {
      if (!arg.includes('=') && valued.has(arg)) i++;
    } else words.push(arg);
  }
  return { words, helpFlag };
}

/** The command a name or alias calls, if any. */
export function commandNamed(program: Command, name: string): Command | undefined {
  return program.commands.find((command) => command.name() === name || command.aliases().includes(name));
}

export interface HelpRequest {
  /** `''` for the command list, else the command or topic name as typed. */
  readonly asked: string;
  /** Asked with the `help` command (which takes no --json), not with the `--help` flag (which wins over every other option). */
  readonly byCommand: boolean;
}

/**
 * What a command line asks help for, or `null` when it asks for none (`help search --no-color`,
 * `--help search`, `search alice --help`, `--config-dir D help environment`).
 */
export function helpRequestOf(argv: readonly string[], program: Command): HelpRequest | null {
  const line = read(argv, program);
  const asked = askedOf(argv, program, line);
  return asked === null ? null : { asked, byCommand: line.words[0] === 'help' && !line.helpFlag };
}

function askedOf(argv: readonly string[], program: Command, { words, helpFlag }: ReadLine): string | null {
  if (words[0] === 'help') return words[1] === undefined || words[1] === 'help' ? '' : words[1];
  if (helpFlag) return words[0] ?? '';
  // No command at all (`dus`, `dus --no-color`): the command list on stdout with exit 0, as gh
  // answers; commander wrote it to stderr. An option it does not know, or --version, is left to it.
  const own = new Set(program.options.flatMap((option) => [option.long, option.short]).filter((flag) => flag !== undefined));
  const options = argv.filter((arg) => arg.startsWith('-')).map((arg) => arg.split('=')[0] ?? arg);
  const last = argv[argv.length - 1] ?? '';
  const valueMissing = valuedOptions(program).has(last);
  return words.length === 0 && !valueMissing && options.every((option) => own.has(option) && option !== '--version' && option !== '-V') ? '' : null;
}

/** The line that follows every wrong call, pointing to the help of the command it was meant for (as git and gh do). */
export function usageHint(argv: readonly string[], program: Command): string {
  const first = read(argv, program).words[0];
  const command = first === undefined ? undefined : commandNamed(program, first);
  const help = command === undefined ? 'help' : `help ${shownName(command.name(), command.aliases())}`;
  return `Run '${program.name()} ${help}' for usage.`;
}
