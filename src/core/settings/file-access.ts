import { dirname } from 'node:path';
import { DusError } from '../errors.js';
import { accountName, errnoOf, nearestExisting, runningAs } from '../fs/permissions.js';
import { msg, type Message } from '../i18n/catalog.js';

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
function permissionAdvice(path: string, action: FileAction, elsewhere: Message): Message {
  // Writing a file of the config directory creates or renames a file in its directory.
  const found = nearestExisting(action === 'read' ? path : dirname(path));
  const me = runningAs();
  if (found === null) return msg('config_access.runs_as', { me, elsewhere });
  const owner = accountName(found.stat.uid);
  const mode = (found.stat.mode & 0o777).toString(8).padStart(4, '0');
  return msg('config_access.owned_by', { found: found.path, owner, mode, me, elsewhere });
}

function remedy(code: string, path: string, action: FileAction): Message {
  const elsewhere = msg('config_access.elsewhere');
  switch (code) {
    case 'EACCES':
    case 'EPERM':
      return permissionAdvice(path, action, elsewhere);
    case 'EROFS':
      return msg('config_access.read_only', { elsewhere });
    case 'EISDIR':
      return msg('config_access.is_directory', { path });
    case 'ENOTDIR':
      return msg('config_access.not_directory', { path, elsewhere });
    case 'EEXIST':
      return msg('config_access.file_in_the_way', { path });
    case 'ENOSPC':
    case 'EDQUOT':
      return msg('config_access.full');
    default:
      return msg('config_access.check', { elsewhere });
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
  const key = action === 'create' ? 'config_access.create' : action === 'read' ? 'config_access.read' : 'config_access.write';
  return new DusError('config_access', msg(key, { path, code, remedy: remedy(code, path, action) }), { cause: error });
}

/** Runs `work` on a file of the config directory; an access failure becomes `config_access`. */
export function withFileAccess<T>(path: string, action: FileAction, work: () => T): T {
  try {
    return work();
  } catch (error: unknown) {
    throw fileAccessError(error, path, action) ?? error;
  }
}
