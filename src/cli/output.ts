import { Option, type Command } from 'commander';
import { wordedFor } from '../core/archive/failures.js';
import { DusError, isDusError, localizedMessage, messageOf } from '../core/errors.js';
import { EXIT_FAILURE, EXIT_USAGE } from './exit-codes.js';
import { safeText, terminalJson } from './terminal-text.js';
import { line, prose, type Piece } from './format.js';
import type { CommandContext, CommandIO } from './types.js';

/**
 * The one JSON rule of the commands that print data (docs/json.md): `--json`, or occ's
 * `--output=json|json_pretty`, gives exactly one JSON value on stdout, the result or
 * `{"error": {"code", "message"}}`, with the exit code of the plain run; the human error
 * line still goes to stderr. JSON keeps the exact text; only human output is escaped.
 */
export type OutputFormat = 'plain' | 'json' | 'json_pretty';
export const OUTPUT_FORMATS: readonly OutputFormat[] = ['plain', 'json', 'json_pretty'];

/** The message of a failure in the command line's words (`--allow-local`, not the admin page's switch). */
export function cliMessageOf(error: unknown, language: string | null = null): string {
  return language === null ? wordedFor('cli', messageOf(error)) : localizedMessage(error, language, 'cli');
}

/** One line naming the error code and what to correct; never a stack trace, never a control character. */
export function formatError(error: unknown, language: string | null = null): string {
  return `Error [${isDusError(error) ? error.code : 'internal'}]: ${safeText(cliMessageOf(error, language))}`;
}

/**
 * The coded line as stderr shows it: on a terminal broken at spaces to its width, the following
 * lines indented by two columns, as `prose` breaks sentences on stdout; piped or logged one line,
 * so `grep` finds a whole message.
 */
export function errorLine(error: unknown, io: CommandIO, language: string | null = null): string {
  const text = formatError(error, language);
  const columns = io.stderr.columns;
  if (io.stderr.isTTY !== true || typeof columns !== 'number' || columns <= 0) return text;
  return prose({ color: false, width: columns }, 2, text);
}

export function exitCodeOf(error: unknown): number {
  return isDusError(error) && error.code === 'usage' ? EXIT_USAGE : EXIT_FAILURE;
}

/** `terminal`: for stdout on a terminal, where the controls JSON leaves raw are escaped too (the same value). */
export function jsonText(value: unknown, format: 'json' | 'json_pretty', terminal = false): string {
  const text = format === 'json' ? JSON.stringify(value) : JSON.stringify(value, null, 4);
  return `${terminal ? terminalJson(text) : text}\n`;
}

export function errorJson(code: string, message: string): { error: { code: string; message: string } } {
  return { error: { code, message } };
}

/** Declares `--json` and `--output` on a command that prints data. */
export function withOutputOptions(command: Command): Command {
  return command
    .option('--json', 'print one JSON value: the result, or {"error": {code, message}} (docs/json.md)')
    .addOption(new Option('--output <format>', "occ's spelling of --json; json_pretty indents, plain is the default").choices(OUTPUT_FORMATS));
}

/** Whether a raw command line asks for JSON: for errors found before a command runs. */
export function argvAsksJson(argv: readonly string[]): 'json' | 'json_pretty' | null {
  let format: 'json' | 'json_pretty' | null = null;
  for (const [i, arg] of argv.entries()) {
    // After `--` every word is an argument (a search term may read --json).
    if (arg === '--') break;
    const value = arg.startsWith('--output=') ? arg.slice('--output='.length) : arg === '--output' ? argv[i + 1] : undefined;
    if (value === 'json' || value === 'json_pretty') format = value;
    else if (arg === '--json' && format === null) format = 'json';
  }
  return format;
}

export interface Output {
  readonly io: CommandIO;
  /** Writes one line of human output to stdout: pieces made safe, then coloured (format.ts `line`). */
  say(...pieces: readonly Piece[]): void;
  /** Writes a sentence for people to stdout: as `say`, and on a terminal wrapped at spaces to its width (format.ts `prose`). */
  tell(...pieces: readonly Piece[]): void;
  /** Prints the result: `value` as the one JSON value of the run in a JSON format, else `human()`. */
  result(value: unknown, human: () => void): void;
  /**
   * Prints what a change did (saved, set, deleted, repaired): as `result`, except that with
   * `--quiet` plain output says nothing, as occ's `-q`: the exit code tells that it worked.
   */
  done(value: unknown, human: () => void): void;
  /** Reports a failure: the coded line on stderr and, in a JSON format, the error object on stdout. Returns the exit code. */
  fail(error: unknown): number;
  /**
   * A failure that occ reports in its own words (or not at all) in plain output: `human()`
   * then, exit 1; the error object as any failure in a JSON format.
   */
  failAsOcc(error: DusError, human: () => void): number;
}

function formatOf(options: Record<string, unknown>): OutputFormat {
  const output = typeof options.output === 'string' ? (options.output as OutputFormat) : undefined;
  if (options.json === true) {
    if (output === 'plain') throw new DusError('usage', '--json and --output=plain contradict each other: give one of them.');
    return output ?? 'json';
  }
  return output ?? 'plain';
}

function outputOf(format: OutputFormat, context: CommandContext): Output {
  const { io, globals } = context;
  const language = globals.language ?? null;
  const terminal = io.stdout.isTTY === true;
  const fail = (error: unknown): number => {
    io.stderr.write(`${errorLine(error, io, language)}\n`);
    const said = cliMessageOf(error, globals.languageAsked === true ? language : null);
    if (format !== 'plain') io.stdout.write(jsonText(errorJson(isDusError(error) ? error.code : 'internal', said), format, terminal));
    return exitCodeOf(error);
  };
  return {
    io,
    say: (...pieces) => void io.stdout.write(`${line(globals, ...pieces)}\n`),
    tell: (...pieces) => void io.stdout.write(`${prose(globals, 2, ...pieces)}\n`),
    result: (value, human) => {
      if (format === 'plain') human();
      else io.stdout.write(jsonText(value, format, terminal));
    },
    done: (value, human) => {
      if (format !== 'plain') io.stdout.write(jsonText(value, format, terminal));
      else if (globals.quiet !== true) human();
    },
    fail,
    failAsOcc: (error, human) => {
      if (format !== 'plain') return fail(error);
      human();
      return EXIT_FAILURE;
    },
  };
}

/**
 * Runs a command's body with its output: whatever the body throws is reported once, by the
 * rule above. The body returns the exit code of a run that printed its result.
 */
export async function withOutput(options: Record<string, unknown>, context: CommandContext, body: (out: Output) => Promise<number>): Promise<number> {
  let format: OutputFormat;
  try {
    format = formatOf(options);
  } catch (error: unknown) {
    return outputOf('json', context).fail(error);
  }
  const out = outputOf(format, context);
  try {
    return await body(out);
  } catch (error: unknown) {
    return out.fail(error);
  }
}
