/**
 * Issue 13 through the search pipeline, the overview check and the CLI: a broken search backend
 * is a failure (history, pending, warning), a term of only exclusions gets no results and an
 * explanation, and a token that may not view correspondents still searches (names blank).
 */
import { describe, expect, test } from '@jest/globals';
import { overviewCheck } from '../src/core/diagnostics/overview-check.js';
import { readHistory } from '../src/core/diagnostics/history.js';
import { runSearch } from '../src/core/search/pipeline.js';
import { useCliWorld } from './support/cli-world.js';
import { searchRequests, TOKEN } from './support/search-world.js';
import { DEFAULT_PHRASE_MAX_EXPANSIONS } from './support/archive-emulator/search/run.js';

process.env.DUS_LOG_LEVEL = 'debug';
const cli = useCliWorld(60);

describe.each(['2.20', '3.0'] as const)('archive server %s', (version) => {
  test('a broken search backend: http failure in the history, pending raised, the overview check warns; a working search lowers it', async () => {
    const { world } = cli;
    world.archive.version = version;
    const { ctx } = await world.context();
    world.archive.searchBroken = true;
    try {
      for (let attempt = 1; attempt <= 2; attempt += 1) {
        const outcome = await runSearch(ctx, { user: 'bob', term: 'invoice' });
        expect(outcome).toMatchObject({ status: 'failed', entries: [], failure: { code: 'http', status: 400 } });
      }
      expect(readHistory(ctx.settings)).toEqual([
        expect.objectContaining({ code: 'http', status: 400 }),
        expect.objectContaining({ code: 'http', status: 400 }),
      ]);
      expect(ctx.settings.get('diagnostics_pending')).toBe(true);
      const check = await overviewCheck(ctx);
      expect(check.severity).toBe('warning');
      expect(check.messages.join('\n')).toMatch(/A search failed \(http\)/);
    } finally {
      world.archive.searchBroken = false;
    }
    expect((await runSearch(ctx, { user: 'bob', term: 'invoice' })).status).toBe('ok');
    expect(ctx.settings.get('diagnostics_pending')).toBe(false);
    expect((await overviewCheck(ctx)).severity).toBe('success');
  });

  test('#13200: only the non-superuser token fails, which is the one the product uses', async () => {
    const { world } = cli;
    world.archive.version = version;
    const { ctx } = await world.context();
    world.archive.searchBroken = 'non-superusers';
    world.archive.tokenUsers = { [TOKEN]: 5 };
    try {
      expect((await runSearch(ctx, { user: 'bob', term: 'invoice' })).failure?.code).toBe('http');
    } finally {
      world.archive.searchBroken = false;
      world.archive.tokenUsers = {};
    }
  });

  test('a term of only exclusions: no results, no problem, one request, never the documents it excludes', async () => {
    const { world } = cli;
    world.archive.version = version;
    const { ctx } = await world.context();
    world.archive.clearRequests();
    const outcome = await runSearch(ctx, { user: 'bob', term: '-invoice' });
    expect(outcome).toMatchObject({ status: 'rejected', entries: [], rejection: version === '3.0' ? 'exclusions_only' : 'minus_exclusion' });
    expect(searchRequests(world.archive)).toHaveLength(1);
    expect(world.archive.requests.some((r) => r.query.text !== undefined)).toBe(false);
    expect(readHistory(ctx.settings)).toEqual([]);
    expect(ctx.settings.get('diagnostics_pending') ?? false).toBe(false);
  });

  test('a token that may view documents but not correspondents or types: the search works, names stay blank', async () => {
    const { world } = cli;
    world.archive.version = version;
    const { ctx } = await world.context();
    world.archive.tokenPermissions = { [TOKEN]: ['documents'] };
    try {
      const outcome = await runSearch(ctx, { user: 'bob', term: 'invoice', limit: 10 });
      expect(outcome.status).toBe('ok');
      expect(outcome.entries.length).toBeGreaterThan(0);
      expect(outcome.entries.every((entry) => entry.correspondent === null && entry.documentType === null)).toBe(true);
      expect(world.archive.requests.filter((r) => r.path.endsWith('/api/correspondents/')).length).toBeGreaterThan(0);
      expect(readHistory(ctx.settings)).toEqual([]);
    } finally {
      world.archive.tokenPermissions = {};
    }
  });
});

describe('3.0 with a large archive: a term of several words whose phrase Paperless refuses (paperless-ngx#13673)', () => {
  test('search lists the documents holding every word, exit 0, no history entry, nothing pending; the provider finds them too', async () => {
    const { world } = cli;
    world.archive.version = '3.0';
    // Stands for an archive whose index terms outnumber tantivy's 16 384 expansions.
    world.archive.phraseMaxExpansions = 1;
    try {
      const { ctx } = await world.context();
      const both = world.archive.documents.filter((d) => /\bcard\b/i.test(`${d.title} ${d.content}`) && /payment/i.test(`${d.title} ${d.content}`));
      expect(both.length).toBeGreaterThan(0);
      world.archive.clearRequests();
      const result = await cli.run(['search', 'bob', '--json', '--', 'Card: payment']);
      expect(result).toMatchObject({ code: 0, err: '' });
      const items = JSON.parse(result.out) as Array<{ id: number }>;
      expect(items.map((item) => item.id).sort((a, b) => a - b)).toEqual(both.map((d) => d.id).sort((a, b) => a - b));
      // The phrase failed as 3.0.5's does; then one request per word and the page.
      const asked = world.archive.requests.filter((r) => r.path.endsWith('/api/documents/') && (r.query.query ?? r.query.text) !== undefined);
      expect(asked.map((r) => r.query.text ?? r.query.query)).toEqual(['Card: payment', 'Card payment', 'Card', 'payment', 'payment']);
      const history = await cli.run(['config:app:get', 'docs_unified_search', 'diagnostics']);
      expect(history.out).toBe('');
      const outcome = await runSearch(ctx, { user: 'bob', term: 'Card: payment' });
      expect(outcome.status).toBe('ok');
      expect(readHistory(ctx.settings)).toEqual([]);
      expect(ctx.settings.get('diagnostics_pending') ?? false).toBe(false);
    } finally {
      world.archive.phraseMaxExpansions = DEFAULT_PHRASE_MAX_EXPANSIONS;
      world.archive.version = '2.20';
    }
  });
});

describe('3.0 with a large archive whose word answers carry no `all` list', () => {
  test('no results and the term line, exit 0, no history entry', async () => {
    const { world } = cli;
    world.archive.version = '3.0';
    world.archive.phraseMaxExpansions = 1;
    const noAll = JSON.stringify({ count: 3, next: null, previous: null, results: [{ id: 1, __search_hit__: {} }], corrected_query: null });
    // The term and its phrase are answered as 3.0.5 answers them; the first word without `all`.
    world.archive.faults = [
      { match: '/api/documents/', times: 2, headers: {} },
      {
        match: '/api/documents/',
        times: 1,
        status: 200,
        body: noAll,
        contentType: 'application/json',
        headers: { 'X-Api-Version': '10', 'X-Version': '3.0.5' },
      },
    ];
    try {
      const result = await cli.run(['search', 'bob', '--', 'Card: payment']);
      expect(result).toEqual({
        code: 0,
        out: 'The archive server (Paperless-ngx 3.0) could not search these words together in an archive this large, and did not list the documents of each word alone: no documents. Search for fewer or longer words; Paperless-ngx 3.1 and later search every word.\n',
        err: '',
      });
      expect((await cli.run(['config:app:get', 'docs_unified_search', 'diagnostics'])).out).toBe('');
    } finally {
      world.archive.faults = [];
      world.archive.phraseMaxExpansions = DEFAULT_PHRASE_MAX_EXPANSIONS;
      world.archive.version = '2.20';
    }
  });
});

describe('the CLI says why a term of only exclusions lists nothing', () => {
  const onlyExclusions =
    'The archive server (Paperless-ngx 3.0 or 3.1) does not accept a query of only exclusions (such as -invoice or NOT invoice): no documents. Add a word to look for.';
  const minusWord =
    'The archive server (Paperless-ngx 2, or 3.2 and later) reads -word as the word itself, the opposite of an exclusion: no documents. Write NOT word instead.';
  test.each([
    ['3.0', 'NOT invoice', onlyExclusions],
    ['3.0', '-invoice', onlyExclusions],
    ['3.1', '-invoice', onlyExclusions],
    ['2.20', '-invoice', minusWord],
    ['2.20', 'invoice -bank', minusWord],
    ['3.2', '-invoice', minusWord],
    ['3.2', 'invoice -bank', minusWord],
  ] as const)('%s %j', async (version, term, line) => {
    cli.world.archive.version = version;
    const result = await cli.run(['search', 'bob', '--', term]);
    expect(result.code).toBe(0);
    expect(result.out).toBe(`${line}\n`);
  });

  test.each(['2.20', '3.2'] as const)('%s NOT invoice is a real exclusion there: documents without the word are listed', async (version) => {
    cli.world.archive.version = version;
    const result = await cli.run(['search', 'bob', 'NOT invoice', '--json']);
    expect(result.code).toBe(0);
    const items = JSON.parse(result.out) as Array<{ title: string }>;
    expect(items.length).toBeGreaterThan(0);
  });
});

describe('a term the archive server refuses with a message of its own (SearchQueryError)', () => {
  const badDate = "Invalid date value '2024-13-45' for field 'created'.";
  const bracket =
    "'200[1-9]' looks like a bracket range for field 'title', but '[' is not a wildcard character on its own. Combine it with a wildcard, e.g. a trailing '*', or double-quote the value to search it as literal text.";

  test.each([
    ['3.0', 'created:2024-13-45', badDate],
    ['3.1', 'created:2024-13-45', badDate],
    ['3.2', 'created:2024-13-45', badDate],
    ['3.2', 'title:200[1-9]', bracket],
  ] as const)('%s %j: the same clear line with its message, exit 0 (the archive server answered), no history entry', async (version, term, message) => {
    cli.world.archive.version = version;
    cli.world.archive.clearRequests();
    const result = await cli.run(['search', 'bob', '--', term]);
    expect(result).toEqual({ code: 0, out: `The archive server refused the search term (HTTP 400): ${message} Correct the term and search again.\n`, err: '' });
    // Paperless's message is the answer: no text repeat, one request.
    expect(searchRequests(cli.world.archive)).toHaveLength(1);
    // A rejected query is not a problem (the spec's debug-only rejection): the history stays empty.
    const history = await cli.run(['config:app:get', 'docs_unified_search', 'diagnostics']);
    expect(history.out).toBe('');
  });

  test('2.20 does not refuse a bad date: Whoosh matches nothing, exit 0', async () => {
    cli.world.archive.version = '2.20';
    const result = await cli.run(['search', 'bob', 'created:2024-13-45', '--json']);
    expect(result).toEqual({ code: 0, out: '[]\n', err: '' });
  });

  test.each(['3.0', '3.1', '3.2'] as const)(
    '%s: in the search provider it is a term still being typed: no results, no problem, no history',
    async (version) => {
      const { world } = cli;
      world.archive.version = version;
      const { ctx } = await world.context();
      const outcome = await runSearch(ctx, { user: 'bob', term: 'created:2024-1' });
      expect(outcome).toMatchObject({ status: 'rejected', entries: [], rejection: 'refused' });
      expect(readHistory(ctx.settings)).toEqual([]);
      expect(ctx.settings.get('diagnostics_pending') ?? false).toBe(false);
    },
  );
});
