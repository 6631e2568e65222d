/**
 * The judge of the conformance suite: what the real Nextcloud says each user opens (its WebDAV
 * tree, with `oc:fileid` and `oc:owner-id`), mapped to the spec's verdicts, against the
 * product's `why <user> <id> --json`.
 *
 * Truth for user U and document N (the spec's verdict table, answered by Nextcloud itself):
 *   Q1 U's tree holds a file of the archive account whose name carries [PN]   → shown
 *      (a file of the archive account: owner-id = archive, or the same file — file id — as
 *      one the archive account's own tree lists with owner-id = itself: on a Local external
 *      storage the owner-id is whoever looks, and a share of a folder on it is its sharer's)
 *      (with File access control on: and U's GET of it answers 200, see world.ts)
 *   Q2 else the archive account's own tree holds such a file (owner = itself) → not shared
 *   Q3 else U's tree holds a file with [PN] of another owner                  → not owned
 *   else                                                                       → no file
 * A disabled account cannot log in (WebDAV 503): it sees nothing, so Q1 and Q3 are no.
 * When the archive account itself is disabled, Q2 is read by enabling it for one listing and
 * disabling it again (occ user:enable / user:disable): the listing changes no file or share.
 */
import { cliAdmin } from '../../src/cli/cli-admin.js';
import { openContext } from '../../src/core/context.js';
import { verdictOfDocument } from '../../src/core/search/verdicts.js';
import { chainText, whoCanOpen } from '../../src/core/search/who.js';
import type { DavEntry, NextcloudUser, RealNextcloud } from '../support/real-nextcloud/index.js';

export type Verdict = 'shown' | 'not shared' | 'not owned' | 'no file';

/** The marker as the sync add-on writes it: `[P`, decimal id without leading zeros, `]`. Written here on its own, not taken from src. */
export function markerIds(name: string): number[] {
  return [...name.matchAll(/\[P([1-9][0-9]*)\]/g)].map((m) => Number(m[1]));
}

export interface UserView {
  readonly login: string;
  /** null: the account cannot log in (disabled). */
  readonly files: readonly DavEntry[] | null;
}

/** What `session` sees: its whole tree, or null when Nextcloud refuses the login. */
export async function viewOf(session: NextcloudUser, refused: readonly number[] = []): Promise<UserView> {
  const tree = await session.treeIfAllowed(refused);
  return { login: session.login, files: tree === null ? null : tree.filter((entry) => !entry.isFolder) };
}

export interface Truth {
  readonly verdict: Verdict;
  /** Where U sees the archive account's file(s) when shown (leading slash). */
  readonly paths: readonly string[];
}

/**
 * A file's name is its name in its owner's own tree (`ownNames`, by file id): a recipient who
 * renames a received file share, or a file renamed by its owner after it was shared, shows the
 * share's target name in the recipient's tree, but the file and the name its owner gave it are
 * the same. Where the owner's tree was not listed, the name the user sees is taken.
 */
export function truthOf(
  view: UserView,
  archiveFiles: readonly DavEntry[],
  archive: string,
  id: number,
  ownNames: ReadonlyMap<number, string> = new Map(),
  refused: ReadonlySet<string> = new Set(),
): Truth {
  const nameOf = (entry: DavEntry): string => (entry.fileId === null ? entry.name : (ownNames.get(entry.fileId) ?? entry.name));
  const marked = (entry: DavEntry): boolean => markerIds(nameOf(entry)).includes(id);
  // A file File access control denies still lists; it is not opened (its GET failed: `refused`).
  const seen = (view.files ?? []).filter(marked).filter((entry) => !refused.has(entry.path));
  const archiveIds = new Set(archiveFiles.filter((entry) => entry.ownerId === archive && entry.fileId !== null).map((entry) => entry.fileId));
  const fromArchive = seen.filter((entry) => entry.ownerId === archive || (entry.fileId !== null && archiveIds.has(entry.fileId)));
  if (fromArchive.length > 0) return { verdict: 'shown', paths: fromArchive.map((entry) => `/${entry.path}`) };
  if (archiveFiles.some((entry) => entry.ownerId === archive && marked(entry))) return { verdict: 'not shared', paths: [] };
  if (seen.length > 0) return { verdict: 'not owned', paths: [] };
  return { verdict: 'no file', paths: [] };
}

/** The archive account's own files (Q2), enabling a disabled archive account for the listing. */
export async function archiveFilesOf(nc: RealNextcloud, archive: string): Promise<DavEntry[]> {
  const session = nc.as(archive);
  const tree = await session.treeIfAllowed();
  if (tree !== null) return tree.filter((entry) => !entry.isFolder && entry.ownerId === archive);
  await nc.setEnabled(archive, true);
  try {
    return (await session.tree()).filter((entry) => !entry.isFolder && entry.ownerId === archive);
  } finally {
    await nc.setEnabled(archive, false);
  }
}

export interface ProductAnswer {
  readonly verdict: string;
  readonly path: string | null;
  readonly raw: string;
}

/**
 * The product's answers for one judgement: the core call `why` makes (`verdictOfDocument`), on
 * one service context opened as `why --nextcloud <serverDir>` opens it (config.php gives the
 * installed version, which decides what a missing `hide_disabled_user_shares` means), printed
 * as `why --json` prints it. One context per judgement keeps a few hundred pairs quick; the
 * judge also runs the built CLI itself for one pair per judgement (world.ts) and requires the
 * same bytes.
 */
export async function openProduct(
  configDir: string,
  serverDir: string,
): Promise<{ why(user: string, id: number): Promise<ProductAnswer>; who(id: number): Promise<WhoProduct>; close(): Promise<void> }> {
  const ctx = openContext({ configDir, hostLocation: { nextcloudDir: serverDir }, env: {} });
  return {
    async why(user, id) {
      try {
        const { item } = await verdictOfDocument(ctx, user, id, cliAdmin());
        const raw = JSON.stringify({ id: item.id, verdict: item.verdict, path: item.path, owner: item.owner, explanation: item.explanation });
        return { verdict: item.verdict, path: item.path, raw };
      } catch (error) {
        return { verdict: 'error', path: null, raw: error instanceof Error ? error.message : String(error) };
      }
    },
    async who(id) {
      try {
        const answer = await whoCanOpen(ctx, id, {}, cliAdmin());
        const accounts = answer.accounts.map((entry) => ({
          account: entry.account,
          path: entry.path,
          through: entry.chain === null ? null : chainText(entry.chain),
          blocked: entry.blocked,
        }));
        return whoProductOf(JSON.stringify({ document: answer.documentId, files: answer.files, accounts, noFile: answer.noFile }));
      } catch (error) {
        return { listed: null, raw: error instanceof Error ? error.message : String(error) };
      }
    },
    close: () => ctx.close(),
  };
}

/** What `who <id> --json` lists: each account that opens the file, with its path; null when it failed. */
export interface WhoProduct {
  readonly listed: ReadonlyMap<string, string | null> | null;
  /** The JSON as `who --json` prints it, or the error. */
  readonly raw: string;
}

/** Reads `who --json`'s value (docs/json.md): the accounts without a `blocked` cause are those it says open the file. */
export function whoProductOf(json: string): WhoProduct {
  const parsed = JSON.parse(json) as { accounts?: { account: string; path: string | null; blocked: string | null }[] };
  if (!Array.isArray(parsed.accounts)) return { listed: null, raw: json };
  return { listed: new Map(parsed.accounts.filter((a) => a.blocked === null).map((a) => [a.account, a.path])), raw: json };
}

/** The built CLI's `who <id> --json`: exit 0 with a file, 1 with the `no file` answer (still the JSON value), else an error. */
export function parseWho(code: number, out: string, err: string): WhoProduct {
  const raw = out.trim();
  if (code !== 0 && code !== 1) return { listed: null, raw: `exit ${code}: ${`${out}${err}`.trim()}` };
  try {
    return whoProductOf(raw);
  } catch {
    return { listed: null, raw: `exit ${code}: ${`${out}${err}`.trim()}` };
  }
}

export function parseWhy(code: number, out: string, err: string): ProductAnswer {
  if (code !== 0) return { verdict: `error (exit ${code})`, path: null, raw: `${out}${err}`.trim() };
  const parsed = JSON.parse(out) as { verdict: string; path: string | null };
  return { verdict: parsed.verdict, path: parsed.path, raw: out.trim() };
}

export interface Comparison {
  readonly scenario: string;
  readonly user: string;
  readonly id: number;
  readonly truth: Truth;
  readonly product: ProductAnswer;
  /** null when they agree; else what is wrong, starting with LEAK for a `shown` Nextcloud does not open. */
  readonly problem: string | null;
  /**
   * A disagreement the spec allows where, by oc_share, the user reached two nodes at one target
   * (Nextcloud 34 mounts one of them, and the database alone cannot tell which; Nextcloud 33
   * moves all but one to a name the database does not hold until the user's next setup): a `shown` the
   * product omitted (`not shared`), or `not owned` against `no file` for a foreign file behind
   * such a target. Reported and counted, never a failure; a LEAK or a wrong path always fails.
   */
  readonly omittedAtCollision: boolean;
  /**
   * A `shown` the product omitted because a File access control rule depends on the request
   * (the explanation says it cannot be decided ahead of the request): allowed, counted apart.
   */
  readonly omittedByRequest?: boolean;
}

/** The words of `why.access_rule.undecided` (English, as the judge reads `why --json`). */
export const UNDECIDED_RULE = 'cannot be decided ahead of the request';

/** `collidingTargets`: the user's targets that two shares of different nodes reach when the product answered (recorded.ts). */
export function compare(
  scenario: string,
  user: string,
  id: number,
  truth: Truth,
  product: ProductAnswer,
  collidingTargets: readonly string[] = [],
): Comparison {
  let problem: string | null = null;
  let omittedAtCollision = false;
  if (product.verdict === 'shown' && truth.verdict !== 'shown') {
    problem = `LEAK: the product shows document ${id} to ${user}, Nextcloud does not open it (truth ${truth.verdict})`;
  } else if (truth.verdict === 'shown' && product.verdict === 'not shared' && product.raw.includes(UNDECIDED_RULE)) {
    return {
      scenario,
      user,
      id,
      truth,
      product,
      problem: `product says not shared, Nextcloud says shown (omitted: an access rule that depends on the request)`,
      omittedAtCollision: false,
      omittedByRequest: true,
    };
  } else if (product.verdict !== truth.verdict) {
    problem = `product says ${product.verdict}, Nextcloud says ${truth.verdict}`;
    const foreign = (v: string): boolean => v === 'not owned' || v === 'no file';
    // The omission must be the collision rule's own: for a document of the archive account, the
    // explanation names the colliding shares (a `not shared` for any other cause still fails):
    // 34.0.1 mounts one of them, 33.0.1 moves the others to a name not yet in the database.
    const byCollision = product.raw.includes('Nextcloud mounts only one of them there') || product.raw.includes('a name the database does not hold yet');
    const allowed = (truth.verdict === 'shown' && product.verdict === 'not shared' && byCollision) || (foreign(truth.verdict) && foreign(product.verdict));
    if (allowed && collidingTargets.length > 0) {
      omittedAtCollision = true;
      problem = `${problem} (omitted: ${collidingTargets.map((t) => `'${t}'`).join(', ')} reached by two shares)`;
    }
  } else if (truth.verdict === 'shown' && (product.path === null || !truth.paths.includes(product.path))) {
    problem = `shown at ${product.path ?? 'no path'}, but ${user} sees it at ${truth.paths.join(', ')}`;
  }
  return { scenario, user, id, truth, product, problem, omittedAtCollision };
}

/** Problems that fail a test: every disagreement but an omission at a colliding target. */
export const failing = (c: Comparison): boolean => c.problem !== null && !c.omittedAtCollision && c.omittedByRequest !== true;

export function describeProblem(c: Comparison): string {
  return `[${c.scenario}] ${c.user} / ${c.id}: ${c.problem ?? 'agree'}  (why: ${c.product.raw})`;
}

/**
 * One account × document as `who <id>` answers it, judged by the account's WebDAV tree (the same
 * truth as `why`'s), and checked against `why <account> <id>` asked on the same rows.
 */
export interface WhoPair {
  readonly scenario: string;
  readonly user: string;
  readonly id: number;
  /** Where the account's WebDAV tree shows the archive account's file; [] when it does not open it; null for an account the scenario does not know. */
  readonly seen: readonly string[] | null;
  /** The path `who` lists the account at; undefined when it does not list it. */
  readonly listed: string | null | undefined;
  /** null when `who` agrees with WebDAV; else LISTED (listed, cannot open), MISSING, a wrong path, or the error. */
  readonly problem: string | null;
  /** A MISSING the judge allows: `why` for the same pair was an omission at a colliding target the explanation names (compare). */
  readonly omittedAtCollision: boolean;
  /** A MISSING the judge allows: `why` for the same pair was an omission under an access rule that depends on the request. */
  readonly omittedByRequest?: boolean;
  /** null when `who` lists the account exactly when `why` says shown, at why's path; else what differs. */
  readonly invariant: string | null;
}

/**
 * Judges `who <id>` against every account's WebDAV tree (`truths`, by login) and against the
 * same judgement's `why` comparisons (`whys`, by login): the allowance at colliding targets is
 * `why`'s own, so an account `who` omits counts apart only where `why`'s omission was allowed.
 */
export function compareWho(
  scenario: string,
  id: number,
  truths: ReadonlyMap<string, Truth>,
  who: WhoProduct,
  whys: ReadonlyMap<string, Comparison>,
): WhoPair[] {
  const out: WhoPair[] = [];
  const listed = who.listed;
  for (const [user, truth] of truths) {
    const seen = truth.verdict === 'shown' ? truth.paths : [];
    const path = listed === null ? undefined : listed.has(user) ? (listed.get(user) ?? null) : undefined;
    const why = whys.get(user);
    let problem: string | null = null;
    let omittedAtCollision = false;
    let omittedByRequest = false;
    if (listed === null) problem = `who failed: ${who.raw}`;
    else if (path !== undefined && seen.length === 0)
      problem = `LISTED: who lists ${user} at ${path ?? 'no path'} for document ${id}, Nextcloud does not open it (truth ${truth.verdict})`;
    else if (path === undefined && seen.length > 0) {
      problem = `MISSING: ${user} sees document ${id} at ${seen.join(', ')}, who does not list ${user}`;
      omittedAtCollision = why?.omittedAtCollision === true && why.truth.verdict === 'shown';
      omittedByRequest = why?.omittedByRequest === true && why.truth.verdict === 'shown';
    } else if (path !== undefined && (path === null || !seen.includes(path)))
      problem = `who lists ${user} at ${path ?? 'no path'}, ${user} sees it at ${seen.join(', ')}`;
    let invariant: string | null = null;
    if (listed !== null && why !== undefined) {
      const shown = why.product.verdict === 'shown';
      if (shown !== (path !== undefined)) invariant = `who ${path === undefined ? 'omits' : 'lists'} ${user}, why ${user} ${id} says ${why.product.verdict}`;
      else if (shown && path !== why.product.path) invariant = `who lists ${user} at ${path ?? 'no path'}, why says shown at ${why.product.path ?? 'no path'}`;
    }
    out.push({ scenario, user, id, seen, listed: path, problem, omittedAtCollision, omittedByRequest, invariant });
  }
  for (const [user, path] of listed ?? [])
    if (!truths.has(user))
      out.push({
        scenario,
        user,
        id,
        seen: null,
        listed: path,
        problem: `LISTED: who lists ${user} at ${path ?? 'no path'} for document ${id}, an account the scenario did not make`,
        omittedAtCollision: false,
        invariant: null,
      });
  return out;
}

/** Who-pairs that fail a test: any disagreement with WebDAV but an allowed omission, and any break of the invariant. */
export const failingWho = (p: WhoPair): boolean => (p.problem !== null && !p.omittedAtCollision && p.omittedByRequest !== true) || p.invariant !== null;

export function describeWho(p: WhoPair): string {
  const what = [p.problem ?? 'agrees with WebDAV', ...(p.invariant === null ? [] : [`invariant: ${p.invariant}`])].join('; ');
  const allowed = p.omittedAtCollision
    ? ' (omitted at a colliding target, allowed as for why)'
    : p.omittedByRequest === true
      ? ' (omitted under an access rule that depends on the request, allowed as for why)'
      : '';
  return `[${p.scenario}] who ${p.id} / ${p.user}: ${what}${allowed}`;
}
