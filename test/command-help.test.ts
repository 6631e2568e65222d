import { describe, expect, test } from '@jest/globals';
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import stringWidth from 'string-width';
import { main } from '../src/cli.js';
import { ENVIRONMENT } from '../src/cli/environment.js';
import { exitCodesOf, shownName } from '../src/cli/help-layout.js';
import { loadCommands } from '../src/commands/list.js';
import { captureIO } from './support/capture-io.js';
import { ptyUnavailable, runOnPty } from './support/pty.js';

const COMMANDS = await loadCommands();

async function help(args: readonly string[], columns?: number): Promise<string> {
  const io = captureIO({ env: {}, ...(columns === undefined ? {} : { tty: true, columns }) });
  expect(await main(args, io)).toBe(0);
  expect(io.err()).toBe('');
  return io.out();
}

function widest(text: string): number {
  return Math.max(...text.split('\n').map((line) => stringWidth(line)));
}

/** An example as the help shows it: ` \` continuations joined, a trailing comment on the line above. */
function examplesOf(text: string): string {
  const [, examples = ''] = text.split('Examples:');
  return examples.replace(/ \\\n\s+/g, ' ');
}

const helpOfEvery: [string, readonly string[]][] = [
  ['the command list', ['--help']],
  ['help environment', ['help', 'environment']],
  ...COMMANDS.map((command): [string, readonly string[]] => [command.name, [command.name, '--help']]),
];

describe('--help', () => {
  test.each(COMMANDS.map((command) => [command.name, command] as const))(
    '%s answers --help under its name and aliases, with its examples and exit codes',
    async (name, command) => {
      for (const spelling of [name, ...command.aliases]) {
        const out = await help([spelling, '--help']);
        expect(command.examples.length).toBeGreaterThan(0);
        const examples = examplesOf(out);
        for (const example of command.examples) {
          const [line = '', comment] = example.split(/\s{2,}# /);
          expect(examples).toContain(`$ ${line}`);
          if (comment !== undefined) expect(examples).toContain(`# ${comment}`);
        }
        expect(out).toContain(command.summary);
        const [, exits = ''] = out.split('Exit codes:');
        for (const [code, meaning] of exitCodesOf(command)) expect(exits.replace(/\s+/g, ' ')).toContain(`${code} ${meaning}`);
      }
    },
  );

  test.each(helpOfEvery)('%s fits 80 columns at 80 columns, and stays at 80 on a wider terminal', async (_name, args) => {
    expect(widest(await help(args, 80))).toBeLessThanOrEqual(80);
    expect(widest(await help(args, 200))).toBeLessThanOrEqual(80);
    expect(widest(await help(args))).toBeLessThanOrEqual(80);
  });

  test.each(helpOfEvery)('%s on a 60-column terminal: lines broken to 60, but for the usage line and a single long word', async (_name, args) => {
    for (const line of (await help(args, 60)).split('\n')) {
      if (stringWidth(line) <= 60 || line.startsWith('Usage: ')) continue;
      // An example's word keeps its ` \` continuation.
      expect(line.trim().replace(/ \\$/, '')).not.toContain(' ');
    }
  });

  test('the command list shows each short name with its arguments; the occ-style name is an alias in the command help', async () => {
    const list = await help(['--help'], 80);
    expect(list).toMatch(/^ {2}search <user> <term> {2,}Search as a user/m);
    expect(list).toMatch(/^ {2}why <user> <document-id> {2,}Say whether/m);
    expect(list).toMatch(/^ {2}config:app:get <app> <name> {2,}Read an app/m);
    expect(list).not.toContain('docs_unified_search:');
    expect(list).toMatch(/^ {2}help environment /m);
    // Every row of the list reads alike: a capital first letter, commander's own help row too.
    const [, rows = ''] = list.split('Commands:\n');
    for (const row of (rows.split('\n\n')[0] ?? '').split('\n').filter((l) => /^ {2}\S/.test(l))) expect(row).toMatch(/ {2,}[A-Z]/);
    for (const command of COMMANDS) {
      const shown = shownName(command.name, command.aliases);
      expect(list).toMatch(new RegExp(`^ {2}${shown.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`, 'm'));
      const own = await help([command.name, '--help'], 80);
      expect(own).toContain(`Usage: docs-unified-search ${shown} `);
      const others = [command.name, ...command.aliases].filter((name) => name !== shown);
      if (others.length > 0) expect(own).toContain(`Aliases: ${others.join(', ')}`);
    }
  });

  test('each command lists the global options it accepts, and --limit its default as a number', async () => {
    for (const command of COMMANDS) {
      const [, globals = ''] = (await help([command.name, '--help'])).split('Global Options:');
      for (const option of ['--config-dir', '--nextcloud', '--host-db', '--table-prefix', '--host-url', '--log-file', '--no-color'])
        expect(globals).toContain(option);
    }
    expect((await help(['search', '--help'])).replace(/\s+/g, ' ')).toContain('(1-50) (default: 10)');
    // A default is shown as it is typed, not as a JSON string.
    expect((await help(['serve', '--help'])).replace(/\s+/g, ' ')).toContain('may write) (default: 127.0.0.1:8080)');
  });

  test("a command's own options come first, then --json and --output, then --help", async () => {
    for (const command of COMMANDS) {
      const [, own = ''] = (await help([command.name, '--help'])).split('Options:\n');
      const flags = [...(own.split('\nGlobal Options:')[0] ?? '').matchAll(/^ {2}(?:-\w, )?(--[\w-]+)/gm)].map((match) => match[1]);
      const shared = flags.filter((flag) => flag === '--json' || flag === '--output');
      if (shared.length === 0) continue;
      expect([command.name, flags.slice(-3)]).toEqual([command.name, ['--json', '--output', '--help']]);
    }
  });

  const pty = ptyUnavailable();
  if (pty !== null) console.log(`SKIP help on a real terminal: ${pty}`);
  (pty === null ? test : test.skip)('on a real 80-column terminal the installed executable prints the command list within 80 columns', async () => {
    const run = await runOnPty(80, ['--help']);
    expect(widest(run.screen.replace(/\r/g, ''))).toBeLessThanOrEqual(80);
    expect(run.screen).toContain('search <user> <term>');
  });
});

/** Every variable name the product reads from its environment, found in the source. */
function variablesRead(dir: string): Set<string> {
  const found = new Set<string>();
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) {
      for (const name of variablesRead(path)) found.add(name);
    } else if (path.endsWith('.ts')) {
      for (const match of readFileSync(path, 'utf8').matchAll(/\benv(?:\.([A-Z][A-Z0-9_]+)|\[['"]([A-Z][A-Z0-9_]+)['"]\])/g))
        found.add(match[1] ?? match[2] ?? '');
    }
  }
  return found;
}

describe('help environment', () => {
  test('lists every environment variable the code reads, and the files of the settings directory', async () => {
    const read = variablesRead(join(import.meta.dirname, '..', 'src'));
    expect(read.size).toBeGreaterThan(8);
    const listed = ENVIRONMENT.map((entry) => entry.name);
    expect([...read].filter((name) => !listed.includes(name))).toEqual([]);
    const out = await help(['help', 'environment']);
    for (const name of [
      ...read,
      'DUS_CONFIG_DIR',
      'DUS_NEXTCLOUD',
      'DUS_HOST_DB',
      'DUS_TABLE_PREFIX',
      'DUS_HOST_URL',
      'DUS_SECRET',
      'DUS_LOG_FILE',
      'DUS_LOG_LEVEL',
      'NO_COLOR',
      'XDG_CONFIG_HOME',
    ]) {
      expect(out).toMatch(new RegExp(`^ {2}${name} `, 'm'));
    }
    for (const file of ['settings.json', 'secret', 'credentials.json', 'docs_unified_search.log', 'audit.log'])
      expect(out).toMatch(new RegExp(`^ {2}${file.replace('.', '\\.')} `, 'm'));
  });
});

describe('usage errors', () => {
  test('a misspelt command is still named, so the redaction of token-like words does not hide it', async () => {
    const io = captureIO({ env: {} });
    expect(await main(['docs_unified_search:serach'], io)).toBe(2);
    expect(io.err()).toContain("unknown command 'docs_unified_search:serach'");
  });

  test("commander's suggestion stays on the error's line, in the JSON message too", async () => {
    const io = captureIO({ env: {} });
    expect(await main(['serach', 'alice', 'x', '--json'], io)).toBe(2);
    expect(io.err()).toBe("Error [usage]: unknown command 'serach' (did you mean search?)\nRun 'docs-unified-search help' for usage.\n");
    expect(JSON.parse(io.out())).toEqual({ error: { code: 'usage', message: "unknown command 'serach' (did you mean search?)" } });
    const option = captureIO({ env: {} });
    expect(await main(['search', 'alice', 'x', '--explian'], option)).toBe(2);
    expect(option.err()).toBe("Error [usage]: unknown option '--explian' (did you mean --explain?)\nRun 'docs-unified-search help search' for usage.\n");
  });

  test('help for a command or topic that does not exist is a wrong call, not the command list with exit 0', async () => {
    const io = captureIO({ env: {} });
    expect(await main(['help', 'serach'], io)).toBe(2);
    expect(io.out()).toBe('');
    expect(io.err()).toBe("Error [usage]: no command or help topic 'serach'\nRun 'docs-unified-search help' for usage.\n");
    const json = captureIO({ env: {} });
    expect(await main(['help', 'serach', '--json'], json)).toBe(2);
    expect(JSON.parse(json.out())).toEqual({ error: { code: 'usage', message: expect.stringContaining("'serach'") } });
    for (const inherited of ['constructor', 'toString', '__proto__']) {
      const io2 = captureIO({ env: {} });
      expect(await main(['help', inherited], io2)).toBe(2);
      expect(io2.err()).toContain(`'${inherited}'`);
    }
    for (const known of ['search', 'docs_unified_search:search', 'environment']) expect((await help(['help', known])).length).toBeGreaterThan(100);
    const flagged = captureIO({ env: {} });
    expect(await main(['serach', '--help'], flagged)).toBe(2);
    expect(flagged.out()).toBe('');
    expect(flagged.err()).toContain("no command or help topic 'serach'");
  });

  // Each wrong call: where commander finds it, where the command finds it, and before any command.
  const wrongCalls: [string, readonly string[], string][] = [
    ['a missing argument', ['search', 'alice'], "missing required argument 'term'"],
    ['a value out of range', ['search', 'alice', 'invoice', '--limit', '99'], '--limit must be a whole number from 1 to 50'],
    ['an unknown option', ['why', 'anna', '412', '--bogus'], "unknown option '--bogus'"],
    ['a document id that is not one', ['why', 'anna', 'abc'], 'Give the document id as a whole number'],
    ['another shell', ['completion', 'fish'], 'Name the shell'],
    ['a missing argument of an occ-style name', ['docs_unified_search:search'], "missing required argument 'user'"],
    ['a missing argument after global options', ['--no-color', '--config-dir', '/nonexistent/dus', 'config:app:get'], "missing required argument 'app'"],
  ];

  test.each(wrongCalls)('%s ends with the line naming the help of the command it was meant for', async (_name, args, said) => {
    const io = captureIO({ env: {} });
    expect(await main(args, io)).toBe(2);
    const first = args.find((arg) => COMMANDS.some((command) => command.name === arg || command.aliases.includes(arg))) ?? '';
    const spec = COMMANDS.find((command) => command.name === first || command.aliases.includes(first));
    const shown = spec === undefined ? '' : shownName(spec.name, spec.aliases);
    const lines = io.err().split('\n');
    expect(lines[0]).toMatch(/^Error \[usage\]: /);
    expect(lines[0]).toContain(said);
    expect(lines.slice(1)).toEqual([`Run 'docs-unified-search help ${shown}' for usage.`, '']);
    expect(io.out()).toBe('');
    expect((await help(['help', shown])).length).toBeGreaterThan(100);
  });

  test('a wrong call before any command points to the command list; --json keeps one JSON value without the hint', async () => {
    for (const args of [['serach'], ['--bogus'], ['--config-dir']]) {
      const io = captureIO({ env: {} });
      expect(await main(args, io)).toBe(2);
      expect(io.err()).toMatch(/^Error \[usage\]: .+\nRun 'docs-unified-search help' for usage\.\n$/s);
    }
    const io = captureIO({ env: {} });
    expect(await main(['search', 'alice', '--json'], io)).toBe(2);
    expect(JSON.parse(io.out())).toEqual({ error: { code: 'usage', message: "missing required argument 'term'" } });
    expect(io.err()).toBe("Error [usage]: missing required argument 'term'\nRun 'docs-unified-search help search' for usage.\n");
  });

  test('a failure that is no wrong call (exit 1) has no usage hint', async () => {
    const io = captureIO({ env: { DUS_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'dus-hint-')) } });
    expect(await main(['test'], io)).toBe(1);
    expect(io.err()).not.toContain('for usage');
  });
});

describe('help asked in every spelling', () => {
  const globals: readonly (readonly string[])[] = [
    [],
    ['--no-color'],
    ['--config-dir', '/nonexistent/dus'],
    ['--config-dir=/nonexistent/dus'],
    ['--host-db', 'sqlite:///nonexistent.db'],
    ['--output', 'json'],
    ['--json'],
  ];
  const forms = (topic: string): (readonly string[])[] => [
    ['help', topic],
    [topic, '--help'],
    [topic, '-h'],
    ['--help', topic],
    ['help', topic, '--help'],
  ];

  test.each(['environment', 'search', 'docs_unified_search:why', 'config:app:get'])(
    'help %s with every global option before, between or after it',
    async (topic) => {
      const expected = await help(['help', topic]);
      expect(expected).not.toBe(await help(['help']));
      for (const form of forms(topic)) {
        for (const global of globals) {
          for (const args of [
            [...global, ...form],
            [...form, ...global],
            [form[0] ?? '', ...global, ...form.slice(1)],
          ]) {
            // The help command takes no --json (docs/json.md); the --help flag wins over every option.
            if (form[0] === 'help' && !form.includes('--help') && global.some((word) => word === '--json' || word === 'json')) {
              const io = captureIO({ env: {} });
              expect([args.join(' '), await main(args, io)]).toEqual([args.join(' '), 2]);
              expect(JSON.parse(io.out())).toEqual({ error: { code: 'usage', message: expect.stringContaining('takes no --json') } });
            } else {
              expect([args.join(' '), await help(args)]).toEqual([args.join(' '), expected]);
            }
          }
        }
      }
    },
  );

  test('the command list in every spelling, and `--` ends the words help reads', async () => {
    const list = await help(['--help']);
    for (const args of [
      ['help'],
      ['-h'],
      ['help', 'help'],
      ['--no-color', 'help'],
      ['help', '--no-color'],
      ['--config-dir', 'search', '--help'],
      [],
      ['--no-color'],
      ['--config-dir', '/d'],
    ]) {
      expect([args.join(' '), await help(args)]).toEqual([args.join(' '), list]);
    }
    // --version, and an option the suite does not know, are still answered as such.
    const version = captureIO({ env: {} });
    expect(await main(['--version'], version)).toBe(0);
    expect(version.out()).toMatch(/^\d+\.\d+\.\d+\n$/);
    const unknown = captureIO({ env: {} });
    expect(await main(['--bogus'], unknown)).toBe(2);
    expect(unknown.out()).toBe('');
    const io = captureIO({ env: {} });
    expect(await main(['why', 'anna', '--', '--help'], io)).toBe(2);
    expect(io.out()).toBe('');
    expect(io.err()).toContain('Give the document id as a whole number');
  });
});
