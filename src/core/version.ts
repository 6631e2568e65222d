import { readFileSync } from 'node:fs';

/** The suite's own version, read once from package.json (sent in the User-Agent, compared by the repair step). */
function readVersion(): string {
  const url = new URL('../../package.json', import.meta.url);
  const parsed: unknown = JSON.parse(readFileSync(url, 'utf8'));
  if (typeof parsed === 'object' && parsed !== null && 'version' in parsed && typeof parsed.version === 'string') {
    return parsed.version;
  }
  return '0.0.0';
}

export const SUITE_VERSION: string = readVersion();
export const USER_AGENT = `Host-Docs-Unified-Search/${SUITE_VERSION}`;
export const APP_ID = 'docs_unified_search';
