#!/usr/bin/env node
// Writes dist/cli.cjs: the program (dist/cli.js and every module it imports, at once or later)
// and commander in one CommonJS file, which bin/ loads. Run by `npm run build`, after tsc.
//
// Why one CommonJS file: a run of `why` used to spend a third of its start in Node's ES module
// loader (resolving, reading and linking 63 files) and in building the ES module faces of
// node:process, node:util and node:child_process that commander imports (each face reads
// every property of the module, which loads what those properties load lazily). One script,
// compiled by bin/ from its own code cache, does neither. The modules that dist/ loads with import() stay lazy in
// the bundle: esbuild runs their top level when that import() runs.
//
// The other packages stay in node_modules and are loaded where the code asks for them (a
// driver for its dialect, fastify for serve), as from dist/. commander imports
// node:child_process for executable subcommands, which this program has none of: the bundle
// loads it on first use instead (net, dgram and their kin come with it).
//
// dist/cli.cjs.map maps the bundle back to dist/ (and from there to src/); with `DUS_DEBUG=1`,
// bin/ turns source maps on before the bundle is read, so its stack traces name src/ lines.
import { build } from 'esbuild';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { llhttpConstantsSource, llhttpWasmBytes, llhttpWasmName, llhttpWasmSource } from './llhttp-parts.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { dependencies } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
// cli-table3: its functions join the program's own code cache (src/cli/table.ts); it measures its
// cells with the terminal's own displayWidth (`tableWidths`). ipaddr.js, which the archive client's
// address guard parses with at every request, likewise: no package to find and compile at each start.
// string-width stays a package, loaded by displayWidth for text it does not count itself.
const BUNDLED = new Set(['commander', 'cli-table3', 'ipaddr.js']);
// undici: its Client's files are bundled (lazyUndiciParts), and nothing else of it is imported.
const external = Object.keys(dependencies)
  .filter((name) => !BUNDLED.has(name) && name !== 'undici')
  .flatMap((name) => [name, `${name}/*`]);
const UNDICI = join(root, 'node_modules', 'undici', 'lib');

/**
 * undici's Client and request function (src/core/archive/connection-pool.ts imports their files,
 * not the index) go into the bundle: 19 files fewer to resolve, read and compile at the first
 * request of a one-shot command, and inside the program's own code cache. Reached only through
 * the archive client's import(), they run only when that runs. Two parts stay out of the start:
 * client-h2.js, whose first line loads node:http2 (some 10 ms) for the HTTP/2 this client never
 * asks for, is answered by a function that loads it when called; llhttp's WebAssembly (two
 * base64 files of 72 kB) is read when the first answer is parsed, as bytes the build writes beside
 * the bundle (scripts/llhttp-parts.mjs).
 * undici checks its own invariants with node:assert, called as `assert(value)` and nothing else
 * of it (test/cli-start-imports.test.ts holds it to that): its files get a function that lets a true value
 * pass and hands any other to node:assert, loaded then, so a broken invariant throws the same
 * AssertionError while a run that breaks none never loads node:assert (some 2 ms of each start).
 * Its Client's files require node:http (some 3 ms, with its server and agent) for two things the
 * archive client never needs: Node's default header limit, which client.js reads only for a
 * Client made without `maxHeaderSize` (src/core/archive/connection-pool.ts gives one), and
 * IncomingMessage, which util.js compares a request body's constructor with when it destroys the
 * body (the archive client sends GETs without a body). They get a stand-in holding a class no
 * stream is made by; test/cli-start-imports.test.ts holds undici's files to those two uses.
 */
const lazyUndiciParts = {
  name: 'lazy-undici-parts',
  setup(build) {
    build.onResolve({ filter: /^\.\/client-h2\.js$/ }, (args) =>
      args.importer === join(UNDICI, 'dispatcher', 'client.js') ? { path: 'undici/lib/dispatcher/client-h2.js', namespace: 'lazy-undici-h2' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'lazy-undici-h2' }, () => ({
      contents: "module.exports = function connectH2(...args) { return require('./client-h2.js')(...args); };",
      resolveDir: join(UNDICI, 'dispatcher'),
      loader: 'js',
    }));
    build.onResolve({ filter: /^(node:)?http$/ }, (args) =>
      args.importer === join(UNDICI, 'dispatcher', 'client.js') || args.importer === join(UNDICI, 'core', 'util.js')
        ? { path: 'http', namespace: 'undici-http-stand-in' }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'undici-http-stand-in' }, () => ({
      contents: 'module.exports = { IncomingMessage: class NoStreamIsMadeByThis {} };',
      loader: 'js',
    }));
    build.onResolve({ filter: /^(node:)?assert$/ }, (args) =>
      args.importer.startsWith(UNDICI) ? { path: 'assert', namespace: 'lazy-undici-assert' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'lazy-undici-assert' }, () => ({
      contents: "module.exports = function assert(value, message) { if (!value) require('node:assert')(value, message); };",
      loader: 'js',
    }));
    // llhttp's constants and WebAssembly, made here (scripts/llhttp-parts.mjs).
    build.onResolve({ filter: /^\.\.\/llhttp\/constants(\.js)?$/ }, (args) =>
      args.importer.startsWith(UNDICI) ? { path: 'undici/lib/llhttp/constants.js', namespace: 'undici-llhttp-constants' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'undici-llhttp-constants' }, () => ({
      contents: llhttpConstantsSource(),
      loader: 'js',
    }));
    build.onResolve({ filter: /^\.\.\/llhttp\/llhttp(_simd)?-wasm\.js$/ }, (args) =>
      args.importer.startsWith(UNDICI) ? { path: args.path.split('/').at(-1), namespace: 'undici-llhttp-wasm' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'undici-llhttp-wasm' }, (args) => ({
      contents: llhttpWasmSource(args.path),
      loader: 'js',
    }));
  },
};

/**
 * cli-table3's `require('string-width')` is answered by src/cli/terminal-text.ts's displayWidth,
 * which gives string-width's counts (test/terminal-output.test.ts) without loading it for the
 * ASCII and Latin text of most tables: string-width compiles its emoji pattern at its first call.
 */
const tableWidths = {
  name: 'table-widths',
  setup(build) {
    build.onResolve({ filter: /^string-width$/ }, (args) =>
      /[\\/]node_modules[\\/]cli-table3[\\/]/.test(args.importer) ? { path: 'string-width', namespace: 'table-widths' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'table-widths' }, () => ({
      contents: "module.exports = require('./cli/terminal-text.js').displayWidth;",
      resolveDir: join(root, 'dist'),
      loader: 'js',
    }));
  },
};

/** commander's `import childProcess from 'node:child_process'`, answered by a module that requires it on first use. */
const lazyChildProcess = {
  name: 'lazy-child-process',
  setup(build) {
    build.onResolve({ filter: /^(node:)?child_process$/ }, (args) =>
      /[\\/]node_modules[\\/]commander[\\/]/.test(args.importer) ? { path: 'child_process', namespace: 'lazy-child-process' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'lazy-child-process' }, () => ({
      contents: "module.exports = new Proxy({}, { get: (_target, key) => require('node:child_process')[key] });",
      loader: 'js',
    }));
  },
};

const result = await build({
  entryPoints: [join(root, 'dist', 'cli.js')],
  outfile: join(root, 'dist', 'cli.cjs'),
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node22',
  external,
  plugins: [lazyChildProcess, lazyUndiciParts, tableWidths],
  // createRequire(import.meta.url) finds packages from the bundle's own place, dist/, as from dist/'s modules.
  define: { 'import.meta.url': '__bundleUrl' },
  banner: { js: "const __bundleUrl = require('node:url').pathToFileURL(__filename).href;" },
  sourcemap: 'linked',
  // A third less to read at every start (1.1 MB → 0.74 MB); names stay, and DUS_DEBUG=1's stack traces go through the map.
  minifyWhitespace: true,
  minifySyntax: true,
  metafile: true,
  logLevel: 'warning',
});

// bin/ compiles the bundle itself (vm.Script, to keep its code cache), where an import() left in
// it would throw: packages and builtins are reached with require() (createRequire,
// process.getBuiltinModule), our own modules' import() become calls within the bundle.
const dynamic = Object.values(result.metafile.outputs).flatMap((output) =>
  output.imports.filter((entry) => entry.kind === 'dynamic-import').map((entry) => entry.path),
);
if (dynamic.length > 0) throw new Error(`dist/cli.cjs would import() ${dynamic.join(', ')}: load them with createRequire or process.getBuiltinModule`);

for (const file of ['llhttp_simd-wasm.js', 'llhttp-wasm.js']) writeFileSync(join(root, 'dist', llhttpWasmName(file)), llhttpWasmBytes(file));
