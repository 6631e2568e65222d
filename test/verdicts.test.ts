import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ServiceContext } from '../src/core/context-types.js';
import type { HostAdapter } from '../src/core/host/types.js';
import { readHistory } from '../src/core/diagnostics/history.js';
import { decideVerdicts, explanationIn, explanationMessage } from '../src/core/search/verdicts.js';

/** The explanation in English, as logs and `--json` write it. */
const explanationOf = (...args: Parameters<typeof explanationMessage>): string | null => explanationIn(explanationMessage(...args), null);
import { buildSearchWorld, expectedVerdict, type SearchWorld } from './support/search-world.js';

let world: SearchWorld;

beforeAll(async () => {
  world = await buildSearchWorld(60);
});

afterAll(async () => {
  await world.close();
});

/** Counts the calls of each question on the real adapter. */
async function counting(ctx: ServiceContext): Promise<{ ctx: ServiceContext; calls: Record<string, number[][]> }> {
  const host: HostAdapter = await ctx.host();
  const calls: Record<string, number[][]> = { visible: [], owned: [], foreign: [], obstacles: [], trash: [] };
  const wrapped: HostAdapter = {
    get hostUrl() {
      return host.hostUrl;
    },
    get instanceSecret() {
      return host.instanceSecret;
    },
    get sql() {
      return host.sql;
    },
    get batched() {
      return host.batched;
    },
    findAccount: (uid) => host.findAccount(uid),
    directoryReport: (count) => host.directoryReport(count),
    syncAccount: () => host.syncAccount(),
    isAdmin: (uid) => host.isAdmin(uid),
    groupsOf: (uid) => host.groupsOf(uid),
    markedFiles: (account, offset, limit) => host.markedFiles(account, offset, limit),
    markedDocuments: (account) => host.markedDocuments(account),
    unsupportedShares: (account) => host.unsupportedShares(account),
    prepareMarkerIndex: (account) => host.prepareMarkerIndex(account),
    visibleArchiveFile: (user, account, fileId, ids) => host.visibleArchiveFile(user, account, fileId, ids),
    accessRuleBlocks: (user, account, ids) => host.accessRuleBlocks(user, account, ids),
    accessControlEnabled: () => host.accessControlEnabled(),
    accessRules: () => host.accessRules(),
    visibleArchiveFiles: (user, account, ids) => {
      calls.visible?.push([...ids]);
      return host.visibleArchiveFiles(user, account, ids);
    },
    searchArchiveFiles: (user, account, ids) => {
      calls.visible?.push([...ids]);
      return host.searchArchiveFiles(user, account, ids);
    },
    ownedArchiveFiles: (account, ids) => {
      calls.owned?.push([...ids]);
      return host.ownedArchiveFiles(account, ids);
    },
    visibleForeignFiles: (user, account, ids) => {
      calls.foreign?.push([...ids]);
      return host.visibleForeignFiles(user, account, ids);
    },
    shareObstacles: (user, account, files) => {
      calls.obstacles?.push(files.map((f) => f.documentId));
      return host.shareObstacles(user, account, files);
    },
    trashedArchiveFiles: (account, ids) => {
      calls.trash?.push([...ids]);
      return host.trashedArchiveFiles(account, ids);
    },
    shareReach: (account, id) => host.shareReach(account, id),
    reachedMounts: (account, accounts) => host.reachedMounts(account, accounts),
    reachedAccounts: (account) => host.reachedAccounts(account),
    externalReach: (account) => host.externalReach(account),
    unreadableExternal: (account) => host.unreadableExternal(account),
    eachArchiveDocument: (account, onDocument, pace) => host.eachArchiveDocument(account, onDocument, pace),
    groupMembers: (gid) => host.groupMembers(gid),
    close: () => host.close(),
  };
  return { ctx: { ...ctx, host: async () => wrapped }, calls };
}

describe('verdicts', () => {
  test('without explain: one host query decides, every document that does not show is hidden', async () => {
    const { ctx: base } = await world.context();
    const { ctx, calls } = await counting(base);
    const report = await decideVerdicts(ctx, { user: 'bob', term: 'invoice', explain: false, limit: 50 });
    expect(report.items.length).toBe(Math.min(50, report.found));
    expect(calls.visible).toHaveLength(1);
    expect(calls.owned).toHaveLength(0);
    expect(calls.foreign).toHaveLength(0);
    // The explanation queries belong to --explain only.
    expect(calls.obstacles).toHaveLength(0);
    expect(calls.trash).toHaveLength(0);
    for (const item of report.items) {
      expect(item.verdict).toBe(expectedVerdict(item.id) === 'shown' ? 'shown' : 'hidden');
      expect(item.explanation).toBeNull();
    }
  });

  test('with explain: question 2 only for the unexplained, question 3 only for those left; all four verdicts', async () => {
    const { ctx: base } = await world.context();
    const { ctx, calls } = await counting(base);
    const report = await decideVerdicts(ctx, { user: 'bob', term: 'invoice', explain: true, limit: 50 });
    const ids = report.items.map((item) => item.id);
    expect(calls.visible).toEqual([ids]);
    const notShown = ids.filter((id) => expectedVerdict(id) !== 'shown');
    expect(calls.owned).toEqual([notShown]);
    expect(calls.foreign).toEqual([notShown.filter((id) => expectedVerdict(id) !== 'not shared')]);
    // One query each for the causes: the not-shared files, then the documents without a file.
    expect(calls.obstacles).toEqual([notShown.filter((id) => expectedVerdict(id) === 'not shared')]);
    expect(calls.trash).toEqual([notShown.filter((id) => expectedVerdict(id) === 'no file')]);
    const verdicts = new Set(report.items.map((item) => item.verdict));
    expect(verdicts).toEqual(new Set(['shown', 'not shared', 'not owned', 'no file']));
    for (const item of report.items) {
      expect(item.verdict).toBe(expectedVerdict(item.id));
      if (item.verdict === 'shown') expect(item).toMatchObject({ path: `/Archive/Doc [P${item.id}].pdf`, owner: 'archive', explanation: null });
      if (item.verdict === 'not shared') {
        expect(item).toMatchObject({ path: `/Private/Doc [P${item.id}].pdf`, owner: 'archive' });
        expect(item.explanation).toContain('share the file or a folder holding it, read-only, with bob');
      }
      if (item.verdict === 'not owned') {
        expect(item).toMatchObject({ path: `/Copy [P${item.id}].pdf`, owner: 'carol' });
        expect(item.explanation).toContain('only files of the archive account archive stand for documents');
      }
      if (item.verdict === 'no file') {
        expect(item).toMatchObject({ path: null, owner: null });
        expect(item.explanation).toContain(`[P${item.id}]`);
        expect(item.explanation).toContain('the synchronization has not written one, or names files without the marker');
      }
    }
  });

  test('the limit takes documents of the archive server in its order, across its pages', async () => {
    const { ctx } = await world.context();
    const all = await decideVerdicts(ctx, { user: 'bob', term: 'invoice', explain: false, limit: 50 });
    const first30 = await decideVerdicts(ctx, { user: 'bob', term: 'invoice', explain: false, limit: 30 });
    expect(first30.items.map((item) => item.id)).toEqual(all.items.slice(0, 30).map((item) => item.id));
    expect(first30.found).toBe(all.found);
  });

  test('an unknown user is a clear error', async () => {
    const { ctx } = await world.context();
    await expect(decideVerdicts(ctx, { user: 'nobody', term: 'invoice', explain: false, limit: 5 })).rejects.toMatchObject({ code: 'unknown_user' });
  });

  test('the first page, asked while the host is opened, is withdrawn for an unknown user: its failure is neither said nor kept', async () => {
    const { ctx, logFile } = await world.context();
    world.archive.searchBroken = true;
    try {
      await expect(decideVerdicts(ctx, { user: 'nobody', term: 'invoice', explain: false, limit: 5 })).rejects.toMatchObject({ code: 'unknown_user' });
      // Let a request that was still on its way end, as the withdrawn one does.
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(readHistory(ctx.settings)).toEqual([]);
      expect(readFileSync(logFile, 'utf8')).not.toMatch(/search|archive server/i);
      // The same fault for a known user is the archive server's failure, kept in the history.
      await expect(decideVerdicts(ctx, { user: 'bob', term: 'invoice', explain: false, limit: 5 })).rejects.toMatchObject({ code: 'http' });
      expect(readHistory(ctx.settings)).toEqual([expect.objectContaining({ code: 'http', status: 400 })]);
    } finally {
      world.archive.searchBroken = false;
    }
  });

  test('the audit log records who searched as whom, never the term', async () => {
    const { ctx, dir } = await world.context();
    await decideVerdicts(ctx, { user: 'bob', term: 'sesame-term', explain: false, limit: 5, admin: 'root-admin' });
    const audit = readFileSync(join(dir, 'audit.log'), 'utf8');
    expect(audit).toContain('"admin":"root-admin"');
    expect(audit).toContain('"user":"bob"');
    expect(audit).not.toContain('sesame-term');
  });

  test('not owned, the user\'s own file: said as theirs, not as "sees …, but it belongs to" the same user', () => {
    const file = { documentId: 25, fileId: 9, path: '/Scans/Copy of [P25].pdf', name: 'Copy of [P25].pdf', mimetype: 'application/pdf', owner: 'carol' };
    expect(explanationOf('not owned', 25, 'carol', 'archive', file)).toBe(
      "Document 25: carol has /Scans/Copy of [P25].pdf among their own files, not the archive account's: only files of the archive account archive stand for documents.",
    );
    expect(explanationOf('not owned', 25, 'alice', 'archive', file)).toBe(
      'Document 25: alice sees /Scans/Copy of [P25].pdf, but it belongs to carol: only files of the archive account archive stand for documents.',
    );
  });

  test('each verdict has its own explanation, shown and hidden none', () => {
    const lines = (['shown', 'hidden', 'not shared', 'not owned', 'no file'] as const).map((verdict) => explanationOf(verdict, 7, 'bob', 'archive', undefined));
    expect(lines.slice(0, 2)).toEqual([null, null]);
    expect(new Set(lines.slice(2)).size).toBe(3);
  });
});
