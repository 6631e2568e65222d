/**
 * For jest files only (it registers hooks): one fixture database per describe block, built once,
 * with an adapter opened on it, both dropped afterwards; and the three questions as path maps.
 */
import { afterAll, beforeAll } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openContext } from '../../../src/core/context.js';
import type { ServiceContext } from '../../../src/core/context-types.js';
import { openHost, type OpenHostOptions } from '../../../src/core/host/open-host.js';
import type { HostAdapter } from '../../../src/core/host/types.js';
import { createHostFixture, type FixtureDialect, type FixtureOptions, type HostFixture } from './index.js';

export interface HostWorld {
  readonly fx: HostFixture;
  readonly host: HostAdapter;
}

export function useHostWorld(
  dialect: FixtureDialect,
  build: (fx: HostFixture) => Promise<void>,
  options: FixtureOptions = {},
  hostOptions: OpenHostOptions = {},
): HostWorld {
  let fx: HostFixture | undefined;
  let host: HostAdapter | undefined;
  beforeAll(async () => {
    fx = await createHostFixture(dialect, options);
    await build(fx);
    host = await openHost({ dbUrl: fx.dbUrl, tablePrefix: fx.prefix }, hostOptions);
  });
  afterAll(async () => {
    await host?.close();
    await fx?.drop();
  });
  const built = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the host world is built in beforeAll');
    return value;
  };
  return {
    get fx() {
      return built(fx);
    },
    get host() {
      return built(host);
    },
  };
}

export type Question = 'visible' | 'owned' | 'foreign';

/** document id → path the user sees, for question 1, 2 or 3 (question 2 asks for `user`'s own files). */
export async function askPaths(host: HostAdapter, q: Question, user: string, archive: string, ids: readonly number[]): Promise<Record<number, string>> {
  const map =
    q === 'visible'
      ? await host.visibleArchiveFiles(user, archive, ids)
      : q === 'owned'
        ? await host.ownedArchiveFiles(user, ids)
        : await host.visibleForeignFiles(user, archive, ids);
  const out: Record<number, string> = {};
  for (const [id, file] of map) out[id] = file.path;
  return out;
}

export interface ContextWorld {
  readonly fx: HostFixture;
  /** A service context on the fixture (`--host-db`), with its own config directory and host log. */
  readonly ctx: ServiceContext;
}

/** One fixture database per describe block, built once, with a service context opened on it as `why` opens one; all removed afterwards. */
export function useContextWorld(dialect: FixtureDialect, build: (fx: HostFixture) => Promise<void>): ContextWorld {
  let fx: HostFixture | undefined;
  let ctx: ServiceContext | undefined;
  let dir: string | undefined;
  beforeAll(async () => {
    fx = await createHostFixture(dialect);
    await build(fx);
    dir = mkdtempSync(join(tmpdir(), 'dus-context-'));
    ctx = openContext({ configDir: dir, logFile: join(dir, 'host.log'), hostLocation: { dbUrl: fx.dbUrl, tablePrefix: fx.prefix } });
  });
  afterAll(async () => {
    await ctx?.close();
    await fx?.drop();
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });
  const built = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the context world is built in beforeAll');
    return value;
  };
  return {
    get fx() {
      return built(fx);
    },
    get ctx() {
      return built(ctx);
    },
  };
}
