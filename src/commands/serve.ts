import { Option } from 'commander';
import type { Cache } from '../core/cache/types.js';
import type { ServiceContext } from '../core/context-types.js';
import { repairOnStart } from '../core/diagnostics/repair.js';
import { DusError } from '../core/errors.js';
import { holdYoungGeneration } from '../core/young-generation.js';
import { effectiveHostLocation } from '../core/settings/host-location.js';
import { configDirectory } from '../core/settings/paths.js';
import { watchedBridgeSecret } from '../core/bridge/secret.js';
import { serviceAddress } from '../core/bridge/signature.js';
import type { WrapperOptions } from '../http/server.js';
import { prepareSocketPath, restrictSocket, type ListenAddress } from '../http/listen.js';
import { EXIT_FAILURE, EXIT_OK } from '../cli/exit-codes.js';
import { openService, reportFailure, serviceOptionsOf } from '../cli/shared-options.js';
import type { CommandContext, CommandDefinition } from '../cli/types.js';

export interface ServeOptions {
  readonly listen: string;
  readonly cache?: string;
  readonly cachePrefix?: string;
  readonly trustProxy?: string;
  readonly serviceUrl?: string;
}

/**
 * `--service-url`: the bridge's `service_url` for this process when it is not the address serve
 * listens on (a proxy in front, a wildcard address): http(s) with a host and at most a path, or
 * `unix:///absolute/path`. Its challenges are bound to it (docs/bridge.md, "The transport").
 */
export function parseServiceUrl(value: string): string {
  const refused = (): DusError =>
    new DusError(
      'usage',
      `--service-url takes the bridge app's service_url for this serve: http(s)://host[:port][/path] or unix:///absolute/path, not "${value}".`,
    );
  if (value.startsWith('unix://')) {
    if (!/^unix:\/\/\/[^\x00-\x1f\s]+$/.test(value)) throw refused();
    return serviceAddress(value);
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw refused();
  }
  if (!['http:', 'https:'].includes(url.protocol) || url.hostname === '' || url.username !== '' || url.password !== '' || url.search !== '' || url.hash !== '')
    throw refused();
  if (/[\x00-\x20]/.test(value)) throw refused();
  return serviceAddress(value);
}

export function parseListen(value: string): { host: string; port: number } {
  const match = /^(?:\[([0-9a-fA-F:.]+)\]|([^:\s]+)):(\d{1,5})$/.exec(value.trim());
  const port = match === null ? NaN : Number(match[3]);
  const host = match?.[1] ?? match?.[2];
  if (host === undefined || !Number.isInteger(port) || port > 65535) {
    throw new DusError('usage', `--listen takes HOST:PORT, for example 127.0.0.1:8080 or [::1]:8080, not "${value}".`);
  }
  return { host, port };
}

/** `unix:/absolute/path` (a unix socket, for the bridge on the same machine) or HOST:PORT. */
export function parseListenAddress(value: string): ListenAddress {
  if (!value.startsWith('unix:')) return { kind: 'tcp', ...parseListen(value) };
  const path = value.slice('unix:'.length);
  // 107 bytes is the longest name a unix socket takes on Linux (sun_path).
  if (!path.startsWith('/') || Buffer.byteLength(path) > 107 || /[\x00-\x1f]/.test(path)) {
    throw new DusError(
      'usage',
      `--listen unix: takes an absolute path of at most 107 bytes, for example unix:/run/docs-unified-search/serve.sock, not "${value}".`,
    );
  }
  return { kind: 'unix', path };
}

/** `true`/`false`, a hop count, or a comma-separated list of proxy addresses and CIDR ranges. */
export function parseTrustProxy(value: string | undefined): WrapperOptions['trustProxy'] {
  if (value === undefined || value === '' || value === 'false') return false;
  if (value === 'true') return true;
  if (/^\d{1,2}$/.test(value)) return Number(value);
  const list = value
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');
  if (list.length === 0 || list.some((part) => !/^[0-9a-fA-F:.]+(\/\d{1,3})?$/.test(part) && !['loopback', 'linklocal', 'uniquelocal'].includes(part))) {
    throw new DusError(
      'usage',
      '--trust-proxy takes true, a hop count, or addresses/CIDR ranges of the proxies separated by commas (or loopback, linklocal, uniquelocal).',
    );
  }
  return list;
}

async function openCache(url: string | undefined, keyPrefix: string | undefined): Promise<Cache | undefined> {
  if (url === undefined || url === '') return undefined;
  if (!/^rediss?:\/\//.test(url)) throw new DusError('usage', '--cache takes a Redis URL: redis://host:port[/db].');
  const { RedisCache } = await import('../core/cache/redis-cache.js');
  const cache = new RedisCache({ url, ...(keyPrefix === undefined || keyPrefix === '' ? {} : { keyPrefix }) });
  try {
    await cache.connect();
  } catch (error: unknown) {
    await cache.close().catch(() => undefined);
    throw error;
  }
  return cache;
}

/** config.php's `passwordsalt` (only legacy 60-character hashes use it); '' when the host is a database URL. */
async function legacySaltOf(service: ServiceContext, given: ReturnType<typeof serviceOptionsOf>): Promise<string> {
  const location = effectiveHostLocation(service.settings.readWithoutRefusedUrl(), given.hostLocation);
  if (location.nextcloudDir === undefined) return '';
  const { readNextcloudConfig } = await import('../core/host/db/config-php.js');
  const config = await readNextcloudConfig(location.nextcloudDir).catch(() => null);
  const salt = config?.passwordsalt;
  return typeof salt === 'string' ? salt : '';
}

/**
 * Resolves at the first SIGINT or SIGTERM. The listeners stay until the server is closed:
 * with none left, Node (or a library's exit-on-signal handler) would end the process before
 * the clean shutdown.
 */
function untilSignalled(): { readonly stopped: Promise<void>; release(): void } {
  let stop = (): void => undefined;
  const stopped = new Promise<void>((resolve) => {
    stop = resolve;
  });
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  return {
    stopped,
    release: () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
    },
  };
}

/** Runs the wrapper until `until.stopped` resolves, then closes it, the context and the cache. */
/** What a refused listen means, for the system codes an administrator meets (a taken port above all). */
const LISTEN_FAILURES: Readonly<Record<string, string>> = {
  EADDRINUSE: 'another program listens on that port already (ss -ltnp shows which); stop it, or give serve --listen another HOST:PORT',
  EACCES: 'ports below 1024 need privileges; give serve --listen a port of 1024 or above',
  EADDRNOTAVAIL: 'this machine has no such address; give serve --listen one of its addresses (127.0.0.1 for the bridge on the same machine)',
};

async function listenOn(
  app: { listen(options: { host: string; port: number } | { path: string }): Promise<unknown> },
  address: ListenAddress,
  given: string,
): Promise<void> {
  try {
    if (address.kind === 'unix') {
      await prepareSocketPath(address.path);
      await app.listen({ path: address.path });
      await restrictSocket(address.path);
    } else {
      await app.listen({ host: address.host, port: address.port });
    }
  } catch (error: unknown) {
    if (error instanceof DusError) throw error;
    const code = (error as { code?: unknown }).code;
    if (address.kind === 'unix' && typeof code === 'string') {
      // The port-specific advice does not fit a socket: the directory's access is what to check.
      throw new DusError(
        'listen_failed',
        `serve cannot listen on ${given} (${code}): check that its directory exists and serve's account may write it; the bridge's service_url must then name the new address.`,
      );
    }
    const why = typeof code === 'string' ? LISTEN_FAILURES[code] : undefined;
    if (why === undefined || typeof code !== 'string') throw error;
    throw new DusError('listen_failed', `serve cannot listen on ${given} (${code}): ${why}; the bridge's service_url must then name the new address.`);
  }
}

export async function serve(options: ServeOptions, context: CommandContext, until: { readonly stopped: Promise<void>; release(): void }): Promise<number> {
  const { io } = context;
  let service: ServiceContext | undefined;
  let cache: Cache | undefined;
  // Start-up (drivers, the HTTP stack) and the index build keep much of what they allocate,
  // which grows V8's young generation for good; held until warm-up ends (docs/serve.md).
  const startUp = holdYoungGeneration();
  try {
    const listenAddress = parseListenAddress(options.listen);
    const trustProxy = parseTrustProxy(options.trustProxy);
    const serviceUrl = options.serviceUrl === undefined ? undefined : parseServiceUrl(options.serviceUrl);
    cache = await openCache(options.cache, options.cachePrefix);
    const given = serviceOptionsOf(context);
    // A long-running process keeps the marker index: its searches skip the scan of the archive account's names.
    service = await openService(context, { markerIndex: true, ...(cache === undefined ? {} : { cache }) });
    repairOnStart(service.settings, service.logger);
    const legacySalt = await legacySaltOf(service, given);
    const bridgeSecret = watchedBridgeSecret(configDirectory(given.configDir, given.env ?? process.env));
    // The HTTP stack and the warm-up are loaded by serve alone, not by every command's start.
    const [{ buildServer }, { warmUp }] = await Promise.all([import('../http/server.js'), import('../core/search/warm-up.js')]);
    const app = await buildServer({ context: service, trustProxy, legacySalt, bridgeSecret, ...(serviceUrl === undefined ? {} : { serviceUrl }) });
    await listenOn(app, listenAddress, options.listen);
    const address = app.server.address();
    const shown =
      typeof address === 'object' && address !== null
        ? `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`
        : options.listen;
    io.stdout.write(`Listening on ${shown}\n`);
    const prepared = warmUp(service, (said) => void io.stderr.write(`${said}\n`)).finally(startUp);
    await until.stopped;
    await app.close();
    await prepared;
    io.stdout.write('Stopped.\n');
    return EXIT_OK;
  } catch (error: unknown) {
    return reportFailure(io, error, context.globals.language ?? null);
  } finally {
    startUp();
    until.release();
    await service?.close();
    await cache?.close();
  }
}

export const command: CommandDefinition = {
  summary: 'Serve the provider calls, settings routes and the admin page over HTTP',
  examples: [
    'docs-unified-search serve --listen 127.0.0.1:8080',
    'docs-unified-search serve --listen unix:/run/docs-unified-search/serve.sock',
    'docs-unified-search serve --listen 0.0.0.0:8080 --cache redis://127.0.0.1:6379/0 --trust-proxy 10.0.0.0/8',
  ],
  notes:
    'The admin page is at /settings/admin/docs_unified_search. Scripts call the settings routes with HTTP Basic (login and password) and the header OCS-APIRequest: true. ' +
    'GET /healthz (no login) answers 200 while settings, host database and cache answer, else 503, and never calls the archive server. SIGINT or SIGTERM stops the server cleanly. ' +
    'Timeouts for a reverse proxy in front: request head 10 s, whole request 30 s (else 408 timeout), idle kept-alive connections 65 s, at most 1024 connections. ' +
    "The bridge app sends its signed calls only to a serve whose challenge names the app's service_url: the address serve prints after Listening on, or --service-url (docs/bridge.md).",
  exitCodes: [
    [EXIT_OK, 'stopped cleanly by SIGINT or SIGTERM'],
    [
      EXIT_FAILURE,
      'could not start: the address is taken or not an address of this machine (Error [listen_failed]), the cache cannot be used (Error [cache_unreachable]: no answer, wrong login or no such database), or the settings cannot be read',
    ],
  ],
  configure: (command) => {
    command
      .addOption(
        new Option(
          '--listen <host:port>',
          'address to listen on, or unix:/path for a unix socket (mode 0660, in a directory no other account may write)',
        ).default('127.0.0.1:8080', '127.0.0.1:8080'),
      )
      .option('--cache <url>', 'shared cache for several processes: redis://host:port[/db]')
      .option('--cache-prefix <prefix>', 'key prefix in the shared cache (default docs_unified_search:); one per installation')
      .option('--trust-proxy <value>', 'trust X-Forwarded-* from: true, a hop count, or proxy addresses/CIDRs (comma-separated)')
      .option(
        '--service-url <url>',
        "the bridge app's service_url for this process, when it is not the address serve listens on (a proxy, a wildcard address); its challenges are bound to it",
      );
  },
  run: async (_args, rawOptions, context) => serve(rawOptions as unknown as ServeOptions, context, untilSignalled()),
};
