/**
 * node:crypto, loaded at its first use. Loading it loads some twenty modules of Node's own
 * (ciphers, keys, X.509, WebCrypto…): a tenth of a one-shot command's start. The modules a
 * read-only command passes through (settings, credentials, the host adapter) reach it only
 * when they encrypt, draw random bytes or hash; `why` on SQLite never does
 * (test/cli-start-imports.test.ts).
 */
export function nodeCrypto(): typeof import('node:crypto') {
  return process.getBuiltinModule('node:crypto');
}
