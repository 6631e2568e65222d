/**
 * Archive-server emulator: an HTTP(S) server that answers like Paperless-ngx 2.15 / 2.20 /
 * 3.0 for the requests this project makes (reference/paperless-api.md), with knobs for
 * latency and faults. Node built-ins and runtime dependencies only: the demo and the
 * benches run it outside jest.
 */
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { testCertificate } from '../tls/index.js';
import { handle, type AppState } from './app.js';
import { dataset } from './dataset.js';
import { faultReply, FaultBook, hugeBody } from './faults.js';
import { hostileReply, sentToken } from './hostile.js';
import { profileOf } from './profiles.js';
import { DEFAULT_PHRASE_MAX_EXPANSIONS } from './search/run.js';
import { lastValues, parseQuery } from './pyquery.js';
import { htmlReply, type Reply } from './reply.js';
import { sampleArchive } from './sample.js';
import type { ArchiveEmulator, EmulatedVersion, EmulatorDocument, EmulatorOptions, Fault, NamedObject, RecordedRequest, ViewModel } from './types.js';

export type { ArchiveEmulator, EmulatedVersion, EmulatorDocument, EmulatorOptions, Fault, NamedObject, RecordedRequest, ViewModel } from './types.js';
export { sampleArchive } from './sample.js';

const NOT_FOUND_PAGE = '<!doctype html><html><head><title>404 Not Found</title></head><body><h1>Not Found</h1></body></html>';
const HUGE_CHUNK = 64 * 1024;
const SLOW_CHUNKS = 20;
/**
 * A timer fires up to a millisecond or more after its time; the latency wait sets its timer this
 * much early and yields turn by turn (setImmediate) for the rest, so an answer leaves L after its
 * request arrived, not L plus the timer's lateness (bench/search.ts measures ratios to L).
 */
const TIMER_SLACK_MS = 1.5;

function normalisePrefix(prefix: string | undefined): string {
  if (prefix === undefined || prefix === '' || prefix === '/') return '';
  return `/${prefix.replace(/^\/+|\/+$/g, '')}`;
}

function flatHeaders(req: IncomingMessage): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(req.headers)) out[name] = Array.isArray(value) ? value.join(', ') : value;
  return out;
}

class Emulator implements ArchiveEmulator {
  readonly requests: RecordedRequest[] = [];
  connections = 0;
  latencyMs = 0;
  faults: Fault[] = [];
  echoToken: boolean;
  version: EmulatedVersion;
  documents: EmulatorDocument[];
  correspondents: NamedObject[];
  documentTypes: NamedObject[];
  tokens: string[];
  forbiddenTokens: string[];
  tokenUsers: Record<string, number>;
  tokenPermissions: Record<string, ViewModel[]>;
  userGroups: Record<number, number[]>;
  searchBroken: boolean | 'non-superusers';
  phraseMaxExpansions: number;
  url = '';
  origin = '';
  port = 0;
  readonly ca: string | undefined;

  private readonly server: Server;
  private readonly prefix: string;
  private readonly scheme: 'http' | 'https';
  private readonly faultBook = new FaultBook();
  private readonly sockets = new Set<Socket>();
  private readonly waits = new Set<() => void>();
  private closed = false;
  private hostileTurn = 0;

  constructor(options: EmulatorOptions) {
    const sample = options.documents === undefined || options.correspondents === undefined || options.documentTypes === undefined ? sampleArchive() : undefined;
    this.version = options.version ?? '2.20';
    this.echoToken = options.echoToken ?? false;
    this.documents = options.documents ?? sample?.documents ?? [];
    this.correspondents = options.correspondents ?? sample?.correspondents ?? [];
    this.documentTypes = options.documentTypes ?? sample?.documentTypes ?? [];
    this.tokens = options.tokens ?? ['emulator-token'];
    this.forbiddenTokens = options.forbiddenTokens ?? [];
    this.tokenUsers = options.tokenUsers ?? {};
    this.tokenPermissions = options.tokenPermissions ?? {};
    this.userGroups = options.userGroups ?? {};
    this.searchBroken = options.searchBroken ?? false;
    this.phraseMaxExpansions = options.phraseMaxExpansions ?? DEFAULT_PHRASE_MAX_EXPANSIONS;
    this.prefix = normalisePrefix(options.pathPrefix);
    this.scheme = options.https === true ? 'https' : 'http';
    const listener = (req: IncomingMessage, res: ServerResponse): void => {
      this.serve(req, res).catch(() => {
        if (!res.headersSent && !res.destroyed) res.writeHead(500).end();
        else res.destroy();
      });
    };
    if (options.https === true) {
      const { cert, key } = testCertificate();
      this.ca = cert;
      this.server = createHttpsServer({ cert, key }, listener);
    } else {
      this.ca = undefined;
      this.server = createHttpServer(listener);
    }
    this.server.on('connection', (socket: Socket) => {
      this.connections++;
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
  }

  async listen(host: string): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(0, host, () => {
        this.server.off('error', reject);
        resolve();
      });
    });
    const address = this.server.address() as AddressInfo;
    this.port = address.port;
    const hostPart = address.family === 'IPv6' ? `[${address.address}]` : address.address;
    this.origin = `${this.scheme}://${hostPart}:${this.port}`;
    this.url = `${this.origin}${this.prefix}`;
  }

  get openConnections(): number {
    return this.sockets.size;
  }

  clearRequests(): void {
    this.requests.length = 0;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const wake of [...this.waits]) wake();
    const closing = new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.server.closeAllConnections();
    for (const socket of this.sockets) socket.destroy();
    await closing;
  }

  /**
   * Until `at` (performance.now() time), precisely: a timer set a little early, then turns of the
   * event loop until the moment, never blocking the loop. close() cuts it short.
   */
  private async waitUntil(at: number): Promise<void> {
    const early = at - performance.now() - TIMER_SLACK_MS;
    if (early >= 1) await this.wait(Math.floor(early));
    while (!this.closed && performance.now() < at) await new Promise<void>((resolve) => setImmediate(resolve));
  }

  /** A delay that close() cuts short, so a hanging fault never keeps a test run alive. */
  private wait(ms: number): Promise<void> {
    if (ms <= 0 || this.closed) return Promise.resolve();
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.waits.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.waits.add(done);
    });
  }

  private async serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const arrived = performance.now();
    req.resume();
    const rawUrl = req.url ?? '/';
    const q = rawUrl.indexOf('?');
    const fullPath = q === -1 ? rawUrl : rawUrl.slice(0, q);
    const query = q === -1 ? '' : rawUrl.slice(q + 1);
    const headers = flatHeaders(req);
    const method = req.method ?? 'GET';
    this.requests.push({ method, path: fullPath, query: Object.fromEntries(lastValues(parseQuery(query))), headers, at: Date.now() });

    const inside = this.prefix === '' || fullPath === this.prefix || fullPath.startsWith(`${this.prefix}/`);
    const path = inside ? fullPath.slice(this.prefix.length) || '/' : fullPath;

    const fault = this.faultBook.take(this.faults, path);
    if (fault === undefined) {
      // The usual answer leaves latencyMs after the request arrived, the emulator's own work inside
      // that time (a server answering in L), unless the work itself took longer.
      const reply = this.echoed(this.answer(method, path, fullPath, query, headers, inside), headers);
      await this.waitUntil(arrived + this.latencyMs);
      if (this.closed || res.destroyed) return;
      await this.send(res, reply, method === 'HEAD', 0);
      return;
    }
    await this.waitUntil(arrived + this.latencyMs);
    if (fault.hangMs !== undefined) await this.wait(fault.hangMs);
    if (this.closed || res.destroyed) return;
    if (fault.destroySocket === true) {
      req.socket.destroy();
      return;
    }
    if (fault.hugeBodyBytes !== undefined) {
      await this.streamHuge(res, fault.hugeBodyBytes, fault.headers ?? {});
      return;
    }
    let reply = faultReply(fault) ?? this.answer(method, path, fullPath, query, headers, inside);
    if (fault.headers !== undefined) reply = { ...reply, headers: { ...reply.headers, ...fault.headers } };
    await this.send(res, this.echoed(reply, headers), method === 'HEAD', fault.slowBodyMs ?? 0);
  }

  /** The reply with the sent token echoed into it when `echoToken` asks (hostile.ts). */
  private echoed(reply: Reply, headers: Record<string, string | undefined>): Reply {
    const token = this.echoToken ? sentToken(headers['authorization']) : null;
    return token === null ? reply : hostileReply(reply, token, this.hostileTurn++);
  }

  private answer(method: string, path: string, fullPath: string, query: string, headers: Record<string, string | undefined>, inside: boolean): Reply {
    if (!inside) return htmlReply(404, NOT_FOUND_PAGE);
    const state: AppState = {
      prefix: this.prefix,
      profile: profileOf(this.version),
      data: dataset(this.documents, this.correspondents, this.documentTypes),
      tokens: { tokens: this.tokens, forbiddenTokens: this.forbiddenTokens, users: this.tokenUsers, permissions: this.tokenPermissions },
      today: new Date().toISOString().slice(0, 10),
      searchBroken: this.searchBroken,
      phraseMaxExpansions: this.phraseMaxExpansions,
      userGroups: this.userGroups,
    };
    const host = headers['host'] ?? this.origin.replace(/^\w+:\/\//, '');
    return handle({ method, path, fullPath, query, headers, absoluteOrigin: `${this.scheme}://${host}` }, state);
  }

  private async send(res: ServerResponse, reply: Reply, head: boolean, slowBodyMs: number): Promise<void> {
    const body = Buffer.from(reply.body, 'utf8');
    res.writeHead(reply.status, { ...reply.headers, 'Content-Length': String(body.length) });
    if (head || body.length === 0) {
      res.end();
      return;
    }
    if (slowBodyMs <= 0) {
      res.end(body);
      return;
    }
    res.flushHeaders();
    const chunks = Math.min(SLOW_CHUNKS, body.length);
    const size = Math.ceil(body.length / chunks);
    for (let offset = 0; offset < body.length; offset += size) {
      await this.wait(slowBodyMs / chunks);
      if (this.closed || res.destroyed) return;
      res.write(body.subarray(offset, offset + size));
    }
    res.end();
  }

  /** Chunked, without Content-Length, so a client must count the bytes itself. */
  private async streamHuge(res: ServerResponse, bytes: number, headers: Record<string, string>): Promise<void> {
    res.writeHead(200, { 'Content-Type': 'application/json', ...headers });
    const body = Buffer.from(hugeBody(bytes), 'utf8');
    for (let offset = 0; offset < body.length; offset += HUGE_CHUNK) {
      if (this.closed || res.destroyed) return;
      if (!res.write(body.subarray(offset, offset + HUGE_CHUNK))) {
        await new Promise<void>((resolve) => {
          const done = (): void => {
            res.off('drain', done);
            res.off('close', done);
            resolve();
          };
          res.on('drain', done);
          res.on('close', done);
        });
      }
    }
    if (!res.destroyed) res.end();
  }
}

export async function startArchiveEmulator(options: EmulatorOptions = {}): Promise<ArchiveEmulator> {
  const emulator = new Emulator(options);
  await emulator.listen(options.host ?? '127.0.0.1');
  return emulator;
}
