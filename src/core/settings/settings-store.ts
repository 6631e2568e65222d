import { mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import Conf from 'conf';
import { withCheckedVersions } from '../archive/versions.js';
import { DusError, messageOf } from '../errors.js';
import { withFileLock, type LockOptions } from './file-lock.js';
import { SETTINGS_FILE } from './paths.js';
import { appConfigProblems } from './schema.js';
import type { AppConfig, AppConfigKey, SettingsStore } from './types.js';

export interface SettingsStoreOptions {
  readonly lock?: LockOptions;
}

/**
 * The app configuration in `<dir>/settings.json` through `conf`, which writes atomically
 * (temporary file, then rename). Every read goes to the file, so several processes see each
 * other's writes; a read-modify-write holds a lock file so concurrent updates of different
 * keys are all kept.
 */
export class FileSettingsStore implements SettingsStore {
  readonly directory: string;
  readonly path: string;
  readonly #lockPath: string;
  readonly #lockOptions: LockOptions;
  #conf: Conf<AppConfig> | undefined;
  /** The last read, reused while the file is the same one unchanged: a search reads the settings several times. */
  #last: { readonly stamp: string; readonly config: AppConfig } | undefined;

  constructor(directory: string, options: SettingsStoreOptions = {}) {
    this.directory = directory;
    this.path = join(directory, SETTINGS_FILE);
    this.#lockPath = join(directory, 'settings.lock');
    this.#lockOptions = options.lock ?? {};
  }

  read(): AppConfig {
    const stamp = fileStamp(this.path);
    if (stamp !== null && this.#last?.stamp === stamp.key) return this.#last.config;
    let raw: unknown;
    try {
      raw = this.#store().store;
    } catch (error: unknown) {
      throw this.#broken(messageOf(error), error);
    }
    const problems = appConfigProblems(raw);
    if (problems !== null) throw this.#broken(problems.join('; '));
    const config = Object.freeze(withCheckedVersions(raw as AppConfig));
    this.#last = stamp !== null && stamp.settled && fileStamp(this.path)?.key === stamp.key ? { stamp: stamp.key, config } : undefined;
    return config;
  }

  get<K extends AppConfigKey>(key: K): AppConfig[K] {
    return this.read()[key];
  }

  update(patch: Partial<AppConfig>): void {
    this.transaction(() => {
      const next: Record<string, unknown> = { ...this.read() };
      for (const [key, value] of Object.entries(patch)) {
        if (value === undefined) delete next[key];
        else next[key] = value;
      }
      const problems = appConfigProblems(next);
      if (problems !== null) throw new DusError('internal', `The settings were not saved: ${problems.join('; ')}.`);
      this.#last = undefined;
      this.#store().store = next as AppConfig;
    });
  }

  delete(keys: readonly AppConfigKey[]): void {
    this.update(Object.fromEntries(keys.map((key) => [key, undefined])) as Partial<AppConfig>);
  }

  transaction<T>(work: () => T): T {
    mkdirSync(this.directory, { recursive: true, mode: 0o700 });
    return withFileLock(this.#lockPath, this.#lockOptions, work);
  }

  #store(): Conf<AppConfig> {
    // conf would create a missing directory readable by everyone.
    if (this.#conf === undefined) mkdirSync(this.directory, { recursive: true, mode: 0o700 });
    this.#conf ??= new Conf<AppConfig>({
      cwd: this.directory,
      configName: SETTINGS_FILE.replace(/\.json$/, ''),
      accessPropertiesByDotNotation: false,
      clearInvalidConfig: false,
      configFileMode: 0o600,
    });
    return this.#conf;
  }

  #broken(reason: string, cause?: unknown): DusError {
    return new DusError('internal', `The settings file ${this.path} is broken (${reason}). Correct it by hand, or remove it and run setup again.`, { cause });
  }
}

/** A file older than this is trusted by its stamp: a later write cannot carry the same change time (see fileStamp). */
const SETTLED_NS = 100_000_000n;

/**
 * Identity and version of a file: device, inode, size and change times. `conf` writes by
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
