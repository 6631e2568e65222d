import { closeSync, openSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import { DusError } from '../errors.js';
import { withFileAccess } from './file-access.js';

/**
 * A cross-process lock on a file path, taken synchronously because the settings store's
 * contract is synchronous. The lock is a file created exclusively (`wx`) holding the owner's
 * pid; a lock whose owner no longer runs is broken. Re-entrant within one process so that a
 * use case can hold it across several store writes.
 *
 * Breaking is itself guarded: two processes that both found the lock stale must not both
 * remove it, or the second would remove the lock the first has just taken, and both would
 * write. Only the holder of `<lock>.break` (also created exclusively) removes the lock, after
 * reading its owner again. A breaker that died in those few system calls leaves the guard
 * behind; a guard older than BREAK_GUARD_STALE_MS is removed.
 */
export interface LockOptions {
  /** How long to wait for another process before giving up. */
  readonly timeoutMs?: number;
  /** Pause between attempts. */
  readonly retryMs?: number;
}

const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_RETRY_MS = 5;
const BREAK_GUARD_STALE_MS = 5_000;

const held = new Map<string, number>();
const sleeper = new Int32Array(new SharedArrayBuffer(4));

function sleep(ms: number): void {
  Atomics.wait(sleeper, 0, 0, ms);
}

function ownerAlive(lockPath: string): boolean {
  let pid: number;
  try {
    pid = Number.parseInt(readFileSync(lockPath, 'utf8'), 10);
  } catch {
    // Gone or being written: treat as alive and try again.
    return true;
  }
  if (!Number.isInteger(pid) || pid <= 0) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error: unknown) {
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

function tryCreate(lockPath: string): boolean {
  try {
    const fd = openSync(lockPath, 'wx', 0o600);
    try {
      writeSync(fd, String(process.pid));
    } finally {
      closeSync(fd);
    }
    return true;
  } catch (error: unknown) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

/**
 * Removes the lock if its owner is still found gone by the one process holding the break
 * guard; false while another process holds the guard (the caller waits its turn).
 */
function breakStale(lockPath: string): boolean {
  const guard = `${lockPath}.break`;
  if (!tryCreate(guard)) {
    try {
      if (Date.now() - statSync(guard).mtimeMs > BREAK_GUARD_STALE_MS) rmSync(guard, { force: true });
    } catch {
      // Released meanwhile.
    }
    return false;
  }
  try {
    if (!ownerAlive(lockPath)) rmSync(lockPath, { force: true });
  } finally {
    rmSync(guard, { force: true });
  }
  return true;
}

function acquire(lockPath: string, options: LockOptions): void {
  const deadline = Date.now() + (options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  for (;;) {
    if (withFileAccess(lockPath, 'write', () => tryCreate(lockPath))) return;
    if (!ownerAlive(lockPath) && breakStale(lockPath)) continue;
    if (Date.now() >= deadline) {
      throw new DusError(
        'internal',
        `The settings are locked by another process (${lockPath}); try again, or remove that file if no docs-unified-search process runs.`,
      );
    }
    sleep(options.retryMs ?? DEFAULT_RETRY_MS);
  }
}

export function withFileLock<T>(lockPath: string, options: LockOptions, work: () => T): T {
  const depth = held.get(lockPath) ?? 0;
  if (depth === 0) acquire(lockPath, options);
  held.set(lockPath, depth + 1);
  try {
    return work();
  } finally {
    if (depth === 0) {
      held.delete(lockPath);
      rmSync(lockPath, { force: true });
    } else {
      held.set(lockPath, depth);
    }
  }
}
