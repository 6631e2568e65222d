import type { AddHelpTextContext, Command, HelpConfiguration } from 'commander';
import { EXIT_USAGE, WRONG_CALL, type ExitCode } from './exit-codes.js';
import type { CommandSpec } from './types.js';

/**
 * How the help reads (gh's layout, occ's names): the command list shows the short name with
 * its arguments so that it fits 80 columns; a command's own help names its other names under
 * "Aliases", its exit codes, notes and examples, and the global options it accepts.
 */
export const HELP_MAX_WIDTH = 80;

/** The prefix occ puts before an app's own commands; their short alias is what people type. */
const OCC_PREFIX = 'docs_unified_search:';

/** The name the command list shows: the short alias of an occ-style name, else the name. */
export function shownName(name: string, aliases: readonly string[]): string {
  return name.startsWith(OCC_PREFIX) && aliases[0] !== undefined ? aliases[0] : name;
}

function otherNames(command: Command): string[] {
  const shown = shownName(command.name(), command.aliases());
  return [command.name(), ...command.aliases()].filter((name) => name !== shown);
}

function argumentsOf(command: Command): string {
  return command.registeredArguments.map((argument) => (argument.required ? `<${argument.name()}>` : `[${argument.name()}]`)).join(' ');
}

function ancestry(command: Command): string {
  const names: string[] = [];
  for (let parent = command.parent; parent !== null; parent = parent.parent) names.unshift(parent.name());
  return names.join(' ');
}

/** commander's help settings: shown names, aliases in the command's own help, global options listed. */
export const HELP_CONFIGURATION: HelpConfiguration = {
  showGlobalOptions: true,
  // commander stops wrapping descriptions narrower than 40 columns: on a 60-column terminal every
  // option then ran to 100 columns. Narrow columns of words read better than lines the terminal cuts.
  minWidthToWrap: 16,
  subcommandTerm: (command) => `${shownName(command.name(), command.aliases())} ${argumentsOf(command)}`.trim(),
  commandUsage: (command) => `${ancestry(command)} ${shownName(command.name(), command.aliases())} ${command.usage()}`.trim(),
  commandDescription: (command) => {
    const others = otherNames(command);
    const description = command.description();
    return command.parent === null || others.length === 0 ? description : `${description}\n\nAliases: ${others.join(', ')}`;
  },
};

/** The width help is laid out for: the terminal's, at most 80 (wider lines are hard to read); 80 when not a terminal. */
export function helpWidthOf(stream: { isTTY?: boolean; columns?: number }): number {
  const columns = stream.isTTY === true && typeof stream.columns === 'number' && stream.columns > 0 ? stream.columns : HELP_MAX_WIDTH;
  return Math.min(columns, HELP_MAX_WIDTH);
}

/** `text` broken at spaces into lines of at most `width` columns, each starting with `indent`. */
export function wrap(text: string, width: number, indent = ''): string[] {
  const lines: string[] = [];
  let current = '';
  for (const word of text.split(/\s+/).filter((w) => w !== '')) {
    if (current !== '' && indent.length + current.length + 1 + word.length > width) {
      lines.push(indent + current);
      current = word;
    } else {
      current = current === '' ? word : `${current} ${word}`;
    }
  }
  if (current !== '') lines.push(indent + current);
  return lines;
}

/** An example as a shell would take it: broken with ` \` continuations where it is wider than the help (also the man pages' width). */
export function exampleLines(example: string, width: number): string[] {
  const [command = '', comment] = example.split(/\s{2,}# /);
  const lines = comment === undefined ? [] : wrap(`# ${comment}`, width, '  ');
  const words = command.split(' ');
  let current = '  $';
  for (const word of words) {
    if (current.length + 1 + word.length + 2 > width && current !== '  $') {
      lines.push(`${current} \\`);
      current = `      ${word}`;
    } else {
      current = `${current} ${word}`;
    }
  }
  lines.push(current);
  return lines;
}

export function exitCodeLines(codes: readonly ExitCode[], width: number): string[] {
  return codes.flatMap(([code, meaning]) => {
    const [first = '', ...rest] = wrap(meaning, width - 6);
    return [`  ${String(code).padEnd(4)}${first}`, ...rest.map((line) => `      ${line}`)];
  });
}

/** What follows the options in a command's help: notes, exit codes, examples, laid out for the help's width. */
export function afterHelp(spec: CommandSpec): (context: AddHelpTextContext) => string {
  return (context) => {
    const width = context.command.configureOutput().getOutHelpWidth?.() ?? HELP_MAX_WIDTH;
    const blocks: string[] = [];
    if (spec.notes !== undefined)
      blocks.push(
        spec.notes
          .split('\n')
          .map((paragraph) => wrap(paragraph, width).join('\n'))
          .join('\n'),
      );
    blocks.push(['Exit codes:', ...exitCodeLines(exitCodesOf(spec), width)].join('\n'));
    if (spec.examples.length > 0) blocks.push(['Examples:', ...spec.examples.flatMap((example) => exampleLines(example, width))].join('\n'));
    return `\n${blocks.join('\n\n')}\n`;
  };
}

/** What follows the command list: the help topics and where a command's own help is, laid out for the help's width. */
export function programAfterHelp(program: string): (context: AddHelpTextContext) => string {
  return (context) => {
    const width = context.command.configureOutput().getOutHelpWidth?.() ?? HELP_MAX_WIDTH;
    const topic = 'help environment';
    const [first = '', ...rest] = wrap('The environment variables and the files it reads', width - topic.length - 4);
    return [
      '',
      'Help topics:',
      `  ${topic}  ${first}`,
      ...rest.map((line) => `${' '.repeat(topic.length + 4)}${line}`),
      '',
      ...wrap(`A command's options, exit codes and examples: ${program} help <command>`, width),
      '',
    ].join('\n');
  };
}

/** Every command's exit codes: its own, and 2 for a wrong call (commander's usage errors), which all share. */
export function exitCodesOf(spec: CommandSpec): readonly ExitCode[] {
  return spec.exitCodes.some(([code]) => code === EXIT_USAGE) ? spec.exitCodes : [...spec.exitCodes, WRONG_CALL];
}
