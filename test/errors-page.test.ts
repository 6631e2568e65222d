/**
 * docs/errors.md, the page a support person looks a code up in (issue 40), lists exactly the
 * codes the product reports: the core's (`src/core/errors.ts`: the spec's and the product's own),
 * the HTTP wrapper's (`WRAPPER_ERROR_CODES`, and every code a layer of `serve` writes as a
 * literal), and the bridge app's (its PHP). A code added without its entry fails here, and so
 * does an entry for a code nothing reports. Each entry says its cause and what to do; a command's
 * code says its exit code, which must be the one the command line gives.
 */
import { describe, expect, test } from '@jest/globals';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ARCHIVE_ERROR_CODES, DusError, LOCAL_ERROR_CODES, SETTINGS_ERROR_CODES } from '../src/core/errors.js';
import { exitCodeOf } from '../src/cli/output.js';
import { WRAPPER_ERROR_CODES } from '../src/http/http-error.js';

const root = join(import.meta.dirname, '..');
const page = readFileSync(join(root, 'docs', 'errors.md'), 'utf8');

/** Every file under `dir` whose name ends with `suffix`. */
function filesUnder(dir: string, suffix: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith(suffix))
    .map((name) => join(dir, name));
}

/** Codes `serve` writes as literals (`code: 'x'`) outside the HttpError type: its error handling, the bridge's log lines. The admin page's script is the browser's. */
function httpLiteralCodes(): string[] {
  return filesUnder(join(root, 'src', 'http'), '.ts')
    .filter((file) => !file.includes(`${join('src', 'http', 'pages')}`))
    .flatMap((file) => [...readFileSync(file, 'utf8').matchAll(/\bcode: '([a-z_]+)'/g)].map((match) => match[1] ?? ''));
}

/** Codes the bridge app's PHP answers with (`'code' => 'x'`). */
function bridgeAppCodes(): string[] {
  return filesUnder(join(root, 'nextcloud-app', 'docs_unified_search', 'lib'), '.php').flatMap((file) =>
    [...readFileSync(file, 'utf8').matchAll(/'code'\s*=>\s*'([a-z_]+)'/g)].map((match) => match[1] ?? ''),
  );
}

const CORE: readonly string[] = [...ARCHIVE_ERROR_CODES, ...SETTINGS_ERROR_CODES, ...LOCAL_ERROR_CODES];
const reported = new Set<string>([...CORE, ...WRAPPER_ERROR_CODES, ...httpLiteralCodes(), ...bridgeAppCodes()]);

/** Each entry: `### \`code\`` and the text up to the next heading. */
const entries = new Map<string, string>();
for (const match of page.matchAll(/^### `([a-z_]+)`\n([\s\S]*?)(?=^#{2,3} |(?![\s\S]))/gm)) entries.set(match[1] ?? '', match[2] ?? '');

describe('docs/errors.md', () => {
  test('lists every code the product reports, and no other', () => {
    const documented = [...page.matchAll(/^### `([a-z_]+)`/gm)].map((match) => match[1] ?? '');
    expect(documented.length).toBe(new Set(documented).size);
    expect({ missing: [...reported].filter((code) => !entries.has(code)).sort(), unknown: documented.filter((code) => !reported.has(code)).sort() }).toEqual({
      missing: [],
      unknown: [],
    });
  });

  test('finds the codes in each place they are defined (the scans are not empty)', () => {
    expect(httpLiteralCodes()).toEqual(expect.arrayContaining(['too_large', 'timeout', 'internal']));
    expect(bridgeAppCodes()).toContain('service_unreachable');
  });

  test.each([...reported].map((code) => [code]))('`%s`: its cause, what to do, and its exit code or HTTP status', (code) => {
    const entry = entries.get(code) ?? '';
    expect(entry).toMatch(/^- \*\*Cause:\*\* \S/m);
    expect(entry).toMatch(/^- \*\*What to do:\*\* \S/m);
    expect(entry).toMatch(/\*\*(Exit|HTTP):\*\* \d/);
    if (CORE.includes(code)) {
      // The command line's exit code for the code, as the page states it.
      const exit = /\*\*Exit:\*\* (\d)/.exec(entry)?.[1];
      expect(Number(exit)).toBe(exitCodeOf(new DusError(code as never, 'x')));
    }
  });
});
