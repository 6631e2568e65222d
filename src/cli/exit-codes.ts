/**
 * The exit codes of the suite, defined here and nowhere else: the program (src/cli.ts), the
 * output rule (output.ts) and every command return these, and each command's help and man page
 * say what they mean for it (`CommandSpec.exitCodes`; the wrong call's meaning is shared).
 */
export const EXIT_OK = 0;
/** The command ran and failed, or found what it looked for missing (its help says which). */
export const EXIT_FAILURE = 1;
/** A wrong call: found by commander before the command ran, or by the command (`Error [usage]`). */
export const EXIT_USAGE = 2;

/** An exit code and what it means. */
export type ExitCode = readonly [code: number, meaning: string];

/** What 2 means for every command: a command's help and man page add it to its own codes. */
export const WRONG_CALL: ExitCode = [EXIT_USAGE, 'wrong call: unknown option, missing argument or a value out of range'];

/** The suite's exit codes, as its own man page lists them. */
export const SUITE_EXIT_CODES: readonly ExitCode[] = [
  [EXIT_OK, 'success'],
  [EXIT_FAILURE, "failure, named on one line Error [code]: … (each command's page lists what its 1 means)"],
  WRONG_CALL,
];
