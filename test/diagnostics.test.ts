import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { main } from '../src/cli.js';
import { clearHistory, HISTORY_LIMIT, readHistory, recordProblem, recordRecovery, recordTestWorked, scrub } from '../src/core/diagnostics/history.js';
import { overviewCheck } from '../src/core/diagnostics/overview-check.js';
import { repairAfterUpdate, runRepair } from '../src/core/diagnostics/repair.js';
import { SUITE_VERSION } from '../src/core/version.js';
import { captureIO } from './support/capture-io.js';
import { buildSearchWorld, type SearchWorld } from './support/search-world.js';

let world: SearchWorld;

beforeAll(async () => {
  world = await buildSearchWorld(5);
});

afterAll(async () => {
  await world.close();
});

async function run(dir: string, args: readonly string[]): Promise<{ code: number; out: string; err: string }> {
  const io = captureIO({ env: {} });
  const code = await main(['--config-dir', dir, ...args], io);
  return { code, out: io.out(), err: io.err() };
}

describe('history', () => {
  test('keeps the latest 20, newest first, and raises pending; a recovery lowers it; clear deletes only the history', async () => {
    const { ctx } = await world.context();
    for (let n = 1; n <= 25; n += 1) recordProblem(ctx.settings, { code: 'http', message: `failure ${n}`, status: 500 });
    const history = readHistory(ctx.settings);
    expect(history).toHaveLength(HISTORY_LIMIT);
    expect(history[0]?.message).toBe('failure 25');
    expect(history[19]?.message).toBe('failure 6');
    expect(ctx.settings.get('diagnostics_pending')).toBe(true);
    recordRecovery(ctx.settings);
    expect(ctx.settings.get('diagnostics_pending')).toBe(false);
    clearHistory(ctx.settings);
    expect(readHistory(ctx.settings)).toEqual([]);
    expect(ctx.settings.get('docs_url')).toBe(world.archive.url);
  });

  test('scrub removes the given secrets and every URL query', () => {
    const cleaned = scrub('GET https://h.example/api/documents/?query=salary&page=2 for salary with tok-123 failed', ['salary', 'tok-123']);
    expect(cleaned).not.toMatch(/salary|tok-123|\?|page=2/);
    expect(cleaned).toContain('https://h.example/api/documents/');
  });

  test('a damaged history reads as empty', async () => {
    const { ctx } = await world.context();
    ctx.settings.update({ diagnostics: '{not json' });
    expect(readHistory(ctx.settings)).toEqual([]);
  });
});

describe('overview check', () => {
  test('all well: names the archive server and the version of its last answer', async () => {
    const { ctx } = await world.context();
    world.archive.clearRequests();
    const result = await overviewCheck(ctx);
    expect(result.severity).toBe('success');
    expect(result.messages.join(' ')).toContain(`${world.archive.url} (version 2.20.15, API version 9`);
    expect(world.archive.requests).toHaveLength(0);
  });

  test('an unreadable token warns, with the link to the app settings', async () => {
    const { ctx, dir } = await world.context();
    writeFileSync(join(dir, 'secret'), 'another-secret-entirely-0123456789abcdef');
    const result = await overviewCheck(ctx);
    expect(result.severity).toBe('warning');
    expect(result.messages.join(' ')).toContain("The stored API token can't be decrypted");
    expect(result.link).toBe('https://cloud.example.com/settings/admin/docs_unified_search');
  });

  test('a missing archive account warns', async () => {
    const { ctx } = await world.context();
    ctx.settings.update({ archive_owner: 'ghost' });
    expect((await overviewCheck(ctx)).messages.join(' ')).toContain('The archive account ghost does not exist.');
  });

  test('no archive account at all warns', async () => {
    const { ctx } = await world.context();
    await world.host.exec("DELETE FROM oc_appconfig WHERE appid = 'docs_sync'");
    try {
      expect((await overviewCheck(ctx)).messages.join(' ')).toContain('No archive account is set');
    } finally {
      await world.host.setAppConfig('docs_sync', 'target_user', 'archive');
    }
  });

  test('a connection test that works ends only its own warning: a failed search still waits for a search', async () => {
    const { ctx } = await world.context();
    recordProblem(ctx.settings, { code: 'timeout', message: 'no answer', source: 'test' });
    expect((await overviewCheck(ctx)).messages.join(' ')).toMatch(/The connection test of check or test failed \(timeout\)/);
    recordTestWorked(ctx.settings);
    expect((await overviewCheck(ctx)).severity).toBe('success');
    recordProblem(ctx.settings, { code: 'http', message: 'HTTP 500' });
    recordTestWorked(ctx.settings);
    expect((await overviewCheck(ctx)).messages.join(' ')).toMatch(/A search failed \(http\)/);
  });

  test('a failed search with none working since warns; after a working search it does not', async () => {
    const { ctx } = await world.context();
    recordProblem(ctx.settings, { code: 'timeout', message: 'no answer' });
    const warned = await overviewCheck(ctx);
    expect(warned.severity).toBe('warning');
    expect(warned.messages.join(' ')).toMatch(/A search failed \(timeout\) at .* and none has worked since\./);
    recordRecovery(ctx.settings);
    expect((await overviewCheck(ctx)).severity).toBe('success');
  });

  test('setupchecks prints it: exit 0 when well, 1 with a warning', async () => {
    const { ctx, dir } = await world.context();
    const ok = await run(dir, ['setupchecks']);
    expect(ok.code).toBe(0);
    expect(ok.out).toContain('Connected to the archive server at');
    recordProblem(ctx.settings, { code: 'http', message: 'HTTP 502' });
    const warned = await run(dir, ['setupchecks']);
    expect(warned.code).toBe(1);
    expect(warned.out).toContain('Correct it in the app settings: https://cloud.example.com/settings/admin/docs_unified_search');
    const json = await run(dir, ['setupchecks', '--output=json']);
    expect(JSON.parse(json.out)).toMatchObject({ docs_unified_search: { severity: 'warning' } });
  });
});

describe('repair step', () => {
  test('deletes last_failure and last_recovery, and nothing else; runs again harmlessly', async () => {
    const { ctx } = await world.context();
    ctx.settings.update({ last_failure: '{"at":1}', last_recovery: '{"at":2}' });
    expect(runRepair(ctx.settings).deleted).toEqual(['last_failure', 'last_recovery']);
    expect(ctx.settings.read()).not.toHaveProperty('last_failure');
    expect(ctx.settings.get('docs_url')).toBe(world.archive.url);
    expect(runRepair(ctx.settings).deleted).toEqual([]);
  });

  test('runs by itself the first time a new version runs, once', async () => {
    const { ctx } = await world.context();
    ctx.settings.update({ installed_version: '0.3.0', last_failure: 'x' });
    expect(repairAfterUpdate(ctx.settings, '0.4.0')?.deleted).toEqual(['last_failure']);
    expect(ctx.settings.get('installed_version')).toBe('0.4.0');
    ctx.settings.update({ last_recovery: 'y' });
    expect(repairAfterUpdate(ctx.settings, '0.4.0')).toBeNull();
    expect(ctx.settings.get('last_recovery')).toBe('y');
  });

  test('maintenance:repair says what it deleted; a command of a new version repairs by itself', async () => {
    const { ctx, dir } = await world.context();
    ctx.settings.update({ last_failure: 'x', last_recovery: 'y' });
    const first = await run(dir, ['maintenance:repair']);
    expect(first.code).toBe(0);
    expect(first.out).toContain('deleted: last_failure, last_recovery');
    expect((await run(dir, ['maintenance:repair'])).out).toContain('nothing to delete');
    ctx.settings.update({ installed_version: '0.3.0', last_failure: 'x' });
    expect((await run(dir, ['setupchecks'])).code).toBe(0);
    expect(ctx.settings.read()).not.toHaveProperty('last_failure');
    expect(ctx.settings.get('installed_version')).toBe(SUITE_VERSION);
  });
});

describe('scrub with short terms', () => {
  test('a one-letter term does not garble the message; a URL query still goes', () => {
    expect(scrub('The archive server did not answer in time', ['e'])).toBe('The archive server did not answer in time');
    expect(scrub('GET /api/documents/?query=e failed', ['e'])).toBe('GET /api/documents/ failed');
  });
});
