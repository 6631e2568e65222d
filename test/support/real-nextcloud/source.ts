/**
 * Where the real Nextcloud comes from: the install script of `../shared/nextcloud/` and the
 * server tree it installs (the vendored tarball, or the user's own tarball or unpacked tree
 * named by DUS_NEXTCLOUD_TARBALL / NEXTCLOUD_TARBALL). Everything here is synchronous so a
 * test file can decide at load time whether to run or to skip with a printed reason.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export type NextcloudDb = 'sqlite' | 'pgsql' | 'mysql';

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/**
 * `../shared` beside the repository; a git worktree further down (e.g. `wt/<name>/`) finds it in
 * the nearest ancestor that has one.
 */
function sharedDir(): string {
  for (let dir = dirname(REPO_ROOT); ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'shared', 'nextcloud', 'install.sh'))) return join(dir, 'shared');
    if (dirname(dir) === dir) return resolve(REPO_ROOT, '..', 'shared');
  }
}
const SHARED = sharedDir();

export const INSTALL_SCRIPT = join(SHARED, 'nextcloud', 'install.sh');
const VENDORED_TARBALL = join(SHARED, 'vendor', 'nextcloud-31.0.2.tar.xz');

/** The env variable a user sets to test against their own Nextcloud (tarball or server tree). */
export const SOURCE_ENV = 'DUS_NEXTCLOUD_TARBALL';

export interface NextcloudSource {
  /** A tarball (any compression tar understands) or an unpacked server tree holding occ. */
  readonly path: string;
  readonly kind: 'tarball' | 'tree';
}

export function nextcloudSource(env: NodeJS.ProcessEnv = process.env): NextcloudSource | string {
  const named = env[SOURCE_ENV] ?? env.NEXTCLOUD_TARBALL;
  const path = named !== undefined && named !== '' ? resolve(named) : VENDORED_TARBALL;
  const from = named !== undefined && named !== '' ? `${SOURCE_ENV}/NEXTCLOUD_TARBALL` : 'the vendored copy';
  if (!existsSync(path)) return `no Nextcloud tarball or server tree at ${path} (${from}; set ${SOURCE_ENV} to a Nextcloud tarball or server tree)`;
  if (statSync(path).isDirectory()) {
    if (!existsSync(join(path, 'occ')) || !existsSync(join(path, 'version.php'))) return `${path} (${from}) is a directory without occ and version.php: not a Nextcloud server tree`;
    return { path, kind: 'tree' };
  }
  return { path, kind: 'tarball' };
}

const commandExists = (command: string): boolean => spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;

const probes: Record<Exclude<NextcloudDb, 'sqlite'>, { client: string; args: string[]; what: string }> = {
  pgsql: { client: 'psql', args: ['-h', '127.0.0.1', '-p', '5432', '-U', 'postgres', '-d', 'test', '-qAtc', 'SELECT 1'], what: 'PostgreSQL at 127.0.0.1:5432 (user postgres)' },
  mysql: { client: 'mysql', args: ['-h', '127.0.0.1', '-P', '3306', '-u', 'root', '-e', 'SELECT 1'], what: 'MariaDB at 127.0.0.1:3306 (user root)' },
};

const REQUIRED_PHP_MODULES = ['pdo_sqlite', 'pdo_pgsql', 'pdo_mysql', 'xml', 'mbstring', 'gd', 'zip', 'curl', 'intl'];

/**
 * Why the real Nextcloud cannot run here (printed by the skipping test), or null when it can:
 * php and its modules, the install script (`../shared` is absent from a user's own clone), the
 * server source, and for `db` its database server and command-line client.
 */
export function realNextcloudUnavailable(db?: NextcloudDb): string | null {
  if (!commandExists('php')) return 'php is not installed (see the README, section Tests: Debian packages php-cli php-sqlite3 php-pgsql php-mysql …)';
  const modules = spawnSync('php', ['-m'], { encoding: 'utf8' }).stdout.toLowerCase().split('\n').map((line) => line.trim());
  const missing = REQUIRED_PHP_MODULES.filter((module) => !modules.includes(module));
  if (missing.length > 0) return `php lacks the modules ${missing.join(', ')} (see the README, section Tests)`;
  if (!existsSync(INSTALL_SCRIPT)) return `no install script at ${INSTALL_SCRIPT} (../shared is not beside this repository)`;
  for (const tool of ['tar', 'curl', 'xz']) if (!commandExists(tool)) return `${tool} is not installed (the install script needs it)`;
  const source = nextcloudSource();
  if (typeof source === 'string') return source;
  if (db === undefined || db === 'sqlite') return null;
  const probe = probes[db];
  if (!commandExists(probe.client)) return `the ${probe.client} client is not installed (the install script creates the database with it)`;
  const answer = spawnSync(probe.client, probe.args, { encoding: 'utf8', timeout: 10_000 });
  if (answer.status !== 0) return `${probe.what} is not reachable: ${(answer.stderr || answer.error?.message || 'no answer').trim()}`;
  return null;
}
