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
import { llhttpWasmBytes, llhttpWasmName } from './llhttp-parts.mjs';
import { lazyUndiciParts } from './undici-parts.mjs';

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
