/** Child processes and ports for the real Nextcloud: run to completion, free ports, ending servers. */
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';

export interface RunResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

export function run(command: string, args: readonly string[], options: { cwd?: string; env?: NodeJS.ProcessEnv; input?: string } = {}): Promise<RunResult> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env ?? process.env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolvePromise({ code: code ?? 1, stdout, stderr }));
    // A child that exits without reading its input closes the pipe first: not a failure of the run.
    child.stdin.on('error', () => undefined);
    child.stdin.end(options.input ?? '');
  });
}

export async function freePort(): Promise<number> {
  return new Promise((resolvePromise, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolvePromise(port));
    });
  });
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/**
 * Ends the process `pid` (TERM, then KILL after 5 s) and waits until it is gone; with `group`,
 * its whole process group (a server started detached, e.g. php under faketime).
 */
export async function endProcess(pid: number, group = false): Promise<void> {
  if (!alive(pid)) return;
  const target = group ? -pid : pid;
  process.kill(target, 'SIGTERM');
  for (let waited = 0; alive(pid); waited += 50) {
    if (waited === 5000) process.kill(target, 'SIGKILL');
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Servers still running when the test process exits are ended, so no php -S outlives a crash. */
const running = new Map<number, boolean>();
let hooked = false;
export function trackServer(pid: number, group = false): void {
  running.set(pid, group);
  if (hooked) return;
  hooked = true;
  const endAll = (): void => {
    for (const [p, group] of running) {
      try {
        process.kill(group ? -p : p, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  };
  process.on('exit', endAll);
  // An interrupted run (Ctrl-C, a killed jest) ends its servers too, then exits as the signal asks.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      endAll();
      process.kill(process.pid, signal);
    });
  }
}
export function untrackServer(pid: number): void {
  running.delete(pid);
}

/**
 * Waits until `url` answers 200: each request waits for its answer however long the server takes
 * (php -S answers one request at a time, after those before it). A refused connection (php not
 * listening yet) is retried while the server's `pid` lives, failing as soon as it is gone: how
 * long a loaded machine takes to start php is not a fixed time. Answers other than 200, and
 * refused connections when no pid is given, are retried for `ms` (30 s).
 */
export async function waitForHttp(url: string, options: { pid?: number; ms?: number } = {}): Promise<void> {
  const ms = options.ms ?? 30_000;
  const until = Date.now() + ms;
  for (;;) {
    let refused = false;
    try {
      const response = await fetch(url);
      await response.arrayBuffer();
      if (response.ok) return;
    } catch {
      refused = true;
    }
    if (options.pid !== undefined && !alive(options.pid)) throw new Error(`the server for ${url} (pid ${options.pid}) exited before it answered`);
    if ((!refused || options.pid === undefined) && Date.now() > until) throw new Error(`${url} did not answer 200 within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

export interface PhpServer {
  readonly url: string;
  stop(): Promise<void>;
}

/**
 * A `php -S` for `serverDir` on a free loopback port, optionally under a wrapper (faketime),
 * ready once its status.php answers 200. A port found free can be taken before php binds it
 * (another suite's server, an outgoing connection's local port): a server that exits before it
 * answers is started again on a new port, at most three times, each exit and what php said on
 * stderr printed, so a server that cannot start at all fails with php's own reason.
 */
export async function startPhpServer(serverDir: string, options: { wrapper?: readonly string[]; env?: NodeJS.ProcessEnv } = {}): Promise<PhpServer> {
  const attempts = 3;
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const [file = 'php', ...args] = [...(options.wrapper ?? []), 'php', '-S', `127.0.0.1:${port}`, '-t', serverDir];
    const child = spawn(file, args, { env: options.env ?? process.env, stdio: ['ignore', 'ignore', 'pipe'], detached: true });
    const pid = child.pid;
    if (pid === undefined) throw new Error(`${file} did not start`);
    trackServer(pid, true);
    // php -S logs each request on stderr: kept read (a full pipe would stall it), last 2 KB kept.
    let said = '';
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (said = (said + chunk).slice(-2000)));
    const url = `http://127.0.0.1:${port}`;
    const stop = async (): Promise<void> => {
      await endProcess(pid, true);
      untrackServer(pid);
    };
    try {
      await waitForHttp(`${url}/status.php`, { pid });
      return { url, stop };
    } catch (error) {
      await stop();
      const reason = `${error instanceof Error ? error.message : String(error)}; it said: ${said.trim() || '(nothing)'}`;
      if (attempt === attempts) throw new Error(`${[file, ...args].join(' ')}: ${reason}`);
      process.stdout.write(`php -S on port ${port} (try ${attempt} of ${attempts}) ended before it answered, started again on another port: ${reason}\n`);
    }
  }
}
