import type { Command } from 'commander';
import type { ExitCode } from './exit-codes.js';

/** Where a command writes: what it asks of Node's stdout and stderr (src/cli/process-output.ts, or a test's capture). */
export interface Output {
  /** False when the text was queued: 'drain' then says when the queue emptied. */
  write(chunk: string | Uint8Array): boolean;
  once(event: 'drain', listener: () => void): unknown;
  readonly isTTY?: boolean;
  readonly columns?: number;
}

/** Streams and environment a command runs with (the real process, or a test's capture). */
export interface CommandIO {
  readonly stdout: Output;
  readonly stderr: Output;
  readonly stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  readonly env: NodeJS.ProcessEnv;
}

/** Options every command accepts (declared on the root program). */
export interface GlobalOptions {
  readonly configDir?: string;
  readonly nextcloud?: string;
  readonly hostDb?: string;
  readonly tablePrefix?: string;
  readonly hostUrl?: string;
  readonly logFile?: string;
  readonly color: boolean;
  /** `--quiet`: results and errors only (no waiting lines, hints, notes; no output when a check passes). */
  readonly quiet?: boolean;
  /** Columns of the terminal stdout is; absent when stdout is not a terminal (whole values are printed). */
  readonly width?: number;
  /** The language of messages (`--lang`, else the locale; src/cli/language.ts); absent or null: English. */
  readonly language?: string | null;
  /** Whether `--lang` gave it: only then are messages inside JSON output translated. */
  readonly languageAsked?: boolean;
}

export interface CommandContext {
  readonly io: CommandIO;
  readonly globals: GlobalOptions;
}

/**
 * One command, declared beside its usage (gh's `pkg/cmd/search/repos/repos.go` style): its file
 * in src/commands/ says its help text, options and exit codes, parses, calls the core, prints.
 * Its names are not written there: the command list (src/commands/list.ts) gives them.
 */
export interface CommandDefinition {
  readonly summary: string;
  /** Lines shown under "Examples:" in --help and in the man page (a trailing `  # …` is a comment). */
  readonly examples: readonly string[];
  /** Paragraphs (one a line) shown after the options in --help and in the man page's DESCRIPTION. */
  readonly notes?: string;
  /** The command's own exit codes and what each means (2, a wrong call, is added for every command). */
  readonly exitCodes: readonly ExitCode[];
  /** Values shell completion offers for an argument, by argument name (app ids, key names, shells). */
  readonly argumentValues?: Readonly<Record<string, readonly string[]>>;
  /** Declares arguments and options on the commander command. */
  configure(command: Command): void;
  /** Returns the exit code. `args` are the positional arguments, `options` the parsed options. */
  readonly run: (args: readonly string[], options: Record<string, unknown>, context: CommandContext) => Promise<number>;
}

/** A command as the program runs it: its name and aliases from the command list, the rest from its file. */
export interface CommandSpec extends CommandDefinition {
  readonly name: string;
  readonly aliases: readonly string[];
}
