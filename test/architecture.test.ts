/**
 * The rooms of the core and of the host adapter import only what docs/architecture.md allows:
 * every relative import of every module is read and checked against the table below, which is
 * that page's table.
 */
import { describe, expect, test } from '@jest/globals';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const CORE = resolve(import.meta.dirname, '..', 'src', 'core');

/** room (a path under src/core, a folder or a file) → the rooms it may import besides itself. */
const ALLOWED: Readonly<Record<string, readonly string[]>> = {
  'net/': [],
  'fs/': ['node-crypto.ts'],
  'i18n/': [],
  'errors.ts': ['i18n/'],
  'version.ts': [],
  'node-crypto.ts': [],
  'young-generation.ts': [],
  'monotonic.ts': [],
  'log.ts': ['errors.ts', 'version.ts', 'fs/'],
  'cache/': ['errors.ts'],
  'archive/': ['net/', 'errors.ts', 'i18n/', 'log.ts', 'monotonic.ts', 'version.ts'],
  'settings/': ['fs/', 'errors.ts', 'i18n/', 'log.ts', 'node-crypto.ts', 'archive/versions.ts', 'host/types.ts', 'version.ts'],
  'host/db/': ['errors.ts', 'i18n/', 'log.ts', 'node-crypto.ts', 'fs/'],
  'host/rules/': ['host/db/types.ts', 'node-crypto.ts', 'errors.ts', 'i18n/'],
  'host/index/': ['host/db/', 'host/rules/', 'fs/', 'log.ts', 'young-generation.ts', 'errors.ts', 'node-crypto.ts'],
};

function modules(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? modules(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
  );
}

/** The room a path under src/core belongs to: the longest key of ALLOWED that holds it. */
function roomOf(path: string): string | undefined {
  return Object.keys(ALLOWED)
    .filter((room) => (room.endsWith('/') ? path.startsWith(room) : path === room))
    .sort((a, b) => b.length - a.length)[0];
}

const within = (path: string, room: string): boolean => (room.endsWith('/') ? path.startsWith(room) : path === room);

describe('the rooms of src/core import only what docs/architecture.md allows', () => {
  const found: string[] = [];
  for (const file of modules(CORE)) {
    const from = relative(CORE, file);
    const room = roomOf(from);
    if (room === undefined) continue;
    for (const match of readFileSync(file, 'utf8').matchAll(/from '(\.{1,2}\/[^']+)'/g)) {
      const target = relative(CORE, resolve(dirname(file), (match[1] ?? '').replace(/\.js$/, '.ts')));
      if (target.startsWith('..') || within(target, room)) continue;
      if (!(ALLOWED[room] ?? []).some((allowed) => within(target, allowed))) found.push(`${from} imports ${target} (room ${room})`);
    }
  }

  test('no import outside the table', () => {
    expect(found).toEqual([]);
  });

  test('the table is read: the host rooms are there and a lower room importing a higher one is caught', () => {
    expect(roomOf('host/db/sql-client.ts')).toBe('host/db/');
    const rulesMayImportIndex = (ALLOWED['host/rules/'] ?? []).some((allowed) => within('host/index/marker-index.ts', allowed));
    expect(rulesMayImportIndex).toBe(false);
  });
});

describe('no import circle in src', () => {
  const SRC = resolve(import.meta.dirname, '..', 'src');
  /** Static imports and re-exports only: the CLI's one circle is lazy (`import()`: completion ↔ the program and the list) and deliberate. */
  const graph = new Map<string, string[]>();
  for (const file of modules(SRC)) {
    const targets = [...readFileSync(file, 'utf8').matchAll(/^(?:import|export)\b[^;]*?from '(\.{1,2}\/[^']+)'/gms)].map((m) =>
      resolve(dirname(file), (m[1] ?? '').replace(/\.js$/, '.ts')),
    );
    graph.set(file, targets);
  }
  const circles: string[] = [];
  const state = new Map<string, 'open' | 'done'>();
  const visit = (file: string, path: string[]): void => {
    if (state.get(file) === 'done') return;
    if (state.get(file) === 'open') {
      circles.push([...path.slice(path.indexOf(file)), file].map((f) => relative(SRC, f)).join(' → '));
      return;
    }
    state.set(file, 'open');
    for (const next of graph.get(file) ?? []) visit(next, [...path, file]);
    state.set(file, 'done');
  };
  for (const file of graph.keys()) visit(file, []);

  test('none, type-only imports included', () => {
    expect(circles).toEqual([]);
  });
});
