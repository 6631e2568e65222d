import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The suite's own version (sent in the User-Agent, compared by the repair step), read from
 * the nearest package.json above this file: the same code runs from src/, dist/ and dist-tools/.
 */
function readVersion(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, 'package.json');
    if (existsSync(candidate)) {
      const parsed: unknown = JSON.parse(readFileSync(candidate, 'utf8'));
      if (
        typeof parsed === 'object' &&
        parsed !== null &&
        'name' in parsed &&
        parsed.name === 'docs-unified-search' &&
        'version' in parsed &&
        typeof parsed.version === 'string'
      ) {
        return parsed.version;
      }
    }
    const parent = dirname(dir);
    if (parent === dir) return '0.0.0';
    dir = parent;
  }
}

export const SUITE_VERSION: string = readVersion();
export const USER_AGENT = `Host-Docs-Unified-Search/${SUITE_VERSION}`;
export const APP_ID = 'docs_unified_search';
