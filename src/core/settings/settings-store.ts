import { mkdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { withCheckedVersions } from '../archive/versions.js';
import { DusError, isDusError, messageOf } from '../errors.js';
import { writePrivateFileAtomic } from './atomic-file.js';
import { errnoOf, fileAccessError, withFileAccess } from './file-access.js';
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

/**
 * The app configuration in `<dir>/settings.json`, written atomically (temporary file, then
 * rename; mode 0600). Every read goes to the file, so several processes see each other's
 * writes; a read-modify-write holds a lock file so concurrent updates of different keys are all
 * kept. What is read passes the rules of what is saved: the schema (schema.ts) and, for
 * `docs_url`, the URL rules (url-rules.ts), so a hand-edited file cannot reach a command in a
 * form `setup` would have refused.
 */
export class FileSettingsStore implements SettingsStore {
  readonly directory: string;
  readonly path: string;
  readonly #lockPath: string;
  readonly #lockOptions: LockOptions;
  /** The last read, reused while the file is the same one unchanged: a search reads the settings several times. */
  #last: { readonly stamp: string; readonly reading: Reading } | undefined;

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
      this.#last = undefined;
      withFileAccess(this.path, 'write', () => writePrivateFileAtomic(this.path, `${JSON.stringify(next, null, '\t')}\n`));
    });
  }

  delete(keys: readonly AppConfigKey[]): AppConfigKey[] {
    const stored = this.#reading().stored;
    const set = keys.filter((key) => stored[key] !== undefined);
    if (set.length > 0) this.update(Object.fromEntries(set.map((key) => [key, undefined])) as Partial<AppConfig>);
    return set;
  }

  transaction<T>(work: () => T): T {
    withFileAccess(this.directory, 'create', () => mkdirSync(this.directory, { recursive: true, mode: 0o700 }));
    return withFileLock(this.#lockPath, this.#lockOptions, work);
  }

  #reading(): Reading {
    const stamp = fileStamp(this.path);
    if (stamp !== null && this.#last?.stamp === stamp.key) return this.#last.reading;
    const reading = this.#readFile();
    this.#last = stamp !== null && stamp.settled && fileStamp(this.path)?.key === stamp.key ? { stamp: stamp.key, reading } : undefined;
    return reading;
  }

  #readFile(): Reading {
    let text: string;
    try {
      text = readFileSync(this.path, 'utf8');
    } catch (error: unknown) {
      // No file (or no directory yet): nothing is configured.
      if (errnoOf(error) === 'ENOENT') return { stored: Object.freeze({}), checked: Object.freeze({}) };
      throw fileAccessError(error, this.path, 'read') ?? error;
    }
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch (error: unknown) {
      throw this.#broken(messageOf(error), error);
    }
    const problems = appConfigProblems(raw);
    if (problems !== null) throw this.#broken(problems.join('; '));
    const stored = Object.freeze(withCheckedVersions({ ...(raw as AppConfig) }));
    return { stored, checked: this.#checkUrl(stored) };
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

/** A file older than this is trusted by its stamp: a later write cannot carry the same change time (see fileStamp). */
const SETTLED_NS = 100_000_000n;

/**
 * Identity and version of a file: device, inode, size and change times. The store writes by
 * renaming a new file into place, but a freed inode number can come back and file times are
 * as coarse as the kernel's clock tick, so, as git does with its index, a file changed in the
 * last 100 ms is not `settled` and is read again every time.
 */
function fileStamp(path: string): { readonly key: string; readonly settled: boolean } | null {
  try {
    const stat = statSync(path, { bigint: true });
    const changed = stat.mtimeNs > stat.ctimeNs ? stat.mtimeNs : stat.ctimeNs;
    return {
      key: `${stat.dev}:${stat.ino}:${stat.size}:${stat.mtimeNs}:${stat.ctimeNs}`,
      settled: BigInt(Date.now()) * 1_000_000n - changed >= SETTLED_NS,
    };
  } catch {
    return null;
  }
}
