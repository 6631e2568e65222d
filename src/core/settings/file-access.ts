import { dirname } from 'node:path';
import { DusError } from '../errors.js';
import { errnoOf, nearestExisting, ownedWithMode, runningAs } from '../fs/permissions.js';

/**
 * The one answer to "a file of the config directory cannot be read or written": code
 * `config_access`, the file, the system's error code, whose permissions are wrong and what to
 * do. Never "broken, remove it" for a file that is merely unreadable, never `internal`.
 */

/** System error codes that say the file or its directory is not usable as it is (not a bug). */
const ACCESS_CODES = new Set(['EACCES', 'EPERM', 'EROFS', 'EISDIR', 'ENOTDIR', 'ENOSPC', 'EDQUOT', 'ELOOP', 'EMLINK', 'ENAMETOOLONG']);

export type FileAction = 'read' | 'write' | 'create';

export { errnoOf };

/** Whose permissions are wrong: the owner and mode of what blocks, and who runs. */
function permissionAdvice(path: string, action: FileAction, elsewhere: string): string {
  // Writing a file of the config directory creates or renames a file in its directory.
  const found = nearestExisting(action === 'read' ? path : dirname(path));
  const me = runningAs();
  if (found === null) return `This command runs as ${me}: give it access, ${elsewhere}.`;
  return `${ownedWithMode(found.path, found.stat)}, and this command runs as ${me}: run it as the owner, give ${me} access (chown/chmod), ${elsewhere}.`;
}

function remedy(code: string, path: string, action: FileAction): string {
  const elsewhere = 'or give --config-dir DIR (or DUS_CONFIG_DIR) naming a directory this user owns';
  switch (code) {
    case 'EACCES':
    case 'EPERM':
      return permissionAdvice(path, action, elsewhere);
    case 'EROFS':
      return `The file system holding it is read-only: mount it writable, ${elsewhere} on a writable file system.`;
    case 'EISDIR':
      return `${path} is a directory where a file is expected: move it out of the way (the suite creates the file).`;
    case 'ENOTDIR':
      return `A part of the path ${path} is a file where a directory is expected: move it out of the way, ${elsewhere}.`;
    case 'EEXIST':
      return `${path} is not a directory: give --config-dir DIR (or DUS_CONFIG_DIR) naming a directory this user owns (or move that file away if it is stray).`;
    case 'ENOSPC':
    case 'EDQUOT':
      return 'The disk or the quota is full: free some space.';
    default:
      return `Check the path and its permissions, ${elsewhere}.`;
  }
}

/**
 * The coded error for a failed read, write or directory creation at `path`, or null when the
 * failure is not about the file's access (the caller then keeps its own answer).
 */
export function fileAccessError(error: unknown, path: string, action: FileAction): DusError | null {
  const code = errnoOf(error);
  // A directory that cannot be created because a file holds its name; elsewhere EEXIST is the caller's (a lost race).
  const blocked = code === 'EEXIST' && action === 'create';
  if (code === undefined || (!ACCESS_CODES.has(code) && !blocked)) return null;
  const verb = action === 'create' ? 'create the directory' : action;
  return new DusError('config_access', `Cannot ${verb} ${path} (${code}). ${remedy(code, path, action)}`, { cause: error });
}

/** Runs `work` on a file of the config directory; an access failure becomes `config_access`. */
export function withFileAccess<T>(path: string, action: FileAction, work: () => T): T {
  try {
    return work();
  } catch (error: unknown) {
    throw fileAccessError(error, path, action) ?? error;
  }
}
