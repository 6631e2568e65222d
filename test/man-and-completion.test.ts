import { describe, expect, test } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../src/cli.js';
import { pageName, suiteModel, type SuiteModel } from '../src/cli/command-model.js';
import { BINARIES } from '../src/commands/completion.js';
import { bashCompletion, zshCompletion } from '../src/cli/completion-scripts.js';
import { loadCommands } from '../src/commands/list.js';
import { MAN_EXAMPLE_WIDTH, renderManPages } from '../src/cli/man-pages.js';
import { buildProgram } from '../src/cli.js';
import { SUITE_VERSION } from '../src/core/version.js';
import { CURRENT_APP_CONFIG_KEYS } from '../src/core/settings/schema.js';
import { ENVIRONMENT, FILES } from '../src/cli/environment.js';
import { captureIO } from './support/capture-io.js';

const COMMANDS = await loadCommands();

const root = join(import.meta.dirname, '..');
const suite: SuiteModel = suiteModel(buildProgram(captureIO(), { code: 0 }, COMMANDS), COMMANDS);
const bashScript = join(root, 'completion', 'docs-unified-search.bash');

describe('man pages', () => {
  const pages = renderManPages(suite, SUITE_VERSION);

  test('the committed pages are what the specs generate (rerun: npm run build && node scripts/build-man.mjs)', () => {
    const committed = readdirSync(join(root, 'man'))
      .filter((file) => file.endsWith('.1'))
      .sort();
    expect(committed).toEqual([...pages.keys()].sort());
    for (const [file, text] of pages) expect(readFileSync(join(root, 'man', file), 'utf8')).toBe(text);
  });

  test('package.json installs every page through its man field', () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { man: string[] };
    expect([...pkg.man].sort()).toEqual([...pages.keys()].map((file) => `man/${file}`).sort());
  });

  test('every command has a page with its options and examples; the suite page lists them all', () => {
    const overview = pages.get('docs-unified-search.1') ?? '';
    for (const command of suite.commands) {
      const page = [...pages.entries()].find(([file]) => file === `docs-unified-search-${pageName(command)}.1`)?.[1] ?? '';
      expect(page).toContain('.SH SYNOPSIS');
      for (const option of command.options) expect(page).toContain((option.long ?? '').replace(/-/g, '\\-'));
      // Laid out as --help does: continuations joined, a trailing comment on the line above.
      const [, shown = ''] = page.split('.SH EXAMPLES');
      const joined = shown.replace(/ \\e\n\s+/g, ' ');
      for (const example of command.examples) {
        const [line = '', comment] = example.split(/\s{2,}# /);
        expect(joined).toContain(`$ ${line}`.replace(/\\/g, '\\e').replace(/-/g, '\\-'));
        if (comment !== undefined) expect(joined).toContain(`# ${comment}`.replace(/-/g, '\\-'));
      }
      expect(overview).toContain(command.name.replace(/-/g, '\\-'));
      // Its own exit codes, not a generic line.
      const [, exit = ''] = page.split('.SH EXIT STATUS');
      for (const [code, meaning] of command.exitCodes) expect(exit).toContain(`.B ${code}\n${meaning.replace(/-/g, '\\-')}.`);
      expect(page).toContain('.SH GLOBAL OPTIONS');
    }
  });

  test("examples fit 80 columns: each unfilled line within the page's 71 columns, wider ones broken with \\ continuations", () => {
    for (const [file, page] of pages) {
      const [, shown = ''] = page.split('.SH EXAMPLES');
      const unfilled = [...shown.matchAll(/^\.nf\n([\s\S]*?)\n\.fi$/gm)].flatMap((match) => (match[1] ?? '').split('\n'));
      // Every command page has examples; the suite page has none.
      expect([file, unfilled.length > 0]).toEqual([file, file !== 'docs-unified-search.1']);
      for (const line of unfilled)
        expect([file, line, line.replace(/\\([e-])/g, (_m, c: string) => (c === 'e' ? '\\' : '-')).length <= MAN_EXAMPLE_WIDTH]).toEqual([file, line, true]);
    }
  });

  const man = spawnSync('man', ['--version'], { encoding: 'utf8' });
  if (man.status !== 0) console.log('SKIP man pages rendered at 80 columns: man is not installed');
  (man.status === 0 ? test : test.skip)('rendered by man at 80 columns, no line of any page is wider, and no word is hyphenated', () => {
    for (const file of pages.keys()) {
      const run = spawnSync('man', ['-l', join(root, 'man', file)], {
        encoding: 'utf8',
        env: { ...process.env, MANWIDTH: '80', MAN_KEEP_FORMATTING: '', PAGER: 'cat' },
      });
      expect(run.status).toBe(0);
      const text = run.stdout.replace(/.\u0008/g, '');
      for (const line of text.split('\n')) expect([file, line, line.length <= 80]).toEqual([file, line, true]);
      // groff marks a hyphenation break with U+2010 at a line end.
      expect([file, text.match(/\u2010\n/g)]).toEqual([file, null]);
    }
  });

  test('the suite page has ENVIRONMENT with every variable and FILES with every file of the settings directory', () => {
    const overview = pages.get('docs-unified-search.1') ?? '';
    const [, environment = ''] = overview.split('.SH ENVIRONMENT');
    for (const entry of ENVIRONMENT) expect(environment).toContain(`.B ${entry.name}\n`);
    const [, files = ''] = overview.split('.SH FILES');
    for (const entry of FILES) expect(files).toContain(`.B ${entry.name.replace(/-/g, '\\-')}\n`);
    for (const name of ['settings.json', 'secret', 'credentials.json', 'docs_unified_search.log']) expect(files).toContain(`.B ${name}\n`);
  });
});

function complete(line: string): string[] {
  const script = `source ${JSON.stringify(bashScript)}\nCOMP_LINE=${JSON.stringify(line)}\nCOMP_POINT=\${#COMP_LINE}\n_docs_unified_search\nprintf '%s\\n' "\${COMPREPLY[@]}"\ncomplete -p dus`;
  const result = spawnSync('bash', ['--norc', '--noprofile', '-c', script], { encoding: 'utf8' });
  expect(result.status).toBe(0);
  return result.stdout.split('\n').filter((word) => word !== '');
}

describe('shell completion', () => {
  test('the committed scripts are what the specs generate', () => {
    expect(readFileSync(bashScript, 'utf8')).toBe(bashCompletion(suite, BINARIES));
    expect(readFileSync(join(root, 'completion', '_docs-unified-search'), 'utf8')).toBe(zshCompletion(suite, BINARIES));
  });

  test('`completion bash|zsh` prints them; another shell is a wrong call', async () => {
    for (const shell of ['bash', 'zsh'] as const) {
      const io = captureIO();
      expect(await main(['completion', shell], io)).toBe(0);
      expect(io.out()).toBe(shell === 'bash' ? bashCompletion(suite, BINARIES) : zshCompletion(suite, BINARIES));
    }
    const io = captureIO();
    expect(await main(['completion', 'fish'], io)).toBe(2);
    expect(io.err()).toContain('Error [usage]');
  });

  test('bash: command names complete, with colons handled the way bash splits words', () => {
    expect(complete('docs-unified-search sea')).toEqual(['search', 'complete -o default -F _docs_unified_search dus']);
    expect(complete('dus docs_unified_search:se')).toEqual(expect.arrayContaining(['setup', 'search']));
    expect(complete('dus config:app:g')).toContain('get');
  });

  test('bash: every option of every command completes after it, global options after a global value', () => {
    for (const command of suite.commands) {
      const offered = complete(`dus --config-dir /tmp/x ${command.aliases[0] ?? command.name} --`);
      for (const option of command.options) if (option.long !== null) expect(offered).toContain(option.long);
      expect(offered).toContain('--host-db');
    }
  });

  test('bash: option values, shells, app ids and key names complete instead of file names; help is offered', () => {
    expect(complete('dus search --output ')).toEqual(['plain', 'json', 'json_pretty', 'complete -o default -F _docs_unified_search dus']);
    expect(complete('dus check --output=js')).toEqual(['json', 'json_pretty', 'complete -o default -F _docs_unified_search dus']);
    expect(complete('dus completion ')).toEqual(['bash', 'zsh', 'complete -o default -F _docs_unified_search dus']);
    expect(complete('dus config:app:get ')).toEqual(['docs_unified_search', 'docs_sync', 'complete -o default -F _docs_unified_search dus']);
    const keys = complete('dus --config-dir /tmp/x config:app:get docs_unified_search ');
    for (const key of [...CURRENT_APP_CONFIG_KEYS, 'target_user']) expect(keys).toContain(key);
    expect(keys).not.toContain('package.json');
    expect(complete('dus config:app:set docs_unified_search al').slice(0, -1)).toEqual(['allow_local', 'always_search']);
    expect(complete('dus config:app:get docs_unified_search docs_url --output j').slice(0, -1)).toEqual(['json', 'json_pretty']);
    expect(complete('dus he')).toContain('help');
    expect(complete('dus help env')).toContain('environment');
    expect(complete('dus help conf')).toContain('config:app:get');
    // Where no values are known, file names as before.
    expect(complete('dus --config-dir ')).toContain('package.json');
  });

  test('zsh: every command and option appears', () => {
    const script = zshCompletion(suite, BINARIES);
    expect(script.startsWith('#compdef docs-unified-search dus\n')).toBe(true);
    for (const command of suite.commands) {
      expect(script).toContain(`'${command.name.replace(/:/g, '\\:')}:`);
      for (const option of command.options) expect(script).toContain(`'${option.long ?? ''}[`);
    }
    for (const option of suite.globalOptions) expect(script).toContain(`'${option.long ?? ''}[`);
  });

  const zsh = spawnSync('zsh', ['-f', '-c', 'zmodload zsh/zpty'], { encoding: 'utf8' });
  const zshReady = zsh.status === 0;
  if (!zshReady) console.log(`SKIP zsh completion through zsh itself: zsh with zpty is not available (${zsh.error?.message ?? zsh.stderr})`);
  (zshReady ? test : test.skip)('zsh: its own completion system offers commands, command options and global options', () => {
    const dir = mkdtempSync(join(tmpdir(), 'dus-zsh-'));
    try {
      copyFileSync(join(root, 'completion', '_docs-unified-search'), join(dir, '_docs-unified-search'));
      // Drives an interactive zsh in a pseudo-terminal and records every candidate compadd receives.
      writeFileSync(
        join(dir, 'capture.zsh'),
        [
          'zmodload zsh/zpty',
          'zpty z zsh -f -i',
          // $2: "fpath" installs the file as the README says, "source" sources it as `source <(dus completion zsh)` does.
          `if [[ $2 == source ]]; then zpty -w z "PS1=''; autoload -U compinit; compinit -u -D; source ${dir}/_docs-unified-search"; else zpty -w z "PS1=''; fpath=(${dir} \\$fpath); autoload -U compinit; compinit -u -D"; fi`,
          // The marker is built at run time so that the echo of this definition does not contain it.
          `zpty -w z 'compadd () { local -a __hits; local m=$'"'"'\\x3e\\x3e'"'"'; builtin compadd -O __hits "$@"; (( $#__hits )) && print -r -l -- "$m"\${^__hits}; builtin compadd "$@" }'`,
          'zpty -w z "$1"$\'\\t\'',
          "local out all=''",
          'integer i quiet=0',
          'for i in {1..60}; do',
          '  if zpty -rt z out 2>/dev/null; then all+=$out; quiet=0; continue; fi',
          '  [[ $all == *">>"* ]] && (( ++quiet > 3 )) && break',
          '  sleep 0.1',
          'done',
          'print -r -- "$all"',
          'zpty -d z',
        ].join('\n'),
      );
      const offered = (line: string, mode: 'fpath' | 'source' = 'fpath'): string[] => {
        const run = spawnSync('zsh', ['-f', join(dir, 'capture.zsh'), line, mode], { encoding: 'utf8', timeout: 120_000 });
        return [...run.stdout.replace(/\r/g, '').matchAll(/>>([^\s>]+)/g)].map((match) => match[1] ?? '').filter((word) => !word.startsWith('"'));
      };
      expect(offered('docs-unified-search sea')).toContain('search');
      expect(offered('dus search --li')).toContain('--limit');
      expect(offered('docs-unified-search --config-d')).toContain('--config-dir');
      expect(offered('dus search --output ')).toEqual(expect.arrayContaining(['plain', 'json', 'json_pretty']));
      expect(offered('dus completion ')).toEqual(expect.arrayContaining(['bash', 'zsh']));
      expect(offered('dus config:app:get ')).toEqual(expect.arrayContaining(['docs_unified_search', 'docs_sync']));
      const keys = offered('dus config:app:get docs_unified_search ');
      expect(keys).toEqual(expect.arrayContaining([...CURRENT_APP_CONFIG_KEYS, 'target_user']));
      expect(keys).not.toContain('package.json');
      expect(offered('dus he')).toContain('help');
      expect(offered('dus help env')).toContain('environment');
      // Sourced into the running shell (README step 1), it registers itself for both names.
      expect(offered('dus sea', 'source')).toContain('search');
      expect(offered('docs-unified-search search --output ', 'source')).toEqual(expect.arrayContaining(['plain', 'json', 'json_pretty']));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
