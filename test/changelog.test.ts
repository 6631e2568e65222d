/**
 * One version everywhere (issue 40): package.json, the bridge app's appinfo/info.xml, the
 * executable's `--version` and CHANGELOG.md's newest release agree, and the changelog keeps an
 * Unreleased section on top for the next change to add its line to. Also: docs/README.md, the
 * documentation index, names every page of docs/ and only pages that exist.
 */
import { describe, expect, test } from '@jest/globals';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { main } from '../src/cli.js';
import { captureIO } from './support/capture-io.js';

const root = join(import.meta.dirname, '..');
const read = (...path: string[]): string => readFileSync(join(root, ...path), 'utf8');

describe('CHANGELOG.md and the version', () => {
  const changelog = read('CHANGELOG.md');
  const headings = [...changelog.matchAll(/^## \[([^\]]+)\](?: - (\d{4}-\d{2}-\d{2}))?$/gm)].map((match) => ({ version: match[1] ?? '', date: match[2] }));
  const { version } = JSON.parse(read('package.json')) as { version: string };

  test('opens with Unreleased, then releases newest first, each with its date', () => {
    expect(headings[0]).toEqual({ version: 'Unreleased', date: undefined });
    const releases = headings.slice(1);
    expect(releases.length).toBeGreaterThan(0);
    for (const release of releases)
      expect([release.version, release.date]).toEqual([expect.stringMatching(/^\d+\.\d+\.\d+$/), expect.stringMatching(/^\d{4}-/)]);
    const dates = releases.map((release) => release.date ?? '');
    expect(dates).toEqual([...dates].sort().reverse());
  });

  test("the newest release is package.json's version, the bridge app's and --version's", async () => {
    expect(headings[1]?.version).toBe(version);
    expect(/<version>([^<]+)<\/version>/.exec(read('nextcloud-app', 'docs_unified_search', 'appinfo', 'info.xml'))?.[1]).toBe(version);
    const io = captureIO({ env: {} });
    expect(await main(['--version'], io)).toBe(0);
    expect(io.out().trim()).toBe(version);
  });
});

describe('docs/README.md, the index by reader', () => {
  const index = read('docs', 'README.md');
  const linked = new Set([...index.matchAll(/\]\(([^)#]+)\)/g)].map((match) => match[1] ?? ''));

  test('has the four readers', () => {
    for (const reader of ['## Administrators', '## Support staff', '## CI and monitoring', '## Contributors']) expect(index).toContain(reader);
  });

  test('links every page of docs/ and the unit files, and every link is there', () => {
    const pages = readdirSync(join(root, 'docs')).filter((name) => /\.(md|service)$/.test(name) && name !== 'README.md');
    expect(pages.filter((page) => !linked.has(page))).toEqual([]);
    expect([...linked].filter((link) => !existsSync(join(root, 'docs', link)))).toEqual([]);
  });
});
