import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import {
  chmodSync,
  chownSync,
  existsSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { spawn, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { runInThisContext } from 'node:vm';
import { dirname, join, relative, resolve } from 'node:path';
import { buildProgram } from '../src/cli.js';
import { FLAG_GLOBALS, VALUED_GLOBALS } from '../src/cli/global-options.js';
import { pageName } from '../src/cli/command-model.js';
import { COMMAND_LIST, commandOfArgv, loadCommands } from '../src/commands/list.js';
import { captureIO } from './support/capture-io.js';
import { runCliProcess } from './support/cli-process.js';
import { packagesOf, recordModules, runRecordingModules } from './support/loaded-modules.js';
import { buildSearchWorld, type SearchWorld } from './support/search-world.js';

/**
 * What the executable loads before it knows the command: the static import graph from
 * src/cli.ts (an `import type` is erased, an `import()` waits for the command that needs it).
 * The commands' modules are loaded by name (src/commands/list.ts), only the one that runs;
 * the HTTP stack, the database drivers, Redis, the PHP parser, the archive client and the
 * settings and log libraries are loaded by the commands that use them, never at start.
 */
const root = join(import.meta.dirname, '..');
const STATIC_IMPORT = /^\s*(?:import|export)\s+(?!type\b)(?:[\s\S]*?\sfrom\s+)?'([^']+)';/gm;

function staticGraph(entry: string): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string): void => {
    if (files.has(file)) return;
    files.add(file);
    for (const match of readFileSync(file, 'utf8').matchAll(STATIC_IMPORT)) {
      const specifier = match[1] ?? '';
      if (specifier.startsWith('.')) visit(resolve(dirname(file), specifier.replace(/\.js$/, '.ts')));
      else if (!specifier.startsWith('node:'))
        packages.add(
          specifier
            .split('/')
            .slice(0, specifier.startsWith('@') ? 2 : 1)
            .join('/'),
        );
    }
  };
  visit(entry);
  return { files: new Set([...files].map((file) => relative(root, file))), packages };
}

describe('start-up imports of src/cli.ts', () => {
  const { files, packages } = staticGraph(join(root, 'src', 'cli.ts'));

  test('no HTTP, database, cache, PHP, archive-client, settings or log library is imported at start', () => {
    const heavy = [
      'fastify',
      '@fastify/cookie',
      '@fastify/formbody',
      '@fastify/multipart',
      'pg',
      'mysql2',
      'ioredis',
      'php-parser',
      'undici',
      'conf',
      'ajv',
      'pino',
      'bcryptjs',
      'hash-wasm',
      'cli-table3',
    ];
    expect(heavy.filter((name) => packages.has(name))).toEqual([]);
    // What is left is the argument parser. chalk, the user's colour library, is loaded when a
    // colour is painted (on a terminal), string-width when a width is measured (a table, wrapping).
    expect([...packages].sort()).toEqual(['commander']);
  });

  test('none of the core that opens settings, host, archive server or HTTP is imported at start', () => {
    const late = [
      'src/core/context.ts',
      'src/core/host/open-host.ts',
      'src/core/host/db/sql-client.ts',
      'src/core/host/db/config-php.ts',
      'src/core/settings/settings-store.ts',
      'src/core/log.ts',
      'src/core/archive/archive-client.ts',
      'src/core/cache/redis-cache.ts',
    ];
    expect(late.filter((file) => files.has(file))).toEqual([]);
    expect([...files].filter((file) => file.startsWith('src/http/'))).toEqual([]);
  });

  test('no command module is imported at start: the list loads the one that runs', () => {
    expect(files.has('src/commands/list.ts')).toBe(true); // the graph is followed
    const commandFiles = COMMAND_LIST.map((entry) => `src/commands/${pageName(entry)}.ts`);
    expect(commandFiles.filter((file) => existsSync(join(root, file)))).toHaveLength(COMMAND_LIST.length);
    expect(commandFiles.filter((file) => files.has(file))).toEqual([]);
  });
});

/** Every file under src/`folder`, relative to the root. */
function sourcesUnder(folder: string): string[] {
  return readdirSync(join(root, 'src', folder), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .map((file) => join('src', folder, file));
}

/** What a source file imports from src/, at once or with import() (an `import type` too: it names a room all the same). */
function sourceImports(file: string): string[] {
  const text = readFileSync(join(root, file), 'utf8');
  const specifiers = [...text.matchAll(/\bfrom\s+'(\.[^']+)'|\bimport\(\s*'(\.[^']+)'\s*\)/g)].map((match) => match[1] ?? match[2] ?? '');
  return specifiers.map((specifier) => relative(root, resolve(dirname(join(root, file)), specifier.replace(/\.js$/, '.ts'))));
}

describe('the rooms of the CLI', () => {
  const higher = (file: string): boolean => file === 'src/cli.ts' || ['src/commands/', 'src/http/'].some((room) => file.startsWith(room));

  test('src/cli/, what the commands share, imports only itself and src/core: no command, no HTTP, not the program', () => {
    const helpers = sourcesUnder('cli');
    expect(helpers).toContain('src/cli/output.ts');
    expect(
      helpers.flatMap((file) =>
        sourceImports(file)
          .filter(higher)
          .map((target) => `${file} → ${target}`),
      ),
    ).toEqual([]);
  });

  test('src/core imports nothing of the CLI or HTTP', () => {
    const core = sourcesUnder('core');
    expect(core.length).toBeGreaterThan(10);
    expect(
      core.flatMap((file) =>
        sourceImports(file)
          .filter((target) => higher(target) || target.startsWith('src/cli/'))
          .map((target) => `${file} → ${target}`),
      ),
    ).toEqual([]);
  });
});

describe('the command list (what a run loads by name)', () => {
  test('src/commands/ holds the list and one file per listed command, named by its word, and nothing else', () => {
    const words = COMMAND_LIST.map((entry) => pageName(entry));
    expect(new Set(words).size).toBe(words.length);
    expect(readdirSync(join(root, 'src', 'commands')).sort()).toEqual(['list.ts', ...words.map((word) => `${word}.ts`)].sort());
  });

  test.each(COMMAND_LIST.map((entry) => [entry.name, entry] as const))('%s loads its own file, with the names the list gives it', async (_name, entry) => {
    const file = (await import(`../src/commands/${pageName(entry)}.js`)) as { command: object };
    const loaded = await entry.load();
    expect(loaded).toEqual({ name: entry.name, aliases: entry.aliases, ...file.command });
    expect(loaded.run).toBe((file.command as typeof loaded).run);
  });

  test("every name and alias is one command's, and no command is named twice", () => {
    const names = COMMAND_LIST.flatMap((entry) => [entry.name, ...entry.aliases]);
    expect(new Set(names).size).toBe(names.length);
  });

  test('knows every global option of the program, with or without a value', async () => {
    const program = buildProgram(captureIO(), { code: 0 }, await loadCommands());
    const globals = program.options.filter((option) => option.long !== '--version' && option.long !== '--help');
    expect(
      globals
        .filter((option) => option.required)
        .map((option) => option.long)
        .sort(),
    ).toEqual([...VALUED_GLOBALS].sort());
    expect(
      globals
        .filter((option) => !option.required && !option.optional)
        .map((option) => option.long)
        .sort(),
    ).toEqual([...FLAG_GLOBALS].sort());
  });

  test.each([
    [['why', 'anna', '412'], 'docs_unified_search:why'],
    [['--config-dir', 'search', 'docs_unified_search:why', 'anna', '412'], 'docs_unified_search:why'],
    [['--config-dir=/tmp/x', '--no-color', '--host-db', 'sqlite:///x.db', 'search', 'anna', 'x'], 'docs_unified_search:search'],
    [['config:get', 'docs_unified_search'], 'config:app:get'],
  ])('%j runs %s alone', (argv, name) => {
    expect(commandOfArgv(argv)?.name).toBe(name);
  });

  test.each([[[]], [['help', 'why']], [['--help']], [['--verbose', 'why', 'anna', '1']], [['wyh', 'anna', '1']], [['--config-dir']], [['--', 'why']]])(
    '%j loads every command (commander answers)',
    (argv) => {
      expect(commandOfArgv(argv)).toBeUndefined();
    },
  );
});

const BIN = join(root, 'bin', 'docs-unified-search.cjs');
/** dist/ module by module, as tsc leaves it: what the bundle is made of, with the same laziness. */
const UNBUNDLED = join(root, 'test', 'support', 'unbundled-cli.mjs');

/** The packages one run loads (`npm run build` first). */
function packagesLoaded(args: readonly string[], scratch: string, entry = BIN): Set<string> {
  const run = runRecordingModules([entry, ...args], scratch);
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
  return packagesOf(run.urls);
}

describe('what a run loads', () => {
  const built = existsSync(join(root, 'dist', 'cli.cjs'));
  if (!built) console.log('SKIP what a run loads: dist/cli.cjs is missing (run npm run build)');
  let world: SearchWorld | undefined;
  let dir = '';
  const scratch = mkdtempSync(join(tmpdir(), 'dus-loaded-'));
  beforeAll(async () => {
    if (!built) return;
    world = await buildSearchWorld(12);
    dir = (await world.context()).dir;
  });
  afterAll(async () => {
    await world?.close();
    rmSync(scratch, { recursive: true, force: true });
  });
  const whyArgs = (): string[] => ['--config-dir', dir, 'why', 'bob', '8']; // bob cannot open 8: why also asks what keeps it from him

  (built ? test : test.skip)('the executable runs the program from its one bundled file: a why run loads no other file and no package', () => {
    packagesLoaded(whyArgs(), scratch); // a first run after the build records installed_version (a write)
    const run = runRecordingModules([BIN, ...whyArgs()], scratch);
    expect(run.status).toBe(0);
    // dist/cli.cjs is compiled by bin/ itself (with its code cache), which no module hook sees.
    expect(run.urls.filter((url) => !url.startsWith('node:')).map((url) => relative(root, new URL(url).pathname))).toEqual(['bin/docs-unified-search.cjs']);
    expect(run.urls).toContain('node:vm');
    // Its output goes to the pipe by fs.writeSync (src/cli/process-output.ts): no socket (node:stream the hook's own ES module loader loads).
    expect(run.urls.filter((url) => ['node:net', 'node:tty'].includes(url))).toEqual([]);
  });

  (built ? test : test.skip)('why on SQLite loads neither HTTP, other drivers, Redis, PHP parser, archive client, settings writer nor log library', () => {
    packagesLoaded(whyArgs(), scratch, UNBUNDLED);
    const loaded = packagesLoaded(whyArgs(), scratch, UNBUNDLED);
    // conf (with ajv and semver) writes the settings, pino writes a line of the host log: `why` reads settings and logs nothing.
    // chalk paints and string-width measures only for a terminal; here stdout is a pipe.
    const unwanted = [
      'fastify',
      'pg',
      'mysql2',
      'ioredis',
      'php-parser',
      'undici',
      'bcryptjs',
      'hash-wasm',
      'conf',
      'ajv',
      'ajv-formats',
      'semver',
      'atomically',
      'pino',
      'thread-stream',
      'chalk',
      'string-width',
    ];
    expect(unwanted.filter((name) => loaded.has(name))).toEqual([]);
    expect(loaded.has('commander')).toBe(true); // the hook does see packages
  });

  // Issue 26: ajv compiled the answer schemas at every run (now generated at build time), undici's
  // index loaded every dispatcher, fetch, WebSocket and the cache stores (111 files), pino wrote the
  // one log line of a search (about 30 modules), and undici's Client loaded node:http2 at once.
  (built ? test : test.skip).each([
    ['search', ['search', 'bob', 'invoice']],
    ['check', ['check']],
    ['test', ['test']],
  ])("%s asks the archive server with undici's Client from the bundle, no schema compiler, no log library, nothing of serve", async (_name, args) => {
    const run = await recordModules([BIN, '--config-dir', dir, ...args], scratch);
    expect(run.stderr).toBe('');
    expect([0, 1]).toContain(run.status);
    const loaded = packagesOf(run.urls);
    const serveStack = ['fastify', '@fastify/cookie', '@fastify/formbody', '@fastify/multipart', 'ioredis', 'bcryptjs', 'hash-wasm', 'pg', 'mysql2'];
    expect([...serveStack, 'ajv', 'ajv-formats', 'conf', 'pino', 'thread-stream'].filter((name) => loaded.has(name))).toEqual([]);
    // The Client is in dist/cli.cjs, llhttp's WebAssembly beside it (dist/*.wasm): no file of undici's is read. It did ask (node:net).
    expect(run.urls.filter((url) => url.includes('/node_modules/undici/'))).toEqual([]);
    expect(run.urls).toContain('node:net');
    expect(run.urls.filter((url) => url === 'node:http2' || url === 'node:worker_threads')).toEqual([]);
    // undici's invariants are checked by the bundle's own assert (scripts/undici-parts.mjs); the archive is named by its address: no resolver.
    expect(run.urls.filter((url) => url === 'node:assert' || url === 'node:dns/promises' || url === 'node:dns' || url === 'node:http')).toEqual([]);
    // Durations by process.hrtime (src/core/monotonic.ts), widths of ASCII and Latin text without string-width (src/cli/terminal-text.ts).
    expect(run.urls.filter((url) => url === 'node:perf_hooks')).toEqual([]);
    expect(['string-width', 'strip-ansi', 'emoji-regex', 'ipaddr.js'].filter((name) => loaded.has(name))).toEqual([]);
  });

  test("undici's Client files use node:http for Node's default header limit and IncomingMessage in destroy() only, what the bundle's stand-in answers", () => {
    const lib = join(root, 'node_modules', 'undici', 'lib');
    const client = readFileSync(join(lib, 'dispatcher', 'client.js'), 'utf8');
    expect(new Set([...client.matchAll(/\bhttp\.(\w+)/g)].map((match) => match[1]))).toEqual(new Set(['maxHeaderSize']));
    // Read only when no maxHeaderSize is given: the archive client gives one.
    expect(client).toMatch(/if \(maxHeaderSize != null\) \{[\s\S]*?\} else \{[\s\S]*?maxHeaderSize = getDefaultNodeMaxHeaderSize\(\)/);
    expect(readFileSync(join(root, 'src', 'core', 'archive', 'connection-pool.ts'), 'utf8')).toMatch(/maxHeaderSize: MAX_HEADER_BYTES/);
    const util = readFileSync(join(lib, 'core', 'util.js'), 'utf8');
    const uses = util.split('\n').filter((text) => text.includes('IncomingMessage'));
    expect(uses).toEqual(["const { IncomingMessage } = require('node:http')", '    if (Object.getPrototypeOf(stream).constructor === IncomingMessage) {']);
    const destroyAt = util.indexOf('\nfunction destroy (stream, err) {');
    const compareAt = util.indexOf('constructor === IncomingMessage');
    expect(destroyAt).toBeGreaterThan(0);
    expect([compareAt > destroyAt, compareAt < util.indexOf('\nfunction ', destroyAt + 1)]).toEqual([true, true]);
    // And the archive client sends no body that could be one: every request is a GET.
    expect([...readFileSync(join(root, 'src', 'core', 'archive', 'transport.ts'), 'utf8').matchAll(/method: '(\w+)'/g)].map((match) => match[1])).toEqual([
      'GET',
    ]);
  });

  test("the bundle's llhttp constants are what undici's llhttp/constants.js exports, all of it plain data", async () => {
    const { llhttpConstantsSource } = await import('../scripts/llhttp-parts.mjs');
    const real = createRequire(import.meta.url)('../node_modules/undici/lib/llhttp/constants.js') as Record<string, unknown>;
    const standIn: Record<string, unknown> = {};
    (runInThisContext(`(function (exports) {${llhttpConstantsSource()}\n})`) as (exports: object) => void)(standIn);
    expect(Object.keys(standIn)).toEqual(Object.keys(real));
    expect(standIn).toStrictEqual(JSON.parse(JSON.stringify(real)));
    // Nothing JSON loses (functions, undefined, NaN, class instances, a second name for one object that someone mutates).
    expect(JSON.parse(JSON.stringify(real))).toStrictEqual({ ...real });
    expect(standIn['__esModule']).toBe(true);
    expect((standIn['ERROR'] as Record<string, number>)['PAUSED_UPGRADE']).toBe((real['ERROR'] as Record<string, number>)['PAUSED_UPGRADE']);
  });

  (built ? test : test.skip)("the WebAssembly beside the bundle is undici's llhttp, byte for byte, and the bundle reads it from there", async () => {
    const { llhttpWasmName, llhttpWasmSource } = await import('../scripts/llhttp-parts.mjs');
    for (const file of ['llhttp_simd-wasm.js', 'llhttp-wasm.js']) {
      const undici = createRequire(import.meta.url)(`../node_modules/undici/lib/llhttp/${file}`) as Buffer;
      expect(readFileSync(join(root, 'dist', llhttpWasmName(file))).equals(undici)).toBe(true);
      const module = { exports: undefined as unknown };
      const run = runInThisContext(`(function (module, require, __dirname) {${llhttpWasmSource(file)}\n})`) as (
        m: object,
        r: NodeJS.Require,
        d: string,
      ) => void;
      run(module, createRequire(import.meta.url), join(root, 'dist'));
      expect(Buffer.isBuffer(module.exports) && module.exports.equals(undici)).toBe(true);
    }
  });

  test("undici's files call node:assert only as assert(value[, message]), all the bundle's stand-in answers", () => {
    const lib = join(root, 'node_modules', 'undici', 'lib');
    const files = readdirSync(lib, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.js'));
    const otherUses = files.flatMap((file) => {
      const text = readFileSync(join(lib, file), 'utf8');
      if (!/require\('(node:)?assert'\)/.test(text)) return [];
      return [...text.matchAll(/\bassert\s*\.\s*(\w+)/g)].map((match) => `${file}: assert.${match[1] ?? ''}`);
    });
    expect(files.length).toBeGreaterThan(50);
    expect(otherUses).toEqual([]);
  });

  (built ? test : test.skip)("dist/ module by module: search loads undici's Client and request files, not its index", async () => {
    const run = await recordModules([UNBUNDLED, '--config-dir', dir, 'search', 'bob', 'invoice'], scratch);
    expect(run.status).toBe(0);
    const undiciFiles = run.urls.flatMap((url) => /\/node_modules\/undici\/(.+)$/.exec(url)?.[1] ?? []);
    expect(undiciFiles).toEqual(expect.arrayContaining(['lib/dispatcher/client.js', 'lib/api/api-request.js']));
    expect(
      undiciFiles.filter((file) => file === 'index.js' || /^lib\/(web|cache|mock|interceptor)\/|^lib\/dispatcher\/(agent|pool|proxy-agent)\.js$/.test(file)),
    ).toEqual([]);
    expect(packagesOf(run.urls).has('ajv')).toBe(false);
  });

  (built ? test : test.skip)('why loads its own command module and no other', () => {
    const run = runRecordingModules([UNBUNDLED, ...whyArgs()], scratch);
    expect(run.status).toBe(0);
    const commandModules = COMMAND_LIST.map((entry) => `/dist/commands/${pageName(entry)}.js`);
    expect(commandModules.filter((file) => run.urls.some((url) => url.endsWith(file)))).toEqual(['/dist/commands/why.js']);
    // Nor the help topics (and the bridge secret's module they name a file of), nor the search pipeline.
    expect(run.urls.filter((url) => /\/dist\/(cli\/environment|core\/bridge\/secret|core\/search\/pipeline)\.js$/.test(url))).toEqual([]);
    // Nor the config.php reader: this host is given by URL.
    expect(run.urls.filter((url) => /\/dist\/core\/host\/db\/config-(php|var-export)\.js$/.test(url))).toEqual([]);
    expect(run.urls.filter((url) => url.includes('/dist/core/archive/archive-client.js'))).toEqual([]);
    expect(run.urls.some((url) => url.includes('/dist/core/context.js'))).toBe(true); // the service context is opened
  });

  // node:crypto loads some twenty of Node's modules (src/core/node-crypto.ts); node:child_process,
  // which commander imports, brings dgram and net (here stdout is a pipe, a net socket, either way).
  (built ? test : test.skip).each([
    ['the executable', ['node:crypto', 'node:child_process', 'node:tls', 'node:dns'], BIN],
    ['dist/ module by module', ['node:crypto', 'node:tls', 'node:dns'], UNBUNDLED],
  ])('why on SQLite (%s) loads none of %j: it never asks the archive server, encrypts or hashes', (_name, unwanted, entry) => {
    const run = runRecordingModules([entry, ...whyArgs()], scratch);
    expect(run.status).toBe(0);
    expect(unwanted.filter((url) => run.urls.includes(url))).toEqual([]);
    expect(run.urls).toContain('node:sqlite'); // the record does see builtins reached by require() and import()
  });

  (built ? test : test.skip)(
    "Node's compiled code and the program's code cache are kept in the user's cache directory, made private; an unusable one only leaves them off",
    async () => {
      const cache = join(scratch, 'cache');
      const first = await runCliProcess([...whyArgs()], { env: { XDG_CACHE_HOME: cache } });
      expect(first).toMatchObject({ code: 0, err: '' });
      const kept = join(cache, 'docs-unified-search', 'node-compile-cache');
      expect(statSync(kept).mode & 0o777).toBe(0o700);
      expect(statSync(join(cache, 'docs-unified-search')).mode & 0o777).toBe(0o700);
      expect(readdirSync(kept).length).toBeGreaterThan(0);
      const program = join(cache, 'docs-unified-search', 'program.why.v8cache');
      expect(statSync(program).mode & 0o777).toBe(0o600);
      // It names the file it was made from: its size first.
      expect(readFileSync(program, 'latin1').split(' ')[0]).toBe(String(statSync(join(root, 'dist', 'cli.cjs')).size));
      // Taken as it is by the next run (not written again: the same inode)…
      const { ino } = statSync(program);
      expect(await runCliProcess([...whyArgs()], { env: { XDG_CACHE_HOME: cache } })).toEqual(first);
      expect(statSync(program).ino).toBe(ino);
      // …and replaced, the answer unchanged, when it is garbage, made for another file, or cut short.
      const valid = readFileSync(program);
      for (const bad of [
        Buffer.from('garbage'),
        Buffer.concat([Buffer.from('1 2 3 4 x x\n'), valid.subarray(valid.indexOf(10) + 1)]),
        valid.subarray(0, valid.length >> 1),
      ]) {
        writeFileSync(program, bad);
        expect(await runCliProcess([...whyArgs()], { env: { XDG_CACHE_HOME: cache } })).toEqual(first);
        expect(readFileSync(program).equals(bad)).toBe(false);
        expect(readFileSync(program).subarray(0, 40).equals(valid.subarray(0, 40))).toBe(true);
      }
      // A path under /proc made Node's own recursive mkdir loop for ever; a file cannot hold a directory.
      for (const unusable of ['/proc/dus-no-such-dir', '/dev/null']) {
        expect(await runCliProcess([...whyArgs()], { env: { XDG_CACHE_HOME: unusable } })).toEqual(first);
      }
    },
  );

  (built ? test : test.skip)(
    'each command keeps a code cache of its own, found as the list finds the command: one that ran first cannot leave another compiling anew at every run',
    async () => {
      const cache = join(scratch, 'per-command');
      const kept = (): string[] =>
        readdirSync(join(cache, 'docs-unified-search'))
          .filter((name) => name.endsWith('.v8cache'))
          .sort();
      const env = { XDG_CACHE_HOME: cache };
      // Another command first (under one account `serve` runs for days and `why` is asked now and then).
      expect(await runCliProcess(['completion', 'bash'], { env })).toMatchObject({ code: 0, err: '' });
      expect(kept()).toEqual(['program.completion.v8cache']);
      const first = await runCliProcess(whyArgs(), { env });
      expect(first).toMatchObject({ code: 0, err: '' });
      expect(kept()).toEqual(['program.completion.v8cache', 'program.why.v8cache']);
      const why = join(cache, 'docs-unified-search', 'program.why.v8cache');
      const { ino } = statSync(why);
      expect(await runCliProcess(whyArgs(), { env })).toEqual(first);
      expect(statSync(why).ino).toBe(ino); // the second run took it as it was
      // The file bin/ picks is the command commandOfArgv runs: aliases and global options before
      // the name agree; what it leaves to commander (help, a typo, an option it must judge) shares
      // program.v8cache, and no argument becomes a path.
      const cases: string[][] = [
        ['--config-dir', dir, 'docs_unified_search:why', 'bob', '8'],
        [`--config-dir=${dir}`, '--no-color', 'config:get', 'docs_unified_search', 'docs_url'],
        ['help', 'why'],
        ['../../outside', 'x'],
        ['--verbose', 'why'],
      ];
      for (const argv of cases) {
        rmSync(join(cache, 'docs-unified-search'), { recursive: true, force: true });
        await runCliProcess(argv, { env });
        const name = commandOfArgv(argv)?.name;
        expect([argv, kept()]).toEqual([argv, [name === undefined ? 'program.v8cache' : `program.${pageName({ name })}.v8cache`]]);
      }
      expect(existsSync(join(scratch, 'outside'))).toBe(false);
    },
  );

  (built ? test : test.skip)(
    "a cache directory that others may write to, or that is another account's, is not used: compiled code there could be anyone's",
    async () => {
      const cases: [string, (dir: string) => void][] = [
        ['world-writable', (dir) => chmodSync(dir, 0o777)],
        ['group-writable', (dir) => chmodSync(dir, 0o770)],
      ];
      // Only root may give a directory to another account.
      if (process.getuid?.() === 0) cases.push(["another account's", (dir) => chownSync(dir, 65534, 65534)]);
      else console.log('SKIP a cache directory of another account: not running as root');
      for (const [name, prepare] of cases) {
        const cache = join(scratch, `shared-${name}`);
        const dir = join(cache, 'docs-unified-search');
        mkdirSync(dir, { recursive: true, mode: 0o700 });
        prepare(dir);
        expect(await runCliProcess([...whyArgs()], { env: { XDG_CACHE_HOME: cache } })).toMatchObject({ code: 0, err: '' });
        expect(readdirSync(dir)).toEqual([]); // neither the program's code cache nor Node's
      }
    },
  );

  // The attack of issue 23: V8 takes cached code made from any source of the same length as the
  // program's, so a cache file someone else can put in place runs their code as whoever runs dus.
  // The planted cache here is such code (it writes a marker file), under the key of today's dist/cli.cjs.
  const plantedCache = (marker: string): Buffer => {
    const script = [
      "const { Script } = require('node:vm'); const { wrap } = require('node:module'); const { readFileSync, statSync } = require('node:fs');",
      'const [file, marker] = process.argv.slice(1);',
      "const length = wrap(readFileSync(file, 'utf8')).length;",
      "const body = `(function (exports, require, module) { require('node:fs').writeFileSync(${JSON.stringify(marker)}, 'ran'); module.exports.main = async () => 0; })`;",
      "const planted = new Script(body + ' '.repeat(length - body.length), { filename: file });",
      'const stat = statSync(file, { bigint: true });',
      "const key = Buffer.from(`${[stat.size, stat.mtimeNs, stat.ctimeNs, stat.ino, process.versions.v8, process.arch].join(' ')}\\n`);",
      'process.stdout.write(Buffer.concat([key, planted.createCachedData()]));',
    ].join('\n');
    const made = spawnSync(process.execPath, ['-e', script, join(root, 'dist', 'cli.cjs'), marker]);
    expect(made.status).toBe(0);
    return made.stdout;
  };

  (built ? test : test.skip)(
    "a code cache that is not this account's own file, or that lies where another account could swap it, is never loaded",
    async () => {
      const marker = join(scratch, 'planted-ran');
      const planted = plantedCache(marker);
      const plant = (name: string): { cache: string; file: string } => {
        const cache = join(scratch, `planted-${name}`, 'cache');
        mkdirSync(join(cache, 'docs-unified-search'), { recursive: true, mode: 0o700 });
        const file = join(cache, 'docs-unified-search', 'program.why.v8cache');
        writeFileSync(file, planted, { mode: 0o600 });
        return { cache, file };
      };
      const ran = async (cache: string): Promise<boolean> => {
        rmSync(marker, { force: true });
        await runCliProcess(whyArgs(), { env: { XDG_CACHE_HOME: cache } });
        return existsSync(marker);
      };
      // The control: a cache that is this account's own, where only it can write, is trusted (by
      // design: it wrote it), and the planted code does run. What follows must not.
      expect(await ran(plant('own').cache)).toBe(true);

      const refused: [string, (planted: { cache: string; file: string }) => void][] = [
        ['the file is group-writable', ({ file }) => chmodSync(file, 0o620)],
        ['the file has a second link', ({ cache, file }) => linkSync(file, join(cache, 'elsewhere'))],
        [
          'the name is a symlink to a file of this account',
          ({ file }) => {
            renameSync(file, `${file}.real`);
            symlinkSync(`${file}.real`, file);
          },
        ],
      ];
      if (process.getuid?.() === 0) {
        refused.push(
          ["the file is another account's", ({ file }) => chownSync(file, 65534, 65534)],
          // XDG_CACHE_HOME (or HOME) inside another account's directory, as `sudo -E` keeps it:
          // that account may rename the directories below at will, between any check and the read.
          ["a directory above is another account's", ({ cache }) => chownSync(dirname(cache), 65534, 65534)],
        );
      } else console.log('SKIP caches of another account: not running as root');
      for (const [name, prepare] of refused) {
        const planted = plant(name.replace(/\W+/g, '-'));
        prepare(planted);
        expect([name, await ran(planted.cache)]).toEqual([name, false]);
      }
    },
  );

  (built && process.getuid?.() === 0 ? test : test.skip)(
    'another account swapping the cache directory for one of its own in a loop never gets its cache loaded',
    async () => {
      const marker = join(scratch, 'swapped-ran');
      // The other account's directory, XDG_CACHE_HOME inside it (not in scratch, which it cannot enter).
      const home = mkdtempSync(join(tmpdir(), 'dus-swap-home-'));
      chmodSync(home, 0o755);
      const cache = join(home, 'cache');
      mkdirSync(join(cache, 'docs-unified-search'), { recursive: true, mode: 0o700 });
      const evil = join(home, 'evil', 'docs-unified-search');
      mkdirSync(evil, { recursive: true, mode: 0o700 });
      writeFileSync(join(evil, 'program.why.v8cache'), plantedCache(marker), { mode: 0o600 });
      // Root's own file in the swapped-in directory: what root would find there after the swap.
      chownSync(home, 65534, 65534);
      chownSync(join(home, 'evil'), 65534, 65534);
      const swapper = spawn('/bin/sh', ['-c', 'cd "$0" && while :; do mv cache spare; mv evil cache; mv cache evil; mv spare cache; done', home], {
        uid: 65534,
        gid: 65534,
        stdio: 'ignore',
      });
      try {
        for (let run = 0; run < 4; run += 1) {
          await runCliProcess(whyArgs(), { env: { XDG_CACHE_HOME: cache } });
          expect(existsSync(marker)).toBe(false);
        }
      } finally {
        swapper.kill();
        rmSync(home, { recursive: true, force: true });
      }
    },
  );

  (built ? test : test.skip)("the bundle's source map leads a debug run's stack trace back to src/ (DUS_DEBUG=1 loads it so)", () => {
    // The way bin/ loads it with DUS_DEBUG=1; the command's output stream fails with an error of no code of ours.
    const script = [
      'process.setSourceMapsEnabled(true);',
      `const { main } = require(${JSON.stringify(join(root, 'dist', 'cli.cjs'))});`,
      "const { PassThrough } = require('node:stream');",
      "const stdout = { write() { throw new TypeError('the pipe broke'); }, on() {}, isTTY: false };",
      "main(['completion', 'bash'], { stdout, stderr: process.stderr, stdin: new PassThrough(), env: { DUS_DEBUG: '1' } }).then((code) => { process.exitCode = code; });",
    ].join('\n');
    const run = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/^Error \[internal\]: the pipe broke\nTypeError: the pipe broke\n/);
    expect(run.stderr).toContain(`${join(root, 'src', 'commands', 'completion.ts')}:`);
    expect(run.stderr).not.toContain('dist/cli.cjs');
  });

  (built ? test : test.skip)('--help and --version load no package at all, nor node:child_process (only an old Node handing over needs it)', () => {
    expect([...packagesLoaded(['--help'], scratch)]).toEqual([]);
    expect([...packagesLoaded(['--version'], scratch)]).toEqual([]);
    for (const args of [['--help'], ['--version']]) {
      const run = runRecordingModules([join(root, 'bin', 'docs-unified-search.cjs'), ...args], scratch);
      expect(run.urls.filter((url) => url === 'node:child_process')).toEqual([]);
      expect(run.urls.some((url) => url.startsWith('node:'))).toBe(true); // the hook does see builtins
    }
  });
});
