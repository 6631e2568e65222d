/**
 * The README's commands as a new user types them (issue 12: "every README command runs as
 * written"): every `dus …` and `docs-unified-search …` line of its shell blocks and of its
 * command table names a command that exists, options that command or the suite accepts, and no
 * more arguments than it takes; the systemd unit runs `serve` with the settings directory the
 * README makes. Commands that need a real Nextcloud or Paperless cannot run here; their words can
 * still be checked against the parser that would read them.
 */
import { describe, expect, test } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { buildProgram, main } from '../src/cli.js';
import { commandNamed } from '../src/cli/help-request.js';
import { loadCommands } from '../src/commands/list.js';
import { captureIO } from './support/capture-io.js';

const COMMANDS = await loadCommands();

const root = join(import.meta.dirname, '..');
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const unit = readFileSync(join(root, 'docs', 'docs-unified-search.service'), 'utf8');
const program = buildProgram(captureIO(), { code: 0 }, COMMANDS);

/** Shell words of a line, quotes removed; stops at a comment or at what the shell does around the command (pipe, redirection, &&). */
function shellWords(line: string): string[] {
  const words: string[] = [];
  for (const match of line.matchAll(/'([^']*)'|"([^"]*)"|(\S+)/g)) {
    const word = match[1] ?? match[2] ?? match[3] ?? '';
    if (match[3] !== undefined && (word.startsWith('#') || ['|', '<', '>', '&&', ';', ')'].includes(word))) break;
    words.push(word);
  }
  return words;
}

/** Each invocation of the suite in `text`: the words after `dus` or `docs-unified-search`. */
function invocations(text: string): string[][] {
  const found: string[][] = [];
  for (const line of text.replace(/\\\n\s*/g, ' ').split('\n')) {
    // `source <(dus completion bash)`: the command inside the process substitution.
    const words = shellWords(line.replace(/^.*?<\((.*?)\).*$/, '$1'));
    const at = words.findIndex((word) => word === 'dus' || word === 'docs-unified-search' || word.endsWith('/dus'));
    // `man docs-unified-search`, `cd docs-unified-search`, `enable … docs-unified-search` name the page, folder or unit.
    if (at === -1 || ['man', 'cd', '--now'].includes(words[at - 1] ?? '')) continue;
    found.push(words.slice(at + 1));
  }
  return found;
}

/** The README's shell blocks, and the `dus …` commands of its tables (optional parts `[…]` taken as given). */
function readmeInvocations(): string[][] {
  const blocks = [...readme.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1] ?? '');
  const cells = [...readme.matchAll(/^\|\s*`(dus [^`]+)`/gm)].map((match) => (match[1] ?? '').replace(/[[\]]/g, ' '));
  return invocations([...blocks, ...cells].join('\n'));
}

function optionsOf(command: Command): Map<string, boolean> {
  const options = new Map<string, boolean>([['--help', false], ['-h', false]]);
  // A hidden option (setup's --token) is there to refuse it with advice: the README must not use it.
  for (const option of command.options.filter((o) => !o.hidden)) {
    for (const flag of [option.long, option.short]) if (flag !== undefined) options.set(flag, option.required || option.optional);
  }
  return options;
}

/** What is wrong with a command line, or an empty list: unknown command or option, surplus arguments. */
function problemsOf(words: readonly string[]): string[] {
  const problems: string[] = [];
  let command: Command | undefined;
  let named = false;
  let isHelp = false;
  const positional: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const word = words[i] ?? '';
    if (word.startsWith('-')) {
      const name = word.split('=')[0] ?? word;
      const known = new Map([...optionsOf(program), ...(command === undefined ? [] : optionsOf(command))]);
      const takesValue = known.get(name);
      if (takesValue === undefined) problems.push(`unknown option ${name}${command === undefined ? '' : ` of ${command.name()}`}`);
      else if (takesValue && !word.includes('=')) i++;
    } else if (!named) {
      named = true;
      command = commandNamed(program, word);
      isHelp = word === 'help';
      if (command === undefined && !isHelp) problems.push(`unknown command ${word}`);
    } else {
      positional.push(word);
    }
  }
  if (named && command === undefined && !isHelp) return problems;
  const allowed = isHelp ? 1 : (command?.registeredArguments.length ?? 0);
  if (positional.length > allowed) problems.push(`${positional.length} arguments where ${command?.name() ?? 'help'} takes ${allowed}: ${positional.join(' ')}`);
  return problems;
}

describe('README commands', () => {
  const all = readmeInvocations();

  test('the README shows the suite run in its shell blocks and its command table', () => {
    expect(all.length).toBeGreaterThan(15);
    const named = new Set(all.map((words) => words.find((word) => !word.startsWith('-') && commandNamed(program, word) !== undefined)).filter((name) => name !== undefined));
    for (const name of ['setup', 'test', 'search', 'why', 'check', 'serve', 'completion', 'bridge:secret']) expect(named).toContain(name);
  });

  test.each(all.map((words) => [words.join(' '), words] as const))('dus %s: a command that exists, with options it accepts', (_line, words) => {
    expect(problemsOf(words)).toEqual([]);
  });

  test('the check itself finds a wrong command, option or argument count', () => {
    expect(problemsOf(['serach', 'alice'])).toEqual(['unknown command serach']);
    expect(problemsOf(['setup', '--token=x'])).toEqual(['unknown option --token of docs_unified_search:setup']);
    // Optional parts written in brackets are words a shell passes on: the command would refuse them.
    expect(problemsOf(['serve', '[--cache', 'redis://x]'])).toEqual(['2 arguments where serve takes 0: [--cache redis://x]']);
    expect(problemsOf(['why', 'anna', '412', 'extra'])).toHaveLength(1);
    expect(problemsOf(['--config-dir', '/d', 'test', '--json'])).toEqual([]);
  });

  test('the commands that need neither Nextcloud nor Paperless run as written, exit 0', async () => {
    for (const words of all.filter((w) => ['completion', 'help', '--help'].includes(w[0] ?? '') && !w.some((word) => /[<|\\]/.test(word)))) {
      const io = captureIO({ env: {} });
      expect([words.join(' '), await main(words, io), io.err()]).toEqual([words.join(' '), 0, '']);
      expect(io.out().length).toBeGreaterThan(100);
    }
  });
});

describe('the systemd unit', () => {
  test('runs serve with options it accepts, in the settings directory README step 2 makes and its later commands name', () => {
    const line = /^ExecStart=(.+)$/m.exec(unit)?.[1] ?? '';
    const [words = []] = invocations(line);
    expect(problemsOf(words)).toEqual([]);
    expect(words).toContain('serve');
    const made = /install -d -o www-data -g www-data -m 0700 (\S+)/.exec(readme)?.[1];
    expect(made).toBe('/var/lib/docs-unified-search');
    expect(words[words.indexOf('--config-dir') + 1]).toBe(made);
    // Every README command run as www-data names it too (else it would use ~www-data/.config, which Debian's www-data cannot write).
    for (const wwwData of readme.split('\n').filter((l) => /-u www-data dus\b/.test(l))) expect(wwwData).toContain(`--config-dir ${made ?? ''}`);
  });
});
