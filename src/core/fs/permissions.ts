import { readFileSync, statSync, type Stats } from 'node:fs';
import { userInfo } from 'node:os';
import { dirname } from 'node:path';

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
