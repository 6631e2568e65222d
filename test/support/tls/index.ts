import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface TestCertificate {
  /** PEM of the self-signed certificate; also the CA a client must trust. */
  readonly cert: string;
  readonly key: string;
}

const RELATIVE_DIR = join('test', 'support', 'tls');

/**
 * Walks up from this module: compiled copies (dist-tools/test/support/tls) have no .pem
 * files, so the search continues until the source tree's copy is found.
 */
function findDirectory(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  if (existsSync(join(dir, 'cert.pem'))) return dir;
  for (;;) {
    const candidate = join(dir, RELATIVE_DIR);
    if (existsSync(join(candidate, 'cert.pem'))) return candidate;
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`test certificate not found above ${fileURLToPath(import.meta.url)}`);
    dir = parent;
  }
}

let cached: TestCertificate | undefined;

export function testCertificate(): TestCertificate {
  if (cached === undefined) {
    const dir = findDirectory();
    cached = {
      cert: readFileSync(join(dir, 'cert.pem'), 'utf8'),
      key: readFileSync(join(dir, 'key.pem'), 'utf8'),
    };
  }
  return cached;
}
