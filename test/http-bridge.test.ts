import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { bridgeHeaders, BRIDGE_ALLOWED_SKEW_SECONDS, BRIDGE_WINDOW_SECONDS, issueBridgeChallenge, verifyBridgeCall } from '../src/core/bridge/signature.js';
import { MemoryCache } from '../src/core/cache/memory-cache.js';
import { RedisCache } from '../src/core/cache/redis-cache.js';
import { call, PASSWORDS, startHarness, type CallResult, type Harness } from './support/http-harness.js';
import { describeWithRedis, REDIS_URL } from './support/redis-probe.js';

const SECRET = 'Q2hvb3NlLWEtbG9uZy1yYW5kb20tc2VjcmV0LWhlcmU';
const SEARCH = '/bridge/ocs/v2.php/search/providers/docs_unified_search_documents/search';
const SETTINGS = '/bridge/apps/docs_unified_search/settings';

let h: Harness;

beforeAll(async () => {
  h = await startHarness({ bridgeSecret: SECRET, clockedCache: true });
});

afterAll(async () => {
  await h.close();
});

interface Signed {
  readonly user?: string;
  readonly confirmed?: boolean;
  readonly body?: string;
  readonly secret?: string;
  readonly time?: string;
  readonly nonce?: string;
  readonly challenge?: string;
  /** The signer's clock in ms: the harness's fake clock unless another serve (on the real clock) is called. */
  readonly now?: number;
  /** The address of the serve that issued the challenge; default the harness's. */
  readonly service?: string;
}

/** A challenge as `serve` at `service` issues it (test/bridge-transport.test.ts asks the route itself). */
function challengeAt(nowMs: number, secret = SECRET, service = h.base): string {
  return issueBridgeChallenge(secret, 'the-app-s-own-fresh-value', nowMs, service).challenge;
}

function signedHeaders(method: string, path: string, o: Signed = {}): Record<string, string> {
  const body = Buffer.from(o.body ?? '');
  const now = o.now ?? h.clock.now;
  return bridgeHeaders(o.secret ?? SECRET, {
    method,
    pathWithQuery: path,
    user: o.user ?? 'alice',
    confirmed: o.confirmed ?? false,
    body,
    time: o.time ?? String(Math.floor(now / 1000)),
    challenge: o.challenge ?? challengeAt(now, o.secret, o.service),
    ...(o.nonce === undefined ? {} : { nonce: o.nonce }),
  });
}

async function signedCall(method: string, path: string, o: Signed = {}): Promise<CallResult> {
  const headers = signedHeaders(method, path, o);
  if (o.body !== undefined) headers['content-type'] = 'application/json';
  return call(h, method, path, { headers, ...(o.body === undefined ? {} : { body: o.body }) });
}

function refusals(): { reason: string; route: string }[] {
  return readFileSync(join(h.configDir, 'host.log'), 'utf8')
    .split('\n')
    .filter((line) => line.includes('"bridge_refused"'))
    .map((line) => JSON.parse(line) as { reason: string; route: string });
}

function lastRefusal(): string | undefined {
  return refusals().at(-1)?.reason;
}

function titles(result: CallResult): string[] {
  return result.json<{ ocs: { data: { entries: { title: string }[] } } }>().ocs.data.entries.map((entry) => entry.title);
}

describe('signed calls', () => {
  test('a signed search answers as the signed user: the documents that user can open, as over Basic auth', async () => {
    const path = `${SEARCH}?term=invoice&limit=10`;
    const alice = await signedCall('GET', path);
    expect(alice.status).toBe(200);
    expect(titles(alice).sort()).toEqual(['Contract three', 'Invoice one', 'Invoice two']);
    const bob = await signedCall('GET', path, { user: 'bob' });
    expect(titles(bob)).toEqual(['Invoice one']);
    const overBasic = await call(h, 'GET', '/ocs/v2.php/search/providers/docs_unified_search_documents/search?term=invoice&limit=10', {
      basic: ['bob', PASSWORDS.bob],
    });
    expect(titles(overBasic)).toEqual(titles(bob));
  });

  test('the provider list says whether the provider is offered and external', async () => {
    const listed = await signedCall('GET', '/bridge/ocs/v2.php/search/providers');
    expect(listed.json<{ ocs: { data: { id: string; isExternalProvider: boolean }[] } }>().ocs.data).toEqual([
      expect.objectContaining({ id: 'docs_unified_search_documents', isExternalProvider: true }),
    ]);
  });

  test('the settings form comes rendered, without the token', async () => {
    const form = await signedCall('GET', '/bridge/settings/admin/form', { user: 'admin' });
    expect(form.status).toBe(200);
    const html = form.json<{ html: string }>().html;
    expect(html).toContain('id="dus-settings"');
    expect(html).toContain('A token is stored');
    expect(html).not.toContain('emulator-token');
  });
});

describe('refused calls (each must fail if its check is gone)', () => {
  const refused = (result: CallResult): void => {
    expect(result.status).toBe(401);
    const body = result.json<{ ocs?: { data: { code: string } }; code?: string }>();
    expect(body.ocs?.data.code ?? body.code).toBe('bridge_refused');
  };

  test('an unsigned call, and Basic auth on a bridge route, are refused', async () => {
    refused(await call(h, 'GET', `${SEARCH}?term=invoice`));
    expect(lastRefusal()).toBe('unsigned');
    refused(await call(h, 'GET', `${SEARCH}?term=invoice`, { basic: ['alice', PASSWORDS.alice] }));
    expect(lastRefusal()).toBe('unsigned');
  });

  test('a signature made with another secret is refused', async () => {
    refused(await signedCall('GET', `${SEARCH}?term=invoice`, { secret: 'another-secret-another-secret-another-secr' }));
    expect(lastRefusal()).toBe('bad_signature');
  });

  test('a tampered path, query, user or body is refused', async () => {
    const headers = signedHeaders('GET', `${SEARCH}?term=invoice`);
    refused(await call(h, 'GET', `${SEARCH}?term=private`, { headers }));
    expect(lastRefusal()).toBe('bad_signature');
    const other = signedHeaders('GET', '/bridge/ocs/v2.php/search/providers');
    refused(await call(h, 'GET', '/bridge/ocs/v2.php/apps/dashboard/api/v1/widgets', { headers: other }));
    expect(lastRefusal()).toBe('bad_signature');
    const asAlice = signedHeaders('GET', `${SEARCH}?term=invoice`);
    refused(await call(h, 'GET', `${SEARCH}?term=invoice`, { headers: { ...asAlice, 'x-dus-bridge-user': 'admin' } }));
    expect(lastRefusal()).toBe('bad_signature');
    const body = JSON.stringify({ term: 'invoice', user: 'alice' });
    const signed = signedHeaders('POST', `${SETTINGS}/try`, { user: 'admin', body });
    refused(
      await call(h, 'POST', `${SETTINGS}/try`, {
        headers: { ...signed, 'content-type': 'application/json' },
        body: JSON.stringify({ term: 'invoice', user: 'bob' }),
      }),
    );
    expect(lastRefusal()).toBe('bad_signature');
    // The same call untampered passes: the refusals above are the tampering's.
    expect(
      (
        await call(h, 'POST', `${SETTINGS}/try`, {
          headers: { ...signedHeaders('POST', `${SETTINGS}/try`, { user: 'admin', body }), 'content-type': 'application/json' },
          body,
        })
      ).status,
    ).toBe(200);
  });

  test('a forged confirmation flag is refused', async () => {
    const headers = signedHeaders('DELETE', SETTINGS, { user: 'admin', confirmed: false });
    refused(await call(h, 'DELETE', SETTINGS, { headers: { ...headers, 'x-dus-bridge-confirmed': '1' } }));
    expect(lastRefusal()).toBe('bad_signature');
  });

  test('a call outside the time window is refused, inside it passes', async () => {
    const now = Math.floor(h.clock.now / 1000);
    refused(await signedCall('GET', `${SEARCH}?term=invoice`, { time: String(now - BRIDGE_WINDOW_SECONDS - 1) }));
    expect(lastRefusal()).toBe('stale');
    refused(await signedCall('GET', `${SEARCH}?term=invoice`, { time: String(now + BRIDGE_WINDOW_SECONDS + 1) }));
    expect(lastRefusal()).toBe('stale');
    expect((await signedCall('GET', `${SEARCH}?term=invoice`, { time: String(now - BRIDGE_WINDOW_SECONDS + 2) })).status).toBe(200);
  });

  test('a replayed call is refused within the window', async () => {
    const headers = signedHeaders('GET', `${SEARCH}?term=invoice`);
    expect((await call(h, 'GET', `${SEARCH}?term=invoice`, { headers })).status).toBe(200);
    refused(await call(h, 'GET', `${SEARCH}?term=invoice`, { headers }));
    expect(lastRefusal()).toBe('replayed');
    // After the window the time check refuses it, even once the nonce has expired from the cache.
    h.clock.now += 3 * BRIDGE_WINDOW_SECONDS * 1000;
    refused(await call(h, 'GET', `${SEARCH}?term=invoice`, { headers }));
    expect(lastRefusal()).toBe('stale');
  });

  test('an unknown or disabled user is refused', async () => {
    refused(await signedCall('GET', `${SEARCH}?term=invoice`, { user: 'nobody' }));
    expect(lastRefusal()).toBe('unknown_user');
    refused(await signedCall('GET', `${SEARCH}?term=invoice`, { user: 'carol' }));
    expect(lastRefusal()).toBe('unknown_user');
  });

  test('a call without a user reaches the overview check only', async () => {
    const overview = await signedCall('GET', `${SETTINGS}/overview`, { user: '' });
    expect(overview.status).toBe(200);
    expect(overview.json<{ severity: string }>().severity).toBe('success');
    refused(await signedCall('GET', SETTINGS, { user: '' }));
    expect(lastRefusal()).toBe('system_call');
  });

  test('signed headers open none of the other routes', async () => {
    const path = '/ocs/v2.php/search/providers/docs_unified_search_documents/search?term=invoice';
    const result = await call(h, 'GET', path, { headers: signedHeaders('GET', path) });
    expect(result.status).toBe(401);
    expect(result.json<{ ocs: { data: { code: string } } }>().ocs.data.code).toBe('unauthenticated');
  });

  test('refusals are logged by reason and route pattern, without the secret, the signature or the term', () => {
    const log = readFileSync(join(h.configDir, 'host.log'), 'utf8');
    expect(refusals().length).toBeGreaterThan(8);
    expect(refusals().every((entry) => entry.route.startsWith('/bridge/'))).toBe(true);
    expect(log).not.toContain(SECRET);
    expect(log).not.toContain('v1=');
    expect(log).not.toContain('term=');
  });
});

describe('administrators and password confirmation', () => {
  test('the settings routes refuse non-administrators', async () => {
    const result = await signedCall('GET', SETTINGS, { user: 'alice' });
    expect(result.status).toBe(403);
    expect(result.json<{ code: string }>().code).toBe('forbidden');
  });

  test('Save and Disconnect need the confirmation Nextcloud reports', async () => {
    const body = JSON.stringify({ url: h.emulator.url });
    const unconfirmed = await signedCall('POST', SETTINGS, { user: 'admin', body });
    expect(unconfirmed.status).toBe(403);
    expect(unconfirmed.json<{ code: string }>().code).toBe('password_confirmation_required');
    const saved = await signedCall('POST', SETTINGS, { user: 'admin', body, confirmed: true });
    expect(saved.status).toBe(200);
    expect(saved.text).not.toContain('emulator-token');
    expect((await signedCall('DELETE', SETTINGS, { user: 'admin' })).status).toBe(403);
    // Clear history needs no confirmation (the spec names only Save and Disconnect).
    expect((await signedCall('DELETE', `${SETTINGS}/diagnostics`, { user: 'admin' })).status).toBe(200);
  });

  test('without a secret every bridge call is refused', async () => {
    const bare = await startHarness();
    try {
      const path = `${SEARCH}?term=invoice`;
      const result = await call(bare, 'GET', path, { headers: signedHeaders('GET', path, { now: Date.now() }) });
      expect(result.status).toBe(401);
      expect(readFileSync(join(bare.configDir, 'host.log'), 'utf8')).toContain('"reason":"no_secret"');
    } finally {
      await bare.close();
    }
  });
});

const withRedis = await describeWithRedis('replays across serve processes sharing Redis');
withRedis('several serve processes', () => {
  test('a call replayed to another process sharing the cache is refused', async () => {
    const prefix = `dus-test-bridge-${process.pid}-${Date.now()}:`;
    const caches = [new RedisCache({ url: REDIS_URL, keyPrefix: prefix }), new RedisCache({ url: REDIS_URL, keyPrefix: prefix })];
    // Two processes behind one address (a proxy in front): both issue and take its challenges.
    const service = 'https://dus.example.org/bridge-proxy';
    const one = await startHarness({ bridgeSecret: SECRET, cache: caches[0], serviceUrl: `${service}/` });
    const two = await startHarness({ bridgeSecret: SECRET, cache: caches[1], serviceUrl: service });
    try {
      const path = `${SEARCH}?term=invoice`;
      const headers = signedHeaders('GET', path, { now: Date.now(), service });
      const answers = await Promise.all([call(one, 'GET', path, { headers }), call(two, 'GET', path, { headers })]);
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 401]);
    } finally {
      await Promise.all([one.close(), two.close()]);
      for (const cache of caches) await cache.close();
    }
  }, 300_000);

  test('a challenge of one process is refused by another at another address, though they share the secret and the cache (issue 36)', async () => {
    const prefix = `dus-test-bridge-${process.pid}-${Date.now()}:`;
    const caches = [new RedisCache({ url: REDIS_URL, keyPrefix: prefix }), new RedisCache({ url: REDIS_URL, keyPrefix: prefix })];
    const one = await startHarness({ bridgeSecret: SECRET, cache: caches[0] });
    const two = await startHarness({ bridgeSecret: SECRET, cache: caches[1] });
    try {
      const path = `${SEARCH}?term=invoice`;
      const issued = await call(one, 'GET', '/bridge/challenge?c=the-app-s-own-fresh-value');
      const { challenge, service } = issued.json<{ challenge: string; service: string }>();
      expect(service).toBe(one.base);
      const headers = signedHeaders('GET', path, { now: Date.now(), challenge });
      const refused = await call(two, 'GET', path, { headers });
      expect(refused.status).toBe(401);
      expect(readFileSync(join(two.configDir, 'host.log'), 'utf8')).toContain('"reason":"bad_challenge"');
      expect((await call(one, 'GET', path, { headers })).status).toBe(200);
    } finally {
      await Promise.all([one.close(), two.close()]);
      for (const cache of caches) await cache.close();
    }
  }, 300_000);
});

describe('nonces are kept as long as any process within the allowed skew could accept the call', () => {
  test('two processes sharing a cache, clocks 70 s apart: a call taken by one stays refused by the other until it is stale there too', async () => {
    let real = 1_800_000_000_000;
    const shared = new MemoryCache({ now: () => real }); // the cache's own time is real time (Redis)
    const body = Buffer.alloc(0);
    const pathWithQuery = '/bridge/ocs/v2.php/search/providers';
    const time = String(real / 1000);
    const nonce = 'one-nonce-for-every-call-below';
    // Each verdict a call with the same nonce and a challenge of its own, valid all along: the
    // nonce alone must refuse it (the challenge's own single use is test/bridge-transport's).
    const verdict = (clockOffsetMs: number) => {
      const challenge = challengeAt(1_800_000_000_000 + 400_000);
      const headers = bridgeHeaders(SECRET, { method: 'GET', pathWithQuery, user: 'alice', confirmed: false, body, time, nonce, challenge });
      const presented = {
        user: headers['x-dus-bridge-user'],
        time: headers['x-dus-bridge-time'],
        nonce: headers['x-dus-bridge-nonce'],
        confirmed: headers['x-dus-bridge-confirmed'],
        challenge: headers['x-dus-bridge-challenge'],
        signature: headers['x-dus-bridge-signature'],
      };
      return verifyBridgeCall({
        secret: SECRET,
        service: h.base,
        method: 'GET',
        pathWithQuery,
        headers: presented,
        body,
        nowMs: real + clockOffsetMs,
        cache: shared,
      });
    };
    const lagging = -70_000;
    expect(await verdict(0)).toEqual({ ok: true });
    expect(await verdict(lagging)).toEqual({ ok: false, reason: 'stale' }); // 70 s in its future
    // The lagging process would accept the call from its own clock's point of view until 130 s
    // later (signed time + 60 s by its clock): the nonce must be there for all of it.
    for (const laterS of [61, 121, 123, 129]) {
      real = 1_800_000_000_000 + laterS * 1000;
      expect([laterS, await verdict(lagging)]).toEqual([laterS, { ok: false, reason: 'replayed' }]);
    }
    real = 1_800_000_000_000 + 131_000;
    expect(await verdict(lagging)).toEqual({ ok: false, reason: 'stale' });
    // Within the allowed skew the rule holds at its edge: a clock BRIDGE_ALLOWED_SKEW_SECONDS behind.
    real = 1_800_000_000_000 + (BRIDGE_WINDOW_SECONDS + BRIDGE_ALLOWED_SKEW_SECONDS - 1) * 1000;
    expect(await verdict(-BRIDGE_ALLOWED_SKEW_SECONDS * 1000)).toEqual({ ok: false, reason: 'replayed' });
  });
});
