// undici's Client in a bundle: what scripts/build-bundle.mjs puts in the program, and what
// bench/support/one-shot-floor.ts puts in the floor it measures the program against.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { llhttpConstantsSource, llhttpWasmSource } from './llhttp-parts.mjs';

const UNDICI = join(dirname(fileURLToPath(import.meta.url)), '..', 'node_modules', 'undici', 'lib');

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
export const lazyUndiciParts = {
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
