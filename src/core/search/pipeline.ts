import type { ArchiveClient, NameKind, SearchHit, SearchPage, SearchRejection } from '../archive/types.js';
import type { ServiceContext } from '../context-types.js';
import { DusError, isDusError } from '../errors.js';
import type { HostAdapter, ResolvedArchiveAccount, VisibleFile } from '../host/types.js';
import type { AppConfig } from '../settings/types.js';
import { LOG_MESSAGES } from '../log.js';
import { excerptOf } from './excerpt.js';
import { fileLink, formatDay, previewUrl, typeIconUrl } from './entry-format.js';
import { failureOf, reportSearchFailure, reportSearchWorked, type SearchFailure } from './failure.js';
import { checkedTerm, clampLimit, dayOf, parseCursor } from './inputs.js';
import { namesOf } from './names.js';
import { ARCHIVE_PAGE_SIZE } from './limits.js';

/** The spec's bounds per provider call. */
export { ARCHIVE_PAGE_SIZE };
export const MAX_ARCHIVE_PAGES = 4;
export const SEARCH_BUDGET_MS = 3_000;

export interface SearchInput {
  readonly user: string;
  readonly term: string;
  /** Absolute offset of the next hit, as returned by the previous call. */
  readonly cursor?: string | number | null;
  /** Default 5, clamped to 1…50. */
  readonly limit?: number;
  /** Inclusive day (or moment, or Unix time) of the date filter. */
  readonly since?: string;
  readonly until?: string;
  readonly signal?: AbortSignal;
  /** Clock for the time budget (tests only). */
  readonly now?: () => number;
  /** Time budget; the spec's 3 seconds unless a test shortens it. */
  readonly budgetMs?: number;
}

/** One result: everything the provider's entry shows, nothing of the document's content beyond the excerpt. */
export interface SearchEntry {
  readonly documentId: number;
  readonly fileId: number;
  readonly path: string;
  readonly title: string;
  /** The archive server's `created` day, `YYYY-MM-DD`. */
  readonly created: string | null;
  /** `created` written in the user's language. */
  readonly date: string | null;
  readonly correspondent: string | null;
  readonly documentType: string | null;
  readonly excerpt: string;
  readonly link: string;
  readonly previewUrl: string;
  readonly iconUrl: string;
  readonly mimetype: string;
}

/**
 * `idle`: nothing asked (no term, no archive account, no connection); `ok`: the archive server
 * answered; `rejected`: it rejected the query (being typed, or past the last page), not a problem;
 * `failed`: a failure that is logged and in the history.
 */
export type SearchStatus = 'idle' | 'ok' | 'rejected' | 'failed';

export interface SearchOutcome {
  readonly status: SearchStatus;
  readonly entries: readonly SearchEntry[];
  /** Offset of the first hit not gone through; null when none is left. */
  readonly cursor: string | null;
  /** Hits the archive server reports for the term (0 when it was not asked). */
  readonly found: number;
  /** Archive pages requested by this call. */
  readonly pages: number;
  /** Results left out because their file lookup failed. */
  readonly leftOut: number;
  readonly failure?: SearchFailure;
  /** With status `rejected`: why (`exclusions_only`: a term that only excludes, which the archive server does not accept). */
  readonly rejection?: SearchRejection;
}

const NOTHING: SearchOutcome = { status: 'idle', entries: [], cursor: null, found: 0, pages: 0, leftOut: 0 };

interface Located {
  readonly hit: SearchHit;
  readonly file: VisibleFile;
}

/**
 * The search provider's main job (spec "Search behaviour"). Never throws for a failing archive
 * server or host: both the HTTP provider and the CLI get an outcome and show no results on
 * `failed`. It throws a `usage` DusError only for a malformed cursor or date filter.
 */
export async function runSearch(ctx: ServiceContext, input: SearchInput): Promise<SearchOutcome> {
  const term = checkedTerm(input.term);
  const offset = parseCursor(input.cursor);
  const limit = clampLimit(input.limit);
  const since = dayOf(input.since, 'since');
  const until = dayOf(input.until, 'until');
  if (term === '') return NOTHING;
  // The settings are read once per search (a change is seen by the next one): connection, archive account, recovery.
  let stored: AppConfig;
  let connection: ReturnType<ServiceContext['archiveConnection']>;
  try {
    stored = ctx.settings.read();
    connection = ctx.archiveConnection(stored);
  } catch (error: unknown) {
    // Unreadable settings: no results like any other failure, never an exception to the caller.
    return { ...NOTHING, status: 'failed', failure: reportSearchFailure(ctx, error, [input.term]) };
  }
  if (connection === null) return NOTHING;

  const secrets = [input.term, connection.token];
  let host: HostAdapter;
  let archiveAccount: ResolvedArchiveAccount | null;
  let client: ArchiveClient | null;
  try {
    host = await ctx.host();
    // Kept per context: a warm search asks the host nothing before the archive server (docs/search.md).
    archiveAccount = await ctx.searchArchiveAccount(stored);
    client = ctx.archiveClient(connection);
  } catch (error: unknown) {
    return { ...NOTHING, status: 'failed', failure: reportSearchFailure(ctx, error, secrets) };
  }
  if (archiveAccount === null || client === null) return NOTHING;
  // The user's language (for the dates of the entries) comes with question 1's answer.
  let language: string | null = null;

  const now = input.now ?? Date.now;
  const budgetMs = input.budgetMs ?? SEARCH_BUDGET_MS;
  const started = now();
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(new DusError('timeout', 'The search ran out of its time.')), budgetMs);
  const signal = input.signal === undefined ? deadline.signal : AbortSignal.any([input.signal, deadline.signal]);

  const entries: SearchEntry[] = [];
  let next = offset;
  let found = 0;
  let pages = 0;
  let leftOut = 0;
  let more = true;
  try {
    while (entries.length < limit && more && pages < MAX_ARCHIVE_PAGES && now() - started < budgetMs) {
      const pageNumber = Math.floor(next / ARCHIVE_PAGE_SIZE) + 1;
      let page: SearchPage;
      try {
        page = await client.search({ term, page: pageNumber, signal, ...(since === undefined ? {} : { since }), ...(until === undefined ? {} : { until }) });
      } catch (error: unknown) {
        // The budget ending after some pages is the spec's bound, not a failure: the cursor resumes.
        if (deadline.signal.aborted && pages > 0) break;
        if (input.signal?.aborted === true) return { ...NOTHING, status: 'ok', cursor: String(offset) };
        return { ...NOTHING, status: 'failed', pages: pages + 1, failure: reportSearchFailure(ctx, error, secrets) };
      }
      pages += 1;
      if (page.rejectedStatus !== null && page.rejectedStatus !== undefined) {
        // Rejected past the last page ends the list; rejected while typing gives no results.
        if (pages === 1 && entries.length === 0) return { ...NOTHING, status: 'rejected', pages, rejection: page.rejection ?? 'query' };
        more = false;
        break;
      }
      found = page.count;
      const pageStart = (pageNumber - 1) * ARCHIVE_PAGE_SIZE;
      const hits = page.hits.slice(next - pageStart);
      if (hits.length === 0) {
        more = false;
        break;
      }
      const located = await locate(ctx, host, input.user, archiveAccount, hits);
      leftOut += located === null ? hits.length : 0;
      if (located !== null) ({ archiveAccount, language } = located);
      const byId = located?.files ?? new Map<number, VisibleFile>();
      const taken: Located[] = [];
      let index = 0;
      for (; index < hits.length && entries.length + taken.length < limit; index += 1) {
        const hit = hits[index];
        if (hit === undefined) continue;
        const file = byId.get(hit.id);
        if (file !== undefined) taken.push({ hit, file });
      }
      next += index;
      entries.push(...(await toEntries(ctx, client, connection.url, host.hostUrl, language, taken, signal)));
      more = next < pageStart + page.hits.length || page.hasMore;
    }
  } finally {
    clearTimeout(timer);
  }
  reportSearchWorked(ctx, stored);
  return { status: 'ok', entries, cursor: more ? String(next) : null, found, pages, leftOut };
}

interface PageFiles {
  readonly files: ReadonlyMap<number, VisibleFile>;
  readonly language: string | null;
  /** The archive account the page was judged for (another one when the kept one was stale). */
  readonly archiveAccount: ResolvedArchiveAccount;
}

/**
 * One host lookup for a page; a failure leaves the page's results out (spec Errors rule 2).
 * When the sync add-on names another archive account than the kept one, the page is asked
 * again for the account named now (no archive account any more: nothing shows).
 */
async function locate(
  ctx: ServiceContext,
  host: HostAdapter,
  user: string,
  archiveAccount: ResolvedArchiveAccount,
  hits: readonly SearchHit[],
): Promise<PageFiles | null> {
  const ids = hits.map((hit) => hit.id);
  try {
    const first = await host.searchArchiveFiles(user, archiveAccount, ids);
    if (!first.archiveChanged) return { files: first.files, language: first.language, archiveAccount };
    ctx.forgetArchiveAccount();
    const now = await ctx.searchArchiveAccount();
    if (now === null) return { files: new Map(), language: first.language, archiveAccount };
    const again = await host.searchArchiveFiles(user, now, ids);
    return { files: again.archiveChanged ? new Map() : again.files, language: again.language, archiveAccount: now };
  } catch (error: unknown) {
    ctx.logger.warn(LOG_MESSAGES.resultsLeftOut(hits.length, isDusError(error) ? error.code : 'internal'));
    return null;
  }
}

/** Names the cache lacks, one request per kind, both kinds at once; names are decoration, so a failure leaves them blank. */
async function toEntries(
  ctx: ServiceContext,
  client: ArchiveClient,
  archiveUrl: string,
  hostUrl: string | null,
  language: string | null,
  taken: readonly Located[],
  signal: AbortSignal,
): Promise<SearchEntry[]> {
  if (taken.length === 0) return [];
  const ids = (pick: (hit: SearchHit) => number | null): number[] => taken.map(({ hit }) => pick(hit)).filter((id): id is number => id !== null);
  const wanted = new Map<NameKind, number[]>([
    ['correspondents', ids((hit) => hit.correspondent)],
    ['document_types', ids((hit) => hit.documentType)],
  ]);
  const names = await namesOf(ctx.cache, archiveUrl, client, wanted, {
    signal,
    onFailure: (kind, error) => ctx.logger.debug({ code: failureOf(error).code, kind }, 'names of the archive server left blank'),
  }).catch((error: unknown) => {
    // The shared cache itself failing leaves every name blank, as a failing names request does.
    ctx.logger.debug({ code: failureOf(error).code }, 'names of the archive server left blank');
    return new Map<NameKind, ReadonlyMap<number, string>>();
  });
  const correspondents = names.get('correspondents') ?? new Map<number, string>();
  const documentTypes = names.get('document_types') ?? new Map<number, string>();
  return taken.map(({ hit, file }) => ({
    documentId: hit.id,
    fileId: file.fileId,
    path: file.path,
    title: hit.title,
    created: hit.created,
    date: formatDay(hit.created, language),
    correspondent: hit.correspondent === null ? null : (correspondents.get(hit.correspondent) ?? null),
    documentType: hit.documentType === null ? null : (documentTypes.get(hit.documentType) ?? null),
    excerpt: excerptOf(hit.highlights),
    link: fileLink(hostUrl, file.fileId),
    previewUrl: previewUrl(hostUrl, file.fileId),
    iconUrl: typeIconUrl(hostUrl, file.mimetype),
    mimetype: file.mimetype,
  }));
}
