import { mkdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type Conf from 'conf';
import { withCheckedVersions } from '../archive/versions.js';
import { DusError, isDusError, messageOf } from '../errors.js';
import { errnoOf, fileAccessError, withFileAccess, type FileAction } from './file-access.js';
import { settledStamp, StampedValue } from './file-stamp.js';
import { withFileLock, type LockOptions } from './file-lock.js';
import { SETTINGS_FILE } from './paths.js';
import { appConfigProblems } from './config-validation.js';
import type { AppConfig, AppConfigKey, SettingsStore } from './types.js';
import { normalizeArchiveUrl } from './url-rules.js';

export interface SettingsStoreOptions {
  readonly lock?: LockOptions;
}

interface Reading {
  /** Checked for shape only, as on disk. */
  readonly stored: AppConfig;
  /** Checked by the URL rules as well, docs_url in its stored form; or why the URL is refused. */
  readonly checked: AppConfig | DusError;
}

/** Thrown by the deserializer: the file is JSON but not a settings object. */
class SettingsShapeError extends Error {}

/**
 * conf reads the file as `Object.assign({}, data)`, so `[]`, `null` or `1` would read as "not
 * configured": the shape is checked here, in this store's read and inside conf's, and such a file is broken.
 */
function parseSettings(text: string): AppConfig {
  const raw: unknown = JSON.parse(text);
  const problems = appConfigProblems(raw);
  if (problems !== null) throw new SettingsShapeError(problems.join('; '));
  return raw as AppConfig;
}

function serializeSettings(config: AppConfig): string {
  return `${JSON.stringify(config, null, '\t')}\n`;
}

/**
 * conf, loaded at the first write: with its schema validator (ajv, semver) and atomic writer it
 * is most of what a command would load before it starts, and reading needs none of it.
 * Synchronous, as `update` is: conf is an ES module without top-level await, which `require`
 * loads from Node 22.12.
 */
let confClass: typeof Conf | undefined;
function loadConf(): typeof Conf {
  confClass ??= (createRequire(import.meta.url)('conf') as { default: typeof Conf }).default;
  return confClass;
}

/**
 * The app configuration in `<dir>/settings.json`, written through `conf`, which writes
 * atomically (temporary file, then rename; mode 0600 set by chmod, so whatever the umask).
 * Every read goes to the file, so several processes see each other's writes; a
 * read-modify-write holds a lock file so concurrent updates of different keys are all kept.
 * What is read passes the rules of what is saved: the schema (schema.ts) and, for `docs_url`,
 * the URL rules (url-rules.ts), so a hand-edited file cannot reach a command in a form `setup`
 * would have refused.
 *
 * Reading is this store's own, as conf reads without a schema: the file as JSON, through
 * `parseSettings`; a file removed meanwhile reads as empty. conf is made only to write, inside
 * `transaction`, after the directory was made 0700: on a missing file it would create the
 * directory with the umask's mode, and a read creates nothing.
 */
export class FileSettingsStore implements SettingsStore {
  readonly directory: string;
  readonly path: string;
  readonly #lockPath: string;
  readonly #lockOptions: LockOptions;
  #conf: Conf<AppConfig> | undefined;
  /** The last read, reused while the file is the same one unchanged: a search reads the settings several times. */
  readonly #last = new StampedValue<Reading>();

  constructor(directory: string, options: SettingsStoreOptions = {}) {
    this.directory = directory;
    this.path = join(directory, SETTINGS_FILE);
    this.#lockPath = join(directory, 'settings.lock');
    this.#lockOptions = options.lock ?? {};
  }

  read(): AppConfig {
    const { checked } = this.#reading();
    if (checked instanceof DusError) throw checked;
    return checked;
  }

  readWithoutRefusedUrl(): AppConfig {
    const { stored, checked } = this.#reading();
    if (!(checked instanceof DusError)) return checked;
    const { docs_url: _refused, ...rest } = stored;
    return Object.freeze(rest);
  }

  get<K extends AppConfigKey>(key: K): AppConfig[K] {
    return this.read()[key];
  }

  update(patch: Partial<AppConfig>): void {
    this.transaction(() => {
      const next: Record<string, unknown> = { ...this.#reading().stored };
      for (const [key, value] of Object.entries(patch)) {
        if (value === undefined) delete next[key];
        else next[key] = value;
      }
      const problems = appConfigProblems(next);
      if (problems !== null) throw new DusError('internal', `The settings were not saved: ${problems.join('; ')}.`);
      this.#last.forget();
      this.#throughConf('write', (conf) => {
        conf.store = next;
      });
    });
  }

  delete(keys: readonly AppConfigKey[]): AppConfigKey[] {
    const stored = this.#reading().stored;
    const set = keys.filter((key) => stored[key] !== undefined);
    if (set.length > 0) this.update(Object.fromEntries(set.map((key) => [key, undefined])));
    return set;
  }

  transaction<T>(work: () => T): T {
    withFileAccess(this.directory, 'create', () => mkdirSync(this.directory, { recursive: true, mode: 0o700 }));
    // A transaction is taken to write: conf is loaded before the lock, which other processes wait for.
    loadConf();
    return withFileLock(this.#lockPath, this.#lockOptions, work);
  }

  #reading(): Reading {
    return this.#last.get(
      () => settledStamp(this.path),
      () => this.#readFile(),
    );
  }

  #readFile(): Reading {
    const nothing: Reading = { stored: Object.freeze({}), checked: Object.freeze({}) };
    // No file (or no directory yet): nothing is configured.
    if (withFileAccess(this.path, 'read', () => statSync(this.path, { throwIfNoEntry: false })) === undefined) return nothing;
    const raw = this.#checked('read', () => {
      try {
        return parseSettings(readFileSync(this.path, 'utf8'));
      } catch (error: unknown) {
        // A file removed meanwhile reads as empty, as conf reads it.
        if (errnoOf(error) === 'ENOENT') return {};
        throw error;
      }
    });
    const stored = Object.freeze(withCheckedVersions({ ...raw }));
    return { stored, checked: this.#checkUrl(stored) };
  }

  /** Runs `work` on conf with its failures as this store's answers (see #checked). */
  #throughConf<T>(action: FileAction, work: (conf: Conf<AppConfig>) => T): T {
    return this.#checked(action, () => work(this.#engine()));
  }

  /**
   * Runs `work` with its failures as this store's answers: the file's access as
   * `config_access`, a file that is not JSON or not a settings object as broken. conf reads the
   * file when it is made too, so a write can meet a file broken by hand since the last read.
   */
  #checked<T>(action: FileAction, work: () => T): T {
    try {
      return work();
    } catch (error: unknown) {
      if (errnoOf(error) !== undefined) throw fileAccessError(error, this.path, action) ?? error;
      if (error instanceof SyntaxError || error instanceof SettingsShapeError) throw this.#broken(messageOf(error), error);
      throw error;
    }
  }

  /** Made at the first write, inside `transaction` (the directory is there, 0700): conf reads the file as it is made. */
  #engine(): Conf<AppConfig> {
    if (this.#conf !== undefined) return this.#conf;
    const ConfClass = loadConf();
    this.#conf = new ConfClass<AppConfig>({
      cwd: this.directory,
      configName: SETTINGS_FILE.replace(/\.json$/, ''),
      accessPropertiesByDotNotation: false,
      clearInvalidConfig: false,
      configFileMode: 0o600,
      deserialize: parseSettings,
      serialize: serializeSettings,
    });
    return this.#conf;
  }

  #checkUrl(stored: AppConfig): AppConfig | DusError {
    if (stored.docs_url === undefined) return stored;
    try {
      return Object.freeze({ ...stored, docs_url: normalizeArchiveUrl(stored.docs_url) });
    } catch (error: unknown) {
      if (!isDusError(error)) throw error;
      return new DusError(
        error.code,
        `The settings file ${this.path} holds a docs_url that setup would refuse: ${error.message} Run setup --url=URL (it replaces the stored one), or config:app:delete docs_unified_search docs_url.`,
      );
    }
  }

  #broken(reason: string, cause?: unknown): DusError {
    return new DusError('internal', `The settings file ${this.path} is broken (${reason}). Correct it by hand, or remove it and run setup again.`, { cause });
  }
}
