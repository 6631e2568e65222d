#!/usr/bin/env node
// Plain JavaScript that every Node since 14 parses: the version check runs before the suite
// (which needs node:sqlite, unflagged from Node 22.13) is loaded, so an old Node gets one
// coded line instead of `No such built-in module: node:sqlite` from deep inside.
import { existsSync, mkdirSync, readFileSync, realpathSync } from 'node:fs';
import * as nodeModule from 'node:module';
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const NEEDED = [22, 13];
const running = process.versions.node.split('.').map(Number);
const major = running[0] ?? 0;
const minor = running[1] ?? 0;
const tooOld = major < NEEDED[0] || (major === NEEDED[0] && minor < NEEDED[1]);
const args = process.argv.slice(2);

// In a checkout (`npm ci && npm link`), npm ci has installed the Node the suite is tested on
// (the `node` devDependency): an older Node on PATH hands the run over to it, so the README's
// commands run as written where the machine's own Node is older. Signals given to this process
// reach the run; the run's exit code or signal is this process's.
const ownNode = fileURLToPath(new URL('../node_modules/.bin/node', import.meta.url));
if (tooOld && existsSync(ownNode) && realpathSync(ownNode) !== realpathSync(process.execPath)) {
  // Loaded here only: every other run would pay for node:child_process at start.
  const { spawn } = await import('node:child_process');
  const child = spawn(ownNode, [fileURLToPath(import.meta.url), ...args], { stdio: 'inherit' });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => {
    if (signal === null) process.exit(code === null ? 1 : code);
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
  });
} else if (tooOld) {
  process.stderr.write(
    `Error [usage]: docs-unified-search needs Node.js ${NEEDED.join('.')} or later (for node:sqlite); ` +
      `this is Node.js ${process.versions.node} at ${process.execPath}. Install a current Node.js LTS and run it again.\n`,
  );
  process.exit(1);
} else {
  await run();
}

async function run() {
  // A reader that stops early (`dus search --help | head -1`) closes the pipe: the rest of the
  // output is dropped and the command ends as it would have, without a stack trace. git and gh
  // are ended by SIGPIPE instead (status 141 under `set -o pipefail`); exit 0 keeps such pipelines green.
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error) => {
      if (error.code !== 'EPIPE') throw error;
    });
  }

  // `--version` alone is answered here, from package.json: nothing else needs loading for it.
  if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
    process.stdout.write(`${JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version}\n`);
    process.exit(0);
  }

  // A bare `--help` prints the command list written at build time (dist/help.txt, what the program
  // prints at 80 columns, help's widest) without loading the suite; a narrower terminal gets it laid out anew.
  const HELP = new URL('../dist/help.txt', import.meta.url);
  const helpFits = process.stdout.isTTY !== true || (process.stdout.columns ?? 0) >= 80;
  if (args.length === 1 && ['--help', '-h', 'help'].includes(args[0]) && helpFits && existsSync(HELP)) {
    process.stdout.write(readFileSync(HELP));
    process.exit(0);
  }

  enableCompileCache();
  const { main } = await import('../dist/cli.js');
  const code = await main(args, {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    env: process.env,
  });
  process.exitCode = code;
}

/**
 * Node keeps the code it compiled for the suite's modules and its libraries between runs, which
 * takes a tenth or more off a command's start. The cache lives in the user's own cache directory
 * ($XDG_CACHE_HOME, else ~/.cache; made private), never in Node's default under /tmp, where
 * another account could lay out compiled code in advance. NODE_COMPILE_CACHE names another
 * directory (Node then has it on already); NODE_DISABLE_COMPILE_CACHE=1 turns it off. A
 * directory that cannot be made leaves the cache off. The directories are made one by one:
 * a recursive mkdir (Node's own, too) never returns on a path under /proc.
 */
function enableCompileCache() {
  if (typeof nodeModule.enableCompileCache !== 'function' || process.env.NODE_COMPILE_CACHE !== undefined) return;
  try {
    const xdg = process.env.XDG_CACHE_HOME;
    const base = xdg !== undefined && isAbsolute(xdg) ? xdg : join(homedir(), '.cache');
    const dir = join(base, 'docs-unified-search', 'node-compile-cache');
    for (const path of [base, join(base, 'docs-unified-search'), dir]) {
      try {
        mkdirSync(path, { mode: 0o700 });
      } catch (error) {
        if (error.code !== 'EEXIST') return;
      }
    }
    nodeModule.enableCompileCache(dir);
  } catch {
    // No home directory: the start is only slower.
  }
}
