import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ServiceContext } from '../src/core/context-types.js';
import { openContext } from '../src/core/context.js';
import { DusError } from '../src/core/errors.js';
import type { HostLocation } from '../src/core/host/types.js';
import { disconnect } from '../src/core/admin/disconnect.js';
import { saveSettings } from '../src/core/admin/save-settings.js';
import { settingsResponse } from '../src/core/admin/settings-response.js';
import type { AppConfig, SettingsStore } from '../src/core/settings/types.js';
import { startArchiveEmulator, type ArchiveEmulator } from './support/archive-emulator/index.js';
import { createHostFixture, type HostFixture } from './support/host-fixtures/index.js';
import { scratchDir } from './support/scratch.js';

const TOKEN = 'emulator-token';

let archive: ArchiveEmulator;
let host: HostFixture;
const contexts: ServiceContext[] = [];

function context(env: NodeJS.ProcessEnv = {}, dir = scratchDir('dus-save-'), hostLocation: HostLocation = { dbUrl: host.dbUrl }): ServiceContext {
  const opened = openContext({ configDir: dir, env, hostLocation });
  contexts.push(opened);
  return opened;
}

function logLines(ctx: ServiceContext): { level: number; msg: string; detail?: string }[] {
  ctx.logger.flush();
  const text = readFileSync(join(ctx.settings.directory, 'docs_unified_search.log'), 'utf8');
  return text
    .trim()
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as { level: number; msg: string; detail?: string });
}

/** The stored settings and token as bytes: what "nothing was stored" compares. */
function storedFiles(dir: string): Record<string, string> {
  return Object.fromEntries(['settings.json', 'credentials.json'].map((name) => [name, readFileSync(join(dir, name), 'utf8')]));
}

async function failureOf(work: Promise<unknown>): Promise<DusError> {
  try {
    await work;
  } catch (error: unknown) {
    if (error instanceof DusError) return error;
    throw error;
  }
  throw new Error('expected a failure');
}

/** The real store, except that writing the settings fails (a full disk, a lost database). */
function failingWrites(real: SettingsStore): SettingsStore {
  return {
    directory: real.directory,
    read: () => real.read(),
    readWithoutRefusedUrl: () => real.readWithoutRefusedUrl(),
    get: (key) => real.get(key),
    update: () => {
      throw new Error('ENOSPC: no space left on device');
    },
    delete: () => {
      throw new Error('ENOSPC: no space left on device');
    },
    transaction: (work) => real.transaction(work),
  };
}

beforeAll(async () => {
  archive = await startArchiveEmulator({ tokens: [TOKEN, 'other-token'] });
  host = await createHostFixture('sqlite');
  await host.addUser('Archive');
  await host.addUser('syncer');
});

afterAll(async () => {
  for (const ctx of contexts) await ctx.close();
  await archive.close();
  await host.drop();
});

describe('save use case', () => {
  test('returns the settings response object, never the token', async () => {
    await host.setAppConfig('docs_sync', 'target_user', 'syncer');
    const ctx = context();
    const response = await saveSettings(ctx, { url: `${archive.url}/`, token: TOKEN, archiveOwner: 'archive', allowLocal: true, alwaysSearch: true });
    expect(response).toEqual({
      url: archive.url,
      tokenConfigured: true,
      alwaysSearch: true,
      archiveOwner: 'Archive',
      syncAccount: 'syncer',
      tokenUnreadable: false,
      archiveOwnerMissing: false,
      allowLocal: true,
      docsVersion: '2.20.15',
      docsApiVersion: '9',
    });
    expect(JSON.stringify(response)).not.toContain(TOKEN);
    expect(await ctx.archiveAccount()).toBe('Archive');
    expect(ctx.archiveConnection()).toEqual({ url: archive.url, token: TOKEN, allowLocal: true });
  });

  test('a failure while storing: internal, the spec error line, previous token and settings kept', async () => {
    const dir = scratchDir('dus-save-');
    const first = context({}, dir);
    await saveSettings(first, { url: archive.url, token: TOKEN, allowLocal: true });
    const before = first.settings.read();
    const broken: ServiceContext = { ...first, settings: failingWrites(first.settings) };
    const error = await failureOf(saveSettings(broken, { url: archive.url, token: 'other-token', alwaysSearch: true }));
    expect(error.code).toBe('internal');
    expect(error.message).not.toContain('other-token');
    expect(first.settings.read()).toEqual(before);
    expect(first.credentials.load()).toMatchObject({ status: 'ok', token: TOKEN });
    const errors = logLines(first).filter((l) => l.level === 50);
    expect(errors.map((l) => l.msg)).toEqual(['The settings of the app could not be saved (internal)']);
  });

  test('a failure at the very first save leaves no token behind', async () => {
    const ctx = context();
    const broken: ServiceContext = { ...ctx, settings: failingWrites(ctx.settings) };
    expect((await failureOf(saveSettings(broken, { url: archive.url, token: TOKEN, allowLocal: true }))).code).toBe('internal');
    expect(ctx.credentials.load()).toEqual({ status: 'none' });
    expect(ctx.settings.read()).toEqual({});
  });

  test('a host database that cannot be opened after the test: internal naming the cause, the spec error line, nothing stored', async () => {
    const dir = scratchDir('dus-save-');
    await saveSettings(context({}, dir), { url: archive.url, token: TOKEN, allowLocal: true });
    const before = storedFiles(dir);
    const missing = join(dir, 'missing.db');
    const location = { dbUrl: `sqlite://${missing}` };
    const ctx = context({}, dir, location);
    const error = await failureOf(
      saveSettings(ctx, { url: archive.url, token: 'other-token', archiveOwner: 'archive', alwaysSearch: true, hostLocation: location }),
    );
    expect(error.code).toBe('internal');
    // The host's own message names the file: it stays in the log.
    expect(error.message).toBe("Nothing was saved: the host's database could not be opened or read (host_unreachable). The host log has the detail.");
    expect(storedFiles(dir)).toEqual(before);
    expect(ctx.credentials.load()).toMatchObject({ status: 'ok', token: TOKEN });
    const lines = logLines(ctx);
    // The test itself passed: no warning line; the failure after it is logged once.
    expect(lines.filter((l) => l.level === 40)).toEqual([]);
    expect(lines.filter((l) => l.level === 50)).toEqual([
      expect.objectContaining({
        msg: 'The settings of the app could not be saved (internal)',
        detail: expect.stringContaining(`host_unreachable: The host database (the SQLite file ${missing}`),
      }),
    ]);
    expect(JSON.stringify(lines)).not.toContain('other-token');
  });

  test.each([
    [
      'host_config',
      new DusError('host_config', 'The host database URL is not usable: it is not a URL.'),
      "the host's location (the Nextcloud directory, its config.php or the database URL) is not usable (host_config)",
    ],
    [
      'host_schema',
      new DusError('host_schema', 'The host database lacks a table or column the adapter reads: no such table oc_users'),
      "the host's database lacks a table or column this service reads (host_schema)",
    ],
    ['a failure without a code', new Error('socket hang up at db.internal:5432'), 'reading the host (Nextcloud) failed unexpectedly'],
  ])('a host that fails after the test with %s: internal, logged once with the original, nothing stored', async (_name, cause, said) => {
    const dir = scratchDir('dus-save-');
    const first = context({}, dir);
    await saveSettings(first, { url: archive.url, token: TOKEN, allowLocal: true });
    const before = storedFiles(dir);
    const broken: ServiceContext = { ...first, host: () => Promise.reject(cause) };
    const error = await failureOf(saveSettings(broken, { url: archive.url, token: 'other-token', archiveOwner: 'archive' }));
    expect(error).toMatchObject({ code: 'internal', message: `Nothing was saved: ${said}. The host log has the detail.` });
    expect(storedFiles(dir)).toEqual(before);
    const detail = cause instanceof DusError ? `${cause.code}: ${cause.message}` : cause.message;
    expect(logLines(first).filter((l) => l.level === 50)).toEqual([
      expect.objectContaining({ msg: 'The settings of the app could not be saved (internal)', detail }),
    ]);
  });

  test('an unknown archive account stays the refusal it is: its own code, no error line', async () => {
    const ctx = context();
    const error = await failureOf(saveSettings(ctx, { url: archive.url, token: TOKEN, archiveOwner: 'ghost', allowLocal: true }));
    expect(error.code).toBe('unknown_archive_account');
    expect(logLines(ctx).filter((l) => l.level === 50)).toEqual([]);
    expect(ctx.settings.read()).toEqual({});
  });

  test('blank archive account with no sync account: saved, reported missing', async () => {
    await host.setAppConfig('docs_sync', 'target_user', 'departed');
    const ctx = context();
    const response = await saveSettings(ctx, { url: archive.url, token: TOKEN, archiveOwner: '', allowLocal: true });
    expect(response).toMatchObject({ archiveOwner: '', syncAccount: 'departed', archiveOwnerMissing: true });
    expect(await ctx.archiveAccount()).toBeNull();
    await host.setAppConfig('docs_sync', 'target_user', 'syncer');
    expect(await ctx.archiveAccount()).toBe('syncer');
  });

  test('a change made while the connection is tested is kept for the keys the save was not given', async () => {
    const dir = scratchDir('dus-save-');
    const ctx = context({}, dir);
    await saveSettings(ctx, { url: archive.url, token: TOKEN, allowLocal: true, alwaysSearch: false });
    archive.faults.push({ hangMs: 300, times: 1 });
    const saving = saveSettings(ctx, { url: archive.url });
    await new Promise((done) => setTimeout(done, 100));
    // Another process (config:app:set) while this save waits for the archive server.
    context({}, dir).settings.update({ always_search: true, archive_owner: 'syncer' });
    expect(await saving).toMatchObject({ alwaysSearch: true, archiveOwner: 'syncer', allowLocal: true });
  });

  test('a kept token replaced by another save meanwhile: refused with its code, nothing written', async () => {
    const dir = scratchDir('dus-save-');
    const ctx = context({}, dir);
    await saveSettings(ctx, { url: archive.url, token: TOKEN, allowLocal: true });
    archive.faults.push({ hangMs: 300, times: 1 });
    const keeping = failureOf(saveSettings(ctx, { url: archive.url, alwaysSearch: true }));
    await new Promise((done) => setTimeout(done, 100));
    const other = context({}, dir);
    other.credentials.save('other-token', 'http://other.example:80');
    other.settings.update({ docs_url: 'http://other.example' });
    const error = await keeping;
    expect(error.code).toBe('token_for_other_server');
    expect(error.message).toMatch(/^Nothing was saved: another save changed the stored API token/);
    expect(ctx.settings.read()).toMatchObject({ docs_url: 'http://other.example', always_search: false });
  });

  test('a stored URL the URL rules refuse: the response shows none, so the form that replaces it opens', async () => {
    const dir = scratchDir('dus-save-');
    const ctx = context({}, dir);
    await saveSettings(ctx, { url: archive.url, token: TOKEN, allowLocal: true });
    writeFileSync(join(dir, 'settings.json'), JSON.stringify({ ...ctx.settings.read(), docs_url: 'file:///etc/passwd' }));
    expect(() => ctx.settings.read()).toThrow(expect.objectContaining({ code: 'unsupported_scheme' }));
    expect(await settingsResponse(ctx)).toMatchObject({ url: null, tokenConfigured: true, allowLocal: true });
  });

  test('a token saved under another secret is reported unreadable', async () => {
    const dir = scratchDir('dus-save-');
    await saveSettings(context({ DUS_SECRET: 'a' }, dir), { url: archive.url, token: TOKEN, allowLocal: true });
    const later = context({ DUS_SECRET: 'b' }, dir);
    expect(later.archiveConnection()).toBeNull();
    expect(later.archiveClient()).toBeNull();
    const response = await settingsResponse(later);
    expect(response).toMatchObject({ tokenConfigured: true, tokenUnreadable: true });
  });
});

describe('disconnect', () => {
  test('deletes URL, token, switches, account, versions and history; keeps the rest', async () => {
    const ctx = context();
    await saveSettings(ctx, {
      url: archive.url,
      token: TOKEN,
      archiveOwner: 'Archive',
      allowLocal: true,
      alwaysSearch: true,
      hostLocation: { dbUrl: host.dbUrl },
    });
    const kept: Partial<AppConfig> = { diagnostics_pending: true, enabled: true, installed_version: '0.4.0', host_url: 'https://cloud.example.com' };
    // The keys of 0.3.0 go too when the repair step has not run yet: only the kept ones remain.
    ctx.settings.update({ ...kept, diagnostics: '[{"code":"timeout"}]', last_failure: '{"code":"http"}', last_recovery: '2026-01-01T00:00:00Z' });
    disconnect(ctx);
    expect(ctx.settings.read()).toEqual({ ...kept, host_db: host.dbUrl });
    expect(ctx.credentials.load()).toEqual({ status: 'none' });
    expect(ctx.archiveConnection()).toBeNull();
  });
});

describe('service context', () => {
  test('creates the config directory private (0700)', () => {
    const dir = join(scratchDir('dus-save-'), 'new', 'config');
    context({}, dir);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
  });
});

describe('audit log', () => {
  test('one private JSON line per record with who, as whom and when', () => {
    const ctx = context();
    ctx.audit.record({ action: 'try_search', admin: 'admin', user: 'alice' });
    ctx.audit.record({ action: 'disconnect', admin: 'root', detail: { results: 3 } });
    const path = join(ctx.settings.directory, 'audit.log');
    const lines = readFileSync(path, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({ app: 'docs_unified_search', action: 'try_search', admin: 'admin', user: 'alice' });
    expect(lines[1]).toMatchObject({ action: 'disconnect', admin: 'root', detail: { results: 3 } });
    expect(Number.isNaN(Date.parse(String(lines[0]?.time)))).toBe(false);
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });
});
