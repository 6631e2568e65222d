import { Command, CommanderError } from 'commander';
import { isDusError } from './core/errors.js';
import { SUITE_VERSION } from './core/version.js';
import { commandOfArgv, loadCommands } from './commands/list.js';
import { GLOBAL_OPTIONS, globalsOf } from './cli/global-options.js';
import type { CommandIO, CommandSpec } from './cli/types.js';
import { safeText } from './cli/terminal-text.js';
import { argvAsksJson, cliMessageOf, errorJson, exitCodeOf, errorLine, jsonText } from './cli/output.js';
import { redactUsageError } from './cli/shared-options.js';
import { afterHelp, HELP_CONFIGURATION, helpWidthOf, programAfterHelp } from './cli/help-layout.js';
import { commandNamed, helpRequestOf, usageHint } from './cli/help-request.js';
import { EXIT_OK, EXIT_USAGE } from './cli/exit-codes.js';
import { argvLanguageOption, cliLanguageOf, type CliLanguage } from './cli/language.js';

/** The executable's IO (bin/ hands it to main). */
export { processIO } from './cli/process-output.js';

function register(program: Command, spec: CommandSpec, io: CommandIO, exit: RunState): void {
  const command = program.command(spec.name).summary(spec.summary).description(spec.summary);
  for (const alias of spec.aliases) command.alias(alias);
  spec.configure(command);
  command.addHelpText('after', afterHelp(spec));
  command.action(async (...received: unknown[]) => {
    const cmd = received[received.length - 1] as Command;
    const args = cmd.args.slice(0, cmd.registeredArguments.length);
    const globals = globalsOf(program, io);
    exit.code = await spec.run(args, cmd.opts(), { io, globals });
  });
}

/** The exit code a command returned, and the usage error commander reported (for the JSON rule). */
export interface RunState {
  code: number;
  usage?: string;
}

/** The program with `commands` (every command, or only the one a run needs: see commands/list.ts). */
export function buildProgram(io: CommandIO, exit: RunState, commands: readonly CommandSpec[]): Command {
  const program = new Command('docs-unified-search');
  program.version(SUITE_VERSION).description('Paperless-ngx full-text search for Nextcloud users, filtered through what each user can open.');
  for (const [flags, description] of GLOBAL_OPTIONS) program.option(flags, description);
  program
    // Capitalised like the command summaries beside it in the list.
    .helpCommand('help [command]', "Show a command's help, or a help topic below")
    .showHelpAfterError(false)
    .exitOverride()
    .configureHelp(HELP_CONFIGURATION)
    .configureOutput({
      writeOut: (s) => io.stdout.write(s),
      writeErr: (s) => io.stderr.write(s),
      getOutHelpWidth: () => helpWidthOf(io.stdout),
      getErrHelpWidth: () => helpWidthOf(io.stderr),
      outputError: (s, write) => {
        // Commander echoes what was typed: shown with its control characters escaped, as all human output.
        // One line, as every error: commander puts its suggestion on a line of its own.
        const oneLine = s.replace(/^error: /, '').replace(/\n\(Did you mean ([^)\n]*)\)/, ' (did you mean $1)');
        const said = redactUsageError(oneLine).split('\n').map(safeText).join('\n');
        exit.usage = said.trim();
        write(`Error [usage]: ${said}`);
      },
    });
  for (const spec of commands) register(program, spec, io, exit);
  program.addHelpText('after', programAfterHelp(program.name()));
  return program;
}

// Own keys only: `help constructor` must not find Object's prototype.
// The topics are loaded only when help is asked for.
async function helpTopic(name: string): Promise<((width: number) => string) | undefined> {
  const { HELP_TOPICS } = await import('./cli/environment.js');
  return Object.hasOwn(HELP_TOPICS, name) ? HELP_TOPICS[name] : undefined;
}

/** Runs the suite with `argv` (without node and script) and returns the exit code. */
export async function main(argv: readonly string[], io: CommandIO): Promise<number> {
  const exit: RunState = { code: EXIT_OK };
  const named = commandOfArgv(argv);
  const commands = named === undefined ? await loadCommands() : [await named.load()];
  const program = buildProgram(io, exit, commands);
  const code = await run(argv, io, program, exit);
  if (code === EXIT_USAGE) io.stderr.write(`${usageHint(argv, program)}\n`);
  return code;
}

async function run(argv: readonly string[], io: CommandIO, program: Command, exit: RunState): Promise<number> {
  const json = argvAsksJson(argv);
  // Help is answered before commander parses: it would show the command list for `help environment --no-color` or `--help search`.
  const request = helpRequestOf(argv, program);
  if (request !== null) {
    const { asked } = request;
    const topic = await helpTopic(asked);
    const command = commandNamed(program, asked);
    const known = topic !== undefined || asked === '' || command !== undefined;
    if (known && request.byCommand && json !== null) {
      // docs/json.md: help is text for people; --json given to it anyway is a wrong call, answered as one.
      const said = 'help prints text for people and takes no --json or --output: leave it out';
      io.stderr.write(`Error [usage]: ${said}\n`);
      io.stdout.write(jsonText(errorJson('usage', said), json, io.stdout.isTTY === true));
      return EXIT_USAGE;
    }
    if (topic !== undefined) io.stdout.write(topic(helpWidthOf(io.stdout)));
    else if (asked === '') program.outputHelp();
    else if (command !== undefined) command.outputHelp();
    else {
      // Commander answers `help <unknown>` with the command list and exit 0, which hides a typo from a script.
      const said = `no command or help topic '${safeText(redactUsageError(asked))}'`;
      io.stderr.write(`Error [usage]: ${said}\n`);
      if (json !== null) io.stdout.write(jsonText(errorJson('usage', said), json, io.stdout.isTTY === true));
      return EXIT_USAGE;
    }
    return EXIT_OK;
  }
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return exit.code;
  } catch (error: unknown) {
    if (error instanceof CommanderError) {
      if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.code === 'commander.help') {
        return EXIT_OK;
      }
      // A wrong call found before the command ran still answers --json with one JSON value.
      if (json !== null) io.stdout.write(jsonText(errorJson('usage', exit.usage ?? error.message), json, io.stdout.isTTY === true));
      return EXIT_USAGE;
    }
    // A --lang this release has no catalog for is itself the error, said in English.
    let said: CliLanguage = { language: null, asked: false };
    try {
      said = cliLanguageOf(argvLanguageOption(argv), io.env);
    } catch {
      // keep English
    }
    io.stderr.write(`${errorLine(error, io, said.language)}\n`);
    if (json !== null)
      io.stdout.write(
        jsonText(
          errorJson(isDusError(error) ? error.code : 'internal', cliMessageOf(error, said.asked ? said.language : null)),
          json,
          io.stdout.isTTY === true,
        ),
      );
    if (io.env.DUS_DEBUG === '1' && error instanceof Error && !isDusError(error)) io.stderr.write(`${error.stack ?? ''}\n`);
    return exitCodeOf(error);
  }
}
