import { readFileSync, statSync, type Stats } from 'node:fs';
import { lstat, realpath } from 'node:fs/promises';
import { userInfo } from 'node:os';
import { dirname, resolve, sep } from 'node:path';

/**
 * Who owns what and who runs: the facts a permission message names (the config directory's
 * `config_access`, the host's SQLite file), so an administrator sees whose permissions to change.
 */

/** The system's error code (`EACCES`, `ENOENT`, …) of a thrown error, if it has one. */
export function errnoOf(error: unknown): string | undefined {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** The login name of a uid from the password database, or null (no entry, or no database: not Linux). */
export function loginOf(uid: number): string | null {
  try {
    const line = readFileSync('/etc/passwd', 'utf8')
      .split('\n')
      .find((entry) => entry.split(':')[2] === String(uid));
    const name = line?.split(':')[0];
    return name === undefined || name === '' ? null : name;
  } catch {
    return null;
  }
}

/** The account name of a uid from the password database, else `uid N`. */
export function accountName(uid: number): string {
  const name = loginOf(uid);
  return name === null ? `uid ${uid}` : `${name} (uid ${uid})`;
}

/** The account this process runs as, named as `accountName` names it. */
export function runningAs(): string {
  const uid = process.getuid?.();
  if (uid === undefined) {
    try {
      return userInfo().username;
    } catch {
      return 'this user';
    }
  }
  return accountName(uid);
}

/** The path itself or, when it is not there (or not reachable), its nearest existing directory. */
export function nearestExisting(path: string): { readonly path: string; readonly stat: Stats } | null {
  for (let current = path; ; current = dirname(current)) {
    try {
      return { path: current, stat: statSync(current) };
    } catch {
      if (dirname(current) === current) return null;
    }
  }
}

/** `PATH is owned by NAME (uid N) with mode 0750`. */
export function ownedWithMode(path: string, stat: Stats): string {
  return `${path} is owned by ${accountName(stat.uid)} with mode ${(stat.mode & 0o777).toString(8).padStart(4, '0')}`;
}

/** Why a directory on a path is not to be trusted, in words an administrator acts on. */
export interface UntrustedDirectory {
  readonly path: string;
  readonly why: string;
}

const directoriesDownTo = (path: string): string[] => {
  const parts = resolve(path)
    .split(sep)
    .filter((part) => part !== '');
  return Array.from({ length: parts.length + 1 }, (_, depth) => sep + parts.slice(0, depth).join(sep));
};

/**
 * The first directory from `/` down to `directory` (itself included) that an account other
 * than this one and root could change, or null. The rule of the launcher's code cache
 * (bin/docs-unified-search.cjs, `trustedPath`, which cannot import this file): each is owned by
 * this account or root and writable by neither group nor others, unless it is sticky (/tmp),
 * where others cannot rename or remove what is not theirs. A link on the way counts as its
 * owner left it (only whoever may write the directory holding it can replace it, and that
 * directory is checked); the directories the link leads to are checked the same way.
 */
export async function untrustedAncestor(directory: string): Promise<UntrustedDirectory | null> {
  const uid = process.getuid?.();
  if (uid === undefined) return null; // no uids (Windows): nothing can be told
  let real: string;
  try {
    real = await realpath(directory);
  } catch {
    return { path: directory, why: 'does not exist' };
  }
  for (const path of new Set([...directoriesDownTo(directory), ...directoriesDownTo(real)])) {
    let info: Stats;
    try {
      info = await lstat(path);
    } catch {
      return { path, why: 'cannot be read' };
    }
    if (info.uid !== uid && info.uid !== 0) return { path, why: `belongs to another account (${accountName(info.uid)})` };
    if (info.isSymbolicLink()) continue;
    if (!info.isDirectory()) return { path, why: 'is not a directory' };
    const sticky = (info.mode & 0o1000) !== 0;
    if ((info.mode & 0o022) !== 0 && !sticky) {
      return { path, why: `is writable by its group or by others and not sticky (mode ${(info.mode & 0o7777).toString(8).padStart(4, '0')})` };
    }
  }
  return null;
}
