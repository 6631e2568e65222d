import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import fc from 'fast-check';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MemoryCache } from '../src/core/cache/memory-cache.js';
import type { ServiceContext } from '../src/core/context-types.js';
import { readHistory } from '../src/core/diagnostics/history.js';
import { openHost } from '../src/core/host/open-host.js';
import type { HostAdapter } from '../src/core/host/types.js';
import { runSearch } from '../src/core/search/pipeline.js';
import type { EmulatorDocument } from './support/archive-emulator/index.js';
import { buildSearchWorld, expectedVerdict, searchRequests, TOKEN, type SearchWorld } from './support/search-world.js';

process.env.DUS_LOG_LEVEL = 'debug';
let world: SearchWorld;

beforeAll(async () => {
  world = await buildSearchWorld(60);
});

afterAll(async () => {
  await world.close();
});

/** The archive server's own order of hits for a term, all pages. */
async function archiveOrder(ctx: ServiceContext, term: string, filter: { since?: string; until?: string } = {}): Promise<number[]> {
  const client = ctx.archiveClient();
  if (client === null) throw new Error('not configured');
  const ids: number[] = [];
  for (let page = 1; ; page += 1) {
    const answer = await client.search({ term, page, ...filter });
    ids.push(...answer.hits.map((hit) => hit.id));
    if (!answer.hasMore) return ids;
  }
}

function logOf(file: string): string {
  return existsSync(file) ? readFileSync(file, 'utf8') : '';
}

describe('when the archive server is not asked', () => {
  test('no term: no results and no request', async () => {
    const { ctx } = await world.context();
    world.archive.clearRequests();
    const outcome = await runSearch(ctx, { user: 'bob', term: '   ' });
    expect(outcome).toMatchObject({ status: 'idle', entries: [], cursor: null });
    expect(world.archive.requests).toHaveLength(0);
  });

  test('no connection: no results and no request', async () => {
    const { ctx } = await world.context({ configure: false });
    world.archive.clearRequests();
    const outcome = await runSearch(ctx, { user: 'bob', term: 'invoice' });
    expect(outcome).toMatchObject({ status: 'idle', entries: [] });
    expect(world.archive.requests).toHaveLength(0);
  });

  test('no archive account: no results and no request', async () => {
    const { ctx } = await world.context();
    ctx.settings.update({ archive_owner: 'nobody-here' });
    world.archive.clearRequests();
    const outcome = await runSearch(ctx, { user: 'bob', term: 'invoice' });
    expect(outcome).toMatchObject({ status: 'idle', entries: [] });
    expect(world.archive.requests).toHaveLength(0);
  });
});

describe('entries', () => {
  test('only documents with a file the user sees, each with its file, link, preview, names, excerpt and date in the user language', async () => {
    const { ctx } = await world.context();
    const order = await archiveOrder(ctx, 'invoice');
    const outcome = await runSearch(ctx, { user: 'bob', term: 'invoice', limit: 50 });
    expect(outcome.status).toBe('ok');
    expect(outcome.found).toBe(order.length);
    const shownIds = order.filter((id) => expectedVerdict(id) === 'shown');
    expect(outcome.entries.map((entry) => entry.documentId)).toEqual(shownIds.slice(0, 50));
    const first = outcome.entries[0];
    if (first === undefined) throw new Error('no entry');
    const document = world.archive.documents.find((d) => d.id === first.documentId) as EmulatorDocument;
    expect(first.path).toBe(`/Archive/Doc [P${first.documentId}].pdf`);
    expect(first.link).toBe(`https://cloud.example.com/f/${first.fileId}`);
    expect(first.previewUrl).toBe(`https://cloud.example.com/core/preview?fileId=${first.fileId}&x=64&y=64&mimeFallback=1`);
    expect(first.iconUrl).toBe('https://cloud.example.com/core/mimeicon?mime=application%2Fpdf');
    expect(first.title).toBe(document.title);
    expect(first.created).toBe(document.created);
    const expectedDate = new Intl.DateTimeFormat('de', { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(`${document.created}T00:00:00Z`));
    expect(first.date).toBe(expectedDate);
    const correspondent = world.archive.correspondents.find((c) => c.id === document.correspondent)?.name ?? null;
    expect(first.correspondent).toBe(correspondent);
    for (const entry of outcome.entries) {
      expect(entry.excerpt.toLowerCase()).toContain('invoice');
      expect(entry.excerpt).not.toMatch(/<\/?(span|b)\b|&amp;|&lt;|&gt;/);
    }
    // Entities are decoded: a document whose content has "&" or "<" shows them as text.
    const withMarkupChars = outcome.entries.find((entry) => /[&<>]/.test(entry.excerpt));
    expect(withMarkupChars).toBeDefined();
  });
});

describe('archive server 3', () => {
  test('Tantivy highlights become plain excerpts too', async () => {
    const { ctx } = await world.context();
    world.archive.version = '3.0';
    try {
      const outcome = await runSearch(ctx, { user: 'bob', term: 'invoice', limit: 10 });
      expect(outcome.status).toBe('ok');
      expect(outcome.entries.length).toBe(10);
      for (const entry of outcome.entries) expect(entry.excerpt).not.toMatch(/<\/?b>|&quot;|&#39;|&amp;/);
      expect(outcome.entries.some((entry) => entry.excerpt.toLowerCase().includes('invoice'))).toBe(true);
    } finally {
      world.archive.version = '2.20';
    }
  });
});

describe('cursor', () => {
  test.each([1, 3, 7])('pages of %i continue exactly: all hits across calls are the filtered archive order', async (limit) => {
    const { ctx } = await world.context();
    const expected = (await archiveOrder(ctx, 'invoice')).filter((id) => expectedVerdict(id) === 'shown');
    const collected: number[] = [];
    let cursor: string | null = null;
    for (let call = 0; call < 100; call += 1) {
      world.archive.clearRequests();
      const outcome = await runSearch(ctx, { user: 'bob', term: 'invoice', limit, cursor });
      expect(outcome.entries.length).toBeLessThanOrEqual(limit);
      expect(searchRequests(world.archive).length).toBeLessThanOrEqual(4);
      collected.push(...outcome.entries.map((entry) => entry.documentId));
      cursor = outcome.cursor;
      if (cursor === null) break;
    }
    expect(cursor).toBeNull();
    expect(collected).toEqual(expected);
  });

  test('any sequence of limits: no hit lost, none repeated, archive order kept (property)', async () => {
    const { ctx } = await world.context();
    const expected = (await archiveOrder(ctx, 'invoice')).filter((id) => expectedVerdict(id) === 'shown');
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 1, max: 50 }), { minLength: 1, maxLength: 6 }), async (limits) => {
        const collected: number[] = [];
        let cursor: string | null = null;
        for (let call = 0; call < 200; call += 1) {
          const limit = limits[call % limits.length] ?? 1;
          const outcome = await runSearch(ctx, { user: 'bob', term: 'invoice', limit, cursor });
          expect(outcome.entries.length).toBeLessThanOrEqual(limit);
          collected.push(...outcome.entries.map((entry) => entry.documentId));
          cursor = outcome.cursor;
          if (cursor === null) break;
        }
        expect(collected).toEqual(expected);
      }),
      { numRuns: 12 },
    );
  });

  test('the cursor is the absolute offset and the page asked for contains it', async () => {
    const { ctx } = await world.context();
    world.archive.clearRequests();
    await runSearch(ctx, { user: 'bob', term: 'invoice', limit: 1, cursor: '26' });
    expect(searchRequests(world.archive)[0]?.query.page).toBe('2');
  });

  test('a malformed cursor is a usage error', async () => {
    const { ctx } = await world.context();
    await expect(runSearch(ctx, { user: 'bob', term: 'invoice', cursor: 'abc' })).rejects.toMatchObject({ code: 'usage' });
  });
});

describe('bounds', () => {
  const receipts = (): EmulatorDocument[] =>
    Array.from({ length: 130 }, (_, index) => ({
      id: 1000 + index,
      title: `Receipt ${index}`,
      content: 'a receipt without any file',
      created: '2024-01-02',
      added: '2024-01-02T10:00:00Z',
      correspondent: null,
      documentType: null,
    }));

  async function withReceipts(work: () => Promise<void>): Promise<void> {
    const saved = world.archive.documents;
    world.archive.documents = receipts();
    try {
      await work();
    } finally {
      world.archive.documents = saved;
      world.archive.latencyMs = 0;
    }
  }

  test('at most 4 archive pages per call, and the cursor resumes after them', async () => {
    const { ctx } = await world.context();
    await withReceipts(async () => {
      world.archive.clearRequests();
      const outcome = await runSearch(ctx, { user: 'bob', term: 'receipt', limit: 5 });
      expect(searchRequests(world.archive).map((request) => request.query.page)).toEqual(['1', '2', '3', '4']);
      expect(outcome).toMatchObject({ status: 'ok', entries: [], cursor: '100', pages: 4, found: 130 });
      const rest = await runSearch(ctx, { user: 'bob', term: 'receipt', limit: 5, cursor: outcome.cursor });
      expect(rest).toMatchObject({ status: 'ok', entries: [], cursor: null, pages: 2 });
    });
  });

  test('the time budget ends the call; the cursor resumes where it stopped', async () => {
    const { ctx } = await world.context();
    await withReceipts(async () => {
      world.archive.latencyMs = 120;
      world.archive.clearRequests();
      const outcome = await runSearch(ctx, { user: 'bob', term: 'receipt', limit: 5, budgetMs: 300 });
      expect(outcome.status).toBe('ok');
      expect(outcome.pages).toBeLessThan(4);
      expect(outcome.pages).toBeGreaterThanOrEqual(1);
      expect(outcome.cursor).toBe(String(outcome.pages * 25));
    });
  });

  test('with an injected clock past the budget after the first page, one page only', async () => {
    const { ctx } = await world.context();
    await withReceipts(async () => {
      world.archive.clearRequests();
      const now = (): number => (searchRequests(world.archive).length > 0 ? 5_000 : 0);
      const outcome = await runSearch(ctx, { user: 'bob', term: 'receipt', limit: 5, now });
      expect(searchRequests(world.archive)).toHaveLength(1);
      expect(outcome.cursor).toBe('25');
    });
  });

  test.each([
    [2_999, ['1', '2', '3', '4']],
    [3_000, ['1']],
  ])('the budget is 3 seconds: %i ms after the start, the pages asked are %j', async (elapsed, asked) => {
    const { ctx } = await world.context();
    await withReceipts(async () => {
      world.archive.clearRequests();
      // From the first page on the clock reads `elapsed`: the budget alone decides whether another page is asked.
      const now = (): number => (searchRequests(world.archive).length > 0 ? elapsed : 0);
      await runSearch(ctx, { user: 'bob', term: 'receipt', limit: 5, now });
      expect(searchRequests(world.archive).map((request) => request.query.page)).toEqual(asked);
    });
  });

  test('no page within the budget: a failure, not an endless cursor', async () => {
    const { ctx } = await world.context();
    await withReceipts(async () => {
      world.archive.latencyMs = 400;
      const outcome = await runSearch(ctx, { user: 'bob', term: 'receipt', limit: 5, budgetMs: 100 });
      expect(outcome.status).toBe('failed');
      expect(outcome.entries).toEqual([]);
      expect(readHistory(ctx.settings)).toHaveLength(1);
    });
  });
});

describe('requests', () => {
  test('the date filter goes out as created__date__gte and the exclusive upper bound', async () => {
    const { ctx } = await world.context();
    world.archive.clearRequests();
    const outcome = await runSearch(ctx, { user: 'bob', term: 'invoice', since: '2020-01-01', until: '2021-12-31', limit: 50 });
    const request = searchRequests(world.archive)[0];
    expect(request?.query.created__date__gte).toBe('2020-01-01');
    expect(request?.query.created__date__lt).toBe('2022-01-01');
    expect(request?.query.fields).toBe('id,title,created,correspondent,document_type,__search_hit__');
    expect(request?.query.page_size).toBe('25');
    expect(outcome.entries.length).toBeGreaterThan(0);
    for (const entry of outcome.entries) {
      expect(entry.created !== null && entry.created >= '2020-01-01' && entry.created <= '2021-12-31').toBe(true);
    }
  });

  test('names: one request per kind per page when cold, none when cached', async () => {
    const cache = new MemoryCache();
    const { ctx } = await world.context({ cache });
    world.archive.clearRequests();
    await runSearch(ctx, { user: 'bob', term: 'invoice', limit: 5 });
    const kinds = (): string[] => world.archive.requests.filter((r) => !r.path.endsWith('/api/documents/')).map((r) => r.path.replace(/.*\/api\//, ''));
    expect(kinds().sort()).toEqual(['correspondents/', 'document_types/']);
    world.archive.clearRequests();
    await runSearch(ctx, { user: 'bob', term: 'invoice', limit: 5 });
    expect(kinds()).toEqual([]);
    expect(searchRequests(world.archive)).toHaveLength(1);
  });

  test('names: kept 10 minutes, asked again after them', async () => {
    let time = 1_000_000;
    const cache = new MemoryCache({ now: () => time });
    const { ctx } = await world.context({ cache });
    const nameRequests = (): number => world.archive.requests.filter((r) => !r.path.endsWith('/api/documents/')).length;
    world.archive.clearRequests();
    await runSearch(ctx, { user: 'bob', term: 'invoice', limit: 5 });
    expect(nameRequests()).toBe(2);
    world.archive.clearRequests();
    time += 9 * 60_000 + 59_000;
    const reused = await runSearch(ctx, { user: 'bob', term: 'invoice', limit: 5 });
    expect(nameRequests()).toBe(0);
    // The names were really shown from the cache, not left blank.
    expect(reused.entries.some((entry) => entry.correspondent !== null)).toBe(true);
    time += 2_000;
    await runSearch(ctx, { user: 'bob', term: 'invoice', limit: 5 });
    expect(nameRequests()).toBe(2);
  });
});

describe('failures', () => {
  test('a query the archive server rejects: no results, a debug line, no history', async () => {
    const { ctx, logFile } = await world.context();
    world.archive.faults = [
      {
        match: '/api/documents/',
        status: 400,
        body: 'Error listing search results, check logs for more detail.',
        contentType: 'text/html; charset=utf-8',
        times: 2,
      },
    ];
    try {
      const outcome = await runSearch(ctx, { user: 'bob', term: 'inv"' });
      expect(outcome).toMatchObject({ status: 'rejected', entries: [], cursor: null });
      ctx.logger.flush();
      expect(logOf(logFile)).toContain('The archive server rejected the query of a search with HTTP status 400');
      expect(readHistory(ctx.settings)).toEqual([]);
      expect(ctx.settings.get('diagnostics_pending')).not.toBe(true);
    } finally {
      world.archive.faults = [];
    }
  });

  test('a page past the last: no results, not a problem', async () => {
    const { ctx } = await world.context();
    const outcome = await runSearch(ctx, { user: 'bob', term: 'invoice', cursor: 1000 });
    expect(outcome).toMatchObject({ status: 'rejected', entries: [], cursor: null });
    expect(readHistory(ctx.settings)).toEqual([]);
  });

  test('a failing archive server: warning, history entry, pending raised; a search that works lowers it', async () => {
    const { ctx, logFile } = await world.context();
    world.archive.faults = [{ match: '/api/documents/', status: 502 }];
    try {
      const outcome = await runSearch(ctx, { user: 'bob', term: 'invoice' });
      expect(outcome).toMatchObject({ status: 'failed', entries: [], cursor: null, failure: { code: 'http' } });
    } finally {
      world.archive.faults = [];
    }
    ctx.logger.flush();
    expect(logOf(logFile)).toContain('Unified search failed (http)');
    expect(readHistory(ctx.settings)).toEqual([expect.objectContaining({ code: 'http', status: 502 })]);
    expect(ctx.settings.get('diagnostics_pending')).toBe(true);
    const again = await runSearch(ctx, { user: 'bob', term: 'invoice' });
    expect(again.status).toBe('ok');
    expect(ctx.settings.get('diagnostics_pending')).toBe(false);
    expect(readHistory(ctx.settings)).toHaveLength(1);
  });

  test('a failure recorded while a search runs stays pending after that search works; the next search that works lowers it', async () => {
    const { ctx } = await world.context();
    await runSearch(ctx, { user: 'bob', term: 'invoice' });
    expect(ctx.settings.get('diagnostics_pending')).not.toBe(true);
    world.archive.latencyMs = 150;
    world.archive.clearRequests();
    try {
      const running = runSearch(ctx, { user: 'bob', term: 'invoice' });
      // Another search (another process, say) fails while this one waits for its answer: once
      // its request has reached the archive server, not after a fixed delay a slow start outruns.
      while (searchRequests(world.archive).length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
      ctx.settings.update({ diagnostics_pending: true });
      expect((await running).status).toBe('ok');
      expect(ctx.settings.get('diagnostics_pending')).toBe(true);
    } finally {
      world.archive.latencyMs = 0;
    }
    expect((await runSearch(ctx, { user: 'bob', term: 'invoice' })).status).toBe('ok');
    expect(ctx.settings.get('diagnostics_pending')).toBe(false);
  });

  test('the history never holds the term, the token or a URL query; nor do the log and the settings', async () => {
    const { ctx, dir, logFile } = await world.context();
    const term = 'zebrapassword https://leak.example/find?secret=qwerty123';
    world.archive.faults = [{ match: '/api/documents/', redirectTo: 'http://203.0.113.9/elsewhere?token=qwerty456' }];
    try {
      const outcome = await runSearch(ctx, { user: 'bob', term });
      expect(outcome.status).toBe('failed');
    } finally {
      world.archive.faults = [];
    }
    ctx.logger.flush();
    const stored = [readFileSync(join(dir, 'settings.json'), 'utf8'), logOf(logFile), JSON.stringify(readHistory(ctx.settings))].join('\n');
    expect(readHistory(ctx.settings)).toHaveLength(1);
    for (const secret of ['zebrapassword', 'qwerty123', 'qwerty456', '?secret', '?token', TOKEN]) expect(stored).not.toContain(secret);
  });

  test('unreadable settings: a failed outcome, not an exception', async () => {
    const { ctx, dir } = await world.context();
    writeFileSync(join(dir, 'settings.json'), '{ not json');
    const outcome = await runSearch(ctx, { user: 'bob', term: 'invoice' });
    expect(outcome).toMatchObject({ status: 'failed', entries: [], failure: { code: 'internal' } });
  });

  test('results whose file lookup fails are left out with a warning', async () => {
    const { ctx, logFile } = await world.context();
    const broken: HostAdapter = await ctx.host();
    const failing: ServiceContext = {
      ...ctx,
      host: async () => ({
        ...broken,
        hostUrl: broken.hostUrl,
        batched: broken.batched,
        findAccount: (uid: string) => broken.findAccount(uid),
        syncAccount: () => broken.syncAccount(),
        visibleArchiveFiles: () => Promise.reject(new Error('database went away')),
        searchArchiveFiles: () => Promise.reject(new Error('database went away')),
      }),
      archiveAccount: () => ctx.archiveAccount(),
    };
    const outcome = await runSearch(failing, { user: 'bob', term: 'invoice', limit: 5 });
    expect(outcome.status).toBe('ok');
    expect(outcome.entries).toEqual([]);
    expect(outcome.leftOut).toBeGreaterThan(0);
    ctx.logger.flush();
    expect(logOf(logFile)).toMatch(/Unified search left out \d+ result\(s\) it could not show \(internal\)/);
  });

  test('an unknown file-cache query form: same results, one warning', async () => {
    const { ctx, logFile } = await world.context();
    const expected = (await runSearch(ctx, { user: 'bob', term: 'invoice', limit: 8 })).entries.map((entry) => entry.documentId);
    const fallbackHost = await openHost({ dbUrl: world.host.dbUrl }, { logger: ctx.logger, breakBatchedQuery: true });
    try {
      const fallback: ServiceContext = { ...ctx, host: async () => fallbackHost };
      const outcome = await runSearch(fallback, { user: 'bob', term: 'invoice', limit: 8 });
      expect(outcome.entries.map((entry) => entry.documentId)).toEqual(expected);
      expect(fallbackHost.batched).toBe(false);
      ctx.logger.flush();
      const warnings = logOf(logFile)
        .split('\n')
        .filter((line) => line.includes('Unified search looks for the files of each document on its own'));
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toContain('"level":40');
    } finally {
      await fallbackHost.close();
    }
  });
});
