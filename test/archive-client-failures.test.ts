import { afterAll, afterEach, beforeAll, describe, expect, it, jest } from '@jest/globals';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { createArchiveClient } from '../src/core/archive/archive-client.js';
import type { ArchiveClient, ArchiveClientOptions, ResolvedAddress } from '../src/core/archive/types.js';
import { isLocalAddress } from '../src/core/net/address-guard.js';
import { lookupAll } from '../src/core/net/resolve.js';
import { failureOf, useArchiveEmulator } from './support/archive-client-helpers.js';
import { startArchiveEmulator } from './support/archive-emulator/index.js';
import type { ArchiveEmulator } from './support/archive-emulator/types.js';

/**
 * Every way a request can fail, over real loopback HTTP and HTTPS, mapped to exactly one of
 * the spec's codes; the second-try rule; the token never in an error.
 */

const TOKEN = 'failure-test-token-Zq81xw';
const TIMEOUTS = { connectMs: 400, answerMs: 1500, widgetAnswerMs: 1500, retryWindowMs: 3500 };

/** A resolver seam that counts lookups: one per try. */
function countingResolver(
  answers: readonly ResolvedAddress[] | Error,
  delayMs = 0,
): { resolver: NonNullable<ArchiveClientOptions['resolver']>; calls: () => number } {
  let calls = 0;
  return {
    resolver: async () => {
      calls += 1;
      if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
      if (answers instanceof Error) throw answers;
      return answers;
    },
    calls: () => calls,
  };
}

function notFoundError(host: string): Error {
  return Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND', hostname: host });
}

const LOOPBACK: readonly ResolvedAddress[] = [{ address: '127.0.0.1', family: 4 }];

/** A port on which nothing listens (bound, then released). */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('statuses and answers over HTTP', () => {
  let emulator: ArchiveEmulator;
  const client = (options: ArchiveClientOptions = {}, token = TOKEN) =>
    createArchiveClient({ url: emulator.url, token, allowLocal: true }, { timeouts: TIMEOUTS, ...options });

  useArchiveEmulator({ version: '2.20', tokens: [TOKEN], forbiddenTokens: ['no-permission-token'] }, (started) => (emulator = started));

  it('401 for an unknown token → unauthorized; its answer names no versions, so none are passed on', async () => {
    const versions: unknown[] = [];
    const failure = await failureOf(client({ onVersions: (named) => versions.push(named) }, 'wrong-token').testConnection(), TOKEN);
    expect([failure.code, failure.status]).toEqual(['unauthorized', 401]);
    expect(versions).toEqual([]);
  });

  it('403 for an account without permission → unauthorized; the versions of that answer are passed on', async () => {
    const versions: unknown[] = [];
    const failure = await failureOf(client({ onVersions: (named) => versions.push(named) }, 'no-permission-token').testConnection(), TOKEN);
    expect([failure.code, failure.status]).toEqual(['unauthorized', 403]);
    expect(versions).toEqual([{ version: '2.20.15', apiVersion: '9' }]);
  });

  it.each([
    ['a line break', 'abc\r\nX-Evil: 1'],
    ['a space', 'abc def'],
    ['nothing', ''],
  ])('a token with %s → unauthorized, nothing sent', async (_name, token) => {
    const failure = await failureOf(client({}, token).testConnection(), TOKEN);
    expect([failure.code, failure.beforeConnection]).toEqual(['unauthorized', false]);
    expect(emulator.requests).toHaveLength(0);
  });

  it('404 on the connection test → not_found', async () => {
    emulator.faults = [{ status: 404, contentType: 'text/html', body: '<h1>Not Found</h1>' }];
    const failure = await failureOf(client().testConnection(), TOKEN);
    expect([failure.code, failure.status]).toEqual(['not_found', 404]);
  });

  it('404 of a search that is no API answer → not_found, not a rejected query', async () => {
    emulator.faults = [{ status: 404, contentType: 'text/html', body: '<h1>Not Found</h1>' }];
    expect((await failureOf(client().search({ term: 'x', page: 2 }), TOKEN)).code).toBe('not_found');
  });

  it.each([500, 502, 503, 429, 418])('HTTP %i → http with the status', async (status) => {
    emulator.faults = [{ status, contentType: 'text/plain', body: 'nope' }];
    const failure = await failureOf(client().testConnection(), TOKEN);
    expect([failure.code, failure.status]).toEqual(['http', status]);
    expect(failure.message).toContain(String(status));
  });

  it('406 → unsupported_version', async () => {
    emulator.faults = [{ status: 406, contentType: 'application/json', body: '{"detail":"Invalid version in \\"Accept\\" header."}' }];
    expect((await failureOf(client().testConnection(), TOKEN)).code).toBe('unsupported_version');
  });

  it.each([
    ['a non-JSON body', { garbage: true }],
    ['an HTML page', { status: 200, contentType: 'text/html', body: '<html><body>Login</body></html>' }],
    ['JSON of another shape', { status: 200, contentType: 'application/json', body: '{"results":"none"}' }],
    ['items without ids', { status: 200, contentType: 'application/json', body: '{"count":1,"next":null,"previous":null,"results":[{"title":"x"}]}' }],
    ['JSON under a text type', { status: 200, contentType: 'text/plain', body: '{"count":0,"next":null,"previous":null,"results":[]}' }],
    ['204 without a list', { status: 204, body: '' }],
    ['a redirect without a target', { status: 302, body: '' }],
  ])('%s → not_paperless', async (_name, fault) => {
    emulator.faults = [fault];
    expect((await failureOf(client().testConnection(), TOKEN)).code).toBe('not_paperless');
  });

  it('an answer beyond the body cap → not_paperless', async () => {
    emulator.faults = [{ hugeBodyBytes: 300_000 }];
    const failure = await failureOf(client({ maxBodyBytes: 100_000 }).testConnection(), TOKEN);
    expect(failure.code).toBe('not_paperless');
    expect(failure.message).toContain('100000');
    emulator.faults = [{ hugeBodyBytes: 300_000 }];
    // The same answer (a valid empty page, padded) within a larger cap is read and accepted.
    await expect(client({ maxBodyBytes: 1_000_000 }).testConnection()).resolves.toMatchObject({ count: 0 });
  });

  it('an answer that declares a length beyond the cap is refused at once, not read until the deadline', async () => {
    // Headers promise 10 MB, then a few bytes, then nothing: reading on would end in a timeout.
    const server = net.createServer((socket) => {
      socket.on('error', () => undefined);
      socket.once('data', () => socket.write('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 10000000\r\n\r\n{"count":'));
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    try {
      const { port } = server.address() as AddressInfo;
      const failure = await failureOf(
        createArchiveClient(
          { url: `http://127.0.0.1:${port}`, token: TOKEN, allowLocal: true },
          { timeouts: TIMEOUTS, maxBodyBytes: 100_000 },
        ).testConnection(),
        TOKEN,
      );
      expect([failure.code, failure.status]).toEqual(['not_paperless', 200]);
    } finally {
      server.close();
    }
  });

  it('a widget answer of the wrong shape → not_paperless', async () => {
    emulator.faults = [{ status: 200, contentType: 'application/json', body: '{"count":1,"next":null,"previous":null,"results":[{"id":1,"title":"t"}]}' }];
    expect((await failureOf(client().newest(), TOKEN)).code).toBe('not_paperless');
  });

  it('no answer within the answer timeout → timeout, no second try after the connection', async () => {
    emulator.faults = [{ hangMs: 2000 }];
    const failure = await failureOf(client({ timeouts: { ...TIMEOUTS, answerMs: 150 } }).testConnection(), TOKEN);
    expect([failure.code, failure.beforeConnection]).toEqual(['timeout', false]);
    expect(emulator.requests).toHaveLength(1);
  });

  it('a body dribbled past the answer timeout → timeout', async () => {
    emulator.faults = [{ slowBodyMs: 1500 }];
    expect((await failureOf(client({ timeouts: { ...TIMEOUTS, answerMs: 200 } }).testConnection(), TOKEN)).code).toBe('timeout');
  });

  it('the widget has its own, shorter answer timeout', async () => {
    emulator.latencyMs = 400;
    const options = { timeouts: { ...TIMEOUTS, answerMs: 1500, widgetAnswerMs: 150 } };
    await expect(client(options).testConnection()).resolves.toMatchObject({ count: expect.any(Number) });
    expect((await failureOf(client(options).newest(), TOKEN)).code).toBe('timeout');
  });

  it("the caller's abort (the pipeline's budget) → timeout", async () => {
    emulator.faults = [{ hangMs: 2000 }];
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    expect((await failureOf(client().search({ term: 'x', page: 1, signal: controller.signal }), TOKEN)).code).toBe('timeout');
  });

  it('tries the next checked address when one refuses (localhost answering ::1 first)', async () => {
    const dns = countingResolver([
      { address: '::1', family: 6 },
      { address: '127.0.0.1', family: 4 },
    ]);
    const result = await createArchiveClient(
      { url: `http://archive.test:${emulator.port}`, token: TOKEN, allowLocal: true },
      { timeouts: TIMEOUTS, resolver: dns.resolver },
    ).testConnection();
    expect(result.count).toBeGreaterThan(0);
    expect(dns.calls()).toBe(1);
    expect(emulator.requests).toHaveLength(1);
  });

  it('a connection closed without an answer → unreachable, and no second try', async () => {
    emulator.faults = [{ destroySocket: true }];
    const before = emulator.connections;
    const failure = await failureOf(client().testConnection(), TOKEN);
    expect([failure.code, failure.beforeConnection]).toEqual(['unreachable', false]);
    expect(emulator.requests).toHaveLength(1);
    expect(emulator.connections - before).toBe(1);
  });
});

describe('connections that fail before an answer', () => {
  it('a refused connection → unreachable, tried exactly twice', async () => {
    const port = await closedPort();
    const dns = countingResolver(LOOPBACK);
    const client = createArchiveClient({ url: `http://archive.test:${port}`, token: TOKEN, allowLocal: true }, { timeouts: TIMEOUTS, resolver: dns.resolver });
    const failure = await failureOf(client.testConnection(), TOKEN);
    expect([failure.code, failure.beforeConnection]).toEqual(['unreachable', true]);
    expect(dns.calls()).toBe(2);
  });

  it('a connect that never completes (TEST-NET address) → one second try', async () => {
    // 192.0.2.1 is never routed: the connect hangs into the connect timeout, or fails at once
    // where there is no route at all; both come before a connection.
    const dns = countingResolver([{ address: '192.0.2.1', family: 4 }]);
    const client = createArchiveClient(
      { url: 'http://archive.test:9', token: TOKEN, allowLocal: false },
      { timeouts: { ...TIMEOUTS, connectMs: 100 }, resolver: dns.resolver, isLocalAddress: (address) => address !== '192.0.2.1' && isLocalAddress(address) },
    );
    const failure = await failureOf(client.testConnection(), TOKEN);
    expect(['timeout', 'unreachable']).toContain(failure.code);
    expect(failure.beforeConnection).toBe(true);
    expect(dns.calls()).toBe(2);
  });

  it('the widget request gets no second try', async () => {
    const port = await closedPort();
    const dns = countingResolver(LOOPBACK);
    const client = createArchiveClient({ url: `http://archive.test:${port}`, token: TOKEN, allowLocal: true }, { timeouts: TIMEOUTS, resolver: dns.resolver });
    expect((await failureOf(client.newest(), TOKEN)).code).toBe('unreachable');
    expect(dns.calls()).toBe(1);
  });

  it('a name that does not resolve → unknown_host, tried twice within the window', async () => {
    const dns = countingResolver(notFoundError('archive.test'));
    const client = createArchiveClient({ url: 'https://archive.test', token: TOKEN, allowLocal: false }, { timeouts: TIMEOUTS, resolver: dns.resolver });
    const failure = await failureOf(client.search({ term: 'x', page: 1 }), TOKEN);
    expect([failure.code, failure.beforeConnection]).toEqual(['unknown_host', true]);
    expect(dns.calls()).toBe(2);
  });

  it('no second try for a failure that took longer than the window', async () => {
    const dns = countingResolver(notFoundError('archive.test'), 80);
    const client = createArchiveClient(
      { url: 'https://archive.test', token: TOKEN, allowLocal: false },
      { timeouts: { ...TIMEOUTS, retryWindowMs: 40 }, resolver: dns.resolver },
    );
    expect((await failureOf(client.names('correspondents', [1]), TOKEN)).code).toBe('unknown_host');
    expect(dns.calls()).toBe(1);
  });

  it('no second try for an address the host refused', async () => {
    const dns = countingResolver(LOOPBACK);
    const client = createArchiveClient({ url: 'https://archive.test', token: TOKEN, allowLocal: false }, { timeouts: TIMEOUTS, resolver: dns.resolver });
    const failure = await failureOf(client.testConnection(), TOKEN);
    expect([failure.code, failure.beforeConnection]).toEqual(['local_address', true]);
    expect(dns.calls()).toBe(1);
  });

  it('the default resolver answers from the system', async () => {
    const answers = await lookupAll('localhost');
    expect(answers.length).toBeGreaterThan(0);
    expect(answers.every((answer) => isLocalAddress(answer.address))).toBe(true);
  });
});

/** A TCP server that accepts and never says a word: a TLS handshake to it never completes. */
async function silentServer(): Promise<{ readonly port: number; readonly sockets: ReadonlySet<net.Socket>; close: () => Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const close = async (): Promise<void> => {
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return { port: (server.address() as AddressInfo).port, sockets, close };
}

describe('TLS', () => {
  let secure: ArchiveEmulator;
  let plain: ArchiveEmulator;
  beforeAll(async () => {
    secure = await startArchiveEmulator({ version: '3.0', https: true, tokens: [TOKEN] });
    plain = await startArchiveEmulator({ version: '3.0', tokens: [TOKEN] });
  });
  afterAll(async () => {
    await secure.close();
    await plain.close();
  });

  it('a self-signed certificate without its CA → tls', async () => {
    const failure = await failureOf(createArchiveClient({ url: secure.url, token: TOKEN, allowLocal: true }, { timeouts: TIMEOUTS }).testConnection(), TOKEN);
    expect(failure.code).toBe('tls');
    expect(failure.message).toMatch(/SELF_SIGNED|UNABLE_TO_VERIFY/);
    expect(secure.requests).toHaveLength(0);
  });

  it('succeeds with the CA given, speaking to the checked address', async () => {
    expect(secure.ca).toBeDefined();
    const result = await createArchiveClient({ url: secure.url, token: TOKEN, allowLocal: true }, { timeouts: TIMEOUTS, ca: secure.ca }).testConnection();
    expect(result.versions.apiVersion).toBe('10');
    expect(secure.requests[0]?.headers.authorization).toBe(`Token ${TOKEN}`);
  });

  it('a certificate for another name → tls (the name, not the pinned address, is verified)', async () => {
    const dns = countingResolver(LOOPBACK);
    const client = createArchiveClient(
      { url: `https://archive.test:${secure.port}`, token: TOKEN, allowLocal: true },
      { timeouts: TIMEOUTS, ca: secure.ca, resolver: dns.resolver },
    );
    const failure = await failureOf(client.testConnection(), TOKEN);
    expect(failure.code).toBe('tls');
    expect(failure.message).toContain('ERR_TLS_CERT_ALTNAME_INVALID');
  });

  it('https to a plain-HTTP port → tls_handshake', async () => {
    const failure = await failureOf(
      createArchiveClient({ url: plain.url.replace('http:', 'https:'), token: TOKEN, allowLocal: true }, { timeouts: TIMEOUTS }).testConnection(),
      TOKEN,
    );
    expect(failure.code).toBe('tls_handshake');
    expect(failure.beforeConnection).toBe(false);
  });

  it('a server that accepts but never completes the handshake → timeout after the connect timeout', async () => {
    const silent = await silentServer();
    try {
      const client = createArchiveClient(
        { url: `https://127.0.0.1:${silent.port}`, token: TOKEN, allowLocal: true },
        { timeouts: { ...TIMEOUTS, connectMs: 150, answerMs: 5000 } },
      );
      const failure = await failureOf(client.testConnection(), TOKEN);
      expect([failure.code, failure.beforeConnection]).toEqual(['timeout', false]);
      expect(silent.sockets.size).toBe(1);
    } finally {
      await silent.close();
    }
  });
});

describe("the spec's timeouts, on a client given none", () => {
  let emulator: ArchiveEmulator;
  // No `timeouts` option, as the service builds its clients: what is measured is what its requests get.
  const bare = (url = emulator.url): ArchiveClient => createArchiveClient({ url, token: TOKEN, allowLocal: true });

  useArchiveEmulator({ version: '2.20', tokens: [TOKEN] }, (started) => (emulator = started));

  afterEach(() => {
    jest.useRealTimers();
  });

  /** Fake timers hold the client's timeouts (setTimeout) still; setImmediate stays real so sockets and the emulator still run. */
  function stopTimers(): void {
    jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
  }

  const turn = (): Promise<void> => new Promise<void>((resolve) => setImmediate(resolve));

  /** Turns of the real event loop: I/O goes on while the fake time stands still. */
  async function turns(count: number): Promise<void> {
    for (let done = 0; done < count; done += 1) await turn();
  }

  /**
   * Turns of the real event loop until `done`, bounded by real time (performance.now is not
   * faked), not by a count of turns that a loaded machine's I/O can outlast.
   */
  async function until(done: () => boolean, what: string): Promise<void> {
    const givenUp = performance.now() + 120_000;
    while (!done()) {
      if (performance.now() > givenUp) throw new Error(`${what} did not happen within 120 s of real time`);
      await turn();
    }
  }

  /** A request watched without awaiting it; `failureOf` takes its failure later. */
  function watch(work: Promise<unknown>): { readonly outcome: Promise<unknown>; settled: () => boolean } {
    let settled = false;
    const outcome = work.finally(() => {
      settled = true;
    });
    // Taken by failureOf later; until then its failure must not count as unhandled.
    outcome.catch(() => undefined);
    return { outcome, settled: () => settled };
  }

  /** Still waiting just before `ms` of fake time, failed with a timeout at `ms`. */
  async function timesOutAt(request: { readonly outcome: Promise<unknown>; settled: () => boolean }, ms: number): Promise<void> {
    await jest.advanceTimersByTimeAsync(ms - 1);
    await turns(200);
    expect([ms - 1, request.settled()]).toEqual([ms - 1, false]);
    await jest.advanceTimersByTimeAsync(1);
    await until(request.settled, `the request's end at ${ms} ms`);
    expect([ms, request.settled()]).toEqual([ms, true]);
    const failure = await failureOf(request.outcome, TOKEN);
    expect([failure.code, failure.beforeConnection]).toEqual(['timeout', false]);
  }

  it('answer: 10 seconds for a search', async () => {
    stopTimers();
    emulator.faults = [{ hangMs: 60_000 }];
    const request = watch(bare().search({ term: 'x', page: 1 }));
    await until(() => emulator.requests.length > 0, 'the request');
    await timesOutAt(request, 10_000);
    expect(emulator.requests).toHaveLength(1);
  });

  it('answer: 5 seconds for the widget request', async () => {
    stopTimers();
    emulator.faults = [{ hangMs: 60_000 }];
    const request = watch(bare().newest());
    await until(() => emulator.requests.length > 0, 'the request');
    await timesOutAt(request, 5_000);
  });

  it('connect: 3 seconds, the encrypted connection included', async () => {
    const silent = await silentServer();
    try {
      stopTimers();
      const request = watch(bare(`https://127.0.0.1:${silent.port}`).testConnection());
      await until(() => silent.sockets.size > 0, 'the connection');
      await timesOutAt(request, 3_000);
    } finally {
      await silent.close();
    }
  });

  it.each([
    [3_500, 2],
    [3_501, 1],
  ])('second try: a failure before a connection %i ms after the start is tried %i time(s)', async (tookMs, tries) => {
    // The window is read from process.hrtime (src/core/monotonic.ts), which fake timers leave alone: the lookup moves it instead.
    let now = 0;
    const clock = jest.spyOn(process.hrtime, 'bigint').mockImplementation(() => BigInt(now) * 1_000_000n);
    try {
      let lookups = 0;
      const client = createArchiveClient(
        { url: 'https://archive.test', token: TOKEN, allowLocal: false },
        {
          resolver: async () => {
            lookups += 1;
            now += tookMs;
            throw notFoundError('archive.test');
          },
        },
      );
      expect((await failureOf(client.search({ term: 'x', page: 1 }), TOKEN)).code).toBe('unknown_host');
      expect(lookups).toBe(tries);
    } finally {
      clock.mockRestore();
    }
  });
});
