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
  const options = new Map<string, boolean>([
    ['--help', false],
    ['-h', false],
  ]);
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
    const named = new Set(
      all.map((words) => words.find((word) => !word.startsWith('-') && commandNamed(program, word) !== undefined)).filter((name) => name !== undefined),
    );
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

describe('the "Inside Nextcloud" block, run as written on a tarball install without sudo', () => {
  const block = /```sh\n([\s\S]*?)```/.exec(readme.slice(readme.indexOf('### 5. Inside Nextcloud')))?.[1] ?? '';

  test('stops at the first failing line (set -e), and filters setupchecks to its one line', () => {
    expect(block.split('\n')[0]).toMatch(/^set -e/);
    expect(readme).toMatch(/occ setupchecks \| grep -F 'Document archive search'/);
    expect(readme).not.toMatch(/setupchecks \| grep -A/);
  });

  test('says what a new user would otherwise trip on: EBADENGINE on an older Node, service_url = serve --listen, packaging needs the dev dependencies and writes into the clone', () => {
    expect(readme).toMatch(/EBADENGINE[^.]*expect them/);
    expect(readme).toMatch(/`service_url`[^.]*must be the address `serve\s+--listen`/);
    expect(readme).toMatch(/Packaging builds in this clone: it needs the dev dependencies/);
  });

  test('apps/ only, no sudo on PATH, an older package beside the new one: the newest lands in $NC/apps, occ and dus run through runuser', async () => {
    const { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { spawnSync } = await import('node:child_process');
    const work = mkdtempSync(join(tmpdir(), 'dus-readme-install-'));
    try {
      const nc = join(work, 'nextcloud');
      mkdirSync(join(nc, 'apps'), { recursive: true });
      const bin = join(work, 'bin');
      mkdirSync(bin);
      // Only the tools the block needs: no sudo among them, whatever this machine has.
      for (const tool of ['bash', 'sh', 'tar', 'gzip', 'ls', 'head', 'cat', 'mkdir', 'touch']) {
        const found = spawnSync('sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).stdout.trim();
        if (found !== '') symlinkSync(found, join(bin, tool));
      }
      const log = join(work, 'calls.log');
      const stub = (name: string, body: string): void => {
        writeFileSync(join(bin, name), `#!/bin/sh\n${body}\n`);
        chmodSync(join(bin, name), 0o755);
      };
      stub('runuser', `[ "$1 $2 $3" = "-u www-data --" ] || exit 9\nshift 3\nexec "$@"`);
      stub('php', `if [ "$2" = docs_unified_search:bridge-secret ]; then echo "php $* <$(cat)" >> '${log}'; else echo "php $*" >> '${log}'; fi`);
      stub('dus', `echo "dus $*" >> '${log}'\necho the-secret`);
      // Two packages as the packaging leaves them after an upgrade: the older one first.
      stub(
        'npm',
        [
          'mkdir -p dist-nextcloud-app/pkg-old/docs_unified_search dist-nextcloud-app/pkg-new/docs_unified_search',
          'echo 0.3.0 > dist-nextcloud-app/pkg-old/docs_unified_search/version',
          'echo 0.4.0 > dist-nextcloud-app/pkg-new/docs_unified_search/version',
          'tar -czf dist-nextcloud-app/docs_unified_search-0.9.0.tar.gz -C dist-nextcloud-app/pkg-old docs_unified_search',
          'touch -d "2020-01-01" dist-nextcloud-app/docs_unified_search-0.9.0.tar.gz',
          'tar -czf dist-nextcloud-app/docs_unified_search-0.10.0.tar.gz -C dist-nextcloud-app/pkg-new docs_unified_search',
        ].join('\n'),
      );
      const result = spawnSync(join(bin, 'bash'), ['-c', block], { cwd: work, encoding: 'utf8', env: { PATH: bin, NC: nc, HOME: work } });
      expect([result.status, result.stderr]).toEqual([0, '']);
      expect(readdirSync(join(nc, 'apps'))).toEqual(['docs_unified_search']);
      expect(readFileSync(join(nc, 'apps', 'docs_unified_search', 'version'), 'utf8').trim()).toBe('0.4.0');
      expect(readFileSync(log, 'utf8').trim().split('\n')).toEqual([
        `php ${nc}/occ app:enable docs_unified_search`,
        'dus --config-dir /var/lib/docs-unified-search bridge:secret',
        `php ${nc}/occ docs_unified_search:bridge-secret <the-secret`,
        `php ${nc}/occ config:app:set docs_unified_search service_url --value=http://127.0.0.1:8080`,
      ]);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });

  test('a failing line stops the block: no occ after a failed packaging', async () => {
    const { chmodSync, mkdtempSync, rmSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { spawnSync } = await import('node:child_process');
    const work = mkdtempSync(join(tmpdir(), 'dus-readme-install-'));
    try {
      writeFileSync(join(work, 'npm'), '#!/bin/sh\nexit 1\n');
      chmodSync(join(work, 'npm'), 0o755);
      const result = spawnSync('bash', ['-c', block], {
        cwd: work,
        encoding: 'utf8',
        env: { PATH: `${work}:${process.env.PATH ?? ''}`, HOME: work, NC: work, OCC: 'echo OCC-RAN', DUS: 'true' },
      });
      expect(result.status).not.toBe(0);
      expect(result.stdout).not.toContain('OCC-RAN');
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });
});

describe("the README's Benchmarks", () => {
  test('say where each target stands in a short table and leave the internals to docs/benchmarks.md', () => {
    const start = readme.indexOf('\n## Benchmarks\n');
    const section = readme.slice(start + 1, readme.indexOf('\n## ', start + 1));
    expect(start).toBeGreaterThan(0);
    // Issue 25: some 95 lines of figures and start-up internals stood here before a newcomer's path was done.
    expect(section.split('\n').length).toBeLessThanOrEqual(25);
    expect(section).toContain('docs/benchmarks.md');
    const details = readFileSync(join(root, 'docs', 'benchmarks.md'), 'utf8');
    for (const heading of ['## The latest window in full', '## Start-up: what the executable loads']) expect(details).toContain(heading);
  });
});
