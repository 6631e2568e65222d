import { describe, expect, test } from '@jest/globals';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DusError } from '../src/core/errors.js';
import { configDirectory } from '../src/core/settings/paths.js';
import { FileSettingsStore } from '../src/core/settings/settings-store.js';
import { runNodeScript, TS_IMPORT_PRELUDE } from './support/settings-helpers.js';
import { scratchDir } from './support/scratch.js';

function freshDir(): string {
  return scratchDir('dus-settings-');
}

function failureOf(work: () => unknown): DusError {
  try {
    work();
  } catch (error: unknown) {
    if (error instanceof DusError) return error;
    throw error;
  }
  throw new Error('expected a failure');
}

describe('config directory', () => {
  test('given, else DUS_CONFIG_DIR, else XDG_CONFIG_HOME, else ~/.config', () => {
    expect(configDirectory('/given', { DUS_CONFIG_DIR: '/env' })).toBe('/given');
    expect(configDirectory(undefined, { DUS_CONFIG_DIR: '/env', XDG_CONFIG_HOME: '/xdg' })).toBe('/env');
    expect(configDirectory(undefined, { DUS_CONFIG_DIR: '', XDG_CONFIG_HOME: '/xdg' })).toBe('/xdg/docs-unified-search');
    expect(configDirectory(undefined, { HOME: '/home/ada' })).toBe('/home/ada/.config/docs-unified-search');
  });
});

describe('settings store', () => {
  test('keeps typed values, deletes with undefined, writes a private file', () => {
    const dir = freshDir();
    const store = new FileSettingsStore(dir);
    expect(store.read()).toEqual({});
    store.update({ docs_url: 'https://p.example.com', allow_local: true, always_search: false });
    store.update({ allow_local: undefined, docs_version: '2.20.3' });
    const again = new FileSettingsStore(dir);
    expect(again.read()).toEqual({ docs_url: 'https://p.example.com', always_search: false, docs_version: '2.20.3' });
    expect(again.get('always_search')).toBe(false);
    again.delete(['docs_url', 'docs_version']);
    expect(store.read()).toEqual({ always_search: false });
    expect(statSync(join(dir, 'settings.json')).mode & 0o777).toBe(0o600);
  });

  test('a read after another writer changed the file sees the change, even one of the same size', async () => {
    const dir = freshDir();
    const reader = new FileSettingsStore(dir);
    const writer = new FileSettingsStore(dir);
    writer.update({ docs_version: '2.15.1' });
    // Old enough for the reader to keep what it read (a file changed in the last 100 ms is always read again).
    await new Promise((resolve) => setTimeout(resolve, 150));
    const first = reader.read();
    expect(first).toEqual({ docs_version: '2.15.1' });
    expect(reader.read()).toBe(first);
    writer.update({ docs_version: '2.20.0' });
    expect(reader.read()).toEqual({ docs_version: '2.20.0' });
    // The same bytes written in place by hand (same size, same inode) count as a change too.
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(reader.read()).toEqual({ docs_version: '2.20.0' });
    writeFileSync(join(dir, 'settings.json'), readFileSync(join(dir, 'settings.json'), 'utf8').replace('2.20.0', '2.21.9'));
    expect(reader.read()).toEqual({ docs_version: '2.21.9' });
  });

  test('what a read returns cannot be changed by its caller', () => {
    const dir = freshDir();
    const store = new FileSettingsStore(dir);
    store.update({ docs_url: 'https://p.example.com' });
    const read = store.read() as Record<string, unknown>;
    expect(() => {
      read.docs_url = 'https://evil.example.com';
    }).toThrow(TypeError);
    expect(store.read().docs_url).toBe('https://p.example.com');
  });

  test('a first read creates nothing; the directory the first write creates is private', () => {
    const dir = join(freshDir(), 'nested', 'config');
    const store = new FileSettingsStore(dir);
    expect(store.read()).toEqual({});
    expect(existsSync(dir)).toBe(false);
    store.update({ always_search: true });
    expect([statSync(dir).mode & 0o777, statSync(join(dir, '..')).mode & 0o777]).toEqual([0o700, 0o700]);
  });

  test('a value of the wrong type is refused and nothing is written', () => {
    const dir = freshDir();
    const store = new FileSettingsStore(dir);
    store.update({ docs_url: 'https://p.example.com' });
    const error = failureOf(() => store.update({ always_search: 'yes' as unknown as boolean, docs_url: 'https://q.example.com' }));
    expect(error.code).toBe('internal');
    expect(error.message).toContain('always_search');
    expect(store.read()).toEqual({ docs_url: 'https://p.example.com' });
  });

  test.each([
    ['not JSON', '{ "docs_url": ', /broken/],
    ['a wrong type', '{ "allow_local": "yes" }', /allow_local must be boolean/],
    ['an unknown key', '{ "docs_urll": "x" }', /unknown key "docs_urll"/],
    ['an array', '[]', /must be object/],
    ['an array with a key', '[{ "docs_url": "https://p.example.com" }]', /must be object/],
    ['null', 'null', /must be object/],
    ['a number', '1', /must be object/],
  ])('a hand-broken file (%s) gives an internal error naming the file', (_what, content, reason) => {
    const dir = freshDir();
    writeFileSync(join(dir, 'settings.json'), content);
    const error = failureOf(() => new FileSettingsStore(dir).read());
    expect(error.code).toBe('internal');
    expect(error.message).toContain(join(dir, 'settings.json'));
    expect(error.message).toMatch(reason);
    expect(error.message).not.toMatch(/\n\s+at /);
  });

  test.each([
    ['file:///etc/passwd', 'unsupported_scheme'],
    ['ftp://p.example.com', 'unsupported_scheme'],
    ['p.example.com', 'invalid_url'],
    ['https://user:pw@p.example.com', 'url_extras'],
    ['https://p.example.com/?q=1', 'url_extras'],
    ['https://bücher.example', 'host_not_ascii'],
  ])('a hand-edited docs_url %s is refused on reading with the code setup gives it (%s)', (url, code) => {
    const dir = freshDir();
    writeFileSync(join(dir, 'settings.json'), JSON.stringify({ docs_url: url, always_search: true }));
    const store = new FileSettingsStore(dir);
    for (const read of [() => store.read(), () => store.get('always_search')]) {
      const error = failureOf(read);
      expect(error.code).toBe(code);
      expect(error.message).toContain(join(dir, 'settings.json'));
      expect(error.message).toContain('Run setup --url=URL');
    }
    // Its repair is not blocked: the save that replaces it reads the rest, a delete removes it.
    expect(store.readWithoutRefusedUrl()).toEqual({ always_search: true });
    expect(store.delete(['docs_url', 'docs_version'])).toEqual(['docs_url']);
    expect(store.read()).toEqual({ always_search: true });
  });

  test('a hand-edited docs_url the rules accept is read in its stored form', () => {
    const dir = freshDir();
    writeFileSync(join(dir, 'settings.json'), JSON.stringify({ docs_url: ' HTTPS://P.Example.com:443/paperless/ ' }));
    expect(new FileSettingsStore(dir).read()).toEqual({ docs_url: 'https://p.example.com/paperless' });
  });

  test('a lock held by a live process makes a writer give up after its timeout with a clear error', () => {
    const dir = freshDir();
    writeFileSync(join(dir, 'settings.lock'), String(process.pid));
    const store = new FileSettingsStore(dir, { lock: { timeoutMs: 50 } });
    const error = failureOf(() => store.update({ docs_version: '1' }));
    expect(error.code).toBe('internal');
    expect(error.message).toContain('settings.lock');
  });

  test('a lock left by a process that no longer runs is broken', () => {
    const dir = freshDir();
    writeFileSync(join(dir, 'settings.lock'), '999999999');
    const store = new FileSettingsStore(dir, { lock: { timeoutMs: 50 } });
    store.update({ docs_version: '1' });
    expect(store.get('docs_version')).toBe('1');
  });
});

const CHILD = `${TS_IMPORT_PRELUDE}const [storeModule, dir, key, rounds] = process.argv.slice(2);
const { FileSettingsStore } = await import(storeModule);
const store = new FileSettingsStore(dir, { lock: { timeoutMs: 30000 } });
for (let i = 1; i <= Number(rounds); i += 1) {
  // Own key: update() alone must not lose the other process's key.
  store.update({ [key]: String(i) });
  // Shared key: a read-modify-write inside a transaction must not lose the other's append.
  store.transaction(() => store.update({ diagnostics: (store.get('diagnostics') ?? '') + key[5] }));
}
`;

function runChild(script: string, dir: string, key: string, rounds: number): Promise<{ code: number | null; stderr: string }> {
  return runNodeScript(script, [resolve('src/core/settings/settings-store.ts'), dir, key, String(rounds)]);
}

describe('two processes saving at once', () => {
  test('lose no update and never leave a broken file', async () => {
    const dir = freshDir();
    const script = join(dir, 'child.mjs');
    writeFileSync(script, CHILD);
    const rounds = 150;
    const results = await Promise.all([runChild(script, dir, 'docs_version', rounds), runChild(script, dir, 'docs_api_version', rounds)]);
    for (const result of results) expect(result).toEqual({ code: 0, stderr: '' });
    const final = JSON.parse(readFileSync(join(dir, 'settings.json'), 'utf8')) as Record<string, string>;
    expect(final.docs_version).toBe(String(rounds));
    expect(final.docs_api_version).toBe(String(rounds));
    const appended = final.diagnostics ?? '';
    expect(appended.length).toBe(2 * rounds);
    expect([...appended].filter((c) => c === 'v').length).toBe(rounds);
  });
});
