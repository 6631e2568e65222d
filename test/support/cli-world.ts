/**
 * The search world of search-world.ts behind the real CLI, for command tests: built once per
 * test file, with a configured settings directory, and `run` calling `main` as a user would.
 */
import { afterAll, beforeAll } from '@jest/globals';
import { main } from '../../src/cli.js';
import { captureIO } from './capture-io.js';
import { buildSearchWorld, type SearchWorld } from './search-world.js';

export interface CliRun {
  readonly code: number;
  readonly out: string;
  readonly err: string;
}

export interface CliWorld {
  readonly world: SearchWorld;
  /** The configured settings directory the commands use. */
  readonly dir: string;
  readonly run: (args: readonly string[], options?: { tty?: boolean; columns?: number; env?: NodeJS.ProcessEnv }) => Promise<CliRun>;
}

export function useCliWorld(count = 60): CliWorld {
  let world: SearchWorld | undefined;
  let dir: string | undefined;
  beforeAll(async () => {
    world = await buildSearchWorld(count);
    dir = (await world.context()).dir;
  });
  afterAll(async () => {
    await world?.close();
  });
  const built = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the CLI world is built in beforeAll');
    return value;
  };
  return {
    get world() {
      return built(world);
    },
    get dir() {
      return built(dir);
    },
    async run(args, options = {}) {
      const io = captureIO({ env: options.env ?? {}, tty: options.tty ?? false, ...(options.columns === undefined ? {} : { columns: options.columns }) });
      const code = await main(['--config-dir', built(dir), ...args], io);
      return { code, out: io.out(), err: io.err() };
    },
  };
}
