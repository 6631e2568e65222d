/**
 * A real `serve` process for the benches, started as users start it (the executable in bin/,
 * which runs the bundle `npm run build` makes), and what the benches read of it from /proc.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

// dist-tools/bench/support → the package root.
const EXECUTABLE = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'bin', 'docs-unified-search.cjs');

export interface Server {
  readonly child: ChildProcess;
  readonly base: string;
  /** stdout and stderr so far. */
  output: string;
}

/** The machine's load, printed beside every figure: the machine is shared. */
export const load = (): string =>
  `load average ${loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')} on ${cpus().length} cores`;

/** Spawns the CLI with `args` (which end in `serve …`); resolves once it says where it listens. */
export function startServer(args: readonly string[], env: NodeJS.ProcessEnv): Promise<Server> {
  const child = spawn(process.execPath, [EXECUTABLE, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const server: Server = { child, base: '', output: '' };
  return new Promise((resolve, reject) => {
    child.stderr?.on('data', (chunk: Buffer) => {
      server.output += chunk.toString('utf8');
    });
    child.stdout?.on('data', (chunk: Buffer) => {
      server.output += chunk.toString('utf8');
      const match = /Listening on (http:\/\/[^\s]+)/.exec(server.output);
      if (match?.[1] !== undefined && server.base === '') resolve({ ...server, base: match[1], child });
    });
    child.on('exit', (code) => reject(new Error(`serve exited with ${code}: ${server.output}`)));
  });
}

/** SIGTERM, then waits for the exit; says whether serve stopped cleanly. */
export async function stopServer(server: Server): Promise<string> {
  if (server.child.exitCode !== null) return `exit ${server.child.exitCode} before the end`;
  let output = '';
  server.child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8');
  });
  const exited = new Promise<number | null>((resolve) => server.child.once('exit', resolve));
  server.child.kill('SIGTERM');
  const code = await exited;
  return `exit ${code}${output.includes('Stopped.') ? ', stopped cleanly' : ''}`;
}

/** A /proc/<pid>/status figure in MiB: VmRSS now, VmHWM the peak so far. */
export function statusMiB(pid: number | undefined, field: 'VmRSS' | 'VmHWM'): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return kib / 1024;
}
