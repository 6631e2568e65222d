import type { ConnectionTestResult } from '../archive/types.js';
import { archiveAccountMissing } from '../admin/archive-account-missing.js';
import type { ServiceContext } from '../context-types.js';
import { archiveNotConfigured } from '../errors.js';
import { msg } from '../i18n/catalog.js';

/** Example ids of documents without a file that `check` names. */
export const EXAMPLES = 10;

export interface CoverageReport {
  readonly url: string;
  readonly connection: ConnectionTestResult;
  readonly archiveAccount: string;
  /** Documents the token's account sees. */
  readonly documents: number;
  /** Of those, documents with a marked file of the archive account; null when the server names no ids. */
  readonly withFile: number | null;
  readonly examplesWithoutFile: readonly number[];
  /** Marked files of the archive account in its own folders. */
  readonly markedFiles: number;
}

/** What `check` is waiting for, in order: the archive server's answer, the host's account, its marked files. */
export type CoverageStep = 'connection' | 'archive account' | 'marked files';

export interface CoverageProgress {
  /** A step begins; `subject` is the archive server's URL or the archive account. */
  step(step: CoverageStep, subject: string): void;
}

/**
 * `check`: the connection test, the archive account, then the documents that have a file: the
 * connection test's `all` ids against the archive account's marked files (host.markedDocuments).
 * Throws a DusError naming what to correct when the connection or the account fails.
 */
export async function checkCoverage(ctx: ServiceContext, progress?: CoverageProgress): Promise<CoverageReport> {
  const connection = ctx.archiveConnection();
  const client = ctx.archiveClient(connection);
  if (connection === null || client === null) {
    throw archiveNotConfigured();
  }
  progress?.step('connection', connection.url);
  const tested = await client.testConnection();
  progress?.step('archive account', ctx.settings.get('archive_owner') ?? '');
  const archiveAccount = await ctx.archiveAccount();
  if (archiveAccount === null) {
    throw await archiveAccountMissing(ctx, msg('unknown_archive_account.advice_coverage'));
  }
  progress?.step('marked files', archiveAccount);
  const host = await ctx.host();
  // One read (the marker index, or one scan), not a scan per page: a page of 500 out of 1 M
  // marked files used to scan them all again each time.
  const documents = await host.markedDocuments(archiveAccount);
  const marked = new Set(documents);
  const total = documents.length;
  const all = tested.allIds;
  const withFile = all === null ? null : all.filter((id) => marked.has(id)).length;
  const examples =
    all === null
      ? []
      : all
          .filter((id) => !marked.has(id))
          .sort((a, b) => a - b)
          .slice(0, EXAMPLES);
  return {
    url: connection.url,
    connection: tested,
    archiveAccount,
    documents: tested.count,
    withFile,
    examplesWithoutFile: examples,
    markedFiles: total,
  };
}
