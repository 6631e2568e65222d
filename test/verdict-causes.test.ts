/**
 * Verdicts that name the real cause (`why`, `search --explain`, Try a search), on SQLite,
 * PostgreSQL and MariaDB: a disabled account, and the share rows that exist but do not mount.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ServiceContext } from '../src/core/context-types.js';
import { openContext } from '../src/core/context.js';
import { verdictOfDocument, type DocumentVerdict } from '../src/core/search/verdicts.js';
import { reachableDialects } from './support/host-fixtures/dialects.js';
import { createHostFixture, type HostFixture } from './support/host-fixtures/index.js';

const A = 'archive';

async function build(fx: HostFixture): Promise<void> {
  for (const uid of [A, 'anna']) await fx.addUser(uid);
  await fx.addUser('erik', { enabled: false });
  await fx.setAppConfig('docs_sync', 'target_user', A);
  // A folder shared with the disabled erik; a file of the archive account nobody received.
  await fx.addFile(A, 'ForErik/e [P36].pdf');
  await fx.share({ owner: A, fileId: await fx.addFolder(A, 'ForErik'), type: 'user', with: 'erik' });
  await fx.addFile(A, 'Private/p [P1].pdf');
}

const dialects = await reachableDialects('verdict causes');

describe.each(dialects)('verdicts name the cause on %s', (dialect) => {
  let fx: HostFixture;
  let ctx: ServiceContext;
  let dir: string;
  beforeAll(async () => {
    fx = await createHostFixture(dialect);
    await build(fx);
    dir = mkdtempSync(join(tmpdir(), 'dus-causes-'));
    ctx = openContext({ configDir: dir, logFile: join(dir, 'host.log'), hostLocation: { dbUrl: fx.dbUrl, tablePrefix: fx.prefix } });
  });
  afterAll(async () => {
    await ctx?.close();
    await fx?.drop();
    rmSync(dir, { recursive: true, force: true });
  });
  const why = (user: string, id: number): Promise<DocumentVerdict> => verdictOfDocument(ctx, user, id);

  test('a disabled account opens nothing: not shared, and the explanation says it is disabled', async () => {
    const { item } = await why('erik', 36);
    expect(item).toMatchObject({ verdict: 'not shared', path: '/ForErik/e [P36].pdf', owner: A, cause: { kind: 'account disabled' } });
    expect(item.explanation).toContain("erik's account is disabled");
    expect(item.explanation).not.toContain('share the file');
    const none = await why('erik', 999);
    expect(none.item.verdict).toBe('no file');
    expect(none.item.explanation).toContain("erik's account is disabled");
  });

  test('the archive account disabled: its own files are not shown to itself, the explanation says why', async () => {
    expect((await why(A, 1)).item.verdict).toBe('shown');
    await fx.setUserPreference(A, 'core', 'enabled', 'false');
    try {
      const { item } = await why(A, 1);
      expect(item).toMatchObject({ verdict: 'not shared', path: '/Private/p [P1].pdf', cause: { kind: 'account disabled' } });
      expect(item.explanation).toContain(`${A}'s account is disabled`);
    } finally {
      await fx.setUserPreference(A, 'core', 'enabled', 'true');
    }
  });
});
