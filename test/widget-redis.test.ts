import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RedisCache } from '../src/core/cache/redis-cache.js';
import type { ServiceContext } from '../src/core/context-types.js';
import { openContext } from '../src/core/context.js';
import { saveSettings } from '../src/core/admin/save-settings.js';
import { widgetOffer } from '../src/core/widget/offer.js';
import { MESSAGE_UNREACHABLE, widgetItems } from '../src/core/widget/widget-items.js';
import { startArchiveEmulator } from './support/archive-emulator/index.js';
import type { ArchiveEmulator } from './support/archive-emulator/types.js';
import { createHostFixture, type HostFixture } from './support/host-fixtures/index.js';
import { DEFAULT_DOCUMENTS } from './support/http-harness.js';
import { describeWithRedis, REDIS_URL } from './support/redis-probe.js';

const describeRedis = await describeWithRedis('widget-redis tests');

describeRedis('the widget behind one Redis, three service contexts (as three processes)', () => {
  const prefix = `dus-test-widget-${randomBytes(6).toString('hex')}:`;
  let fixture: HostFixture;
  let emulator: ArchiveEmulator;
  let dir: string;
  const caches: RedisCache[] = [];
  const contexts: ServiceContext[] = [];

  beforeAll(async () => {
    fixture = await createHostFixture('sqlite');
    await fixture.addUser('archive', { password: 'x', hash: 'bcrypt' });
    await fixture.addUser('alice', { password: 'y', hash: 'bcrypt' });
    const folder = await fixture.addFolder('archive', 'files/Archive');
    for (const d of DEFAULT_DOCUMENTS) await fixture.addFile('archive', `files/Archive/${d.title} [P${d.id}].pdf`);
    await fixture.share({ owner: 'archive', fileId: folder, type: 'user', with: 'alice', permissions: 1 });
    emulator = await startArchiveEmulator({ documents: DEFAULT_DOCUMENTS });
    dir = mkdtempSync(join(tmpdir(), 'dus-widget-redis-'));
    for (let i = 0; i < 3; i += 1) {
      const cache = new RedisCache({ url: REDIS_URL, keyPrefix: prefix, pollMs: 10 });
      await cache.connect();
      caches.push(cache);
      contexts.push(
        openContext({
          configDir: join(dir, 'config'),
          hostLocation: { dbUrl: fixture.dbUrl, hostUrl: 'http://cloud.test' },
          logFile: join(dir, `host-${i}.log`),
          env: { DUS_SECRET: 'widget-redis-secret' },
          archiveClientOptions: { isLocalAddress: () => false },
          cache,
        }),
      );
    }
    const first = contexts[0];
    if (first === undefined) throw new Error('no context');
    await saveSettings(first, { url: emulator.url, token: 'emulator-token', archiveOwner: 'archive' });
  });

  afterAll(async () => {
    for (const context of contexts) await context.close();
    await caches[0]?.clearPrefix();
    for (const cache of caches) await cache.close();
    await emulator.close();
    await fixture.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  const load = async (context: ServiceContext) => {
    const offer = await widgetOffer(context);
    if (offer === null) throw new Error('widget not offered');
    return widgetItems(
      { user: 'alice' },
      { cache: context.cache, host: await context.host(), archiveAccount: offer.archiveAccount, archiveUrl: offer.archiveUrl, client: context.archiveClient() },
    );
  };
  const newestRequests = (): number => emulator.requests.filter((r) => r.query.ordering === '-added').length;

  test('150 concurrent loads across the three ask the archive server once, and all get the list', async () => {
    emulator.clearRequests();
    emulator.latencyMs = 80;
    const results = await Promise.all(Array.from({ length: 150 }, (_, i) => load(contexts[i % 3] as ServiceContext)));
    expect(newestRequests()).toBe(1);
    for (const result of results) expect(result.items.map((item) => item.title)).toEqual(['Private four', 'Contract three', 'Invoice two', 'Invoice one']);
    // Names too were asked once for everyone.
    expect(emulator.requests.filter((r) => r.path.endsWith('/api/correspondents/')).length).toBe(1);
  });

  test('a failure is shared too: the others see "unreachable" without asking', async () => {
    await caches[0]?.clearPrefix();
    emulator.clearRequests();
    emulator.faults = [{ match: '/api/documents/', status: 502 }];
    const results = await Promise.all(Array.from({ length: 30 }, (_, i) => load(contexts[i % 3] as ServiceContext)));
    expect(newestRequests()).toBe(1);
    for (const result of results) expect(result.emptyContentMessage).toBe(MESSAGE_UNREACHABLE);
    emulator.faults = [];
  });
});
