/** The CommonJS source that stands in for undici's llhttp/constants.js in the bundle. */
export function llhttpConstantsSource(): string;
/** The WebAssembly of llhttp_simd-wasm.js or llhttp-wasm.js, as undici decodes it. */
export function llhttpWasmBytes(file: string): Buffer;
/** dist/'s name for the bytes of `file`. */
export function llhttpWasmName(file: string): string;
/** The CommonJS source that stands in for `file` in the bundle. */
export function llhttpWasmSource(file: string): string;
