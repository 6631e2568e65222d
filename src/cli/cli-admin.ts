import { userInfo } from 'node:os';

/** Who runs an administrative command, for the audit log: the operating-system account (as occ runs as the web server's). */
export function cliAdmin(): string {
  try {
    return `cli:${userInfo().username}`;
  } catch {
    return 'cli';
  }
}
