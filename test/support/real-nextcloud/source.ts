/**
 * Where the real Nextcloud comes from: the install script of `../shared/nextcloud/` and the
 * server tree it installs: the vendored tarball of the release a run asks for
 * (`../shared/vendor/nextcloud-<release>.tar.xz`), or the user's own tarball or unpacked tree
 * named by DUS_NEXTCLOUD_TARBALL / NEXTCLOUD_TARBALL, which then replaces it for every run.
 * Everything here is synchronous so a test file can decide at load time whether to run or to
 * skip with a printed reason.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export type NextcloudDb = 'sqlite' | 'pgsql' | 'mysql';

/**
 * The vendored Nextcloud releases, both supported by the product: 34.0.1, the judge on three
 * databases, and 33.0.1, the oldest major supported, the second judge (its rules differ where a
 * received share's target is checked: docs/nextcloud-34.md).
 */
export type NextcloudRelease = '34.0.1' | '33.0.1';
export const DEFAULT_RELEASE: NextcloudRelease = '34.0.1';

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

/** The vendored tarball of `release`: `<shared>/vendor/nextcloud-<release>.tar.xz`. */
export const releaseTarball = (release: NextcloudRelease): string => join(SHARED, 'vendor', `nextcloud-${release}.tar.xz`);

/** The env variable a user sets to test against their own Nextcloud (tarball or server tree). */
export const SOURCE_ENV = 'DUS_NEXTCLOUD_TARBALL';

export interface NextcloudSource {
  /** A tarball (any compression tar understands) or an unpacked server tree holding occ. */
  readonly path: string;
  readonly kind: 'tarball' | 'tree';
}

/** The tarball or tree DUS_NEXTCLOUD_TARBALL / NEXTCLOUD_TARBALL name (overriding every run's release), or null. */
export function overriddenSource(env: NodeJS.ProcessEnv = process.env): string | null {
  const named = env[SOURCE_ENV] ?? env.NEXTCLOUD_TARBALL;
  return named !== undefined && named !== '' ? resolve(named) : null;
}

/** What a run asking for `release` installs: the env's tarball or tree when set, else the release's vendored tarball. */
export function nextcloudSource(env: NodeJS.ProcessEnv = process.env, release: NextcloudRelease = DEFAULT_RELEASE): NextcloudSource | string {
  const named = overriddenSource(env);
  const path = named ?? releaseTarball(release);
  if (!existsSync(path)) {
    return named !== null
      ? `no Nextcloud tarball or server tree at ${path} (${SOURCE_ENV}/NEXTCLOUD_TARBALL; set ${SOURCE_ENV} to a Nextcloud tarball or server tree)`
      : `no Nextcloud ${release} tarball at ${path} (the vendored copy of that release is absent; set ${SOURCE_ENV} to a Nextcloud tarball or server tree)`;
  }
  if (statSync(path).isDirectory()) {
    if (!existsSync(join(path, 'occ')) || !existsSync(join(path, 'version.php')))
      return `${path} (${named !== null ? `${SOURCE_ENV}/NEXTCLOUD_TARBALL` : 'the vendored copy'}) is a directory without occ and version.php: not a Nextcloud server tree`;
    return { path, kind: 'tree' };
  }
  return { path, kind: 'tarball' };
}

/**
 * What a run asking for `release` installs, as a suite names it before installing:
 * `Nextcloud 34.0.1`, or the tarball or tree DUS_NEXTCLOUD_TARBALL names (its version is known
 * once installed: RealNextcloud.label).
 */
export function releaseLabel(release: NextcloudRelease = DEFAULT_RELEASE, env: NodeJS.ProcessEnv = process.env): string {
  const named = overriddenSource(env);
  return named === null ? `Nextcloud ${release}` : `the Nextcloud of ${SOURCE_ENV} (${named})`;
}

const commandExists = (command: string): boolean => spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;

const probes: Record<Exclude<NextcloudDb, 'sqlite'>, { client: string; args: string[]; what: string }> = {
  pgsql: {
    client: 'psql',
    args: ['-h', '127.0.0.1', '-p', '5432', '-U', 'postgres', '-d', 'test', '-qAtc', 'SELECT 1'],
    what: 'PostgreSQL at 127.0.0.1:5432 (user postgres)',
  },
  mysql: { client: 'mysql', args: ['-h', '127.0.0.1', '-P', '3306', '-u', 'root', '-e', 'SELECT 1'], what: 'MariaDB at 127.0.0.1:3306 (user root)' },
};

const REQUIRED_PHP_MODULES = ['pdo_sqlite', 'pdo_pgsql', 'pdo_mysql', 'xml', 'mbstring', 'gd', 'zip', 'curl', 'intl'];

/**
 * Why the real Nextcloud cannot run here (printed by the skipping test), or null when it can:
 * php and its modules, the install script (`../shared` is absent from a user's own clone), the
 * server source of `release` (or the one DUS_NEXTCLOUD_TARBALL names), and for `db` its database
 * server and command-line client.
 */
export function realNextcloudUnavailable(db?: NextcloudDb, release: NextcloudRelease = DEFAULT_RELEASE): string | null {
  if (!commandExists('php'))
    return 'php is not installed (see CONTRIBUTING.md, "Tests against a real Nextcloud": Debian packages php-cli php-sqlite3 php-pgsql php-mysql …)';
  const modules = spawnSync('php', ['-m'], { encoding: 'utf8' })
    .stdout.toLowerCase()
    .split('\n')
    .map((line) => line.trim());
  const missing = REQUIRED_PHP_MODULES.filter((module) => !modules.includes(module));
  if (missing.length > 0) return `php lacks the modules ${missing.join(', ')} (see CONTRIBUTING.md, "Tests against a real Nextcloud")`;
  if (!existsSync(INSTALL_SCRIPT)) return `no install script at ${INSTALL_SCRIPT} (../shared is not beside this repository)`;
  for (const tool of ['tar', 'curl', 'xz']) if (!commandExists(tool)) return `${tool} is not installed (the install script needs it)`;
  const source = nextcloudSource(process.env, release);
  if (typeof source === 'string') return source;
  if (db === undefined || db === 'sqlite') return null;
  const probe = probes[db];
  if (!commandExists(probe.client)) return `the ${probe.client} client is not installed (the install script creates the database with it)`;
  const answer = spawnSync(probe.client, probe.args, { encoding: 'utf8', timeout: 60_000 });
  if (answer.status !== 0) return `${probe.what} is not reachable: ${(answer.stderr || answer.error?.message || 'no answer').trim()}`;
  return null;
}
