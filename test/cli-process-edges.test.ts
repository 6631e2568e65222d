import { describe, expect, test } from '@jest/globals';
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../src/cli.js';
import { SUITE_VERSION } from '../src/core/version.js';
import { captureIO } from './support/capture-io.js';

/** The installed executable as a shell runs it: bin/ over the built suite (`npm run build` first). */
const root = join(import.meta.dirname, '..');
const bin = join(root, 'bin', 'docs-unified-search.cjs');
const built = existsSync(join(root, 'dist', 'cli.js'));
if (!built) console.log('SKIP executable edges: dist/ is missing (run npm run build)');
const whenBuilt = built ? test : test.skip;

/** Runs the executable with a stdout whose reader has gone before the first byte is written. */
function runWithClosedStdout(args: readonly string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

describe('a reader that closes the pipe early (dus search --help | head -1)', () => {
  whenBuilt.each([[['search', '--help']], [['--help']], [['completion', 'bash']]])('%j ends quietly with exit 0', async (args) => {
    const { code, stderr } = await runWithClosedStdout(args);
    expect(stderr).toBe('');
    expect(code).toBe(0);
  });
});

/**
 * A slow reader on a small non-blocking pipe: the program's output then waits in Node's stream
 * (src/cli/process-output.ts), and bin/ ends the process only once nothing is left to run
 * ('beforeExit'), so the waiting output is all delivered. Python makes the pipe: Node cannot set
 * a pipe's size.
 */
const python = spawnSync('python3', ['-c', 'import fcntl'], { stdio: 'ignore' }).status === 0;
if (!python) console.log('SKIP the slow non-blocking pipe: python3 is missing');
const SLOW_PIPE = [
  'import fcntl, os, subprocess, sys, time',
  'r, w = os.pipe()',
  'fcntl.fcntl(w, 1031, 4096)  # F_SETPIPE_SZ: one page',
  'fcntl.fcntl(w, fcntl.F_SETFL, fcntl.fcntl(w, fcntl.F_GETFL) | os.O_NONBLOCK)',
  'child = subprocess.Popen(sys.argv[1:], stdout=w)',
  'os.close(w)',
  'time.sleep(0.3)',
  'data = bytearray()',
  'while True:',
  '    chunk = os.read(r, 512)',
  '    if not chunk: break',
  '    data += chunk',
  '    time.sleep(0.002)',
  'sys.stdout.buffer.write(data)',
  'sys.exit(child.wait())',
].join('\n');

describe('output that waits for a slow reader', () => {
  (built && python ? test : test.skip)('is all delivered, in order, before the process ends', () => {
    const expected = spawnSync(process.execPath, [bin, 'completion', 'zsh'], { encoding: 'utf8' });
    expect(expected.status).toBe(0);
    expect(expected.stdout.length).toBeGreaterThan(2 * 4096);
    const slow = spawnSync('python3', ['-c', SLOW_PIPE, process.execPath, bin, 'completion', 'zsh'], { encoding: 'utf8' });
    expect(slow.stderr).toBe('');
    expect(slow.status).toBe(0);
    expect(slow.stdout).toBe(expected.stdout);
  });
});

describe('--help answered by bin/ from the command list written at build time', () => {
  whenBuilt('dist/help.txt and bin/ --help, -h and help print exactly what the program prints', async () => {
    const io = captureIO();
    expect(await main(['--help'], io)).toBe(0);
    expect(readFileSync(join(root, 'dist', 'help.txt'), 'utf8')).toBe(io.out());
    for (const args of [['--help'], ['-h'], ['help']]) {
      const run = spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8' });
      expect(run.status).toBe(0);
      expect(run.stderr).toBe('');
      expect(run.stdout).toBe(io.out());
    }
  });
});

/** Every `node` on PATH older than the suite needs, with its version (this machine has Node 20 in /usr/bin). */
function oldNodes(): { path: string; version: string }[] {
  const found = spawnSync('which', ['-a', 'node'], { encoding: 'utf8' })
    .stdout.split('\n')
    .filter((line) => line !== '');
  return [...new Set(found)].flatMap((path) => {
    const version = spawnSync(path, ['-p', 'process.versions.node'], { encoding: 'utf8' }).stdout.trim();
    const [major = 0, minor = 0] = version.split('.').map(Number);
    return major < 22 || (major === 22 && minor < 13) ? [{ path, version }] : [];
  });
}

describe('Node version check', () => {
  const old = oldNodes()[0];
  if (old === undefined) console.log('SKIP the old-Node check: no node older than 22.13 on PATH');
  (old === undefined ? test.skip : test)(
    'a Node older than 22.13, where no newer one was installed beside the executable, gets one coded line naming what is needed, exit 1',
    () => {
      // The executable alone, outside a checkout: no node_modules/.bin/node to hand over to.
      const alone = join(mkdtempSync(join(tmpdir(), 'dus-bin-')), 'bin');
      mkdirSync(alone);
      copyFileSync(bin, join(alone, 'docs-unified-search.cjs'));
      const run = spawnSync(old?.path ?? 'node', [join(alone, 'docs-unified-search.cjs'), 'why', 'anna', '412'], { encoding: 'utf8' });
      expect(run.status).toBe(1);
      expect(run.stdout).toBe('');
      expect(run.stderr).toBe(
        `Error [usage]: docs-unified-search needs Node.js 22.13 or later (for node:sqlite); this is Node.js ${old?.version ?? ''} at ${old?.path ?? ''}. Install a current Node.js LTS and run it again.\n`,
      );
    },
  );

  const ownNode = existsSync(join(root, 'node_modules', '.bin', 'node'));
  if (old !== undefined && !ownNode) console.log("SKIP the hand-over to the checkout's Node: node_modules/.bin/node is missing");
  (old === undefined || !ownNode || !built ? test.skip : test)(
    'in a checkout, an older Node hands the run over to the Node npm ci installed: same output, exit code and signal',
    async () => {
      const io = captureIO();
      expect(await main(['help', 'environment'], io)).toBe(0);
      const helped = spawnSync(old?.path ?? 'node', [bin, 'help', 'environment'], { encoding: 'utf8' });
      expect({ status: helped.status, stderr: helped.stderr, stdout: helped.stdout }).toEqual({ status: 0, stderr: '', stdout: io.out() });
      const wrong = spawnSync(old?.path ?? 'node', [bin, 'why', 'anna', 'abc'], { encoding: 'utf8' });
      expect(wrong.status).toBe(2);
      expect(wrong.stderr).toMatch(/^Error \[usage\]: Give the document id/);
      expect(wrong.stderr).not.toContain('needs Node.js');
      // A run that waits (setup reading its token from a pipe that stays open) ends by the signal the old Node was given.
      const dir = mkdtempSync(join(tmpdir(), 'dus-handover-'));
      const child = spawn(
        old?.path ?? 'node',
        [bin, '--config-dir', dir, '--host-db', `sqlite://${join(dir, 'none.db')}`, 'setup', '--url', 'http://127.0.0.1:9', '--token-stdin'],
        { stdio: ['pipe', 'ignore', 'ignore'] },
      );
      const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
        child.on('exit', (code, signal) => resolve({ code, signal })),
      );
      await new Promise((resolve) => setTimeout(resolve, 1500));
      child.kill('SIGTERM');
      expect(await ended).toEqual({ code: null, signal: 'SIGTERM' });
      child.stdin.destroy();
    },
  );

  whenBuilt('the Node the suite runs on passes the check; --version, answered by bin/ itself, says what the program says', async () => {
    const run = spawnSync(process.execPath, [bin, '--version'], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const io = captureIO();
    expect(await main(['--version'], io)).toBe(0);
    expect(run.stdout).toBe(io.out());
    expect(run.stdout).toBe(`${SUITE_VERSION}\n`);
  });
});
