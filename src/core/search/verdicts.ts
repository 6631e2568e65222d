import type { UnreadableStorage } from '../host/rules/external-storage.js';
import type { SearchHit, SearchPage, SearchRejection } from '../archive/types.js';
import { archiveAccountMissing } from '../admin/archive-account-missing.js';
import type { ServiceContext } from '../context-types.js';
import { DusError } from '../errors.js';
import { msg, render, type Message } from '../i18n/catalog.js';
import { accountOfLogin } from '../host/account-email.js';
import { asOneRequest } from '../host/directory-accounts.js';
import { explainDirectory } from '../host/rules/directory-accounts.js';
import { explainObstacle } from '../host/rules/share-rules.js';
import { teamTo, unsupportedKind, UNSUPPORTED_SHARE_TYPES } from '../host/rules/team-rules.js';
import type { HostAccount, HostAdapter, ShareObstacle, TrashedFile, VisibleFile } from '../host/types.js';
import { ARCHIVE_PAGE_SIZE } from './limits.js';
import { reportSearchFailure, reportSearchWorked, secretsOf } from './failure.js';
import { checkedTerm, dayOf } from './inputs.js';
import { whyNoConnection } from '../settings/why-no-connection.js';

/** The spec's verdicts; `hidden` is the answer without `--explain`. */
export type Verdict = 'shown' | 'not shared' | 'not owned' | 'no file' | 'hidden';

export interface VerdictItem {
  readonly id: number;
  readonly title: string;
  readonly verdict: Verdict;
  /** The file that decided: the user's path when shown, the archive account's or the other owner's path otherwise. */
  readonly path: string | null;
  readonly owner: string | null;
  /** What to do, for every verdict but `shown` and `hidden` (explain only), in English. */
  readonly explanation: string | null;
  /** The same as a message, for a surface that writes it in its reader's language. */
  readonly explanationMessage: Message | null;
  /** The nearest cause the host shows, when one is known beyond the verdict itself (explain only). */
  readonly cause: VerdictCause | null;
}

/** Why a document does not show, as far as the host's rows tell it (the `--explain` questions). */
export type VerdictCause =
  | { readonly kind: 'account disabled' }
  /** An LDAP account whose entry the directory did not find, or whose directory could not be asked (rules/directory-accounts.ts). */
  | { readonly kind: 'directory'; readonly presence: 'gone' | 'unreachable' }
  /** `not shared`: a share row covers the file but does not mount for the user. */
  | { readonly kind: 'share'; readonly obstacle: ShareObstacle }
  /** `no file`: the archive account's file with the marker is in its trash. */
  | { readonly kind: 'trash'; readonly file: TrashedFile }
  /** `no file`: the archive account has external storages whose files the database cannot answer for (a file there is shown to nobody). */
  | { readonly kind: 'unreadable storage'; readonly storages: readonly UnreadableStorage[] }
  /** `not shared`: the file reaches the user, but a File access control rule blocks it (or may: rules/access-rules.ts). */
  | { readonly kind: 'access rule'; readonly message: Message };

export interface VerdictReport {
  /** Documents the archive server found for the term. */
  readonly found: number;
  /** Where in the archive server's result order the items begin (the cursor given, 0 without). */
  readonly offset: number;
  /** The cursor of the first document not listed, for the next call; null when none is left. */
  readonly next: number | null;
  /** Whether the archive server rejected the query (being typed): no documents, not a problem. */
  readonly rejected: boolean;
  /** Why, when rejected; `exclusions_only`: the term only excludes, which the archive server does not accept. */
  readonly rejection: SearchRejection | null;
  /** `refused`: the archive server's own message about the term (made safe by archive/refusal.ts), or null. */
  readonly refusal: string | null;
  readonly archiveAccount: string;
  readonly user: string;
  readonly items: readonly VerdictItem[];
  /** What the verdicts cannot see for this user (groups of another account backend), or null. */
  readonly caveat: string | null;
}

export interface VerdictInput {
  readonly user: string;
  readonly term: string;
  readonly explain: boolean;
  /** How many documents of the archive server's result, in its order, to decide for. */
  readonly limit: number;
  readonly since?: string;
  readonly until?: string;
  /**
   * Where to begin in the archive server's result order: the absolute offset of the first
   * document, as the provider's cursor is (docs/search.md, "Cursor"); 0 without.
   */
  readonly offset?: number;
  /** The administrator who searches as `user`, for the audit log (never with the term). */
  readonly admin?: string;
  readonly signal?: AbortSignal;
}

export { VERDICT_LIMIT_DEFAULT, VERDICT_LIMIT_MAX } from './limits.js';

/** What keeps the share from mounting, and what to do, as Nextcloud would show it to the user: the blocking rule words it. */
function obstacleMessage(o: ShareObstacle, user: string, paths: boolean): Message {
  const node =
    paths && o.nodePath !== null
      ? msg(o.nodeIsFile ? 'why.node.file_path' : 'why.node.folder_path', { path: o.nodePath })
      : msg(o.nodeIsFile ? 'why.node.file' : 'why.node.folder');
  return explainObstacle(o.kind, {
    user,
    node,
    share: o.sharer === null ? msg('why.share.plain', { node }) : msg('why.share.from', { node, sharer: o.sharer }),
    to: o.team !== null ? teamTo(o.team, user, o.teamRoute) : o.group === null ? msg('why.to.user', { user }) : msg('why.to.group', { group: o.group }),
    group: o.group,
    team: o.team,
    unsupported: o.shareType !== null && UNSUPPORTED_SHARE_TYPES.includes(o.shareType) ? unsupportedKind(o.shareType) : null,
    expiration: o.expiration,
    account: o.disabledAccount,
    collidesWith: o.collidesWith,
    mountedFrom: o.mountedFrom,
    renamedAtSetup: o.renamedAtSetup,
    target: paths ? o.target : null,
    assumed: o.assumed,
  });
}

/**
 * The spec's explanation of each verdict, as one line an administrator can act on, naming the
 * nearest cause the host shows when one is known (a disabled account, a share that is pending,
 * expired, left, declined, of a disabled sharer or to a group the user is not in, a file in the
 * trash). The one wording for `search --explain`, `why`, `who` and Try a search, as a message
 * each surface writes in its reader's language; Try a search passes `paths` false (its answer
 * carries no file or folder names).
 */
export function explanationMessage(
  verdict: Verdict,
  id: number,
  user: string,
  archiveAccount: string,
  file: VisibleFile | undefined,
  cause: VerdictCause | null = null,
  paths = true,
): Message | null {
  const disabled = cause?.kind === 'account disabled';
  const directory = cause?.kind === 'directory' ? explainDirectory(cause.presence, user) : null;
  const path = paths ? file?.path : undefined;
  const seen = path === undefined ? msg('why.file.marker', { id }) : msg('why.file.path', { path });
  switch (verdict) {
    case 'not shared': {
      const why =
        directory ??
        (disabled
          ? msg('why.account_disabled', { user })
          : cause?.kind === 'share'
            ? obstacleMessage(cause.obstacle, user, paths)
            : cause?.kind === 'access rule'
              ? cause.message
              : null);
      return why === null
        ? msg('why.not_shared.unexplained', { id, archiveAccount, file: seen, user })
        : msg('why.not_shared.cause', { id, archiveAccount, file: seen, user, why });
    }
    case 'not owned': {
      // The user's own file reads as a contradiction in "sees …, but it belongs to <the same user>".
      if (file?.owner === user) return msg('why.not_owned.own', { id, user, file: seen, archiveAccount });
      if (file === undefined) return msg('why.not_owned.unknown', { id, user, file: seen, archiveAccount });
      return msg('why.not_owned.other', { id, user, file: seen, owner: file.owner, archiveAccount });
    }
    case 'no file': {
      const besides = directory !== null ? msg('why.besides_directory', { why: directory }) : disabled ? msg('why.besides_disabled', { user }) : '';
      if (cause?.kind === 'trash') {
        return paths
          ? msg('why.no_file.trash_name', { id, archiveAccount, name: cause.file.name, besides })
          : msg('why.no_file.trash', { id, archiveAccount, besides });
      }
      if (cause?.kind === 'unreadable storage') {
        const storages = cause.storages.map((s) =>
          msg('why.no_file.storage', { mountPoint: s.mountPoint, reason: msg(`cli.check.external_reason.${s.reason}`) }),
        );
        return msg('why.no_file.unreadable', {
          id,
          archiveAccount,
          storages: storages.reduce<Message | string>((all, one) => (all === '' ? one : msg('why.no_file.storages', { first: all, next: one })), ''),
          besides,
        });
      }
      return msg('why.no_file.none', { id, archiveAccount, besides });
    }
    default:
      return null;
  }
}

/** An explanation in `language` (English for null or a language without a catalog: logs, `--json` unless `--lang` asked, every caller without a reader's language). */
export function explanationIn(message: Message | null, language: string | null): string | null {
  return message === null ? null : render(message, language);
}

/**
 * occ search and Try a search: what the archive server finds for the term, and for each
 * document whether it shows to the user. Question 1 is one host query for all documents;
 * with `explain`, question 2 only for the unexplained, then question 3 only for those left.
 * Throws a DusError when the archive server does not answer (after logging it and adding it
 * to the history), or when the user or the archive account is unknown. A term it refused, with a
 * message of its own or not, is a rejected query: no documents, the message in `refusal`.
 */
/** One search as one request of the host (the directory is asked about the user once: host/directory-accounts.ts). */
export function decideVerdicts(ctx: ServiceContext, input: VerdictInput): Promise<VerdictReport> {
  return asOneRequest(() => searchVerdicts(ctx, input));
}

async function searchVerdicts(ctx: ServiceContext, input: VerdictInput): Promise<VerdictReport> {
  const term = checkedTerm(input.term);
  const since = dayOf(input.since, 'since');
  const until = dayOf(input.until, 'until');
  const offset = input.offset ?? 0;
  if (!Number.isSafeInteger(offset) || offset < 0) throw new DusError('usage', 'The cursor must be a whole number from 0.');
  const client = ctx.archiveClient();
  if (client === null) throw whyNoConnection(ctx.settings, ctx.credentials);
  const firstPage = Math.floor(offset / ARCHIVE_PAGE_SIZE) + 1;
  // The first page is asked while the host is opened and the user looked up (docs/search.md,
  // "One-shot search"): the archive server's answer time and the host's opening overlap. A user or
  // archive account that turns out unknown withdraws the request; its answer or failure is then
  // never looked at, so the host's error is the one said, as before.
  const withdrawn = new AbortController();
  const signal = input.signal === undefined ? withdrawn.signal : AbortSignal.any([input.signal, withdrawn.signal]);
  const pageOf = (page: number): Promise<SearchPage> =>
    client.search({ term, page, signal, ...(since === undefined ? {} : { since }), ...(until === undefined ? {} : { until }) });
  const first = pageOf(firstPage);
  first.catch(() => undefined);
  const { host, account, archiveAccount } = await parties(ctx, input.user).catch((error: unknown) => {
    withdrawn.abort();
    throw error;
  });
  if (input.admin !== undefined && input.admin !== account.uid) {
    ctx.audit.record({ action: 'search_as_user', admin: input.admin, user: account.uid });
    ctx.logger.info({ admin: input.admin, user: account.uid }, `Administrator ${input.admin} tried a search as ${account.uid}`);
  }

  const hits: SearchHit[] = [];
  let found = 0;
  let rejected = false;
  let rejection: SearchRejection | null = null;
  let refusal: string | null = null;
  const secrets = secretsOf(ctx, input.term);
  let skip = offset % ARCHIVE_PAGE_SIZE;
  try {
    for (let page = firstPage; hits.length < input.limit; page += 1) {
      const answer = await (page === firstPage ? first : pageOf(page));
      if (answer.rejectedStatus !== null && answer.rejectedStatus !== undefined) {
        // A cursor past the result's end asks a page past the last: no documents left, not a rejected term.
        rejected = page === firstPage && !(answer.rejection === 'page' && page > 1);
        if (rejected) {
          rejection = answer.rejection ?? 'query';
          refusal = answer.refusal ?? null;
        }
        break;
      }
      found = answer.count;
      hits.push(...answer.hits.slice(skip, skip + input.limit - hits.length));
      skip = 0;
      if (!answer.hasMore || answer.hits.length < ARCHIVE_PAGE_SIZE) break;
    }
  } catch (error: unknown) {
    const failure = reportSearchFailure(ctx, error, secrets);
    throw error instanceof DusError ? error : new DusError('internal', failure.message, { cause: error });
  }
  if (!rejected) reportSearchWorked(ctx);
  const items = await decide(host, account, archiveAccount, hits, input.explain);
  const next = !rejected && offset + hits.length < found ? offset + hits.length : null;
  return { found, offset, next, rejected, rejection, refusal, archiveAccount, user: account.uid, items, caveat: caveatOf(account) };
}

/** The host, the user's account and the archive account a verdict is about; coded errors for the two that may be missing. */
async function parties(ctx: ServiceContext, user: string): Promise<{ host: HostAdapter; account: HostAccount; archiveAccount: string }> {
  const host = await ctx.host();
  // The user may be named by their e-mail login, as they log in to the host and to serve.
  const account = await accountOfLogin(host, user);
  if (account === null) throw new DusError('unknown_user', `The user ${user} does not exist in the host.`);
  return { host, account, archiveAccount: await requiredArchiveAccount(ctx) };
}

/** The archive account the settings or the sync add-on name, or the spec's refusal. */
export async function requiredArchiveAccount(ctx: ServiceContext): Promise<string> {
  const archiveAccount = await ctx.archiveAccount();
  if (archiveAccount === null) {
    throw await archiveAccountMissing(ctx, msg('unknown_archive_account.advice_why'));
  }
  return archiveAccount;
}

export interface DocumentVerdict {
  readonly user: string;
  readonly archiveAccount: string;
  /** The verdict with its explanation; the title is not known (the archive server is not asked). */
  readonly item: Omit<VerdictItem, 'title'>;
  readonly caveat: string | null;
}

/**
 * "Why can't Anna see document 412?": the verdict for one document id, from the host alone.
 * The archive server is not asked: the verdict says whether the user can open a file that
 * stands for the document, not whether the document exists or matches a term.
 */
/** `why`: one request of the host, as a search is. */
export function verdictOfDocument(ctx: ServiceContext, user: string, documentId: number, admin?: string): Promise<DocumentVerdict> {
  return asOneRequest(() => documentVerdict(ctx, user, documentId, admin));
}

async function documentVerdict(ctx: ServiceContext, user: string, documentId: number, admin?: string): Promise<DocumentVerdict> {
  if (!Number.isSafeInteger(documentId) || documentId < 1) throw new DusError('usage', 'The document id must be a whole number from 1.');
  const { host, account, archiveAccount } = await parties(ctx, user);
  if (admin !== undefined && admin !== account.uid) {
    ctx.audit.record({ action: 'verdict_as_user', admin, user: account.uid, detail: { document: documentId } });
  }
  const [decided] = await decide(
    host,
    account,
    archiveAccount,
    [{ id: documentId, title: '', created: null, correspondent: null, documentType: null, highlights: null }],
    true,
  );
  if (decided === undefined) throw new DusError('internal', 'No verdict was decided.');
  const { title: _title, ...item } = decided;
  return { user: account.uid, archiveAccount, item, caveat: caveatOf(account) };
}

const BACKEND_NAMES: Readonly<Record<Exclude<HostAccount['backend'], 'database'>, string>> = {
  ldap: 'user_ldap (LDAP)',
  saml: 'user_saml (single sign-on)',
  guests: 'guests',
};

/**
 * Groups of another account backend live outside the host database: a file shared with such a
 * group is one this tool cannot see the user receive. Said, so that "not shared" is not taken
 * for the host's own verdict.
 */
function caveatOf(account: HostAccount): string | null {
  // An LDAP account whose directory was asked: its groups are the directory's (directory-accounts.ts).
  if (account.backend === 'database' || account.directory !== null) return null;
  return (
    `${account.uid} is an account of ${BACKEND_NAMES[account.backend]}: its groups in that backend are not in the host database, ` +
    'so a file shared with one of them counts as not shared here. Check such a document in Nextcloud itself.'
  );
}

/**
 * The verdict table for the user's account. The host answers questions 1 and 3 with nothing for
 * a disabled account (it cannot log in), so such an account gets `not shared` or `no file`, and
 * the explanation names the disabled account as the cause.
 */
async function decide(host: HostAdapter, account: HostAccount, archiveAccount: string, hits: readonly SearchHit[], explain: boolean): Promise<VerdictItem[]> {
  const user = account.uid;
  const ids = hits.map((hit) => hit.id);
  const decided = new Map<number, { verdict: Verdict; file?: VisibleFile }>();
  const shown = ids.length === 0 ? new Map<number, VisibleFile>() : await host.visibleArchiveFiles(user, archiveAccount, ids);
  for (const [id, file] of shown) decided.set(id, { verdict: 'shown', file });
  let open = ids.filter((id) => !decided.has(id));
  if (explain && open.length > 0) {
    for (const [id, file] of await host.ownedArchiveFiles(archiveAccount, open)) decided.set(id, { verdict: 'not shared', file });
    open = open.filter((id) => !decided.has(id));
  }
  if (explain && open.length > 0) {
    for (const [id, file] of await host.visibleForeignFiles(user, archiveAccount, open)) decided.set(id, { verdict: 'not owned', file });
    open = open.filter((id) => !decided.has(id));
  }
  const causes = explain ? await causesOf(host, account, archiveAccount, ids, decided) : new Map<number, VerdictCause>();
  return hits.map((hit) => {
    const found = decided.get(hit.id);
    const verdict: Verdict = found?.verdict ?? (explain ? 'no file' : 'hidden');
    const cause = causes.get(hit.id) ?? null;
    const message = explain ? explanationMessage(verdict, hit.id, user, archiveAccount, found?.file, cause) : null;
    return {
      id: hit.id,
      title: hit.title,
      verdict,
      path: found?.file?.path ?? null,
      owner: found?.file?.owner ?? null,
      explanation: message === null ? null : render(message),
      explanationMessage: message,
      cause,
    };
  });
}

/**
 * The line that says why a rejected search lists no documents (the CLI prints it as it is). A
 * rejection is an answer of the archive server, not a problem (the spec: exit 0, debug only, no
 * history): with Paperless's own message about the term, that message is the line.
 */
export function rejectionMessage(rejection: SearchRejection | null, refusal: string | null = null): string {
  if (rejection === 'refused' && refusal !== null) {
    const sentence = /[.!?…]$/u.test(refusal) ? refusal : `${refusal}.`;
    return `The archive server refused the search term (HTTP 400): ${sentence} Correct the term and search again.`;
  }
  if (rejection === 'exclusions_only') {
    return 'The archive server (Paperless-ngx 3.0 or 3.1) does not accept a query of only exclusions (such as -invoice or NOT invoice): no documents. Add a word to look for.';
  }
  if (rejection === 'words_too_broad') {
    return 'The archive server (Paperless-ngx 3.0) could not search these words together in an archive this large, and did not list the documents of each word alone: no documents. Search for fewer or longer words; Paperless-ngx 3.1 and later search every word.';
  }
  if (rejection === 'minus_exclusion') {
    return 'The archive server (Paperless-ngx 2, or 3.2 and later) reads -word as the word itself, the opposite of an exclusion: no documents. Write NOT word instead.';
  }
  return 'The archive server rejected the query (a query still being typed, or syntax it does not accept): no documents.';
}

/** Why an account opens nothing at all: the directory keeps it out, or it is disabled; null when it can log in. */
export function accountCause(account: HostAccount): VerdictCause | null {
  if (account.directory === 'gone' || account.directory === 'unreachable') return { kind: 'directory', presence: account.directory };
  return account.enabled ? null : { kind: 'account disabled' };
}

/**
 * The nearest cause of each unexplained verdict, asked only with `explain` (never on the search
 * path): a disabled account first (it opens nothing); else, for `not shared`, the share rows
 * covering the archive account's file; for `no file`, its trash. At most two host queries.
 */
async function causesOf(
  host: HostAdapter,
  account: HostAccount,
  archiveAccount: string,
  ids: readonly number[],
  decided: ReadonlyMap<number, { verdict: Verdict; file?: VisibleFile }>,
): Promise<Map<number, VerdictCause>> {
  const causes = new Map<number, VerdictCause>();
  const unshown = ids.filter((id) => decided.get(id)?.verdict !== 'shown');
  const opensNothing = accountCause(account);
  if (opensNothing !== null) {
    for (const id of unshown) causes.set(id, opensNothing);
    return causes;
  }
  const notShared = unshown.flatMap((id) => {
    const entry = decided.get(id);
    return entry?.verdict === 'not shared' && entry.file !== undefined ? [entry.file] : [];
  });
  if (notShared.length > 0) {
    // A file that reaches the user and is blocked by File access control: that rule is the cause.
    for (const [id, message] of await host.accessRuleBlocks(
      account.uid,
      archiveAccount,
      notShared.map((f) => f.documentId),
    ))
      causes.set(id, { kind: 'access rule', message });
    const rest = notShared.filter((f) => !causes.has(f.documentId));
    if (rest.length > 0) for (const [id, obstacle] of await host.shareObstacles(account.uid, archiveAccount, rest)) causes.set(id, { kind: 'share', obstacle });
  }
  const noFile = unshown.filter((id) => !decided.has(id));
  if (noFile.length > 0) {
    for (const [id, file] of await host.trashedArchiveFiles(archiveAccount, noFile)) causes.set(id, { kind: 'trash', file });
    const unexplained = noFile.filter((id) => !causes.has(id));
    const storages = unexplained.length === 0 ? [] : await host.unreadableExternal(archiveAccount);
    if (storages.length > 0) for (const id of unexplained) causes.set(id, { kind: 'unreadable storage', storages });
  }
  return causes;
}
