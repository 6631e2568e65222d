/**
 * Runs the built CLI on a real pseudo-terminal of a given size (python3's pty module: the
 * child's stdout and stderr are the terminal, as a user's shell gives them). Tests that need
 * it skip with a printed reason where python3 or the build is missing.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const CLI = fileURLToPath(new URL('../../bin/docs-unified-search.cjs', import.meta.url));
const BUILT = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));

/**
 * Opens a pty of rows×cols, runs argv with stdout and stderr on it, prints what the terminal got,
 * exits with the child's code. Without `wait_for` stdin is /dev/null; with it stdin is the
 * terminal too (echo on, as a shell leaves it), and once the screen shows `wait_for`, `typed` is
 * written to the terminal as a user types it (the child is killed after 20 s of silence).
 */
const RUNNER = `
import fcntl, os, select, struct, subprocess, sys, termios
cols, wait_for, typed, argv = int(sys.argv[1]), sys.argv[2].encode(), sys.argv[3].encode(), sys.argv[4:]
master, slave = os.openpty()
fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack('HHHH', 50, cols, 0, 0))
attrs = termios.tcgetattr(slave)
attrs[1] &= ~termios.ONLCR
attrs[3] |= termios.ECHO
termios.tcsetattr(slave, termios.TCSANOW, attrs)
stdin = slave if wait_for else subprocess.DEVNULL
child = subprocess.Popen(argv, stdin=stdin, stdout=slave, stderr=slave, close_fds=True, start_new_session=bool(wait_for))
os.close(slave)
screen = b''
sent = False
while True:
    ready, _, _ = select.select([master], [], [], 20)
    if not ready:
        child.kill()
        break
    try:
        chunk = os.read(master, 65536)
    except OSError:
        break
    if not chunk:
        break
    screen += chunk
    if wait_for and not sent and wait_for in screen:
        os.write(master, typed)
        sent = True
sys.stdout.buffer.write(screen)
sys.exit(child.wait())
`;

export function ptyUnavailable(): string | null {
  if (spawnSync('python3', ['--version']).status !== 0) return 'python3 is not installed (it opens the pseudo-terminal)';
  if (!existsSync(BUILT)) return 'the CLI is not built (npm run build)';
  return null;
}

export interface PtyRun {
  readonly code: number | null;
  /** Everything the terminal received, stdout and stderr interleaved. */
  readonly screen: string;
}

/** Asynchronous: the archive emulator the CLI talks to runs in this process and must keep answering. */
export function runOnPty(columns: number, args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<PtyRun> {
  return runRunner([RUNNER, String(columns), '', ''], args, env);
}

/** Runs a python3 pty runner (its script and leading arguments) on the built CLI with `args`. */
async function runRunner(runner: readonly string[], args: readonly string[], env: NodeJS.ProcessEnv): Promise<PtyRun> {
  const [script = '', ...leading] = runner;
  const child = spawn('python3', ['-c', script, ...leading, process.execPath, CLI, ...args], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const chunks: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  return { code, screen: Buffer.concat(chunks).toString('utf8') };
}

/** Runs the built CLI with stdin, stdout and stderr on one pty, typing `typed` once `waitFor` shows. */
export function runOnPtyTyping(columns: number, args: readonly string[], waitFor: string, typed: string, env: NodeJS.ProcessEnv = {}): Promise<PtyRun> {
  return runRunner([RUNNER, String(columns), waitFor, typed], args, env);
}
