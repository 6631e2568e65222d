import type { Dialect } from './types.js';

/** Everything needed to open the host database, whichever way it was located. */
export interface ConnectionParams {
  readonly dialect: Dialect;
  readonly prefix: string;
  /** SQLite: absolute path of the database file. */
  readonly file?: string;
  readonly host?: string;
  readonly port?: number;
  /** Unix socket: a directory for PostgreSQL, the socket file for MySQL. */
  readonly socket?: string;
  readonly database?: string;
  readonly user?: string;
  readonly password?: string;
  /** Where these parameters came from, for messages that say what to fix. */
  readonly source: string;
}

export interface HostPart {
  readonly host: string;
  readonly port?: number;
  readonly socket?: string;
}

/**
 * config.php `dbhost`: `host`, `host:port`, `host:/path/to/socket`, `[::1]:5432`.
 * Follows the host's own rule (reference §6): the text after the last colon that holds no
 * `]` is a port when numeric, else a socket; an IPv6 address must be bracketed.
 */
export function parseDbHost(dbhost: string): HostPart {
  const match = /^(.*):([^\]:]+)$/.exec(dbhost);
  let host = dbhost;
  let port: number | undefined;
  let socket: string | undefined;
  if (match !== null) {
    const head = match[1] ?? '';
    const tail = match[2] ?? '';
    host = head;
    if (/^\d+$/.test(tail)) port = Number(tail);
    else socket = tail;
  }
  if (host.startsWith('[') && host.endsWith(']')) host = host.slice(1, -1);
  if (host === '') host = 'localhost';
  const part: { host: string; port?: number; socket?: string } = { host };
  if (port !== undefined) part.port = port;
  if (socket !== undefined) part.socket = socket;
  return part;
}
