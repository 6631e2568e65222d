/** From a HostLocation to connection parameters: an explicit URL, or the Nextcloud directory's config.php. */
import { isAbsolute, join } from 'node:path';
import { DusError } from '../../errors.js';
import { msg } from '../../i18n/catalog.js';
import { normalizeHostUrl } from './host-url.js';
import type { PhpValue } from './config-php.js';
import { parseDbHost, type ConnectionParams } from './connection-params.js';
import type { HostLocation } from './types.js';

export interface LocatedHost {
  readonly params: ConnectionParams;
  readonly hostUrl: string | null;
  readonly instanceSecret: string | null;
  readonly dataDirectory: string | null;
  readonly defaultLanguage: string | null;
  readonly forceLanguage: string | null;
  /** config.php `version` (`33.0.1.2`): the installed Nextcloud; null when only a database URL was given. */
  readonly version: string | null;
}

export async function locateHost(location: HostLocation, options: { usePhp?: boolean; env?: NodeJS.ProcessEnv } = {}): Promise<LocatedHost> {
  if (location.dbUrl !== undefined && location.dbUrl !== '') {
    return {
      params: paramsFromUrl(location.dbUrl, checkedPrefix(location.tablePrefix ?? 'oc_', 'the table prefix given'), location.dbUrlSource),
      hostUrl: hostUrlOf(location.hostUrl, location.hostUrlSource),
      instanceSecret: null,
      dataDirectory: null,
      defaultLanguage: null,
      forceLanguage: null,
      version: null,
    };
  }
  if (location.nextcloudDir === undefined || location.nextcloudDir === '') {
    throw new DusError(
      'host_config',
      'Where the Nextcloud database is was not given: use --nextcloud DIR (or DUS_NEXTCLOUD) or --host-db URL (or DUS_HOST_DB).',
    );
  }
  const env = options.env ?? process.env;
  // Loaded for a Nextcloud directory only: a host given by URL needs no config reader (nor its child_process).
  const { readNextcloudConfig } = await import('./config-php.js');
  const config = await readNextcloudConfig(location.nextcloudDir, options);
  const get = (key: string): PhpValue | undefined => {
    // The host lets NC_<key> environment variables override config.php (reference §6).
    const fromEnv = env[`NC_${key}`];
    return fromEnv !== undefined ? fromEnv : config[key];
  };
  return {
    params: paramsFromConfig(location, get, join(location.nextcloudDir, 'config', 'config.php')),
    hostUrl:
      location.hostUrl !== undefined
        ? hostUrlOf(location.hostUrl, location.hostUrlSource)
        : hostUrlOf(
            stringOrNull(get('overwrite.cli.url')) ?? undefined,
            env['NC_overwrite.cli.url'] !== undefined ? 'NC_overwrite.cli.url' : `overwrite.cli.url, ${join(location.nextcloudDir, 'config', 'config.php')}`,
          ),
    instanceSecret: stringOrNull(get('secret')),
    dataDirectory: stringOrNull(get('datadirectory')) ?? join(location.nextcloudDir, 'data'),
    defaultLanguage: stringOrNull(get('default_language')),
    forceLanguage: stringOrNull(get('force_language')),
    version: stringOrNull(get('version')),
  };
}

function stringOrNull(value: PhpValue | undefined): string | null {
  if (typeof value === 'string') return value === '' ? null : value;
  if (typeof value === 'number') return String(value);
  return null;
}

/** The host URL for links by the rule of its entry (host-url.ts): a refused one throws, never reaches a link. */
function hostUrlOf(url: string | undefined, source = '--host-url/DUS_HOST_URL'): string | null {
  return url === undefined || url === '' ? null : normalizeHostUrl(url, source);
}

/**
 * The prefix is written into every statement (table names cannot be bound), so only letters,
 * digits and underscores pass: anything else could change what a statement does.
 */
function checkedPrefix(prefix: string, origin: string): string {
  if (/^[A-Za-z0-9_]{0,32}$/.test(prefix)) return prefix;
  throw new DusError(
    'host_config',
    `The table prefix from ${origin} may hold only letters, digits and underscores (at most 32); got ${JSON.stringify(prefix.slice(0, 40))}.`,
  );
}

function paramsFromConfig(location: HostLocation, get: (key: string) => PhpValue | undefined, file: string): ConnectionParams {
  const rawType = stringOrNull(get('dbtype')) ?? 'sqlite';
  const prefix = checkedPrefix(
    location.tablePrefix ?? stringOrNull(get('dbtableprefix')) ?? 'oc_',
    location.tablePrefix === undefined ? `dbtableprefix in ${file}` : 'the table prefix given',
  );
  const dbname = stringOrNull(get('dbname')) ?? 'owncloud';
  const source = `${file}`;
  if (rawType === 'sqlite' || rawType === 'sqlite3') {
    const dataDirectory = stringOrNull(get('datadirectory')) ?? join(location.nextcloudDir ?? '', 'data');
    const dir = isAbsolute(dataDirectory) ? dataDirectory : join(location.nextcloudDir ?? '', dataDirectory);
    return { dialect: 'sqlite', prefix, file: join(dir, `${dbname}.db`), source: `${source} (datadirectory, dbname)` };
  }
  if (rawType !== 'pgsql' && rawType !== 'mysql') {
    throw new DusError('host_config', msg('host_config.dbtype', { file, dbtype: rawType }));
  }
  const hostPart = parseDbHost(stringOrNull(get('dbhost')) ?? 'localhost');
  const params: { -readonly [K in keyof ConnectionParams]: ConnectionParams[K] } = {
    dialect: rawType === 'pgsql' ? 'pgsql' : 'mysql',
    prefix,
    host: hostPart.host,
    database: dbname,
    source: `${source} (dbhost, dbname, dbuser)`,
  };
  if (hostPart.port !== undefined) params.port = hostPart.port;
  if (hostPart.socket !== undefined) params.socket = hostPart.socket;
  const user = stringOrNull(get('dbuser'));
  if (user !== null) params.user = user;
  const password = get('dbpassword');
  if (typeof password === 'string' || typeof password === 'number') params.password = String(password);
  return params;
}

export function paramsFromUrl(url: string, prefix: string, source = 'the --host-db URL'): ConnectionParams {
  const invalid = (why: string): DusError =>
    new DusError(
      'host_config',
      `The host database URL${source === 'the --host-db URL' ? '' : ` (${source})`} is not usable: ${why}. Expected sqlite:///absolute/path.db, postgres://user:password@host:port/db or mysql://user:password@host:port/db.`,
    );
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw invalid('it is not a URL');
  }
  const scheme = parsed.protocol.replace(/:$/, '');
  if (scheme === 'sqlite' || scheme === 'sqlite3') {
    const file = decodeURIComponent(parsed.pathname);
    if (parsed.host !== '' || !isAbsolute(file) || file === '/') throw invalid('a SQLite URL needs an absolute file path (sqlite:///path/to/file.db)');
    return { dialect: 'sqlite', prefix, file, source };
  }
  let dialect: 'pgsql' | 'mysql';
  if (scheme === 'postgres' || scheme === 'postgresql' || scheme === 'pgsql') dialect = 'pgsql';
  else if (scheme === 'mysql' || scheme === 'mariadb') dialect = 'mysql';
  else throw invalid(`the scheme ${scheme} is not one of sqlite, postgres, mysql`);
  const database = decodeURIComponent(parsed.pathname.replace(/^\//, ''));
  if (database === '') throw invalid('the database name is missing');
  const params: { -readonly [K in keyof ConnectionParams]: ConnectionParams[K] } = { dialect, prefix, database, source };
  const host = decodeURIComponent(parsed.hostname).replace(/^\[|\]$/g, '');
  const socket = parsed.searchParams.get('socket') ?? (host.startsWith('/') ? host : null);
  if (socket !== null) params.socket = socket;
  else params.host = host === '' ? 'localhost' : host;
  if (parsed.port !== '') params.port = Number(parsed.port);
  if (parsed.username !== '') params.user = decodeURIComponent(parsed.username);
  if (parsed.password !== '') params.password = decodeURIComponent(parsed.password);
  return params;
}
