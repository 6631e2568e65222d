/**
 * A real Nextcloud server for tests: installed by `../shared/nextcloud/install.sh` on SQLite,
 * PostgreSQL or MariaDB into a fresh directory under the OS temp dir, with its own database and
 * a free port, served by `php -S` on loopback. Driven only through Nextcloud's own interfaces:
 * occ, WebDAV, the OCS sharing and provisioning APIs. No jest here, so tools may use it too.
 *
 * Nextcloud's PHP built-in server answers one request at a time: drive it sequentially.
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { NextcloudUser } from './client.js';
import { readRows, type Row } from './db.js';
import { endProcess, freePort, run, startPhpServer, trackServer, untrackServer, waitForHttp, type RunResult } from './processes.js';
import {
  DEFAULT_RELEASE,
  INSTALL_SCRIPT,
  nextcloudSource,
  overriddenSource,
  realNextcloudUnavailable,
  type NextcloudDb,
  type NextcloudRelease,
  type NextcloudSource,
} from './source.js';

export {
  DEFAULT_RELEASE,
  nextcloudSource,
  overriddenSource,
  realNextcloudUnavailable,
  releaseLabel,
  releaseTarball,
  SOURCE_ENV,
  type NextcloudDb,
  type NextcloudRelease,
  type NextcloudSource,
} from './source.js';
export { NextcloudUser, NextcloudHttpError, type ShareInfo, type ShareRequest } from './client.js';
export type { DavEntry } from './dav-xml.js';
export type { RunResult } from './processes.js';
export type { Row } from './db.js';

export const ADMIN_PASSWORD = 'Admin-pass-1234';

export interface InstallOptions {
  /** The vendored release to install (`<shared>/vendor/nextcloud-<release>.tar.xz`); default 34.0.1, the judge. */
  readonly release?: NextcloudRelease;
  /** A tarball or server tree; default: DUS_NEXTCLOUD_TARBALL, NEXTCLOUD_TARBALL (for every release), else the release's tarball. */
  readonly source?: string;
}

export interface ClockedServer {
  readonly url: string;
  stop(): Promise<void>;
}

export interface RealNextcloud {
  readonly db: NextcloudDb;
  /** The release the run asked for (what was installed unless DUS_NEXTCLOUD_TARBALL or `source` named another). */
  readonly release: NextcloudRelease;
  /** The installed version, `$OC_VersionString` of the installed tree's version.php, e.g. '34.0.1'. */
  readonly version: string;
  /** What was installed, for suite output: `Nextcloud 34.0.1`, plus the source when it is not the release's vendored tarball. */
  readonly label: string;
  readonly url: string;
  /** The server tree (holds occ and config/): what `dus --nextcloud` takes. */
  readonly serverDir: string;
  readonly dataDir: string;
  /** A URL `dus --host-db` takes. */
  readonly dbUrl: string;
  /** Nextcloud's table prefix (`oc_`). */
  readonly tablePrefix: string;
  /** Rows of one read-only statement on Nextcloud's own database (`?` placeholders): what it recorded. */
  rows(sql: string, params?: readonly unknown[]): Promise<Row[]>;
  /** How long the install took, in ms (reported by the suites). */
  readonly installMs: number;
  occ(args: readonly string[], env?: NodeJS.ProcessEnv): Promise<RunResult>;
  /** occ that must succeed: throws with its output otherwise. */
  occOk(args: readonly string[], env?: NodeJS.ProcessEnv): Promise<string>;
  /** The HTTP session of `login` (one cookie jar per account, kept for the whole run). */
  as(login: string, password?: string): NextcloudUser;
  readonly admin: NextcloudUser;
  /** Creates an account (provisioning API, as admin) and returns its session. */
  createUser(login: string, options?: { password?: string; groups?: readonly string[]; displayName?: string }): Promise<NextcloudUser>;
  createGroup(gid: string): Promise<void>;
  addToGroup(login: string, gid: string): Promise<void>;
  removeFromGroup(login: string, gid: string): Promise<void>;
  setEnabled(login: string, enabled: boolean): Promise<void>;
  /** occ config:app:set, or config:app:delete for null. */
  setAppConfig(app: string, key: string, value: string | null): Promise<void>;
  /**
   * Resolves once every earlier request has finished, the work PHP does after sending its answer
   * included: php -S serves one request at a time, so a status request answers only after them.
   */
  settled(): Promise<void>;
  /** A second php -S for the same instance whose clock runs `offset` (faketime syntax, e.g. '-3d'). */
  startClockedServer(offset: string): Promise<ClockedServer>;
  stop(): Promise<void>;
}

export const passwordOf = (login: string): string => `Pw-${login}-7a9f!`;

/** The same source as an .xz tarball, which is what install.sh unpacks; cached in the temp dir. */
export async function xzTarball(source: NextcloudSource): Promise<string> {
  if (source.kind === 'tarball' && /\.(tar\.xz|txz)$/.test(source.path)) return source.path;
  const stat = statSync(source.path);
  const key = createHash('sha256').update(`${source.path}\0${stat.mtimeMs}\0${stat.size}`).digest('hex').slice(0, 16);
  const cached = join(tmpdir(), `dus-nextcloud-source-${key}.tar.xz`);
  if (existsSync(cached)) return cached;
  let tree = source.path;
  let unpacked: string | null = null;
  if (source.kind === 'tarball') {
    unpacked = mkdtempSync(join(tmpdir(), 'dus-nextcloud-unpack-'));
    const untar = await run('tar', ['-xf', source.path, '-C', unpacked]);
    if (untar.code !== 0) throw new Error(`cannot unpack ${source.path}: ${untar.stderr}`);
    tree = join(unpacked, 'nextcloud');
    if (!existsSync(join(tree, 'occ'))) throw new Error(`${source.path} has no nextcloud/occ inside`);
  }
  // An installed tree's config.php and data would make maintenance:install refuse: leave them out.
  const partial = `${cached}.${process.pid}.partial`;
  const pack = await run('sh', [
    '-c',
    'tar -C "$1" --exclude=./config/config.php --exclude=./data --transform "s,^\\.,nextcloud," -cf - . | xz -0 -T2 > "$2"',
    'pack',
    tree,
    partial,
  ]);
  if (unpacked !== null) rmSync(unpacked, { recursive: true, force: true });
  if (pack.code !== 0) throw new Error(`cannot pack ${tree}: ${pack.stderr}`);
  renameSync(partial, cached);
  return cached;
}

async function dropDatabase(db: NextcloudDb, name: string): Promise<void> {
  if (db === 'pgsql')
    await run('psql', ['-h', '127.0.0.1', '-p', '5432', '-U', 'postgres', '-d', 'test', '-qc', `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`]);
  if (db === 'mysql') await run('mysql', ['-h', '127.0.0.1', '-P', '3306', '-u', 'root', '-e', `DROP DATABASE IF EXISTS ${name}`]);
}

/** `$OC_VersionString` of a server tree's version.php (e.g. '34.0.1'), or null when it has none. */
export function installedVersion(serverDir: string): string | null {
  const file = join(serverDir, 'version.php');
  if (!existsSync(file)) return null;
  const match = /\$OC_VersionString\s*=\s*['"]([^'"]+)['"]/.exec(readFileSync(file, 'utf8'));
  return match?.[1] ?? null;
}

export async function installNextcloud(db: NextcloudDb, options: InstallOptions = {}): Promise<RealNextcloud> {
  const release = options.release ?? DEFAULT_RELEASE;
  const named = options.source !== undefined ? resolve(options.source) : overriddenSource();
  const unavailable = realNextcloudUnavailable(db, release);
  if (unavailable !== null) throw new Error(`the real Nextcloud cannot run here: ${unavailable}`);
  const source = named === null ? nextcloudSource({}, release) : nextcloudSource({ DUS_NEXTCLOUD_TARBALL: named });
  if (typeof source === 'string') throw new Error(source);
  const started = Date.now();
  const tarball = await xzTarball(source);
  const root = mkdtempSync(join(tmpdir(), `dus-nextcloud-${db}-`));
  const dest = join(root, 'nc');
  const name = `dus_nc_${process.pid}_${randomBytes(3).toString('hex')}`;
  const port = await freePort();
  const installed = await run('bash', [INSTALL_SCRIPT, db, dest, String(port)], {
    env: { ...process.env, NEXTCLOUD_TARBALL: tarball, NC_DB_NAME: name, NC_ADMIN_PASS: ADMIN_PASSWORD },
  });
  const pidFile = join(dest, 'server.pid');
  const pid = existsSync(pidFile) ? Number(readFileSync(pidFile, 'utf8').trim()) : null;
  if (pid !== null) trackServer(pid);
  const cleanUp = async (): Promise<void> => {
    if (pid !== null) {
      await endProcess(pid);
      untrackServer(pid);
    }
    await dropDatabase(db, name);
    rmSync(root, { recursive: true, force: true });
  };
  if (installed.code !== 0) {
    const log = existsSync(join(dest, 'server.log')) ? readFileSync(join(dest, 'server.log'), 'utf8').slice(-2000) : '';
    await cleanUp();
    throw new Error(`install.sh ${db} failed (${installed.code}): ${installed.stderr.slice(-2000)}${installed.stdout.slice(-1000)}${log}`);
  }
  const url = `http://127.0.0.1:${port}`;
  const serverDir = join(dest, 'nextcloud');
  const version = installedVersion(serverDir) ?? 'unknown';
  if (named === null && version !== release) {
    await cleanUp();
    throw new Error(`${source.path} installed Nextcloud ${version}, not the ${release} it is named for`);
  }
  const label = named === null ? `Nextcloud ${version}` : `Nextcloud ${version} (from ${named})`;
  const dataDir = join(dest, 'data');
  const dbUrl =
    db === 'sqlite'
      ? `sqlite://${join(dataDir, `${name}.db`)}`
      : db === 'pgsql'
        ? `postgres://postgres@127.0.0.1:5432/${name}`
        : `mysql://root@127.0.0.1:3306/${name}`;
  const sessions = new Map<string, NextcloudUser>();
  const clocked = new Set<ClockedServer>();

  const occ = (args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<RunResult> =>
    run('php', ['occ', '--no-interaction', ...args], { cwd: serverDir, env: { ...process.env, ...env } });
  const occOk = async (args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<string> => {
    const answer = await occ(args, env);
    if (answer.code !== 0) throw new Error(`occ ${args.join(' ')} failed (${answer.code}): ${answer.stdout}${answer.stderr}`);
    return answer.stdout;
  };
  const as = (login: string, password = passwordOf(login)): NextcloudUser => {
    const known = sessions.get(login);
    if (known !== undefined) return known;
    const session = new NextcloudUser(url, login, password);
    sessions.set(login, session);
    return session;
  };
  const admin = as('admin', ADMIN_PASSWORD);
  const provisioning = async (what: string, method: string, path: string, form: Record<string, string | readonly string[]>): Promise<void> => {
    const body = new URLSearchParams();
    for (const [k, v] of Object.entries(form)) for (const one of typeof v === 'string' ? [v] : v) body.append(k, one);
    // A fresh session each time: Basic auth then counts as a password confirmation, which a
    // session older than 30 minutes would need for account changes (403 otherwise).
    const fresh = new NextcloudUser(url, 'admin', ADMIN_PASSWORD);
    const answer = await fresh.request(method, `/ocs/v2.php/cloud${path}?format=json`, { body, headers: { accept: 'application/json' } });
    if (answer.status !== 200) throw new Error(`${what}: HTTP ${answer.status} ${answer.body.slice(0, 300)}`);
  };

  return {
    db,
    release,
    version,
    label,
    url,
    serverDir,
    dataDir,
    dbUrl,
    tablePrefix: 'oc_',
    rows: (sql, params = []) => readRows(db, { file: db === 'sqlite' ? join(dataDir, `${name}.db`) : undefined, name }, sql, params),
    installMs: Date.now() - started,
    occ,
    occOk,
    as,
    admin,
    async createUser(login, o = {}) {
      const password = o.password ?? passwordOf(login);
      await provisioning(`create user ${login}`, 'POST', '/users', {
        userid: login,
        password,
        ...(o.displayName === undefined ? {} : { displayName: o.displayName }),
        ...(o.groups === undefined ? {} : { 'groups[]': o.groups }),
      });
      sessions.delete(login);
      return as(login, password);
    },
    async createGroup(gid) {
      await provisioning(`create group ${gid}`, 'POST', '/groups', { groupid: gid });
    },
    async addToGroup(login, gid) {
      await provisioning(`add ${login} to ${gid}`, 'POST', `/users/${encodeURIComponent(login)}/groups`, { groupid: gid });
    },
    async removeFromGroup(login, gid) {
      await occOk(['group:removeuser', gid, login]);
    },
    async setEnabled(login, enabled) {
      await occOk([enabled ? 'user:enable' : 'user:disable', login]);
    },
    async setAppConfig(app, key, value) {
      if (value === null) await occOk(['config:app:delete', app, key]);
      else await occOk(['config:app:set', app, key, `--value=${value}`]);
    },
    async settled() {
      await waitForHttp(`${url}/status.php`, pid === null ? {} : { pid });
    },
    async startClockedServer(offset) {
      const shift = offset.startsWith('+') || offset.startsWith('-') ? offset : `+${offset}`;
      const php = await startPhpServer(serverDir, { wrapper: ['faketime', '-f', shift] });
      const server: ClockedServer = {
        url: php.url,
        async stop() {
          await php.stop();
          clocked.delete(server);
        },
      };
      clocked.add(server);
      return server;
    },
    async stop() {
      for (const server of [...clocked]) await server.stop();
      await cleanUp();
    },
  };
}
