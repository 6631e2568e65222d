import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

/** The installed executable as `npm link` runs it; needs `npm run build` (the test script builds first). */
export const BUILT_CLI = resolve('bin/docs-unified-search.cjs');

export interface ProcessRunOptions {
  /** The whole environment of the child (PATH is added); default none beyond PATH. */
  readonly env?: NodeJS.ProcessEnv;
  readonly stdin?: string;
  /** Run as this account (the suite runs as root here); its supplementary groups are dropped. */
  readonly uid?: number;
  readonly gid?: number;
  /** The umask the child starts with, e.g. '000' or '022'. */
  readonly umask?: string;
  /** A directory the child sees mounted read-only (its own mount namespace: see `readOnlyMountMissing`). */
  readonly readOnly?: string;
}

export interface ProcessRun {
  readonly code: number | null;
  readonly out: string;
  readonly err: string;
}

/** Runs the built CLI in a process of its own, as a user runs it from a shell. */
export function runCliProcess(args: readonly string[], options: ProcessRunOptions = {}): Promise<ProcessRun> {
  const cli = [process.execPath, BUILT_CLI, ...args];
  let command = options.umask === undefined ? cli : ['/bin/sh', '-c', 'umask "$0" && exec "$@"', options.umask, ...cli];
  if (options.readOnly !== undefined) command = ['unshare', '-m', '/bin/sh', '-c', 'mount --bind -o ro "$0" "$0" && exec "$@"', options.readOnly, ...command];
  const [file = process.execPath, ...rest] = command;
  return new Promise((done, fail) => {
    const child = spawn(file, rest, {
      env: { PATH: process.env.PATH, ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
      ...(options.uid === undefined ? {} : { uid: options.uid }),
      ...(options.gid === undefined ? {} : { gid: options.gid }),
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('error', fail);
    child.on('close', (code) => done({ code, out, err }));
    child.stdin.end(options.stdin ?? '');
  });
}

/** Whether the built CLI is there to be run; the reason to print when it is not. */
export function builtCliMissing(): string | null {
  return existsSync(resolve('dist/cli.cjs'))
    ? null
    : 'dist/cli.cjs is missing: run `npm run build` (npm test does) before the tests that start the installed executable';
}

export interface Account {
  readonly name: string;
  readonly uid: number;
  readonly gid: number;
}

/**
 * An unprivileged account to run a child as, or the reason there is none: root reads every
 * file whatever its mode, so permission tests mean something only as another user.
 */
export function unprivilegedAccount(name = 'nobody'): Account | string {
  if (process.getuid?.() !== 0) return 'the suite does not run as root, so it cannot start a process as another user';
  const id = spawnSync('id', ['-u', name], { encoding: 'utf8' });
  const group = spawnSync('id', ['-g', name], { encoding: 'utf8' });
  if (id.status !== 0 || group.status !== 0) return `there is no account ${name} on this machine`;
  return { name, uid: Number(id.stdout.trim()), gid: Number(group.stdout.trim()) };
}

/** Why a read-only mount cannot be made for a child here, or null when it can (root with CAP_SYS_ADMIN). */
export function readOnlyMountMissing(): string | null {
  const probe = spawnSync('unshare', ['-m', '/bin/sh', '-c', 'mount --bind -o ro /tmp /tmp && ! touch /tmp/.dus-ro-probe 2>/dev/null'], { encoding: 'utf8' });
  return probe.status === 0
    ? null
    : `no read-only bind mount in a private mount namespace (unshare -m; needs root): ${probe.stderr.trim() || `exit ${String(probe.status)}`}`;
}
