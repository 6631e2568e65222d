import { appendFileSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { AuditLog } from './context-types.js';
import { withFileAccess } from './settings/file-access.js';
import { APP_ID } from './version.js';

/**
 * The audit log (the host's admin_audit): one JSON line per record in `<configDir>/audit.log`,
 * appended with mode 0600. Records carry who did what as whom and when; callers never pass
 * a search term, and `detail` accepts only scalars so a whole request cannot slip in.
 */
export class FileAuditLog implements AuditLog {
  readonly path: string;
  readonly #now: () => Date;

  constructor(path: string, options: { now?: () => Date } = {}) {
    this.path = path;
    this.#now = options.now ?? (() => new Date());
  }

  record(event: Parameters<AuditLog['record']>[0]): void {
    const line = {
      time: this.#now().toISOString(),
      app: APP_ID,
      action: event.action,
      admin: event.admin,
      ...(event.user === undefined ? {} : { user: event.user }),
      ...(event.detail === undefined ? {} : { detail: event.detail }),
    };
    // Required: an administrator acting as a user leaves a trace, or the action does not happen.
    withFileAccess(this.path, 'write', () => {
      mkdirSync(dirname(this.path), { recursive: true, mode: 0o700 });
      appendFileSync(this.path, `${JSON.stringify(line)}\n`, { mode: 0o600 });
    });
  }
}
