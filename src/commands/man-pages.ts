import type { CommandModel, OptionModel, SuiteModel } from './command-model.js';
import { pageName } from './command-model.js';

/**
 * man(7) pages for the suite and each command, in the style of npm's: NAME, SYNOPSIS,
 * DESCRIPTION, OPTIONS, EXAMPLES, EXIT STATUS, SEE ALSO. Generated from the command specs.
 */
const SECTION = '1';

/** roff: a leading dot or quote would start a request; backslashes and hyphens are escaped. */
function esc(text: string): string {
  return text
    .replace(/\\/g, '\\e')
    .replace(/-/g, '\\-')
    .replace(/^([.'])/gm, '\\&$1');
}

function header(title: string, version: string): string {
  return `.TH "${title.toUpperCase()}" "${SECTION}" "" "${version}" "docs-unified-search"\n`;
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
  return `${program} [global options] ${command.name} ${command.options.length > 0 ? '[options] ' : ''}${args.join(' ')}`.trim();
}

function examples(list: readonly string[]): string {
  if (list.length === 0) return '';
  return `.SH EXAMPLES\n${list.map((line) => `.PP\n.nf\n.RS 2\n${esc(`$ ${line}`)}\n.RE\n.fi\n`).join('')}`;
}

const EXIT = `.SH EXIT STATUS\n.TP\n.B 0\nsuccess\n.TP\n.B 1\nfailure: the archive server does not answer, a setting is wrong, or the check warns\n.TP\n.B 2\nwrong call (unknown option, missing argument, value out of range)\n`;

function commandPage(suite: SuiteModel, command: CommandModel, version: string): string {
  const name = `${suite.program}-${pageName(command)}`;
  const also = command.aliases.length > 0 ? `.PP\nAlso called: ${esc(command.aliases.join(', '))}.\n` : '';
  return [
    header(name, version),
    `.SH NAME\n${esc(name)} \\- ${esc(command.summary)}\n`,
    `.SH SYNOPSIS\n.B ${esc(synopsis(suite.program, command))}\n`,
    `.SH DESCRIPTION\n${esc(command.summary)}.\n${also}`,
    command.options.length > 0 ? `.SH OPTIONS\n${options(command.options)}` : '',
    examples(command.examples),
    EXIT,
    `.SH SEE ALSO\n.BR ${suite.program} (1)\n`,
  ].join('');
}

function suitePage(suite: SuiteModel, version: string): string {
  const list = suite.commands
    .map((command) => `.TP\n.B ${esc(command.name)}${command.aliases.length > 0 ? ` (${esc(command.aliases.join(', '))})` : ''}\n${esc(command.summary)}. See \\fB${esc(`${suite.program}-${pageName(command)}`)}\\fR(1).\n`)
    .join('');
  return [
    header(suite.program, version),
    `.SH NAME\n${esc(suite.program)} \\- ${esc(suite.description)}\n`,
    `.SH SYNOPSIS\n.B ${esc(`${suite.program} [global options] <command> [options] [arguments]`)}\n`,
    `.SH DESCRIPTION\n${esc(suite.description)}\n.PP\nThe API token is read from standard input or an environment variable only, never from the command line.\n`,
    `.SH COMMANDS\n${list}`,
    `.SH GLOBAL OPTIONS\n${options(suite.globalOptions)}`,
    '.SH ENVIRONMENT\n.TP\n.B DUS_CONFIG_DIR, DUS_NEXTCLOUD, DUS_HOST_DB, DUS_TABLE_PREFIX, DUS_HOST_URL, DUS_LOG_FILE\nDefaults of the global options of the same names.\n.TP\n.B NO_COLOR\nNo colours in the output.\n',
    EXIT,
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
