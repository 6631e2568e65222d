/**
 * A scenario's own corner of the shared real Nextcloud: its archive account (made the sync
 * add-on's `target_user` while it runs), its users and groups, all named with the scenario's
 * prefix so scenarios never meet. `judge()` compares every user × document at that moment.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { NextcloudUser, RealNextcloud } from '../support/real-nextcloud/index.js';
import {
  archiveFilesOf,
  compare,
  compareWho,
  describeProblem,
  markerIds,
  parseWho,
  parseWhy,
  truthOf,
  openProduct,
  viewOf,
  type Comparison,
  type UserView,
  type ProductAnswer,
  type Truth,
  type WhoPair,
  type WhoProduct,
} from './judge.js';
import { describeRecord, receivedShares, shareMounts, unsettledTargets } from './recorded.js';

/** The built CLI, as an administrator runs it. */
export const CLI = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', 'bin', 'docs-unified-search.cjs');

/** The built CLI with `args`, `--json` and `--nextcloud` (config.php read by php), as an administrator runs it: exit code and both outputs. */
function cliSpawned(configDir: string, serverDir: string, args: readonly string[]): Promise<{ code: number; out: string; err: string }> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [CLI, '--config-dir', configDir, ...args, '--json', '--nextcloud', serverDir], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (err += c));
    child.on('error', reject);
    child.on('close', (code) => resolvePromise({ code: code ?? 1, out, err }));
  });
}

/** `why` through the built CLI. */
export async function whySpawned(configDir: string, serverDir: string, user: string, id: number): Promise<ProductAnswer> {
  const { code, out, err } = await cliSpawned(configDir, serverDir, ['why', user, String(id)]);
  return parseWhy(code, out, err);
}

/** `who <id> --json` through the built CLI. */
export async function whoSpawned(configDir: string, serverDir: string, id: number): Promise<WhoProduct> {
  const { code, out, err } = await cliSpawned(configDir, serverDir, ['who', String(id)]);
  return parseWho(code, out, err);
}

export interface ScenarioWorld {
  readonly nc: RealNextcloud;
  readonly prefix: string;
  /** The scenario's archive account login and session. */
  readonly archive: string;
  readonly archiveUser: NextcloudUser;
  /** The prefixed login of `name`. */
  login(name: string): string;
  /** Creates `name` (prefixed) on first use; later calls return its session. */
  user(name: string): Promise<NextcloudUser>;
  /** Creates these users (prefixed) up front. */
  users(...names: readonly string[]): Promise<void>;
  /** Creates the group (prefixed) with these members; returns its id. */
  group(name: string, members: readonly string[]): Promise<string>;
  /** Compares every user of the scenario (the archive account too) × `ids` now. */
  judge(label: string, ids: readonly number[]): Promise<void>;
  /**
   * Prints and keeps (ConformanceRun.records) what Nextcloud recorded for the scenario's users now:
   * received shares with their targets (oc_share) and share mounts (oc_mounts).
   */
  record(label: string): Promise<void>;
  /** Runs after the scenario, also when it fails (global settings it changed). */
  onCleanup(fn: () => Promise<void>): void;
}

export interface ConformanceRun {
  readonly comparisons: Comparison[];
  /**
   * Pairs also asked through the spawned CLI, and how many answered as in-process; `who`: one
   * document per scenario through `who <id> --json` (its differences join `differences`).
   */
  spawnedChecks: { total: number; same: number; differences: string[]; whoTotal: number; whoSame: number };
  /** Every account × document as `who <id>` answers it, judged by WebDAV and by `why` (judge.ts compareWho). */
  readonly whoPairs: WhoPair[];
  /** What Nextcloud recorded, by ScenarioWorld.record: `[scenario · label]` then one line per user. */
  readonly records?: string[];
  /**
   * Each omission at a colliding target asked again once the judgement's listings are done,
   * against the same WebDAV truth: 33.0.1 renames colliding shares apart (and moves a share off
   * the user's own file) when a user lists, so there the product must then agree; 34.0.1 keeps
   * them, so the omission stays allowed.
   */
  readonly afterListing: Comparison[];
  /** The same for `who <id>`: each document with an account `who` omitted at a colliding target, asked again (and `why` for every account of it). */
  readonly whoAfterListing: WhoPair[];
}

/** Installs where File access control is enabled: their judgements GET the marked files the trees show (a denied file lists but does not open). */
export const accessControlled = new WeakSet<RealNextcloud>();

let scenarioCounter = 0;

export async function runScenario(nc: RealNextcloud, run: ConformanceRun, name: string, body: (s: ScenarioWorld) => Promise<void>): Promise<void> {
  scenarioCounter += 1;
  const scenarioNumber = scenarioCounter;
  const prefix = `c${scenarioNumber}_`;
  const configDir = mkdtempSync(join(tmpdir(), 'dus-conformance-'));
  const archive = `${prefix}archive`;
  const archiveUser = await nc.createUser(archive);
  await nc.setAppConfig('docs_sync', 'target_user', archive);
  const users = new Map<string, NextcloudUser>([[archive, archiveUser]]);
  const cleanups: (() => Promise<void>)[] = [];
  let judged = 0;
  /** Once the scenario recorded what Nextcloud wrote, each judgement also records what each user's WebDAV tree showed. */
  let recording = false;
  const world: ScenarioWorld = {
    nc,
    prefix,
    archive,
    archiveUser,
    login: (n) => `${prefix}${n}`,
    async user(n) {
      const login = `${prefix}${n}`;
      const known = users.get(login);
      if (known !== undefined) return known;
      const session = await nc.createUser(login);
      users.set(login, session);
      return session;
    },
    async users(...names) {
      for (const n of names) await world.user(n);
    },
    async group(n, members) {
      const gid = `${prefix}${n}`;
      await nc.createGroup(gid);
      for (const member of members) {
        await world.user(member);
        await nc.addToGroup(`${prefix}${member}`, gid);
      }
      return gid;
    },
    async judge(label, ids) {
      const scenario = `${name} · ${label}`;
      const logins = [...users.keys()];
      // The product first: Nextcloud's listing may tidy rows up (an expired share is deleted on first listing).
      // Nextcloud's trailing work (after its last answer) is done: the suite judges a settled state.
      await nc.settled();
      // Where two shares reach one user at one target as the product answers, or a share's target
      // is one of her own files (33.0.1 moves such shares at her next setup: the listing below).
      const collisions = await unsettledTargets(nc, await receivedShares(nc, logins));
      const answers = new Map<string, ProductAnswer>();
      const whoAnswers = new Map<number, WhoProduct>();
      const product = await openProduct(configDir, nc.serverDir);
      try {
        for (const login of logins) for (const id of ids) answers.set(`${login}/${id}`, await product.why(login, id));
        for (const id of ids) whoAnswers.set(id, await product.who(id));
      } finally {
        await product.close();
      }
      // One pair per judgement through the built CLI as an administrator runs it, rotating over users and ids, before
      // Nextcloud lists anything too (a first listing can move a recipient's colliding share to another target).
      const login = logins[judged % logins.length] ?? archive;
      const id = ids[judged % ids.length] ?? 1;
      judged += 1;
      const spawned = await whySpawned(configDir, nc.serverDir, login, id);
      const inProcess = answers.get(`${login}/${id}`);
      run.spawnedChecks.total += 1;
      if (inProcess !== undefined && spawned.raw === inProcess.raw) run.spawnedChecks.same += 1;
      else
        run.spawnedChecks.differences.push(`[${scenario}] ${login}/${id}: the CLI printed ${spawned.raw}, the core call gave ${inProcess?.raw ?? 'nothing'}`);
      // And one document per scenario through the built `who --json` (a spawn costs more than the core call), ids rotating over scenarios.
      if (judged === 1) {
        const whoId = ids[scenarioNumber % ids.length] ?? 1;
        const whoCli = await whoSpawned(configDir, nc.serverDir, whoId);
        const whoCore = whoAnswers.get(whoId);
        run.spawnedChecks.whoTotal += 1;
        if (whoCore !== undefined && whoCli.raw === whoCore.raw) run.spawnedChecks.whoSame += 1;
        else run.spawnedChecks.differences.push(`[${scenario}] who ${whoId}: the CLI printed ${whoCli.raw}, the core call gave ${whoCore?.raw ?? 'nothing'}`);
      }
      const archiveFiles = await archiveFilesOf(nc, archive);
      const views = new Map<string, UserView>();
      const ownNames = new Map<number, string>(archiveFiles.flatMap((f) => (f.fileId === null ? [] : [[f.fileId, f.name] as const])));
      for (const [login, session] of users) {
        const view = await viewOf(session);
        views.set(login, view);
        for (const f of view.files ?? []) if (f.fileId !== null && f.ownerId === login) ownNames.set(f.fileId, f.name);
      }
      if (recording) {
        const bare = (login: string): string => (login.startsWith(prefix) ? login.slice(prefix.length) : login);
        const lines = [...views]
          .filter(([login]) => login !== archive)
          .map(([login, view]) => {
            const folders = new Map<string, Set<string>>();
            for (const f of view.files ?? []) {
              const folder = f.path.includes('/') ? f.path.slice(0, f.path.lastIndexOf('/')) : '';
              folders.set(folder, (folders.get(folder) ?? new Set<string>()).add(bare(f.ownerId ?? '?')));
            }
            const shown = [...folders].sort(([a], [b]) => a.localeCompare(b)).map(([folder, owners]) => `/${folder} (${[...owners].join(', ')})`);
            return `${bare(login)}: ${view.files === null ? 'cannot log in' : shown.join('; ') || 'no files'}`;
          });
        const text = `[${scenario}] WebDAV: folders holding files, with the files' owners\n    ${lines.join('\n    ')}`;
        run.records?.push(text);
        process.stdout.write(`record (${nc.label}, ${nc.db}) ${text}\n`);
      }
      // With File access control on, a listed file may not open: GET each marked file the trees show (only those).
      const refused = new Map<string, Set<string>>();
      if (accessControlled.has(nc)) {
        for (const [login, view] of views) {
          const wanted = (view.files ?? []).filter((f) => markerIds(ownNames.get(f.fileId ?? -1) ?? f.name).some((m) => ids.includes(m)));
          const session = users.get(login);
          if (session === undefined) continue;
          const failed = new Set<string>();
          for (const f of wanted) if (!(await session.opens(f.path))) failed.add(f.path);
          refused.set(login, failed);
        }
      }
      const truths = new Map<number, Map<string, Truth>>(ids.map((id) => [id, new Map()]));
      const whys = new Map<number, Map<string, Comparison>>(ids.map((id) => [id, new Map()]));
      for (const [login, view] of views) {
        for (const id of ids) {
          const answer = answers.get(`${login}/${id}`);
          if (answer === undefined) continue;
          const truth = truthOf(view, archiveFiles, archive, id, ownNames, refused.get(login));
          const comparison = compare(scenario, login, id, truth, answer, collisions.get(login));
          run.comparisons.push(comparison);
          truths.get(id)?.set(login, truth);
          whys.get(id)?.set(login, comparison);
          if (process.env.DUS_CONFORMANCE_VERBOSE === '1') process.stdout.write(`${describeProblem(comparison)} [truth ${comparison.truth.verdict}]\n`);
        }
      }
      // `who <id>` against the same WebDAV trees: no request to Nextcloud beyond those above.
      const whoOmittedIds = new Set<number>();
      for (const id of ids) {
        const who = whoAnswers.get(id);
        if (who === undefined) continue;
        const pairs = compareWho(scenario, id, truths.get(id) ?? new Map(), who, whys.get(id) ?? new Map());
        run.whoPairs.push(...pairs);
        if (pairs.some((p) => p.omittedAtCollision)) whoOmittedIds.add(id);
      }
      const omissions = [...whys.values()].flatMap((byLogin) => [...byLogin.values()]).filter((c) => c.omittedAtCollision);
      if (omissions.length > 0 || whoOmittedIds.size > 0) {
        const after = `${scenario} · after the listings`;
        const remaining = await unsettledTargets(nc, await receivedShares(nc, logins));
        const again = await openProduct(configDir, nc.serverDir);
        // Each pair is asked once: a document `who` is asked again for needs `why` of every account.
        const asked = new Map<string, Comparison>();
        const whyAgain = async (login: string, id: number, truth: Truth): Promise<Comparison> => {
          const key = `${login}/${id}`;
          const known = asked.get(key);
          if (known !== undefined) return known;
          const comparison = compare(after, login, id, truth, await again.why(login, id), remaining.get(login));
          asked.set(key, comparison);
          return comparison;
        };
        try {
          for (const c of omissions) run.afterListing.push(await whyAgain(c.user, c.id, c.truth));
          for (const id of whoOmittedIds) {
            const truthsOfId = truths.get(id) ?? new Map<string, Truth>();
            const whysAfter = new Map<string, Comparison>();
            for (const [login, truth] of truthsOfId) whysAfter.set(login, await whyAgain(login, id, truth));
            run.whoAfterListing.push(...compareWho(after, id, truthsOfId, await again.who(id), whysAfter));
          }
        } finally {
          await again.close();
        }
      }
    },
    async record(label) {
      recording = true;
      await nc.settled();
      const logins = [...users.keys()];
      const lines = describeRecord(await receivedShares(nc, logins), await shareMounts(nc, logins), prefix);
      const text = `[${name} · ${label}]\n    ${lines.join('\n    ')}`;
      run.records?.push(text);
      process.stdout.write(`record (${nc.label}, ${nc.db}) ${text}\n`);
    },
    onCleanup(fn) {
      cleanups.push(fn);
    },
  };
  try {
    await body(world);
  } finally {
    for (const fn of cleanups.reverse()) await fn();
    rmSync(configDir, { recursive: true, force: true });
  }
}
