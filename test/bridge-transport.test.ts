/**
 * Issue 23, row 2: a bridge call captured by something that is not `serve` must be useless.
 * The app's own client (test/support/php-app, over real HTTP with PHP's curl) calls a listener
 * sitting on its configured address, which records every request; each recorded request is
 * then sent to the real `serve` (in-process, test/support/http-harness) as the listener would.
 * The challenge route and its single use and expiry are checked against `serve` directly.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseListenAddress, parseServiceUrl, serve } from '../src/commands/serve.js';
import { bridgeHeaders, BRIDGE_CHALLENGE_SECONDS, challengeProof } from '../src/core/bridge/signature.js';
import { RedisCache } from '../src/core/cache/redis-cache.js';
import { DusError } from '../src/core/errors.js';
import { prepareSocketPath } from '../src/http/listen.js';
import { captureIO } from './support/capture-io.js';
import { call, startHarness, type CallResult, type Harness } from './support/http-harness.js';
import { phpMissing, runAppPhpAsync } from './support/php-app/index.js';
import { describeWithRedis, REDIS_URL } from './support/redis-probe.js';

const SECRET = 'VGhlLXRyYW5zcG9ydC1zZWNyZXQtb2YtaXNzdWUtMjM';
const SEARCH = '/bridge/ocs/v2.php/search/providers/docs_unified_search_documents/search';
const SETTINGS = '/bridge/apps/docs_unified_search/settings';

if (phpMissing) process.stdout.write("SKIP the bridge app's transport: php is not installed\n");
const withPhp = phpMissing ? test.skip : test;

let h: Harness;

beforeAll(async () => {
  h = await startHarness({ bridgeSecret: SECRET, clockedCache: true });
});

afterAll(async () => {
  await h.close();
});

interface Captured {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
}

/** The headers worth sending again: everything but the hop-by-hop ones node sets itself. */
function replayHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (typeof value === 'string' && !['host', 'connection', 'content-length', 'transfer-encoding'].includes(name)) kept[name] = value;
  }
  return kept;
}

async function readAll(request: NodeJS.ReadableStream): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of request) parts.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(parts);
}

/**
 * A listener on the app's address. `stranger`: no way to the real `serve` during the calls (the
 * issue's case: `serve` down, its port taken), but a challenge it fetched from `serve` before,
 * with the proof that came with it, given to every challenge request. `relay`: it passes every
 * request to `serve` and back, seeing all of them (an observer of the traffic).
 */
async function listener(
  mode: 'stranger' | 'relay',
  o: { to?: () => Harness; port?: number } = {},
): Promise<{ url: string; captured: Captured[]; close: () => Promise<void> }> {
  const to = o.to ?? (() => h);
  const captured: Captured[] = [];
  const stolen = await call(h, 'GET', '/bridge/challenge?c=the-listener-s-own-value');
  expect(stolen.status).toBe(200);
  const server: Server = createServer((request, response) => {
    void (async () => {
      const body = await readAll(request);
      const method = request.method ?? 'GET';
      const url = request.url ?? '/';
      captured.push({ method, url, headers: request.headers, body });
      response.setHeader('content-type', 'application/json');
      if (mode === 'relay') {
        const passed = await call(to(), method, url, { headers: replayHeaders(request.headers), ...(body.length === 0 ? {} : { body }) });
        response.statusCode = passed.status;
        response.end(passed.text);
      } else if (url.startsWith('/bridge/challenge')) {
        response.end(stolen.text);
      } else {
        response.end(JSON.stringify({ ocs: { meta: { status: 'ok', statuscode: 200 }, data: { name: 'Archive', entries: [], cursor: null } } }));
      }
    })();
  });
  await new Promise<void>((resolve) => server.listen(o.port ?? 0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    captured,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

interface AppRun {
  /** Each call's status, null when the app sent nothing signed or got nothing. */
  readonly statuses: (number | null)[];
  readonly logs: string[];
}

/**
 * The app's calls of every kind, with its configured address at `serviceUrl`: a search, the
 * widget, a Save confirmed by a typed password, and the overview check (no user).
 */
async function appCalls(serviceUrl: string, archiveUrl = h.emulator.url): Promise<AppRun> {
  h.clock.now = Date.now(); // PHP signs with the real clock (the other harnesses run on it)
  return (await runAppPhpAsync(`
    Fake::$serviceUrl = '${serviceUrl}';
    Fake::$secret = '${SECRET}';
    $bridge = Fake::httpBridge();
    $answers = [
      $bridge->call('GET', '/ocs/v2.php/search/providers/docs_unified_search_documents/search', ['term' => 'invoice', 'limit' => 10], 'alice'),
      $bridge->call('GET', '/ocs/v2.php/apps/dashboard/api/v2/widget-items', ['widgets[]' => 'docs_unified_search-recent'], 'bob'),
      $bridge->call('POST', '/apps/docs_unified_search/settings', [], 'admin', true, ['url' => '${archiveUrl}']),
      $bridge->call('GET', '/apps/docs_unified_search/settings/overview', [], ''),
    ];
    echo json_encode(['statuses' => array_map(fn ($answer) => $answer === null ? null : $answer['status'], $answers), 'logs' => Fake::$logs]);
  `)) as AppRun;
}

function replay(one: Captured, to: Harness = h): Promise<CallResult> {
  return call(to, one.method, one.url, { headers: replayHeaders(one.headers), ...(one.body.length === 0 ? {} : { body: one.body }) });
}

function refusedAsBridgeRefused(result: CallResult): void {
  expect(result.status).toBe(401);
  const body = result.json<{ ocs?: { data: { code: string } }; code?: string }>();
  expect(body.ocs?.data.code ?? body.code).toBe('bridge_refused');
}

function refusalReasons(of: Harness = h): string[] {
  return readFileSync(join(of.configDir, 'host.log'), 'utf8')
    .split('\n')
    .filter((line) => line.includes('"bridge_refused"'))
    .map((line) => (JSON.parse(line) as { reason: string }).reason);
}

describe('a listener on the configured address that is not serve', () => {
  withPhp('gets no signed call: the app sends nothing past a challenge answer it cannot verify', async () => {
    const stranger = await listener('stranger');
    try {
      const run = await appCalls(stranger.url);
      expect(run.statuses).toEqual([null, null, null, null]);
      expect(run.logs).toEqual([expect.stringContaining('did not prove the bridge secret')]);
      // Four calls, four challenge requests, and nothing else: no user, no signature, no body.
      expect(stranger.captured.map((one) => `${one.method} ${new URL(one.url, 'http://x').pathname}`)).toEqual(Array(4).fill('GET /bridge/challenge'));
      for (const one of stranger.captured) {
        expect(Object.keys(one.headers).filter((name) => name.startsWith('x-dus-bridge-'))).toEqual([]);
        expect(one.body.length).toBe(0);
      }
      // Sent to serve again, each gets a challenge for the app's value, which opens nothing without
      // the secret: the calls the listener can build with it (the captured headers, a guessed
      // signature) are refused like any other.
      for (const one of stranger.captured) {
        const answer = await replay(one);
        expect(answer.status).toBe(200);
        const { challenge } = answer.json<{ challenge: string }>();
        const path = `${SEARCH}?term=invoice&limit=10`;
        const forged = bridgeHeaders('a-guess-at-the-secret', {
          method: 'GET',
          pathWithQuery: path,
          user: 'alice',
          confirmed: false,
          body: Buffer.alloc(0),
          challenge,
        });
        refusedAsBridgeRefused(await call(h, 'GET', path, { headers: forged }));
        expect(refusalReasons().at(-1)).toBe('bad_signature');
      }
    } finally {
      await stranger.close();
    }
  });

  withPhp('that sees every call on its way to serve: each one sent again is refused with bridge_refused', async () => {
    // An observer on the way to the serve the app addresses: serve's address is the relay's.
    const started: { serve?: Harness } = {};
    const relay = await listener('relay', { to: () => started.serve ?? h });
    const observed = await startHarness({ bridgeSecret: SECRET, serviceUrl: relay.url });
    started.serve = observed;
    try {
      const run = await appCalls(relay.url, observed.emulator.url);
      expect(run.statuses).toEqual([200, 200, 200, 200]);
      const signed = relay.captured.filter((one) => one.headers['x-dus-bridge-signature'] !== undefined);
      expect(signed.map((one) => `${one.method} ${new URL(one.url, 'http://x').pathname}`)).toEqual([
        `GET ${SEARCH}`,
        'GET /bridge/ocs/v2.php/apps/dashboard/api/v2/widget-items',
        `POST ${SETTINGS}`,
        `GET ${SETTINGS}/overview`,
      ]);
      const before = refusalReasons(observed).length;
      for (const one of relay.captured) {
        if (one.headers['x-dus-bridge-signature'] === undefined) continue;
        refusedAsBridgeRefused(await replay(one, observed));
      }
      expect(refusalReasons(observed).slice(before)).toEqual(['replayed', 'replayed', 'replayed', 'replayed']);
    } finally {
      await relay.close();
      await observed.close();
    }
  });

  withPhp('a relay to serve from another address gets no signed call: the challenge names the serve that issued it', async () => {
    const relay = await listener('relay');
    try {
      const run = await appCalls(relay.url);
      expect(run.statuses).toEqual([null, null, null, null]);
      expect(run.logs).toEqual([
        expect.stringContaining(`the service that answered at service_url serves ${h.base}, not ${relay.url}, no signed call was sent`),
      ]);
      expect(relay.captured.filter((one) => one.headers['x-dus-bridge-signature'] !== undefined)).toEqual([]);
    } finally {
      await relay.close();
    }
  });

  withPhp('the normal path: the app calls serve itself and gets its answers', async () => {
    h.clock.now = Date.now();
    const run = (await runAppPhpAsync(`
      Fake::$serviceUrl = '${h.base}';
      Fake::$secret = '${SECRET}';
      $answer = Fake::httpBridge()->call('GET', '/ocs/v2.php/search/providers/docs_unified_search_documents/search', ['term' => 'invoice', 'limit' => 10], 'alice');
      echo json_encode(['status' => $answer['status'] ?? null, 'titles' => array_column($answer['body']['ocs']['data']['entries'] ?? [], 'title'), 'logs' => Fake::$logs]);
    `)) as { status: number | null; titles: string[]; logs: string[] };
    expect(run).toEqual({ status: 200, titles: expect.arrayContaining(['Invoice one', 'Invoice two']) as unknown, logs: [] });
  });

  withPhp('an answer to the challenge request signed with another secret is not taken either', async () => {
    const other = await startHarness({ bridgeSecret: 'another-instance-s-secret-another-instance' });
    try {
      const run = await appCalls(other.base);
      expect(run.statuses).toEqual([null, null, null, null]);
      expect(run.logs).toEqual([expect.stringContaining('did not prove the bridge secret')]);
    } finally {
      await other.close();
    }
  });
});

const withRedis = await describeWithRedis('the relay through a second serve sharing Redis');
withRedis('two serve processes sharing the secret and Redis, one stopped and its port taken (issue 36)', () => {
  withPhp('the listener on the stopped one relays to the live one: the app sends it no signed call, so it has nothing to replay', async () => {
    const prefix = `dus-test-relay-${process.pid}-${Date.now()}:`;
    const caches = [new RedisCache({ url: REDIS_URL, keyPrefix: prefix }), new RedisCache({ url: REDIS_URL, keyPrefix: prefix })];
    const stopped = await startHarness({ bridgeSecret: SECRET, cache: caches[0] });
    const live = await startHarness({ bridgeSecret: SECRET, cache: caches[1] });
    const address = stopped.base; // the app's service_url
    await stopped.close();
    const relay = await listener('relay', { to: () => live, port: Number(new URL(address).port) });
    try {
      expect(relay.url).toBe(address);
      const run = await appCalls(address);
      expect(run.statuses).toEqual([null, null, null, null]);
      expect(run.logs).toEqual([expect.stringContaining(`serves ${live.base}, not ${address}, no signed call was sent`)]);
      // Only the challenge requests came, each answered by the live serve for its own address.
      expect(relay.captured.map((one) => new URL(one.url, 'http://x').pathname)).toEqual(Array(4).fill('/bridge/challenge'));
      expect(relay.captured.filter((one) => one.headers['x-dus-bridge-signature'] !== undefined)).toEqual([]);
      // What the listener could make of a relayed challenge without the secret: refused by the live serve.
      const { challenge, service } = (await replay(relay.captured[0] as Captured, live)).json<{ challenge: string; service: string }>();
      expect(service).toBe(live.base);
      const path = `${SEARCH}?term=invoice&limit=10`;
      const forged = bridgeHeaders('a-guess-at-the-secret', {
        method: 'GET',
        pathWithQuery: path,
        user: 'alice',
        confirmed: false,
        body: Buffer.alloc(0),
        challenge,
      });
      refusedAsBridgeRefused(await call(live, 'GET', path, { headers: forged }));
    } finally {
      await relay.close();
      await live.close();
      for (const cache of caches) await cache.close();
    }
  });
});

describe('the challenge', () => {
  const fresh = async (clientNonce = 'a-fresh-value-of-the-app-0001'): Promise<{ challenge: string; proof: string }> => {
    const answer = await call(h, 'GET', `/bridge/challenge?c=${clientNonce}`);
    expect(answer.status).toBe(200);
    expect(answer.headers['cache-control']).toBe('no-store');
    return answer.json<{ challenge: string; proof: string }>();
  };
  const signedSearch = (challenge: string): Promise<CallResult> => {
    const path = `${SEARCH}?term=invoice&limit=10`;
    const headers = bridgeHeaders(SECRET, {
      method: 'GET',
      pathWithQuery: path,
      user: 'alice',
      confirmed: false,
      body: Buffer.alloc(0),
      time: String(Math.floor(h.clock.now / 1000)),
      challenge,
    });
    return call(h, 'GET', path, { headers });
  };

  test("proves the secret over the app's own value, and only over it", async () => {
    const { challenge, proof } = await fresh('value-one-value-one-value-one');
    expect(proof).toBe(challengeProof(SECRET, 'value-one-value-one-value-one', challenge, h.base));
    expect(proof).not.toBe(challengeProof(SECRET, 'value-two-value-two-value-two', challenge, h.base));
    expect(proof).not.toBe(challengeProof('another-secret', 'value-one-value-one-value-one', challenge, h.base));
    expect(proof).not.toBe(challengeProof(SECRET, 'value-one-value-one-value-one', challenge, 'http://127.0.0.1:1'));
  });

  test('is single use, whatever nonce comes with it', async () => {
    h.clock.now = Date.now();
    const { challenge } = await fresh();
    expect((await signedSearch(challenge)).status).toBe(200);
    refusedAsBridgeRefused(await signedSearch(challenge)); // a new nonce, a new signature: same challenge
    expect(refusalReasons().at(-1)).toBe('replayed');
  });

  test(`expires ${BRIDGE_CHALLENGE_SECONDS} s after it was issued`, async () => {
    h.clock.now = Math.floor(Date.now() / 1000) * 1000; // on a second: the expiry is in whole seconds
    const first = await fresh();
    const second = await fresh();
    h.clock.now += BRIDGE_CHALLENGE_SECONDS * 1000;
    expect((await signedSearch(first.challenge)).status).toBe(200);
    h.clock.now += 1000;
    refusedAsBridgeRefused(await signedSearch(second.challenge));
    expect(refusalReasons().at(-1)).toBe('challenge_expired');
  });

  test('one not issued by serve (another expiry, made up, or none) is refused', async () => {
    h.clock.now = Date.now();
    const { challenge } = await fresh();
    const [expires = '', random = '', mac = ''] = challenge.split('.');
    refusedAsBridgeRefused(await signedSearch([String(Number(expires) + 3600), random, mac].join('.')));
    expect(refusalReasons().at(-1)).toBe('bad_challenge');
    refusedAsBridgeRefused(await signedSearch([expires, 'f'.repeat(32), mac].join('.')));
    expect(refusalReasons().at(-1)).toBe('bad_challenge');
    refusedAsBridgeRefused(await signedSearch('not-a-challenge'));
    expect(refusalReasons().at(-1)).toBe('malformed');
    // A call of the app before issue 23 (signed without a challenge) is refused.
    const path = `${SEARCH}?term=invoice&limit=10`;
    const headers = bridgeHeaders(SECRET, { method: 'GET', pathWithQuery: path, user: 'alice', confirmed: false, body: Buffer.alloc(0), challenge });
    const { 'x-dus-bridge-challenge': _dropped, ...withoutChallenge } = headers;
    refusedAsBridgeRefused(await call(h, 'GET', path, { headers: withoutChallenge }));
    expect(refusalReasons().at(-1)).toBe('malformed');
  });

  test('is refused without a secret or for a malformed value of the app', async () => {
    refusedAsBridgeRefused(await call(h, 'GET', '/bridge/challenge?c=short'));
    refusedAsBridgeRefused(await call(h, 'GET', '/bridge/challenge'));
    expect(refusalReasons().at(-1)).toBe('malformed');
    const bare = await startHarness();
    try {
      refusedAsBridgeRefused(await call(bare, 'GET', '/bridge/challenge?c=a-fresh-value-of-the-app-0001'));
    } finally {
      await bare.close();
    }
  });
});

describe('serve on a unix socket (docs/bridge.md: the transport)', () => {
  const waitFor = async (check: () => boolean): Promise<void> => {
    const until = Date.now() + 10_000;
    while (!check()) {
      if (Date.now() > until) throw new Error('timed out');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };

  withPhp('the app calls serve over the socket; the socket is 0660', async () => {
    const runDir = mkdtempSync(join(tmpdir(), 'dus-run-')); // 0700, as systemd's RuntimeDirectory with 0750 keeps strangers out
    const socket = join(runDir, 'serve.sock');
    const configDir = join(h.configDir, 'config');
    writeFileSync(join(configDir, 'bridge-secret'), `${SECRET}\n`, { mode: 0o600 });
    const io = captureIO({ env: { DUS_SECRET: 'http-test-instance-secret' } });
    let stop = (): void => undefined;
    const stopped = new Promise<void>((resolve) => {
      stop = resolve;
    });
    const globals = { configDir, hostDb: h.fixture.dbUrl, logFile: join(runDir, 'host.log'), color: false };
    const running = serve({ listen: `unix:${socket}` }, { io, globals }, { stopped, release: () => undefined });
    try {
      await waitFor(() => io.out().includes('Listening on'));
      expect(io.out()).toContain(`Listening on unix:${socket}`);
      expect(statSync(socket).mode & 0o777).toBe(0o660);
      const run = (await runAppPhpAsync(`
        Fake::$serviceUrl = 'unix://${socket}';
        Fake::$secret = '${SECRET}';
        $answer = Fake::httpBridge()->call('GET', '/apps/docs_unified_search/settings', [], 'admin');
        echo json_encode(['status' => $answer['status'] ?? null, 'url' => $answer['body']['url'] ?? null, 'logs' => Fake::$logs]);
      `)) as { status: number | null; url: string | null; logs: string[] };
      // The settings as the signed administrator sees them: the call went through, challenge and all.
      expect(run).toEqual({ status: 200, url: h.emulator.url, logs: [] });
    } finally {
      stop();
      await running;
      rmSync(runDir, { recursive: true, force: true });
    }
    expect(io.out()).toContain('Stopped.');
  });

  test("--service-url takes the app's service_url: http(s) with a host and a path at most, or unix:///path; a trailing / is dropped", () => {
    expect(parseServiceUrl('http://127.0.0.1:8080/')).toBe('http://127.0.0.1:8080');
    expect(parseServiceUrl('https://dus.example.org/prefix')).toBe('https://dus.example.org/prefix');
    expect(parseServiceUrl('unix:///run/docs-unified-search/serve.sock')).toBe('unix:///run/docs-unified-search/serve.sock');
    for (const wrong of ['javascript:alert(1)', 'not a url', 'ftp://host/', 'http://user:pw@host/', 'http://host/?q=1', 'http://host/#f', 'unix:relative.sock'])
      expect(() => parseServiceUrl(wrong)).toThrow(/--service-url takes/);
  });

  test('--listen unix: takes an absolute path that fits a socket name', () => {
    expect(parseListenAddress('unix:/run/docs-unified-search/serve.sock')).toEqual({ kind: 'unix', path: '/run/docs-unified-search/serve.sock' });
    expect(parseListenAddress('127.0.0.1:8080')).toEqual({ kind: 'tcp', host: '127.0.0.1', port: 8080 });
    expect(() => parseListenAddress('unix:serve.sock')).toThrow(DusError);
    expect(() => parseListenAddress(`unix:/${'d'.repeat(107)}`)).toThrow(/at most 107 bytes/);
  });

  test('a directory another account may write, or owns, is refused: whoever writes it can take the name', async () => {
    const runDir = mkdtempSync(join(tmpdir(), 'dus-run-'));
    try {
      for (const mode of [0o770, 0o757, 0o777]) {
        chmodSync(runDir, mode);
        await expect(prepareSocketPath(join(runDir, 'serve.sock'))).rejects.toThrow(/writable by its group or by others/);
      }
      chmodSync(runDir, 0o750);
      await expect(prepareSocketPath(join(runDir, 'serve.sock'))).resolves.toBeUndefined();
      if (process.getuid?.() === 0) {
        chownSync(runDir, 65534, 65534);
        await expect(prepareSocketPath(join(runDir, 'serve.sock'))).rejects.toThrow(/belongs to another account/);
        chownSync(runDir, 0, 0);
      }
      await expect(prepareSocketPath(join(runDir, 'missing', 'serve.sock'))).rejects.toThrow(/is not a directory/);
    } finally {
      rmSync(runDir, { recursive: true, force: true });
    }
  });

  test('a directory above it that others may write and that is not sticky is refused: they could rename the socket directory away and put theirs in its place', async () => {
    const top = mkdtempSync(join(tmpdir(), 'dus-above-'));
    const runDir = join(top, 'middle', 'run');
    mkdirSync(runDir, { recursive: true, mode: 0o750 });
    chmodSync(runDir, 0o750);
    const socket = join(runDir, 'serve.sock');
    try {
      chmodSync(join(top, 'middle'), 0o755);
      for (const mode of [0o777, 0o775, 0o757]) {
        chmodSync(top, mode);
        await expect(prepareSocketPath(socket)).rejects.toThrow(
          new RegExp(`${top}, a directory on its way, is writable by its group or by others and not sticky \\(mode 0${mode.toString(8)}\\)`),
        );
      }
      // Sticky (as /tmp): others cannot rename or remove what is not theirs.
      chmodSync(top, 0o1777);
      await expect(prepareSocketPath(socket)).resolves.toBeUndefined();
      chmodSync(top, 0o755);
      await expect(prepareSocketPath(socket)).resolves.toBeUndefined();
      // The one just above the socket's directory counts as much as any.
      chmodSync(join(top, 'middle'), 0o777);
      await expect(prepareSocketPath(socket)).rejects.toThrow(/middle, a directory on its way, is writable/);
      chmodSync(join(top, 'middle'), 0o755);
      // A link on the way: where it leads is checked too.
      const open = mkdtempSync(join(tmpdir(), 'dus-open-'));
      chmodSync(open, 0o777);
      mkdirSync(join(open, 'run'), { mode: 0o750 });
      symlinkSync(open, join(top, 'link'));
      await expect(prepareSocketPath(join(top, 'link', 'run', 'serve.sock'))).rejects.toThrow(/dus-open-\w+, a directory on its way, is writable/);
      rmSync(open, { recursive: true, force: true });
      if (process.getuid?.() === 0) {
        chownSync(join(top, 'middle'), 65534, 65534);
        await expect(prepareSocketPath(socket)).rejects.toThrow(/middle, a directory on its way, belongs to another account/);
      }
    } finally {
      rmSync(top, { recursive: true, force: true });
    }
  });

  test('a socket left by a process that ended is replaced; a live one, or a file, stays and serve does not start', async () => {
    const runDir = mkdtempSync(join(tmpdir(), 'dus-run-'));
    const path = join(runDir, 'serve.sock');
    try {
      const live = createNetServer();
      await new Promise<void>((resolve) => live.listen(path, resolve));
      await expect(prepareSocketPath(path)).rejects.toThrow(/another process answers on that socket already/);
      await new Promise<void>((resolve) => live.close(() => resolve()));
      // A process that ends without closing its server leaves the name behind, as a killed serve does.
      const ended = spawnSync(process.execPath, ['-e', `require('node:net').createServer().listen(${JSON.stringify(path)}, () => process.exit(0))`]);
      expect(ended.status).toBe(0);
      expect(statSync(path).isSocket()).toBe(true);
      await expect(prepareSocketPath(path)).resolves.toBeUndefined();
      expect(() => statSync(path)).toThrow();
      mkdirSync(join(runDir, 'sub'), { mode: 0o700 });
      writeFileSync(join(runDir, 'sub', 'serve.sock'), 'a file');
      await expect(prepareSocketPath(join(runDir, 'sub', 'serve.sock'))).rejects.toThrow(/something other than a socket/);
    } finally {
      rmSync(runDir, { recursive: true, force: true });
    }
  });
});

describe('the socket unit (docs/docs-unified-search-socket.service)', () => {
  test("runs the TCP unit's serve on a socket in the directory systemd makes 0750 for it", () => {
    const socketUnit = readFileSync('docs/docs-unified-search-socket.service', 'utf8');
    const tcpUnit = readFileSync('docs/docs-unified-search.service', 'utf8');
    const setting = (unit: string, key: string): string => new RegExp(`^${key}=(.+)$`, 'm').exec(unit)?.[1] ?? '';
    const words = setting(socketUnit, 'ExecStart').split(/\s+/);
    const listen = parseListenAddress(words[words.indexOf('--listen') + 1] ?? '');
    expect(listen).toEqual({ kind: 'unix', path: `/run/${setting(socketUnit, 'RuntimeDirectory')}/serve.sock` });
    expect(setting(socketUnit, 'RuntimeDirectoryMode')).toBe('0750');
    // The same command, account and hardening as the TCP unit: only the address differs.
    expect(setting(socketUnit, 'ExecStart').replace(/--listen \S+/, '')).toBe(setting(tcpUnit, 'ExecStart').replace(/--listen \S+/, ''));
    for (const key of ['User', 'Group', 'UMask', 'Restart', 'NoNewPrivileges', 'ProtectSystem'])
      expect([key, setting(socketUnit, key)]).toEqual([key, setting(tcpUnit, key)]);
  });
});
