/**
 * Starts the HTTP wrapper for a test file: a SQLite host fixture with users and archive files,
 * the archive-server emulator, a service context in a fresh config directory, and fastify on
 * 127.0.0.1:0. The clock and the throttle's sleep are seams; nothing else is stood in for.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { request } from 'undici';
import { MemoryCache } from '../../src/core/cache/memory-cache.js';
import type { Cache } from '../../src/core/cache/types.js';
import type { ServiceContext } from '../../src/core/context-types.js';
import { openContext } from '../../src/core/context.js';
import { saveSettings } from '../../src/core/admin/save-settings.js';
import { buildServer } from '../../src/http/server.js';
import type { ServerLimits } from '../../src/http/server-limits.js';
import { startArchiveEmulator } from './archive-emulator/index.js';
import type { ArchiveEmulator, EmulatorDocument } from './archive-emulator/types.js';
import { createHostFixture, type HostFixture } from './host-fixtures/index.js';

export const PASSWORDS = { admin: 'admin-pass-1', alice: 'alice-pass-1', bob: 'bob-pass-1', archive: 'archive-pass-1', carol: 'carol-pass-1' } as const;
/**
 * PASSWORDS hashed once, ahead of time, as the host stores them: argon2id at Nextcloud's cost
 * (64 MiB, 4 passes) and bob's bcrypt (cost 10). Hashing them at every setup took 2 s a password
 * at load 8 in WebAssembly and pushed beforeAll past jest's 30 s on a loaded machine; the login
 * tests still verify them at that cost, each within its own test's time.
 */
const STORED_PASSWORDS: Record<keyof typeof PASSWORDS, string> = {
  admin: '3|$argon2id$v=19$m=65536,t=4,p=1$2h5xSqGq8hhdN1ycy9FCqg$svCt4zH3vPAP6c/f/+atVviBCrRqAX04Y7S5syNYq+s',
  alice: '3|$argon2id$v=19$m=65536,t=4,p=1$zkafPMdT0ZisfnzjLNKv3w$oK4lddR8Ift6eEZ92ltAsTuEvpAChGy7K/slnKmHQ/A',
  bob: '1|$2y$10$VrBHK.UXsrhSTTzGsEwTGeggESKWoBcTk7ZGfPpkyJmTqeo/0yx7.',
  archive: '3|$argon2id$v=19$m=65536,t=4,p=1$UoeJUkKgWIeJa6LykXRrsw$9Z48Xqb0OAZff7+ijBr2z4qiOwF/iPyLKdaoUtVwokQ',
  carol: '3|$argon2id$v=19$m=65536,t=4,p=1$Oa9SE+zgUpFPB1/EkV2JDA$J0wdH7Kj7ku7zzshEm0Hgm1P9U8nmO+YFYyvWz1m6/A',
};
export const HOST_URL = 'http://cloud.example.test';
export const ARCHIVE_TOKEN = 'emulator-token';

export interface Harness {
  readonly base: string;
  readonly app: FastifyInstance;
  readonly context: ServiceContext;
  readonly fixture: HostFixture;
  readonly emulator: ArchiveEmulator;
  readonly configDir: string;
  readonly clock: { now: number };
  /** Delays the login throttle asked for, in order. */
  readonly delays: number[];
  /** File id of each document's file in the archive account's folders. */
  readonly files: Map<number, number>;
  close(): Promise<void>;
}

export interface HarnessOptions {
  /** Save settings (emulator URL, token, archive account) before starting. Default true. */
  readonly configured?: boolean;
  readonly documents?: EmulatorDocument[];
  readonly cache?: Cache;
  /** Read the host from a Nextcloud directory (config.php with `secret`) instead of a database URL. */
  readonly viaNextcloudDir?: boolean;
  /** An in-process cache on the harness clock, so tests move time instead of waiting. */
  readonly clockedCache?: boolean;
  /** The bridge's shared secret; without it every bridge call is refused. */
  readonly bridgeSecret?: string;
  /** Shorter timeouts and a smaller connection cap (test/http-server-limits.test.ts). */
  readonly limits?: Partial<ServerLimits>;
  /** `serve --service-url`: the address its bridge challenges name; default its own `base`. */
  readonly serviceUrl?: string;
}

export function doc(id: number, title: string, added: string, extra: Partial<EmulatorDocument> = {}): EmulatorDocument {
  return { id, title, content: `${title} content invoice`, created: added.slice(0, 10), added, correspondent: 1, documentType: 1, ...extra };
}

export const DEFAULT_DOCUMENTS: EmulatorDocument[] = [
  doc(1, 'Invoice one', '2026-11-01T10:00:00+00:00'),
  doc(2, 'Invoice two', '2026-11-02T10:00:00+00:00', { correspondent: 2, documentType: 2 }),
  doc(3, 'Contract three', '2026-11-03T10:00:00+00:00', { correspondent: null, documentType: 3 }),
  doc(4, 'Private four', '2026-11-04T10:00:00+00:00'),
];

/**
 * Host: admin (group admin), alice (sees documents 1–3 through a folder share), bob (sees 1),
 * archive (the archive account, owns every file), carol (disabled).
 */
export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const fixture = await createHostFixture('sqlite');
  await fixture.addUser('admin', { storedPassword: STORED_PASSWORDS.admin });
  await fixture.addUser('alice', { storedPassword: STORED_PASSWORDS.alice });
  await fixture.addUser('bob', { storedPassword: STORED_PASSWORDS.bob });
  await fixture.addUser('archive', { storedPassword: STORED_PASSWORDS.archive });
  await fixture.addUser('carol', { storedPassword: STORED_PASSWORDS.carol, enabled: false });
  await fixture.addGroup('admin', ['admin']);
  const shared = await fixture.addFolder('archive', 'files/Shared');
  await fixture.addFolder('archive', 'files/Private');
  const files = new Map<number, number>();
  files.set(1, await fixture.addFile('archive', 'files/Shared/Invoice one [P1].pdf'));
  files.set(2, await fixture.addFile('archive', 'files/Shared/Invoice two [P2].pdf'));
  files.set(3, await fixture.addFile('archive', 'files/Shared/Contract three [P3].pdf'));
  files.set(4, await fixture.addFile('archive', 'files/Private/Private four [P4].pdf'));
  await fixture.share({ owner: 'archive', fileId: shared, type: 'user', with: 'alice', permissions: 1 });
  const one = files.get(1);
  if (one !== undefined) await fixture.share({ owner: 'archive', fileId: one, type: 'user', with: 'bob', permissions: 1 });

  const emulator = await startArchiveEmulator({ documents: options.documents ?? DEFAULT_DOCUMENTS });
  const configDir = mkdtempSync(join(tmpdir(), 'dus-http-'));
  let hostLocation: { dbUrl?: string; nextcloudDir?: string; hostUrl: string };
  if (options.viaNextcloudDir === true) {
    const dir = join(configDir, 'nextcloud');
    await fixture.writeNextcloudDir(dir);
    hostLocation = { nextcloudDir: dir, hostUrl: HOST_URL };
  } else {
    hostLocation = { dbUrl: fixture.dbUrl, hostUrl: HOST_URL };
  }
  const clock = { now: Date.now() };
  const cache = options.cache ?? (options.clockedCache === true ? new MemoryCache({ now: () => clock.now }) : undefined);
  const context = openContext({
    configDir: join(configDir, 'config'),
    hostLocation,
    logFile: join(configDir, 'host.log'),
    env: { DUS_SECRET: 'http-test-instance-secret' },
    // The emulator listens on loopback; the test network counts as public.
    archiveClientOptions: { isLocalAddress: () => false },
    ...(cache === undefined ? {} : { cache }),
  });
  if (options.configured !== false) {
    await saveSettings(context, { url: emulator.url, token: ARCHIVE_TOKEN, archiveOwner: 'archive' });
    emulator.clearRequests();
  }
  const delays: number[] = [];
  const app = await buildServer({
    context,
    now: () => clock.now,
    sleep: async (ms) => {
      delays.push(ms);
    },
    // Tests speak for several client addresses through X-Forwarded-For.
    trustProxy: '127.0.0.1',
    ...(options.bridgeSecret === undefined ? {} : { bridgeSecret: () => options.bridgeSecret ?? null }),
    ...(options.limits === undefined ? {} : { limits: options.limits }),
    ...(options.serviceUrl === undefined ? {} : { serviceUrl: options.serviceUrl }),
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return {
    base: `http://127.0.0.1:${port}`,
    app,
    context,
    fixture,
    emulator,
    configDir,
    clock,
    delays,
    files,
    close: async () => {
      await app.close();
      await context.close();
      if (options.clockedCache === true) await cache?.close();
      await emulator.close();
      await fixture.drop();
      rmSync(configDir, { recursive: true, force: true });
    },
  };
}

export interface CallOptions {
  readonly basic?: readonly [string, string];
  readonly cookie?: string;
  readonly headers?: Record<string, string>;
  readonly form?: Record<string, string>;
  readonly json?: unknown;
  readonly body?: Buffer | string;
  /** Client address the trusted proxy reports (X-Forwarded-For). */
  readonly from?: string;
}

export interface CallResult {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly text: string;
  json<T = Record<string, unknown>>(): T;
}

export async function call(h: Harness, method: string, path: string, o: CallOptions = {}): Promise<CallResult> {
  const headers: Record<string, string> = { accept: 'application/json', ...o.headers };
  if (o.basic !== undefined) headers.authorization = `Basic ${Buffer.from(`${o.basic[0]}:${o.basic[1]}`).toString('base64')}`;
  if (o.cookie !== undefined) headers.cookie = o.cookie;
  if (o.from !== undefined) headers['x-forwarded-for'] = o.from;
  let body: string | Buffer | undefined = o.body;
  if (o.form !== undefined) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(o.form).toString();
  } else if (o.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(o.json);
  }
  const response = await request(`${h.base}${path}`, { method: method as 'GET', headers, ...(body === undefined ? {} : { body }) });
  const text = await response.body.text();
  return {
    status: response.statusCode,
    headers: response.headers,
    text,
    json: <T>() => JSON.parse(text) as T,
  };
}

/** Logs in through the form; returns the cookie header value and the session's request token. */
export async function login(h: Harness, user: string, password: string, from?: string): Promise<{ cookie: string; requestToken: string }> {
  const response = await call(h, 'POST', '/login', { form: { user, password }, ...(from === undefined ? {} : { from }) });
  if (response.status !== 303) throw new Error(`login of ${user} answered ${response.status}`);
  const setCookie = response.headers['set-cookie'];
  const first = Array.isArray(setCookie) ? setCookie[0] : setCookie;
  const cookie = (first ?? '').split(';')[0] ?? '';
  const token = await call(h, 'GET', '/csrftoken', { cookie });
  return { cookie, requestToken: token.json<{ token: string }>().token };
}
