import type { CommandModel, OptionModel, SuiteModel } from './command-model.js';
import { pageName } from './command-model.js';
import { ENVIRONMENT, FILES, NAMED_VARIABLE, type Entry } from './environment.js';
import { exampleLines } from './help-layout.js';
import { SUITE_EXIT_CODES, type ExitCode } from './exit-codes.js';

/**
 * man(7) pages for the suite and each command, in the style of npm's: NAME, SYNOPSIS,
 * DESCRIPTION, OPTIONS, EXAMPLES, EXIT STATUS, ENVIRONMENT, FILES, SEE ALSO. Generated from
 * the command specs and the environment list that `help environment` prints.
 */
const SECTION = '1';

/** roff: a leading dot or quote would start a request; backslashes and hyphens are escaped. */
function esc(text: string): string {
  return text
    .replace(/\\/g, '\\e')
    .replace(/-/g, '\\-')
    .replace(/^([.'])/gm, '\\&$1');
}

/**
 * The suite and its version stand in the footer, the centre of the top line stays empty: a
 * command page's title (DOCS-UNIFIED-SEARCH-CONFIG-APP-DELETE(1)) stands at both ends of that
 * line, and a centre title ran into them at 80 columns. After it: no hyphenation and a ragged
 * right edge (`.nh`, `.ad l`, as asciidoctor's pages have), so page names, options and paths
 * stay whole and no line is stretched.
 */
function header(title: string, version: string): string {
  return `.TH "${title.toUpperCase()}" "${SECTION}" "" "docs-unified-search ${version}" ""\n.nh\n.ad l\n`;
}

function options(list: readonly OptionModel[]): string {
  return list
    .map((option) => {
      const fallback = option.defaultValue === null ? '' : ` (default: ${option.defaultValue})`;
      return `.TP\n.B ${esc(option.flags)}\n${esc(option.description + fallback)}\n`;
    })
    .join('');
}

function synopsis(program: string, command: CommandModel): string {
  const args = command.arguments.map((argument) => (argument.required ? `<${argument.name}>` : `[${argument.name}]`));
  return `${program} [global options] ${command.shown} ${command.options.length > 0 ? '[options] ' : ''}${args.join(' ')}`.trim();
}

/** Columns an example may take: man's 78 at 80 columns less its 7-column indent (unfilled lines are never broken by man). */
export const MAN_EXAMPLE_WIDTH = 71;

/** Examples as `--help` lays them out: a trailing comment on the line above, ` \` continuations where wider. */
function examples(list: readonly string[]): string {
  if (list.length === 0) return '';
  return `.SH EXAMPLES\n${list.map((example) => `.PP\n.nf\n${exampleLines(example, MAN_EXAMPLE_WIDTH).map(esc).join('\n')}\n.fi\n`).join('')}`;
}

function entries(list: readonly Entry[]): string {
  return list.map((entry) => `.TP\n.B ${esc(entry.name)}\n${esc(entry.meaning)}.\n`).join('');
}

function exitStatus(codes: readonly ExitCode[]): string {
  return `.SH EXIT STATUS\n${codes.map(([code, meaning]) => `.TP\n.B ${code}\n${esc(meaning)}.\n`).join('')}`;
}

function commandPage(suite: SuiteModel, command: CommandModel, version: string): string {
  const name = `${suite.program}-${pageName(command)}`;
  const others = [command.name, ...command.aliases].filter((other) => other !== command.shown);
  const also = others.length > 0 ? `.PP\nAlso called: ${esc(others.join(', '))}.\n` : '';
  const notes =
    command.notes === null
      ? ''
      : command.notes
          .split('\n')
          .map((paragraph) => `.PP\n${esc(paragraph)}\n`)
          .join('');
  return [
    header(name, version),
    `.SH NAME\n${esc(name)} \\- ${esc(command.summary)}\n`,
    `.SH SYNOPSIS\n.B ${esc(synopsis(suite.program, command))}\n`,
    `.SH DESCRIPTION\n${esc(command.summary)}.\n${notes}${also}`,
    command.options.length > 0 ? `.SH OPTIONS\n${options(command.options)}` : '',
    `.SH GLOBAL OPTIONS\n${options(suite.globalOptions)}`,
    examples(command.examples),
    exitStatus(command.exitCodes),
    `.SH ENVIRONMENT\nThe variables of the global options, and the others ${esc(suite.program)} reads, are listed in \\fB${esc(suite.program)}\\fR(1) and by \\fB${esc(suite.program)} help environment\\fR.\n`,
    `.SH SEE ALSO\n.BR ${suite.program} (1)\n`,
  ].join('');
}

function suitePage(suite: SuiteModel, version: string): string {
  const list = suite.commands
    .map((command) => {
      const others = [command.name, ...command.aliases].filter((other) => other !== command.shown);
      return `.TP\n.B ${esc(command.shown)}${others.length > 0 ? ` (${esc(others.join(', '))})` : ''}\n${esc(command.summary)}. See \\fB${esc(`${suite.program}-${pageName(command)}`)}\\fR(1).\n`;
    })
    .join('');
  return [
    header(suite.program, version),
    `.SH NAME\n${esc(suite.program)} \\- ${esc(suite.description)}\n`,
    `.SH SYNOPSIS\n.B ${esc(`${suite.program} [global options] <command> [options] [arguments]`)}\n`,
    `.SH DESCRIPTION\n${esc(suite.description)}\n.PP\nThe API token is read from standard input or an environment variable only, never from the command line.\n`,
    `.SH COMMANDS\n${list}`,
    `.SH GLOBAL OPTIONS\n${options(suite.globalOptions)}`,
    `.SH ENVIRONMENT\nAn option given on the command line wins over its variable.\n${entries([...ENVIRONMENT, NAMED_VARIABLE])}`,
    `.SH FILES\nIn the settings directory (\\fB\\-\\-config\\-dir\\fR, \\fBDUS_CONFIG_DIR\\fR, else \\fI$XDG_CONFIG_HOME/docs\\-unified\\-search\\fR), mode 0700; every file 0600.\n${entries(FILES)}`,
    exitStatus(SUITE_EXIT_CODES),
    `.SH SEE ALSO\n${suite.commands.map((command) => `.BR ${esc(`${suite.program}-${pageName(command)}`)} (1)`).join(',\n')}\n`,
  ].join('');
}

/** File name → content of every page. */
export function renderManPages(suite: SuiteModel, version: string): Map<string, string> {
  const pages = new Map<string, string>();
  pages.set(`${suite.program}.${SECTION}`, suitePage(suite, version));
  for (const command of suite.commands) pages.set(`${suite.program}-${pageName(command)}.${SECTION}`, commandPage(suite, command, version));
  return pages;
}
