/**
 * Why the host's SQLite file cannot be opened, in the words of the config directory's
 * `config_access` messages: the file or directory that blocks, its owner and mode, and the
 * account this command runs as. SQLite itself only says "unable to open database file" or
 * "attempt to write a readonly database", and `existsSync` calls an unreachable file missing.
 */
import { accessSync, constants, openSync, readSync, closeSync, statSync } from 'node:fs';
import { dirname, parse, sep } from 'node:path';
import { errnoOf, ownedWithMode, runningAs } from '../../fs/permissions.js';

const AS_NEXTCLOUD = "run it as the account Nextcloud's web server runs as";

/** The first directory on the way to `file` that this process may not pass (no search permission), or null. */
function blockingDirectory(file: string): string | null {
  const { root } = parse(file);
  const parts = dirname(file)
    .slice(root.length)
    .split(sep)
    .filter((part) => part !== '');
  let current = root;
  for (const part of parts) {
    current = current === root ? `${root}${part}` : `${current}${sep}${part}`;
    try {
      accessSync(current, constants.X_OK);
    } catch (error: unknown) {
      if (errnoOf(error) === 'EACCES') return current;
      return null;
    }
  }
  return null;
}

function blocked(path: string, what: string): string {
  const me = runningAs();
  try {
    return `${ownedWithMode(path, statSync(path))}, and this command runs as ${me}: ${what}; ${AS_NEXTCLOUD}, or give ${me} access (a group or an ACL)`;
  } catch {
    return `this command runs as ${me}, which may not ${what.replace(/^it /, '')}; ${AS_NEXTCLOUD}`;
  }
}

/**
 * Before opening: why `file` cannot be read by this process, or null when it can. A file in a
 * directory it may not pass is not "missing"; a file it may not read names its owner and mode.
 */
export function sqliteFileProblem(file: string): string | null {
  if (file === '') return 'no file is named (check datadirectory and dbname in config.php, or the sqlite:// URL)';
  try {
    statSync(file);
  } catch (error: unknown) {
    const code = errnoOf(error);
    if (code === 'EACCES') {
      const directory = blockingDirectory(file);
      if (directory !== null) return `${blocked(directory, 'it may not enter that directory (EACCES)')}.`;
    }
    if (code === 'ENOENT') return 'the file does not exist (check datadirectory and dbname in config.php, or the sqlite:// URL)';
    return `the file cannot be looked at (${code ?? 'unknown error'})`;
  }
  try {
    accessSync(file, constants.R_OK);
  } catch (error: unknown) {
    if (errnoOf(error) === 'EACCES') return `${blocked(file, 'it may not read the file (EACCES)')}.`;
  }
  return null;
}

/** Whether the file's header says write-ahead logging (bytes 18 and 19 are 2): readers then need the -shm and -wal files. */
function isWal(file: string): boolean {
  try {
    const fd = openSync(file, 'r');
    try {
      const header = Buffer.alloc(20);
      return readSync(fd, header, 0, 20, 0) === 20 && header[18] === 2 && header[19] === 2;
    } finally {
      closeSync(fd);
    }
  } catch {
    return false;
  }
}

/**
 * After SQLite refused to open or read a file this process may read: a database in WAL mode,
 * whose `-shm` file (or the directory to create it in) this process may not write. SQLite
 * needs that even to read; the suite opens read-only and never writes the database itself.
 */
export function sqliteOpenProblem(file: string, said: string): string | null {
  if (!/readonly|unable to open|disk I\/O/i.test(said) || !isWal(file)) return null;
  const shm = `${file}-shm`;
  let shmExists = true;
  try {
    statSync(shm);
  } catch {
    shmExists = false;
  }
  const target = shmExists ? shm : dirname(file);
  try {
    accessSync(target, constants.W_OK);
    return null;
  } catch {
    const what = shmExists ? 'it may not write that file' : `it may not create ${file}-shm and ${file}-wal there`;
    return `the database is in WAL mode, in which SQLite writes ${file}-shm even to read (this suite only reads); ${blocked(target, what)} (SQLite said: ${said}).`;
  }
}
