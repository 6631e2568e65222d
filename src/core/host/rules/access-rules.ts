/**
 * The deny rules of "File access control" (files_accesscontrol): another way a file is kept from
 * a user, after the share rules let it through. Its rules live in the workflow engine's tables
 * (`flow_operations`, `flow_checks`, `flow_operations_scope`); the app wraps every storage and
 * runs, at each access, the rules of its operation class in the admin scope with the checks of
 * each rule ANDed (workflowengine `RuleMatcher::getFlows`: a check that fails skips the rule).
 *
 * What it lets through: a file for which no rule matches, as the file itself and as every folder
 * on the way to it, in the owner's storage (name and tags as the owner has them, tags of every
 * folder above) and, for a file reached through a share, in the shared storage too (the share's
 * root has the name '' there; tags of the folders up to the shared one).
 * What it blocks: a file where a rule's checks all match in one of those views (certain), or
 * where a rule's checks can only be answered by the request itself (address, time, user agent,
 * URL, the upload size headers) or by a check class not read here (undecided: never shown).
 * The sentence `why` says: `why.access_rule.blocked` / `why.access_rule.undecided` with the rule's
 * name and its checks (accessRuleMessage). docs/host-adapter.md, "File access control".
 */
import { msg, type Message } from '../../i18n/catalog.js';
import type { Dialect, SqlRow, SqlValue } from '../db/types.js';
import { rowNumber as num, rowText as text, placeholders, type Statement } from './lookup-sql.js';
import { branch } from './row-branch.js';

/** The operation class files_accesscontrol registers (a PHP class name as stored). */
export const ACCESS_CONTROL_OPERATION = 'OCA\\FilesAccessControl\\Operation';
const CHECK = 'OCA\\WorkflowEngine\\Check\\';
/** `flow_operations_scope.type` of the admin scope: the only one the app's operation accepts (`isAvailableForScope`). */
const ADMIN_SCOPE = 0;
/** `OCP\Constants::PERMISSION_READ`. */
const READ = 1;
/** The mimetype the engine does not trust from the cache: it sniffs the content then (`FileMimeType::getActualValue`). */
const OCTET_STREAM = 'application/octet-stream';

export interface AccessCheck {
  readonly class: string;
  readonly operator: string;
  readonly value: string;
}

export interface AccessRule {
  readonly id: number;
  readonly name: string;
  /** `deny`, or (5.0.0) a JSON object with `permissions`. */
  readonly operation: string;
  /** null when a check id the rule names is missing (`Manager::getChecks` throws: the access fails). */
  readonly checks: readonly AccessCheck[] | null;
}

export interface AccessRuleSet {
  /** files_accesscontrol's `installed_version`; the app's major decides how a matched rule's operation is read. */
  readonly appVersion: string | null;
  readonly rules: readonly AccessRule[];
  readonly tagNames: ReadonlyMap<number, string>;
}

/** One node (the file or a folder above it) as one storage presents it to the checks. */
export interface NodeView {
  /** `FileName` reads basename(path in that storage): '' for the root of a shared storage. */
  readonly name: string;
  readonly mimetype: string;
  /** Tags of the node and of its parents in that storage (`FileSystemTags::getFileIds`). */
  readonly tags: ReadonlySet<number>;
}

/** An access as the checks see it: the asking account's groups and every node view the access passes. */
export interface AccessSubject {
  readonly groups: ReadonlySet<string>;
  /**
   * Groups the database backend holds (`groups`). A group of another backend (LDAP) has its
   * members in the directory, not in `group_user`: a check on it is not decided here.
   */
  readonly knownGroups?: ReadonlySet<string>;
  readonly views: readonly NodeView[];
}

type Tri = 'yes' | 'no' | 'unknown';

export type AccessOutcome =
  | { readonly kind: 'open' }
  /** `certain` false: the rule's outcome depends on the request (or a check not read here). */
  | { readonly kind: 'blocked'; readonly rule: AccessRule; readonly certain: boolean };

/** A PHP (PCRE) pattern as JavaScript reads it, or null where the two could differ. */
export function phpRegex(pattern: string): RegExp | null {
  const open = pattern.charAt(0);
  if (open === '' || /[a-zA-Z0-9\\\s]/.test(open)) return null;
  const close = ({ '(': ')', '{': '}', '[': ']', '<': '>' } as Record<string, string>)[open] ?? open;
  const end = pattern.lastIndexOf(close);
  if (end <= 0) return null;
  const body = pattern.slice(1, end);
  const flags = pattern.slice(end + 1);
  // i, m, s and u mean the same in both; x, D, U, A and the others have no JavaScript twin.
  if (!/^[imsu]*$/.test(flags)) return null;
  try {
    // 'u' always: JavaScript then refuses escapes it does not know (\A, \z, \h) instead of
    // reading them as letters, so a pattern that could mean something else is never guessed.
    return new RegExp(body, `${[...new Set(flags.replace('u', ''))].join('')}u`);
  } catch {
    return null;
  }
}

/** `AbstractStringCheck::executeStringCheck` (FileName lower-cases both sides for is / !is). */
function stringCheck(operator: string, expected: string, actual: string, lower: boolean): Tri {
  const a = lower ? actual.toLowerCase() : actual;
  const e = lower ? expected.toLowerCase() : expected;
  if (operator === 'is') return e === a ? 'yes' : 'no';
  if (operator === '!is') return e !== a ? 'yes' : 'no';
  const re = phpRegex(expected);
  if (re === null) return 'unknown';
  const matched = re.test(actual);
  if (operator === 'matches') return matched ? 'yes' : 'no';
  return matched ? 'no' : 'yes';
}

/** Whether the class is answered by the request alone (and so cannot be decided ahead of it). */
export function requestBound(checkClass: string): boolean {
  return ['RequestRemoteAddress', 'RequestTime', 'RequestURL', 'RequestUserAgent', 'FileSize'].some((c) => checkClass === `${CHECK}${c}`);
}

/** One check of a rule for one node view, as the workflow engine's check class answers it. */
export function checkOutcome(check: AccessCheck, groups: ReadonlySet<string>, view: NodeView, knownGroups?: ReadonlySet<string>): Tri {
  switch (check.class) {
    case `${CHECK}FileName`:
      return stringCheck(check.operator, check.value, view.name, check.operator === 'is' || check.operator === '!is');
    case `${CHECK}FileMimeType`:
      // The cache's type unless it is octet-stream: then the engine reads the content.
      if (view.mimetype === OCTET_STREAM || view.mimetype === '') return 'unknown';
      return stringCheck(check.operator, check.value, view.mimetype, false);
    case `${CHECK}FileSystemTags`: {
      // in_array($value, $tagIds): loose, a numeric string equals the id.
      const id = Number(check.value);
      const has = Number.isInteger(id) && check.value.trim() !== '' && view.tags.has(id);
      if (check.operator === 'is') return has ? 'yes' : 'no';
      if (check.operator === '!is') return has ? 'no' : 'yes';
      return 'unknown';
    }
    case `${CHECK}UserGroupMembership`:
      if (knownGroups !== undefined && !knownGroups.has(check.value)) return 'unknown';
      if (check.operator === 'is') return groups.has(check.value) ? 'yes' : 'no';
      if (check.operator === '!is') return groups.has(check.value) ? 'no' : 'yes';
      return 'unknown';
    default:
      // The request's own facts, or a class of another app: not decidable here.
      return 'unknown';
  }
}

/** A rule for one view: every check must match (false wins, then unknown). */
function ruleOutcome(rule: AccessRule, groups: ReadonlySet<string>, view: NodeView, knownGroups?: ReadonlySet<string>): Tri {
  if (rule.checks === null) return 'unknown';
  let result: Tri = 'yes';
  for (const check of rule.checks) {
    const one = checkOutcome(check, groups, view, knownGroups);
    if (one === 'no') return 'no';
    if (one === 'unknown') result = 'unknown';
  }
  return result;
}

/**
 * Whether a matched rule keeps the file from being read. 4.x: every matched rule of the class
 * denies (`getFlows()` returns the first match, and any match throws). 5.x: `deny` denies; a
 * rule granting permissions lets a read through when READ is among them (with several matched,
 * 5.0.0 ORs them: a rule without READ is taken as blocking, the side that cannot leak).
 */
function blocksReading(rule: AccessRule, appVersion: string | null): boolean {
  const major = Number((appVersion ?? '').split('.')[0]);
  if (!Number.isInteger(major) || major < 5 || rule.operation === 'deny') return true;
  try {
    const parsed: unknown = JSON.parse(rule.operation);
    const permissions = typeof parsed === 'object' && parsed !== null && 'permissions' in parsed ? Number(parsed.permissions) : 0;
    return (permissions & READ) !== READ;
  } catch {
    // Not JSON: 5.0.0 skips it, so it neither grants nor denies.
    return false;
  }
}

/** The first rule that blocks this access for certain, else the first that may, else open. */
export function accessOutcome(set: AccessRuleSet | null, subject: AccessSubject): AccessOutcome {
  if (set === null) return { kind: 'open' };
  let undecided: AccessRule | null = null;
  for (const rule of set.rules) {
    if (!blocksReading(rule, set.appVersion)) continue;
    for (const view of subject.views) {
      const outcome = ruleOutcome(rule, subject.groups, view, subject.knownGroups);
      if (outcome === 'yes') return { kind: 'blocked', rule, certain: true };
      if (outcome === 'unknown' && undecided === null) undecided = rule;
    }
  }
  return undecided === null ? { kind: 'open' } : { kind: 'blocked', rule: undecided, certain: false };
}

const DECIDABLE = new Set(['FileName', 'FileMimeType', 'FileSystemTags', 'UserGroupMembership'].map((c) => `${CHECK}${c}`));

/**
 * Whether a rule can block a file without the request deciding it (`check` and the overview say
 * which cannot): every check of a class read here, and every pattern one JavaScript reads alike.
 */
export function decidableRule(rule: AccessRule): boolean {
  return (
    rule.checks !== null &&
    rule.checks.every((c) => DECIDABLE.has(c.class) && (!(c.operator === 'matches' || c.operator === '!matches') || phpRegex(c.value) !== null))
  );
}

/** What `check` and the overview say about File access control: null when it is off or has no rule. */
export interface AccessRulesSummary {
  readonly rules: readonly string[];
  /** The rules whose outcome depends on the request (or a check not read here): their files are never shown to whom they may block. */
  readonly undecided: readonly string[];
}

export function accessRulesSummary(set: AccessRuleSet | null): AccessRulesSummary | null {
  if (set === null) return null;
  const named = (r: AccessRule): string => (r.name === '' ? `#${r.id}` : r.name);
  return { rules: set.rules.map(named), undecided: set.rules.filter((r) => !decidableRule(r)).map(named) };
}

/** A check in words, for `why`. */
function checkMessage(check: AccessCheck, tagNames: ReadonlyMap<number, string>): Message {
  const negated = check.operator.startsWith('!');
  const short = check.class.startsWith(CHECK) ? check.class.slice(CHECK.length) : check.class;
  switch (short) {
    case 'FileSystemTags': {
      const tag = tagNames.get(Number(check.value)) ?? `#${check.value}`;
      return negated ? msg('why.access_rule.check.not_tag', { tag }) : msg('why.access_rule.check.tag', { tag });
    }
    case 'UserGroupMembership':
      return negated ? msg('why.access_rule.check.not_group', { group: check.value }) : msg('why.access_rule.check.group', { group: check.value });
    default:
      return msg('why.access_rule.check.other', { check: short, operator: check.operator, value: check.value });
  }
}

/** The rule's checks in words, joined. */
function checksMessage(rule: AccessRule, tagNames: ReadonlyMap<number, string>): Message {
  const parts = (rule.checks ?? []).map((c) => checkMessage(c, tagNames));
  let joined: Message = parts[0] ?? msg('why.access_rule.check.missing');
  for (const next of parts.slice(1)) joined = msg('why.access_rule.check.and', { first: joined, next });
  return joined;
}

/** The sentence `why` (and `who --include-blocked`) says for a blocked access. */
export function accessRuleMessage(outcome: Extract<AccessOutcome, { kind: 'blocked' }>, set: AccessRuleSet | null, user: string): Message {
  const checks = checksMessage(outcome.rule, set?.tagNames ?? new Map());
  const rule = outcome.rule.name === '' ? `#${outcome.rule.id}` : outcome.rule.name;
  return outcome.certain ? msg('why.access_rule.blocked', { user, rule, checks }) : msg('why.access_rule.undecided', { user, rule, checks });
}

/** A node of the owner's storage with the tags on it (lookup of the ancestors, `N` rows). */
export interface StoredNode {
  readonly fileId: number;
  readonly storage: number;
  readonly path: string;
  readonly name: string;
  readonly mimetype: string;
  readonly tags: Set<number>;
}

/** The paths from `path` up to its first segment (`files/a/b.pdf` → itself, `files/a`, `files`). */
export function ancestorPaths(path: string): string[] {
  const out: string[] = [];
  for (let p = path; p !== ''; p = p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : '') out.push(p);
  return out;
}

/** `ancestorPaths`, and the storage's root ('') last where its tags count (`viewsOf`'s `storageRoot`). */
export function storagePaths(path: string, storageRoot: boolean): string[] {
  const out = ancestorPaths(path);
  if (storageRoot) out.push('');
  return out;
}

/**
 * The statement that reads the rules and, for the nodes asked (storage → paths, md5 hashed),
 * each node with its tags: rows `V` (the app's switches), `O` (rules of the admin scope), `K`
 * (checks), `T` (tag names), `G` (the asking account's direct groups, as `getUserGroupIds`
 * answers for the database backend), `H` (which groups named by group checks the database
 * backend holds) and `N` (a node, one row per tag).
 */
export function buildAccessFacts(
  dialect: Dialect,
  prefix: string,
  user: string,
  nodes: ReadonlyMap<number, readonly string[]>,
  md5: (s: string) => string,
): Statement {
  const p = prefix;
  const params: SqlValue[] = [];
  const selects: string[] = [];
  selects.push(
    branch(["'V'", 'NULL', 'NULL', 'NULL', 'NULL', 'NULL', 'NULL', 'configkey', 'configvalue', 'NULL', 'NULL'], `FROM ${p}appconfig`, dialect) +
      ` WHERE appid = 'files_accesscontrol' AND configkey IN ('enabled', 'installed_version')`,
  );
  selects.push(
    branch(
      ["'O'", 'o.id', 'NULL', 'NULL', 'NULL', 'NULL', 'NULL', 'o.name', 'o.operation', 'o.checks', 'NULL'],
      `FROM ${p}flow_operations o WHERE o.class = ? AND o.id IN (SELECT sc.operation_id FROM ${p}flow_operations_scope sc WHERE sc.type = ${ADMIN_SCOPE})`,
      dialect,
    ),
  );
  params.push(ACCESS_CONTROL_OPERATION);
  selects.push(branch(["'K'", 'c.id', 'NULL', 'NULL', 'NULL', 'NULL', 'NULL', 'c.class', 'c.operator', 'c.value', 'NULL'], `FROM ${p}flow_checks c`, dialect));
  selects.push(branch(["'T'", 't.id', 'NULL', 'NULL', 'NULL', 'NULL', 'NULL', 't.name', 'NULL', 'NULL', 'NULL'], `FROM ${p}systemtag t`, dialect));
  selects.push(
    branch(["'G'", 'NULL', 'NULL', 'NULL', 'NULL', 'NULL', 'NULL', 'gu.gid', 'NULL', 'NULL', 'NULL'], `FROM ${p}group_user gu WHERE gu.uid = ?`, dialect),
  );
  params.push(user);
  selects.push(
    branch(
      ["'H'", 'NULL', 'NULL', 'NULL', 'NULL', 'NULL', 'NULL', 'g.gid', 'NULL', 'NULL', 'NULL'],
      `FROM ${p}groups g WHERE g.gid IN (SELECT uc.value FROM ${p}flow_checks uc WHERE uc.class = ?)`,
      dialect,
    ),
  );
  params.push(`${CHECK}UserGroupMembership`);
  const asText = dialect === 'pgsql' ? 'VARCHAR' : dialect === 'mysql' ? 'CHAR' : 'TEXT';
  const where: string[] = [];
  for (const [storage, paths] of nodes) {
    if (paths.length === 0) continue;
    where.push(`(f.storage = ? AND f.path_hash IN (${placeholders(paths.length)}))`);
    params.push(storage, ...paths.map(md5));
  }
  if (where.length > 0) {
    selects.push(
      branch(
        ["'N'", 'f.fileid', 'f.storage', 'm.systemtagid', 'NULL', 'NULL', 'NULL', 'f.path', 'f.name', 'fm.mimetype', 'NULL'],
        `FROM ${p}filecache f JOIN ${p}mimetypes fm ON fm.id = f.mimetype` +
          ` LEFT JOIN ${p}systemtag_object_mapping m ON m.objecttype = 'files' AND m.objectid = CAST(f.fileid AS ${asText})` +
          ` WHERE ${where.join(' OR ')}`,
        dialect,
      ),
    );
  }
  return { sql: selects.join(' UNION ALL '), params };
}

export interface AccessFacts {
  /** null: the app is not enabled (or has no rule): nothing is blocked. */
  readonly rules: AccessRuleSet | null;
  readonly groups: ReadonlySet<string>;
  /** The database backend's groups among those the rules' group checks name. */
  readonly knownGroups: ReadonlySet<string>;
  /** By storage, then path. */
  readonly nodes: ReadonlyMap<number, ReadonlyMap<string, StoredNode>>;
}

/** File access control's `enabled` value alone (column `v`), for `who` and `check`. */
export function buildAccessControlSwitch(prefix: string): Statement {
  return { sql: `SELECT configvalue AS v FROM ${prefix}appconfig WHERE appid = 'files_accesscontrol' AND configkey = 'enabled'`, params: [] };
}

/** Whether an app's `enabled` value loads it: 'yes' or a group list; 'no' or no row does not. */
export function appEnabled(value: string | null): boolean {
  return value !== null && value !== 'no' && value !== '';
}

export function accessFactsOf(rows: readonly SqlRow[]): AccessFacts {
  const config = new Map<string, string>();
  const operations: { id: number; name: string; operation: string; checks: string }[] = [];
  const checks = new Map<number, AccessCheck>();
  const tagNames = new Map<number, string>();
  const groups = new Set<string>();
  const knownGroups = new Set<string>();
  const nodes = new Map<number, Map<string, StoredNode>>();
  for (const row of rows) {
    switch (text(row.k)) {
      case 'V':
        config.set(text(row.t1) ?? '', text(row.t2) ?? '');
        break;
      case 'O':
        operations.push({ id: num(row.a), name: text(row.t1) ?? '', operation: text(row.t2) ?? '', checks: text(row.t3) ?? '[]' });
        break;
      case 'K':
        checks.set(num(row.a), { class: text(row.t1) ?? '', operator: text(row.t2) ?? '', value: text(row.t3) ?? '' });
        break;
      case 'T':
        tagNames.set(num(row.a), text(row.t1) ?? '');
        break;
      case 'G':
        groups.add(text(row.t1) ?? '');
        break;
      case 'H':
        knownGroups.add(text(row.t1) ?? '');
        break;
      case 'N': {
        const storage = num(row.b);
        const path = text(row.t1) ?? '';
        let byPath = nodes.get(storage);
        if (byPath === undefined) {
          byPath = new Map();
          nodes.set(storage, byPath);
        }
        let node = byPath.get(path);
        if (node === undefined) {
          node = { fileId: num(row.a), storage, path, name: text(row.t2) ?? '', mimetype: text(row.t3) ?? '', tags: new Set() };
          byPath.set(path, node);
        }
        if (row.c !== null && row.c !== undefined) node.tags.add(num(row.c));
        break;
      }
      default:
        break;
    }
  }
  const rules: AccessRule[] = operations
    .sort((a, b) => a.id - b.id)
    .map((o) => {
      let ids: unknown;
      try {
        ids = JSON.parse(o.checks);
      } catch {
        ids = null;
      }
      const list = Array.isArray(ids) ? ids.map((id) => checks.get(Number(id))) : [undefined];
      const found = list.every((c): c is AccessCheck => c !== undefined);
      return { id: o.id, name: o.name, operation: o.operation, checks: found ? list : null };
    });
  const on = appEnabled(config.get('enabled') ?? null) && rules.length > 0;
  return { rules: on ? { appVersion: config.get('installed_version') ?? null, rules, tagNames } : null, groups, knownGroups, nodes };
}

/**
 * The node views an access to `file` passes: in the owner's storage each node from the file up
 * to `top` (the shared node, or the owner's first folder below `files`) with the tags of all
 * nodes above it to `files`; through a share, the same nodes in the shared storage, the shared
 * node named '' and tags counted from it down. A node the host lacks makes no view: the access
 * would fail in Nextcloud too. `storageRoot`: the storage is not a home storage (an external
 * storage), whose root's tags the workflow engine counts too (`FileSystemTags::getFileIds` stops
 * below the root only on a home storage); ask its path '' with the others (`storagePaths`).
 */
export function viewsOf(facts: AccessFacts, storage: number, filePath: string, sharedRoot: string | null, storageRoot = false): NodeView[] {
  const byPath = facts.nodes.get(storage) ?? new Map<string, StoredNode>();
  const chain = storagePaths(filePath, storageRoot);
  const views: NodeView[] = [];
  const top = sharedRoot ?? chain.filter((p) => p.includes('/')).at(-1) ?? filePath;
  const tagsFrom = (paths: readonly string[]): Set<number> => {
    const out = new Set<number>();
    for (const path of paths) for (const tag of byPath.get(path)?.tags ?? []) out.add(tag);
    return out;
  };
  for (let i = 0; i < chain.length; i += 1) {
    const path = chain[i] ?? '';
    const node = byPath.get(path);
    if (node !== undefined) {
      const mimetype = node.mimetype;
      views.push({ name: node.name, mimetype, tags: tagsFrom(chain.slice(i)) });
      if (sharedRoot !== null) {
        const inShare = chain.slice(i, chain.indexOf(sharedRoot) + 1);
        views.push({ name: path === sharedRoot ? '' : node.name, mimetype, tags: tagsFrom(inShare) });
      }
    }
    if (path === top) break;
  }
  return views;
}
