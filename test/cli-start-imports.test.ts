import { describe, expect, test } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/**
 * What the executable loads before it knows the command: the static import graph from
 * src/cli.ts (an `import type` is erased, an `import()` waits for the command that needs it).
 * The HTTP stack, the database drivers, Redis, the PHP parser, the archive client and the
 * settings and log libraries are loaded by the commands that use them, never at start.
 */
const root = join(import.meta.dirname, '..');
const STATIC_IMPORT = /^\s*(?:import|export)\s+(?!type\b)(?:[\s\S]*?\sfrom\s+)?'([^']+)';/gm;

function staticGraph(entry: string): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string): void => {
    if (files.has(file)) return;
    files.add(file);
    for (const match of readFileSync(file, 'utf8').matchAll(STATIC_IMPORT)) {
      const specifier = match[1] ?? '';
      if (specifier.startsWith('.')) visit(resolve(dirname(file), specifier.replace(/\.js$/, '.ts')));
      else if (!specifier.startsWith('node:')) packages.add(specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/'));
    }
  };
  visit(join(root, 'src', 'cli.ts'));
  return { files: new Set([...files].map((file) => relative(root, file))), packages };
}

describe('start-up imports of src/cli.ts', () => {
  const { files, packages } = staticGraph(join(root, 'src', 'cli.ts'));

  test('no HTTP, database, cache, PHP, archive-client, settings or log library is imported at start', () => {
    const heavy = ['fastify', '@fastify/cookie', '@fastify/formbody', '@fastify/multipart', 'pg', 'mysql2', 'ioredis', 'php-parser', 'undici', 'conf', 'ajv', 'pino', 'bcryptjs', 'hash-wasm', 'chalk', 'cli-table3'];
    expect(heavy.filter((name) => packages.has(name))).toEqual([]);
    // What is left is the argument parser and the width of text on a terminal (error lines).
    expect([...packages].sort()).toEqual(['commander', 'string-width']);
  });

  test('none of the core that opens settings, host, archive server or HTTP is imported at start', () => {
    const late = ['src/core/context.ts', 'src/core/host/open-host.ts', 'src/core/host/sql-client.ts', 'src/core/host/config-php.ts', 'src/core/settings/settings-store.ts', 'src/core/log.ts', 'src/core/archive/archive-client.ts', 'src/core/cache/redis-cache.ts'];
    expect(late.filter((file) => files.has(file))).toEqual([]);
    expect([...files].filter((file) => file.startsWith('src/http/'))).toEqual([]);
  });

  test('the graph is followed (the command files are in it)', () => {
    expect(files.has('src/commands/search.ts')).toBe(true);
    expect(files.has('src/commands/serve.ts')).toBe(true);
  });
});
