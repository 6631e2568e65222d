// What the bundle holds of llhttp, undici's HTTP/1.1 parser, in place of two of its files, each
// made here at build time from the installed undici (test/cli-start-imports.test.ts compares them):
// - its constants (llhttp/constants.js): the data that module builds with some 600 statements at
//   every load (about 2 ms of a one-shot command's start), read back by one JSON.parse;
// - its WebAssembly (llhttp/llhttp_simd-wasm.js, llhttp-wasm.js: base64 text in a JavaScript file
//   of 72 kB, found, compiled and decoded when the first answer is parsed, about 2 ms): the bytes,
//   written beside the bundle as dist/<name>.wasm and read from there.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const LLHTTP = join(dirname(fileURLToPath(import.meta.url)), '..', 'node_modules', 'undici', 'lib', 'llhttp');
const load = createRequire(import.meta.url);

/** The CommonJS source that stands in for llhttp/constants.js in the bundle. */
export function llhttpConstantsSource() {
  const constants = load(join(LLHTTP, 'constants.js'));
  return `Object.defineProperty(exports, '__esModule', { value: true });\nObject.assign(exports, JSON.parse(${JSON.stringify(JSON.stringify(constants))}));\n`;
}

/** The WebAssembly of llhttp_simd-wasm.js or llhttp-wasm.js (`file`), as undici decodes it. */
export function llhttpWasmBytes(file) {
  return load(join(LLHTTP, file));
}

/** dist/'s name for the bytes of `file`: llhttp_simd-wasm.js → llhttp_simd.wasm. */
export function llhttpWasmName(file) {
  return file.replace(/-wasm\.js$/, '.wasm');
}

/** The CommonJS source that stands in for `file` in the bundle: the bytes, read from beside the bundle. */
export function llhttpWasmSource(file) {
  return `module.exports = require('node:fs').readFileSync(require('node:path').join(__dirname, ${JSON.stringify(llhttpWasmName(file))}));\n`;
}
