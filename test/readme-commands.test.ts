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
    const asWwwData = readme.split('\n').filter((l) => /(\$AS_WWW|-u www-data( --)?) dus\b/.test(l));
    expect(asWwwData.length).toBeGreaterThanOrEqual(3);
    for (const wwwData of asWwwData) expect(wwwData).toContain(`--config-dir ${made ?? ''}`);
  });
});

/** The shell block under a `### <n>. <title>` heading of the README. */
function blockUnder(title: string): string {
  const at = new RegExp(`^### \\d+\\. ${title}`, 'm').exec(readme)?.index ?? -1;
  expect(at).toBeGreaterThan(0);
  return /```sh\n([\s\S]*?)```/.exec(readme.slice(at))?.[1] ?? '';
}

describe('the administrator path needs no sudo', () => {
  test('no line of a shell block runs sudo; the account switch is runuser, which root has on every Linux', () => {
    const blocks = [...readme.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1] ?? '').join('\n');
    expect(blocks).not.toMatch(/^\s*sudo\b|[|;&]\s*sudo\b|AS_WWW=.*sudo/m);
    expect(blocks).toMatch(/AS_WWW=\$\{AS_WWW:-runuser -u www-data --\}/);
  });
});

describe('the "Inside Nextcloud" block, run as written on a tarball install without sudo', () => {
  const block = blockUnder('Inside Nextcloud');

  test('stops at the first failing line (set -e, pipefail), names each step it stops at, and ends by checking that the app answers', () => {
    expect(block.split('\n')[0]).toBe('set -euo pipefail');
    const steps = block.split('\n').filter((line) => /^(\$OCC|\$DUS|cp )/.test(line));
    expect(steps.length).toBeGreaterThanOrEqual(5);
    for (const step of steps) expect(step).toMatch(/\|\| stop ['"]/);
    // The last step is the check, and occ's own exit code (1 when any other check warns) is not its verdict.
    expect(block.trim().split('\n').slice(-2).join('\n')).toMatch(/\{ \$OCC setupchecks \|\| true; \} \| grep -F '✓ Document archive search' \\\n\s+\|\| stop/);
  });

  test('says what a new user would otherwise trip on: EBADENGINE on an older Node, service_url = serve --listen; packaging is in CONTRIBUTING', () => {
    expect(readme).toMatch(/EBADENGINE[^.]*expect them/);
    expect(readme).toMatch(/`service_url`[^.]*must be the address `serve\s+--listen`/);
    expect(readFileSync(join(root, 'CONTRIBUTING.md'), 'utf8')).toMatch(/Packaging builds in this clone: it needs the dev\s+dependencies/);
  });

  interface Stubbed {
    readonly status: number | null;
    readonly stderr: string;
    readonly apps: string[];
    readonly calls: string[];
  }

  /**
   * Runs the block with only the tools it needs on PATH (no sudo), `runuser`, `php` (occ) and
   * `dus` as stubs that log their calls, an installed package at $PKG and a tarball install at
   * $NC (apps/ only). `occ` says how the stubbed occ answers.
   */
  async function runStubbed(occ: { refusesConfig?: boolean } = {}, dusFails = false): Promise<Stubbed> {
    const { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync, existsSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { spawnSync } = await import('node:child_process');
    const work = mkdtempSync(join(tmpdir(), 'dus-readme-install-'));
    try {
      const nc = join(work, 'nextcloud');
      mkdirSync(join(nc, 'apps'), { recursive: true });
      const pkg = join(work, 'lib', 'node_modules', 'docs-unified-search');
      mkdirSync(join(pkg, 'nextcloud-app', 'docs_unified_search', 'appinfo'), { recursive: true });
      writeFileSync(join(pkg, 'nextcloud-app', 'docs_unified_search', 'appinfo', 'info.xml'), '<info/>\n');
      const bin = join(work, 'bin');
      mkdirSync(bin);
      // Only the tools the block needs: no sudo among them, whatever this machine has.
      for (const tool of ['bash', 'sh', 'cp', 'grep', 'cat', 'echo']) {
        const found = spawnSync('sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).stdout.trim();
        if (found.startsWith('/')) symlinkSync(found, join(bin, tool));
      }
      const log = join(work, 'calls.log');
      const stub = (name: string, body: string): void => {
        writeFileSync(join(bin, name), `#!/bin/sh\n${body}\n`);
        chmodSync(join(bin, name), 0o755);
      };
      stub('runuser', `[ "$1 $2 $3" = "-u www-data --" ] || exit 9\nshift 3\nexec "$@"`);
      stub(
        'php',
        [
          `if [ "$2" = docs_unified_search:bridge-secret ]; then echo "php $* <$(cat)" >> '${log}'; else echo "php $*" >> '${log}'; fi`,
          // Nextcloud's occ when its config directory is read-only: one message, exit 0, nothing done.
          occ.refusesConfig === true ? `echo 'Cannot write into "config" directory!'; exit 0` : '',
          `case "$2" in`,
          `  app:list) echo 'Enabled:'; echo '  - dav: 1.34.0'; echo '  - docs_unified_search: 0.4.0' ;;`,
          // setupchecks exits 1 when any check warns, as it does on most servers (no cron, no HTTPS).
          `  setupchecks) printf '\\tsystem:\\n\\t\\t✓ Document archive search: Paperless-ngx 2.20.1\\n\\t\\t⚠ Background jobs: not run\\n'; exit 1 ;;`,
          `esac`,
        ].join('\n'),
      );
      stub('dus', dusFails ? `echo 'Error [config_access]: Cannot read /x/bridge-secret (EACCES).' >&2\nexit 1` : `echo "dus $*" >> '${log}'\necho the-secret`);
      const result = spawnSync(join(bin, 'bash'), ['-c', block], { cwd: work, encoding: 'utf8', env: { PATH: bin, NC: nc, PKG: pkg, HOME: work } });
      return {
        status: result.status,
        stderr: result.stderr,
        apps: readdirSync(join(nc, 'apps')),
        calls: existsSync(log)
          ? readFileSync(log, 'utf8')
              .trim()
              .split('\n')
              .map((line) => line.replaceAll(nc, '$NC'))
          : [],
      };
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }

  test('apps/ only, no sudo on PATH: the app from the installed package lands in $NC/apps, occ and dus run through runuser, the check passes', async () => {
    const run = await runStubbed();
    expect([run.status, run.stderr]).toEqual([0, '']);
    expect(run.apps).toEqual(['docs_unified_search']);
    expect(run.calls).toEqual([
      'php $NC/occ app:enable docs_unified_search',
      'php $NC/occ app:list --enabled',
      'dus --config-dir /var/lib/docs-unified-search bridge:secret',
      'php $NC/occ docs_unified_search:bridge-secret <the-secret',
      'php $NC/occ config:app:set docs_unified_search service_url --value=http://127.0.0.1:8080',
      'php $NC/occ setupchecks',
    ]);
  });

  test('occ that exits 0 without acting (config directory not writable): the block stops at enabling the app and says so', async () => {
    const run = await runStubbed({ refusesConfig: true });
    expect(run.status).toBe(1);
    expect(run.stderr).toBe('Stopped at: enabling the app. Nothing after it ran; the lines above say why.\n');
    expect(run.calls).toEqual(['php $NC/occ app:enable docs_unified_search', 'php $NC/occ app:list --enabled']);
  });

  test("dus's failure inside the secret's pipe stops the block there (pipefail): service_url is not set", async () => {
    const run = await runStubbed({}, true);
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/^Error \[config_access\]: .*\nStopped at: handing over the secret\. /);
    expect(run.calls.some((call) => call.includes('service_url'))).toBe(false);
  });

  test('a failing first line stops the block: no occ after a failed copy', async () => {
    const { chmodSync, mkdtempSync, rmSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { spawnSync } = await import('node:child_process');
    const work = mkdtempSync(join(tmpdir(), 'dus-readme-install-'));
    try {
      writeFileSync(join(work, 'occ'), '#!/bin/sh\necho OCC-RAN\n');
      chmodSync(join(work, 'occ'), 0o755);
      const result = spawnSync('bash', ['-c', block], {
        cwd: work,
        encoding: 'utf8',
        env: { PATH: process.env.PATH ?? '', HOME: work, NC: work, PKG: join(work, 'no-such-package'), OCC: join(work, 'occ'), DUS: 'true' },
      });
      expect(result.status).toBe(1);
      expect(result.stdout).not.toContain('OCC-RAN');
      expect(result.stderr).toContain(`Stopped at: copying the app into ${work}/apps.`);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });
});

describe('the "serve as a service" block, run as written', () => {
  const block = blockUnder('`serve` as a service');

  async function runStubbed(healthy: boolean): Promise<{ status: number | null; stderr: string; unit: string; calls: string[] }> {
    const { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { spawnSync } = await import('node:child_process');
    const work = mkdtempSync(join(tmpdir(), 'dus-readme-unit-'));
    try {
      const pkg = join(work, 'pkg');
      mkdirSync(join(pkg, 'docs'), { recursive: true });
      writeFileSync(join(pkg, 'docs', 'docs-unified-search.service'), unit);
      const units = join(work, 'units');
      mkdirSync(units);
      const bin = join(work, 'bin');
      mkdirSync(bin);
      for (const tool of ['bash', 'sh', 'sed']) {
        const found = spawnSync('sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).stdout.trim();
        if (found.startsWith('/')) symlinkSync(found, join(bin, tool));
      }
      const log = join(work, 'calls.log');
      const stub = (name: string, body: string): void => {
        writeFileSync(join(bin, name), `#!/bin/sh\necho "${name} $*" >> '${log}'\n${body}\n`);
        chmodSync(join(bin, name), 0o755);
      };
      stub('dus', 'exit 0');
      stub('systemctl', 'exit 0');
      // curl --fail: exit 22 on an HTTP error status, as it answers for a 503.
      stub('curl', healthy ? `printf '{"status":"ok"}'` : `echo 'curl: (22) The requested URL returned error: 503' >&2; exit 22`);
      const result = spawnSync(join(bin, 'bash'), ['-c', block], { cwd: work, encoding: 'utf8', env: { PATH: bin, PKG: pkg, UNITS: units, HOME: work } });
      const written = join(units, 'docs-unified-search.service');
      return {
        status: result.status,
        stderr: result.stderr,
        unit: existsSync(written) ? readFileSync(written, 'utf8').replaceAll(bin, '$BIN') : '',
        calls: readFileSync(log, 'utf8').trim().split('\n'),
      };
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }

  test("writes the package's unit with this machine's dus in ExecStart, starts it and waits for its health", async () => {
    const run = await runStubbed(true);
    expect([run.status, run.stderr]).toEqual([0, '']);
    expect(run.unit).toBe(unit.replace('ExecStart=/usr/local/bin/dus ', 'ExecStart=$BIN/dus '));
    expect(run.calls).toEqual([
      'systemctl daemon-reload',
      'systemctl enable --now docs-unified-search',
      'curl -fsS --retry 10 --retry-connrefused --retry-delay 1 http://127.0.0.1:8080/healthz',
    ]);
  });

  test("an unhealthy serve (503) stops the block with curl's failure", async () => {
    const run = await runStubbed(false);
    expect(run.status).toBe(22);
    expect(run.stderr).toContain('503');
  });
});

describe('the README is for users', () => {
  const lines = readme.split('\n');

  test('at most 250 lines of at most 100 characters', () => {
    expect(lines.length).toBeLessThanOrEqual(250);
    expect(lines.filter((line) => [...line].length > 100)).toEqual([]);
  });

  test("the set-up commands first, then the issue's order: what it does, requirements, install, demo, set-up, commands, troubleshooting, upgrading, more", () => {
    expect(
      /```sh\n(.*)\n(.*)\n```/
        .exec(readme)
        ?.slice(1, 3)
        .map((line) => line.split('#')[0]?.trim()),
    ).toEqual(['npm ci && npm run demo', 'npm test']);
    const headings = lines.filter((line) => line.startsWith('## '));
    expect(headings).toEqual([
      '## Requirements',
      '## Install',
      '## First success: the demo',
      '## The real set-up',
      '## Everyday commands',
      '## Troubleshooting',
      '## Upgrading',
      '## Where to read more',
    ]);
  });

  test('holds no test or benchmark internals: those are in CONTRIBUTING.md and docs/benchmarks.md', () => {
    expect(readme).not.toMatch(/jest|DUS_CONFORMANCE|DUS_NEXTCLOUD_TARBALL|conformance|bench\/|\bload \d|UTC|test\//);
    const contributing = readFileSync(join(root, 'CONTRIBUTING.md'), 'utf8');
    for (const moved of ['DUS_CONFORMANCE_ONLY', 'DUS_NEXTCLOUD_TARBALL', 'dist-tools/bench/']) expect(contributing).toContain(moved);
    const details = readFileSync(join(root, 'docs', 'benchmarks.md'), 'utf8');
    for (const heading of ['## Where each target stands', '## The latest window in full', '## Start-up: what the executable loads'])
      expect(details).toContain(heading);
  });

  test('troubleshooting lists ten causes, each with its code where it has one, and links the error page', () => {
    const start = readme.indexOf('\n## Troubleshooting\n');
    const section = readme.slice(start, readme.indexOf('\n## ', start + 1));
    expect(section.match(/^\d+\. /gm)).toHaveLength(10);
    expect(section).toContain('docs/errors.md');
  });
});
