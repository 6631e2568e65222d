import type { ConnectionTestResult } from '../archive/types.js';
import { archiveAccountMissing } from '../admin/archive-account-missing.js';
import type { ServiceContext } from '../context-types.js';
import { DusError, isDusError } from '../errors.js';
import type { AccessRulesSummary } from '../host/rules/access-rules.js';
import type { DirectoryReport } from '../host/types.js';
import { msg } from '../i18n/catalog.js';
import type { UnsupportedShares } from '../host/types.js';
import { testStoredConnection } from './connection-test.js';
import type { UnreadableStorage } from '../host/rules/external-storage.js';

/** Example ids of documents without a file that `check` names. */
export const EXAMPLES = 10;

/** The parts `check` reports, in order; each runs whatever the others gave. */
export type CheckPart = 'connection' | 'archive account' | 'coverage' | 'directory';

/**
 * What kind of failure a part met (docs/search.md, "check: every part"): `unreachable` may pass on a later run
 * without a change (a server or database down, a name that does not resolve now, HTTP 5xx);
 * `misconfigured` needs someone to correct a setting, the token or the files.
 */
export type FailureKind = 'unreachable' | 'misconfigured';

export interface PartFailure {
  readonly part: CheckPart;
  readonly error: DusError;
  readonly kind: FailureKind;
}

export interface CoverageReport {
  /** The stored archive-server URL; null when none is stored. */
  readonly url: string | null;
  /** The connection test's answer; null when it failed (see `failures`). */
  readonly connection: ConnectionTestResult | null;
  /** The archive account as the host spells it; null when it does not exist or the host could not say. */
  readonly archiveAccount: string | null;
  /** Documents the token's account sees; null without the connection test's answer. */
  readonly documents: number | null;
  /** Of those, documents with a marked file of the archive account; null when the server names no ids or a part failed. */
  readonly withFile: number | null;
  readonly examplesWithoutFile: readonly number[];
  /** Marked files of the archive account in its own folders; null when they could not be read. */
  readonly markedFiles: number | null;
  /** Each active user_ldap configuration: reached, bound, what its filters find (none without user_ldap). */
  readonly directories: readonly DirectoryReport[];
  /** The archive account's shares with Talk rooms and Deck boards, which show no one a document (unsupported); null when not read. */
  readonly unsupportedShares?: UnsupportedShares | null;
  /** Every part that failed, in the order of the parts. */
  readonly failures: readonly PartFailure[];
  /** External storages mounted for the archive account whose files the database cannot answer for: their files are never shown. */
  readonly unreadableStorages: readonly UnreadableStorage[];
  /** File access control's rules (they may keep shared files from users); null when it is off, has none, or the host was not read. */
  readonly accessRules: AccessRulesSummary | null;
}

/** What `check` is waiting for, in order: the archive server's answer, the host's account, its marked files. */
export type CoverageStep = 'connection' | 'archive account' | 'marked files';

export interface CoverageProgress {
  /** A step begins; `subject` is the archive server's URL or the archive account. */
  step(step: CoverageStep, subject: string): void;
}

const UNREACHABLE_CODES: ReadonlySet<string> = new Set(['timeout', 'unreachable', 'unknown_host', 'tls_handshake', 'host_unreachable', 'cache_unreachable']);

/** The kind of a part's failure; an HTTP 5xx from the archive server is a server down, any other status a wrong URL or token. */
export function failureKind(error: DusError): FailureKind {
  if (UNREACHABLE_CODES.has(error.code)) return 'unreachable';
  if (error.code === 'http' && (error.status === undefined || error.status >= 500)) return 'unreachable';
  return 'misconfigured';
}

/** Runs a part: its coded failure is kept, anything else (a bug) still ends the run. */
async function part<T>(name: CheckPart, failures: PartFailure[], body: () => Promise<T>): Promise<T | null> {
  try {
    return await body();
  } catch (error: unknown) {
    if (!isDusError(error)) throw error;
    failures.push({ part: name, error, kind: failureKind(error) });
    return null;
  }
}

/**
 * `check`: the connection test, the archive account, then the documents that have a file: the
 * connection test's `all` ids against the archive account's marked files (host.markedDocuments).
 * Every part runs even when another failed (the archive server down still shows whether the
 * host's part is right); a failed part is in `failures` with its coded error, in the order of the
 * parts. The archive server is asked first and the host's parts run while it answers, so a check
 * takes the longer of the two rather than their sum (docs/search.md, "check"); a progress line
 * that showed a host step goes back to the archive server when its answer is still awaited.
 */
export async function checkCoverage(ctx: ServiceContext, progress?: CoverageProgress): Promise<CoverageReport> {
  const url = ctx.settings.readWithoutRefusedUrl().docs_url ?? null;
  const connectionFailures: PartFailure[] = [];
  let asked: string | null = null;
  let answered = false;
  const testing = part('connection', connectionFailures, async () => {
    // Inside the part: a stored URL the rules refuse is this part's failure, not the run's.
    const { answer } = await testStoredConnection(ctx, (askedUrl) => {
      asked = askedUrl;
      progress?.step('connection', askedUrl);
    });
    return answer;
  }).finally(() => {
    answered = true;
  });
  // A bug in the host's parts ends the run before the test is awaited: its outcome is then moot.
  testing.catch(() => undefined);
  const hostFailures: PartFailure[] = [];
  const archiveAccount = await part('archive account', hostFailures, async () => {
    progress?.step('archive account', ctx.settings.readWithoutRefusedUrl().archive_owner ?? '');
    const named = await ctx.archiveAccount();
    if (named === null) throw await archiveAccountMissing(ctx, msg('unknown_archive_account.advice_coverage'));
    return named;
  });
  let unsupported: UnsupportedShares | null = null;
  // One read (the marker index, or one scan), not a scan per page: a page of 500 out of 1 M
  // marked files used to scan them all again each time.
  let unreadableStorages: readonly UnreadableStorage[] = [];
  const documents =
    archiveAccount === null
      ? null
      : await part('coverage', hostFailures, async () => {
          progress?.step('marked files', archiveAccount);
          const host = await ctx.host();
          const marked = await host.markedDocuments(archiveAccount);
          unsupported = await host.unsupportedShares(archiveAccount);
          unreadableStorages = await host.unreadableExternal(archiveAccount);
          return marked;
        });
  const accessRules = documents === null ? null : await part('coverage', hostFailures, async () => (await ctx.host()).accessRules());
  // The directory behind user_ldap, when the host has one: while it cannot be asked, no LDAP account is shown anything.
  let directories: readonly DirectoryReport[] = [];
  if (archiveAccount !== null) {
    await part('directory', hostFailures, async () => {
      directories = await (await ctx.host()).directoryReport(true);
      const down = directories.find((r) => !r.bound || r.error !== null);
      if (down !== undefined) {
        const words = { url: down.url, prefix: down.prefix, detail: down.error ?? '' };
        throw new DusError('host_unreachable', msg(down.reachable ? 'host_unreachable.directory_bind' : 'host_unreachable.directory', words));
      }
    });
  }
  if (!answered && asked !== null) progress?.step('connection', asked);
  const tested = await testing;
  const failures = [...connectionFailures, ...hostFailures];
  const marked = new Set(documents ?? []);
  const all = documents === null ? null : (tested?.allIds ?? null);
  return {
    url,
    connection: tested,
    archiveAccount,
    documents: tested?.count ?? null,
    withFile: all === null ? null : all.filter((id) => marked.has(id)).length,
    examplesWithoutFile:
      all === null
        ? []
        : all
            .filter((id) => !marked.has(id))
            .sort((a, b) => a - b)
            .slice(0, EXAMPLES),
    markedFiles: documents === null ? null : documents.length,
    directories,
    unsupportedShares: unsupported,
    failures,
    unreadableStorages,
    accessRules,
  };
}
