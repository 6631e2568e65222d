#!/usr/bin/env node
// Plain JavaScript that every Node since 14 parses: the version check runs before the suite
// (which needs node:sqlite, unflagged from Node 22.13) is loaded, so an old Node gets one
// coded line instead of `No such built-in module: node:sqlite` from deep inside.
// CommonJS, as the program it loads (dist/cli.cjs): an ES module importing node:fs or
// node:module has Node build their ES module faces, which read every property and so load
// what those load lazily; require() does not.
'use strict';
const { closeSync, constants, existsSync, fstatSync, lstatSync, mkdirSync, openSync, readFileSync, realpathSync, renameSync, rmSync, statSync, writeSync } = require('node:fs');
const nodeModule = require('node:module');
const { homedir } = require('node:os');
const { isAbsolute, join, sep } = require('node:path');

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
const ownNode = join(__dirname, '..', 'node_modules', '.bin', 'node');
if (tooOld && existsSync(ownNode) && realpathSync(ownNode) !== realpathSync(process.execPath)) {
  // Loaded here only: every other run would pay for node:child_process at start.
  const { spawn } = require('node:child_process');
  const child = spawn(ownNode, [__filename, ...args], { stdio: 'inherit' });
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
  run();
}

function run() {
  // `--version` alone is answered here, from package.json: nothing else needs loading for it.
  if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
    quietOnEarlyClose(process.stdout).write(`${JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8')).version}\n`);
    process.exit(0);
  }

  // A bare `--help` prints the command list written at build time (dist/help.txt, what the program
  // prints at 80 columns, help's widest) without loading the suite; a narrower terminal gets it laid out anew.
  const HELP = join(__dirname, '..', 'dist', 'help.txt');
  if (args.length === 1 && ['--help', '-h', 'help'].includes(args[0]) && existsSync(HELP)) {
    const stdout = quietOnEarlyClose(process.stdout);
    if (stdout.isTTY !== true || (stdout.columns ?? 0) >= 80) {
      stdout.write(readFileSync(HELP));
      process.exit(0);
    }
  }

  const cache = privateCacheDir();
  if (cache !== null) enableCompileCache(join(cache, 'node-compile-cache'));
  const { main, processIO } = loadProgram(join(__dirname, '..', 'dist', 'cli.cjs'), cache);
  // stdout and stderr as the program writes them (src/cli/process-output.ts), stdin made when first read.
  main(args, processIO()).then((code) => {
    process.exitCode = code;
    // Once nothing is left to run (output written, files and connections closed: each of them
    // keeps the loop alive until done), the process ends without Node's tear-down of the
    // environment and the heap, which a one-shot command does not need (3 ms of `search` here,
    // docs/benchmarks.md). 'exit' listeners still run, the code cache's write among them, and Node
    // still writes its own compile cache.
    process.once('beforeExit', () => process.exit());
  });
}

/**
 * A reader that stops early (`dus --help | head -1`) closes the pipe: the rest of the output is
 * dropped and the command ends as it would have, without a stack trace (the program's own
 * output does the same: src/cli/process-output.ts).
 */
function quietOnEarlyClose(stream) {
  return stream.on('error', (error) => {
    if (error.code !== 'EPIPE') throw error;
  });
}

/**
 * The suite's directory in the user's own cache directory ($XDG_CACHE_HOME, else ~/.cache),
 * made private; null when it cannot be made (no home directory, say): the start is only slower.
 * Never Node's default under /tmp, where another account could lay out compiled code in
 * advance; for the same reason it is used only when every directory from / down to it is
 * trusted (`trustedPath`): a directory another account may rename or replace anywhere on the
 * way (an XDG_CACHE_HOME or HOME inside someone else's directory, kept by `sudo -E`) lets that
 * account swap in a cache of its own between any check and the read. The directories are made
 * one by one: a recursive mkdir (Node's own, too) never returns on a path under /proc.
 */
function privateCacheDir() {
  try {
    const xdg = process.env.XDG_CACHE_HOME;
    const base = xdg !== undefined && isAbsolute(xdg) ? xdg : join(homedir(), '.cache');
    const dir = join(base, 'docs-unified-search');
    for (const path of [base, dir]) {
      try {
        mkdirSync(path, { mode: 0o700 });
      } catch (error) {
        if (error.code !== 'EEXIST') return null;
      }
    }
    // The real path is walked (a symlink on the way is resolved once, here); every component
    // is then lstat'ed, so a symlink put in later is refused rather than followed.
    const real = realpathSync(dir);
    return trustedPath(real) && ownedByMe(lstatSync(real)) ? real : null;
  } catch {
    return null;
  }
}

function ownedByMe(stat) {
  return typeof process.getuid !== 'function' || stat.uid === process.getuid();
}

/**
 * Whether only this account (or root) can change what `path` names: each directory from / down
 * is a directory (lstat: not a symlink), owned by this account or root, and writable by no group
 * or other, except a root-owned sticky one (/tmp), where others cannot rename or remove what is
 * not theirs. Where there are no uids (Windows) nothing can be told, and nothing is refused.
 */
function trustedPath(path) {
  if (typeof process.getuid !== 'function') return true;
  const uid = process.getuid();
  const parts = path.split(sep).filter((part) => part !== '');
  for (let depth = 0; depth <= parts.length; depth += 1) {
    const stat = lstatSync(sep + parts.slice(0, depth).join(sep));
    if (!stat.isDirectory() || (stat.uid !== uid && stat.uid !== 0)) return false;
    const sticky = (stat.mode & 0o1000) !== 0 && stat.uid === 0;
    if ((stat.mode & 0o022) !== 0 && !sticky) return false;
  }
  return true;
}

/**
 * The code cache's content, read from the opened file after checking that very file (fstat:
 * not a path that could be swapped after the check) is a regular file of this account with one
 * link and no group/other write, and that the directories it lies in are still trusted. Any
 * doubt gives undefined: the run compiles as it goes (and writes a cache of its own).
 */
function readTrustedCache(cacheFile, cache) {
  let fd;
  try {
    // O_NONBLOCK: a FIFO planted under the name must not hold the start.
    fd = openSync(cacheFile, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    const stat = fstatSync(fd);
    if (!stat.isFile() || !ownedByMe(stat) || stat.nlink !== 1 || (stat.mode & 0o022) !== 0) return undefined;
    if (!trustedPath(cache)) return undefined;
    return readFileSync(fd);
  } catch {
    // Not written yet, or unreadable: this run compiles as it goes, and writes it.
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * Writes the cache whole: a new file of a name no one can have laid out (O_EXCL, O_NOFOLLOW:
 * never a file or symlink already there), 0600, renamed over the old one.
 */
function writeCache(cacheFile, data) {
  // Not node:crypto for a random name: it loads some twenty modules at every start. O_EXCL is what
  // keeps the name safe; a name taken only leaves this run's cache unwritten.
  const temporary = `${cacheFile}.${process.pid}.${Date.now()}.tmp`;
  let fd;
  try {
    fd = openSync(temporary, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
    writeSync(fd, data);
    closeSync(fd);
    fd = undefined;
    renameSync(temporary, cacheFile);
  } catch {
    if (fd !== undefined) closeSync(fd);
    rmSync(temporary, { force: true });
  }
}

/**
 * Node keeps the code it compiled for the libraries a command loads (the drivers, fastify for
 * serve) between runs. NODE_COMPILE_CACHE names another directory (Node then has it on
 * already); NODE_DISABLE_COMPILE_CACHE=1 turns it off.
 */
function enableCompileCache(dir) {
  if (typeof nodeModule.enableCompileCache !== 'function' || process.env.NODE_COMPILE_CACHE !== undefined) return;
  try {
    mkdirSync(dir, { mode: 0o700 });
  } catch (error) {
    if (error.code !== 'EEXIST') return;
  }
  nodeModule.enableCompileCache(dir);
}

/**
 * Runs the program (dist/cli.cjs, one CommonJS file: scripts/build-bundle.mjs says why) and
 * returns its exports. V8 compiles a function when it first runs, and Node's compile cache
 * keeps only what was compiled before the file ran: the program's own cache, program.v8cache
 * in the private cache directory, is written after a run, so it holds every function that run
 * needed (a third of `why`'s CPU time). It names the file it was made from (size, times, inode)
 * and the V8 it was made by; V8 refuses data made under other flags. Written whole (a
 * temporary file renamed), 0600, when missing, refused or made for another file.
 * One file per command (`cacheFileName`): one file for all kept the shape of whichever command
 * wrote it first, and a `serve` that had run first under the service account left every later
 * `why` of that account compiling what it needed anew at each run (46 ms instead of 37).
 * DUS_DEBUG=1 loads the file with require() instead, whose source map leads stack traces back to src/.
 */
function loadProgram(file, cache) {
  if (process.env.DUS_DEBUG === '1') {
    process.setSourceMapsEnabled(true);
    return require(file);
  }
  const vm = require('node:vm');
  const source = readFileSync(file, 'utf8');
  const stat = statSync(file, { bigint: true });
  const key = Buffer.from(`${[stat.size, stat.mtimeNs, stat.ctimeNs, stat.ino, process.versions.v8, process.arch].join(' ')}\n`);
  const cacheFile = cache === null ? null : join(cache, cacheFileName());
  let cachedData;
  if (cacheFile !== null) {
    const kept = readTrustedCache(cacheFile, cache);
    if (kept !== undefined && kept.subarray(0, key.length).equals(key)) cachedData = kept.subarray(key.length);
  }
  const script = new vm.Script(nodeModule.wrap(source), { filename: file, cachedData });
  const module = { exports: {} };
  script.runInThisContext()(module.exports, nodeModule.createRequire(file), module, file, join(file, '..'));
  if (cacheFile !== null && (cachedData === undefined || script.cachedDataRejected === true)) {
    process.once('exit', () => writeCache(cacheFile, Buffer.concat([key, script.createCachedData()])));
  }
  return module.exports;
}

/**
 * The code cache of the command this run names: program.<word>.v8cache, the word taken from
 * dist/commands.json (the command list's names, written at build time), never from argv as typed,
 * so there is one file per command at most and no argument can choose a path. The command is found
 * as the list's commandOfArgv finds it (global options and their values skipped;
 * test/cli-start-imports holds the two to the same answers). Anything else (`help`, an unknown
 * word, an option the program is to judge) uses program.v8cache, the shape of a run that loads
 * every command.
 */
function cacheFileName() {
  try {
    const { words, valued, flags } = JSON.parse(readFileSync(join(__dirname, '..', 'dist', 'commands.json'), 'utf8'));
    for (let at = 0; at < args.length; at += 1) {
      const arg = args[at];
      if (valued.includes(arg)) {
        at += 1;
        continue;
      }
      if (flags.includes(arg) || valued.some((option) => arg.startsWith(`${option}=`))) continue;
      const word = !arg.startsWith('-') && Object.prototype.hasOwnProperty.call(words, arg) ? words[arg] : undefined;
      return typeof word === 'string' && /^[a-z][a-z0-9-]*$/.test(word) ? `program.${word}.v8cache` : 'program.v8cache';
    }
  } catch {
    // No list (a build without it): every command shares one file, as before.
  }
  return 'program.v8cache';
}
