import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Conf from 'conf';
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

  constructor(directory: string, options: SettingsStoreOptions = {}) {
    this.directory = directory;
    this.path = join(directory, SETTINGS_FILE);
    this.#lockPath = join(directory, 'settings.lock');
    this.#lockOptions = options.lock ?? {};
  }

  read(): AppConfig {
    let raw: unknown;
    try {
      raw = this.#store().store;
    } catch (error: unknown) {
      throw this.#broken(messageOf(error), error);
    }
    const problems = appConfigProblems(raw);
    if (problems !== null) throw this.#broken(problems.join('; '));
    return raw as AppConfig;
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
