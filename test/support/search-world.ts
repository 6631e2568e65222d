/**
 * A host and an archive server for the search tests: 60 sample documents, an archive
 * account whose files carry markers, and one user (bob) for whom every verdict occurs.
 * Not a test file itself (no `.test.ts`): the search, verdict and command tests share it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryCache } from '../../src/core/cache/memory-cache.js';
import type { Cache } from '../../src/core/cache/types.js';
import type { ServiceContext } from '../../src/core/context-types.js';
import { openContext } from '../../src/core/context.js';
import { saveSettings } from '../../src/core/admin/save-settings.js';
import { sampleArchive, startArchiveEmulator, type ArchiveEmulator, type EmulatorDocument } from './archive-emulator/index.js';
import { createHostFixture, type FixtureDialect, type HostFixture } from './host-fixtures/index.js';

export const TOKEN = 'emulator-token';
export const ARCHIVE_ACCOUNT = 'archive';

/** What bob gets for document `id`: the verdict table's four answers spread over the ids. */
export function expectedVerdict(id: number): 'shown' | 'not shared' | 'not owned' | 'no file' {
  if (id % 4 !== 0) return 'shown';
  if (id % 8 === 0) return 'not shared';
  if (id % 16 === 4) return 'not owned';
  return 'no file';
}

export interface SearchWorld {
  readonly archive: ArchiveEmulator;
  readonly host: HostFixture;
  /** A fresh configured context (own config directory and cache); closed by `close()`. */
  context(options?: { cache?: Cache; configure?: boolean; markerIndex?: boolean; archiveOwner?: string }): Promise<WorldContext>;
  close(): Promise<void>;
}

export interface WorldContext {
  readonly ctx: ServiceContext;
  readonly dir: string;
  readonly logFile: string;
}

/**
 * The host side of the world on a fresh fixture: the archive account, bob, carol, the sync
 * add-on's account and a file (or none) per document as `expectedVerdict` says. Used by the
 * world and by bench/search.ts, whose emulator runs in a process of its own.
 */
export async function buildSearchHost(documents: readonly EmulatorDocument[], dialect: FixtureDialect = 'sqlite'): Promise<HostFixture> {
  const host = await createHostFixture(dialect);
  try {
    await populateSearchHost(host, documents);
  } catch (error: unknown) {
    await host.drop().catch(() => undefined);
    throw error;
  }
  return host;
}

async function populateSearchHost(host: HostFixture, documents: readonly EmulatorDocument[]): Promise<void> {
  await host.addUser(ARCHIVE_ACCOUNT);
  await host.addUser('bob', { lang: 'de' });
  await host.addUser('carol');
  await host.setAppConfig('docs_sync', 'target_user', ARCHIVE_ACCOUNT);
  const shared = await host.addFolder(ARCHIVE_ACCOUNT, 'Docs');
  await host.share({ owner: ARCHIVE_ACCOUNT, fileId: shared, type: 'user', with: 'bob', target: '/Archive' });
  await host.addFolder(ARCHIVE_ACCOUNT, 'Private');
  for (const document of documents) {
    const verdict = expectedVerdict(document.id);
    if (verdict === 'shown') await host.addFile(ARCHIVE_ACCOUNT, `Docs/Doc [P${document.id}].pdf`);
    if (verdict === 'not shared') await host.addFile(ARCHIVE_ACCOUNT, `Private/Doc [P${document.id}].pdf`);
    if (verdict === 'not owned') {
      const file = await host.addFile('carol', `Copy [P${document.id}].pdf`);
      await host.share({ owner: 'carol', fileId: file, type: 'user', with: 'bob' });
    }
  }
}

export async function buildSearchWorld(count = 60, dialect: FixtureDialect = 'sqlite'): Promise<SearchWorld> {
  const sample = sampleArchive(count);
  const archive = await startArchiveEmulator({ ...sample, tokens: [TOKEN] });
  const host = await buildSearchHost(sample.documents, dialect);
  const dirs: string[] = [];
  const contexts: ServiceContext[] = [];
  return {
    archive,
    host,
    async context(options = {}) {
      const dir = mkdtempSync(join(tmpdir(), 'dus-search-'));
      dirs.push(dir);
      const logFile = join(dir, 'host.log');
      const ctx = openContext({
        configDir: dir,
        logFile,
        env: { DUS_LOG_LEVEL: 'debug' },
        hostLocation: { dbUrl: host.dbUrl, hostUrl: 'https://cloud.example.com' },
        cache: options.cache ?? new MemoryCache(),
        ...(options.markerIndex === true ? { markerIndex: true } : {}),
      });
      contexts.push(ctx);
      if (options.configure !== false)
        await saveSettings(ctx, {
          url: archive.url,
          token: TOKEN,
          allowLocal: true,
          hostLocation: { dbUrl: host.dbUrl, hostUrl: 'https://cloud.example.com' },
          ...(options.archiveOwner === undefined ? {} : { archiveOwner: options.archiveOwner }),
        });
      return { ctx, dir, logFile };
    },
    async close() {
      for (const ctx of contexts) await ctx.close().catch(() => undefined);
      await archive.close();
      await host.drop();
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Archive search requests recorded since the last clear. */
export function searchRequests(archive: ArchiveEmulator): ArchiveEmulator['requests'] {
  return archive.requests.filter((request) => request.path.endsWith('/api/documents/') && request.query.query !== undefined);
}
