import { chmod, lstat, unlink } from 'node:fs/promises';
import { connect } from 'node:net';
import { dirname } from 'node:path';
import { DusError } from '../core/errors.js';
import { untrustedAncestor } from '../core/fs/permissions.js';

/** Where `serve` listens: a TCP address, or a unix socket for the bridge on the same machine (docs/bridge.md). */
export type ListenAddress = { readonly kind: 'tcp'; readonly host: string; readonly port: number } | { readonly kind: 'unix'; readonly path: string };

/**
 * The socket's own mode: the service's account and its group (the web server's account, in the
 * shipped unit), nobody else. The directory is what keeps strangers from binding the name.
 */
export const SOCKET_MODE = 0o660;

const refusedSocket = (path: string, why: string): DusError =>
  new DusError('listen_failed', `serve cannot listen on unix:${path}: ${why}; the bridge's service_url must then name the new address.`);

/** Whether something answers on the socket at `path` (a running serve), or it is left from a process that ended. */
function answers(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ path });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/**
 * Checks the socket's directory and clears a socket left by a process that ended. The directory
 * must be a real directory (not a link) owned by this account or root and writable by no one
 * else: whoever can write it can take the socket's name while `serve` is down and receive the
 * bridge's calls. Every directory above it is checked as the launcher's code cache is (owned by
 * this account or root, writable by neither group nor others unless sticky): whoever may write
 * one can rename the socket's directory away and put one of their own, with a listener, in its
 * place. Anything but a dead socket at the path stays, and serve does not start.
 */
export async function prepareSocketPath(path: string): Promise<void> {
  const directory = dirname(path);
  const info = await lstat(directory).catch(() => null);
  if (info === null || !info.isDirectory()) throw refusedSocket(path, `${directory} is not a directory`);
  const uid = process.getuid?.() ?? 0;
  if (info.uid !== uid && info.uid !== 0) throw refusedSocket(path, `${directory} belongs to another account (uid ${info.uid})`);
  if ((info.mode & 0o022) !== 0) {
    throw refusedSocket(
      path,
      `${directory} is writable by its group or by others (mode ${(info.mode & 0o777).toString(8)}); make it 0750 (systemd: RuntimeDirectoryMode=0750)`,
    );
  }
  const above = await untrustedAncestor(directory);
  if (above !== null) {
    throw refusedSocket(
      path,
      `${above.path}, a directory on its way, ${above.why}: whoever may change it can put a directory and a listener of their own in the socket's place; choose a directory under /run (systemd: RuntimeDirectory=)`,
    );
  }
  const existing = await lstat(path).catch(() => null);
  if (existing === null) return;
  if (!existing.isSocket()) throw refusedSocket(path, 'something other than a socket has that name');
  if (await answers(path)) throw refusedSocket(path, 'another process answers on that socket already');
  await unlink(path);
}

/** Sets the socket's mode once it exists; a socket nobody else may reach is the point of listening there. */
export async function restrictSocket(path: string): Promise<void> {
  await chmod(path, SOCKET_MODE);
}
