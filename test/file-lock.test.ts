/**
 * The settings lock across processes: one holder at a time, also when several processes find
 * the lock of a process that died and break it at once (each of them must not remove the lock
 * another one has just taken). Children run the built module (dist/), as the CLI's processes do.
 */
import { afterAll, describe, expect, test } from '@jest/globals';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';
import { withFileLock } from '../src/core/settings/file-lock.js';

const BUILT = resolve('dist/core/settings/file-lock.js');
const scratch = mkdtempSync(join(tmpdir(), 'dus-lock-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A pid that surely runs no process: one that has just exited. */
function deadPid(): number {
  const run = spawnSync(process.execPath, ['-p', 'process.pid'], { encoding: 'utf8' });
  return Number(run.stdout.trim());
}

/**
 * Starts `count` processes that, once all of them run (a start line: each says it is ready,
 * then waits for the go), each take the lock, note entering and leaving in `journal`, and hold
 * it 15 ms. Resolves to their exit codes.
 */
async function contenders(count: number, lock: string, journal: string): Promise<number[]> {
  const go = `${journal}.go`;
  const script = [
    `import { appendFileSync, existsSync } from 'node:fs';`,
    `import { withFileLock } from ${JSON.stringify(pathToFileURL(BUILT).href)};`,
    `const wait = new Int32Array(new SharedArrayBuffer(4));`,
    `appendFileSync(${JSON.stringify(`${journal}.ready`)}, 'ready\\n');`,
    `while (!existsSync(${JSON.stringify(go)})) Atomics.wait(wait, 0, 0, 1);`,
    `withFileLock(${JSON.stringify(lock)}, { timeoutMs: 30000, retryMs: 1 }, () => {`,
    `  appendFileSync(${JSON.stringify(journal)}, 'in ' + process.pid + '\\n');`,
    `  Atomics.wait(wait, 0, 0, 15);`,
    `  appendFileSync(${JSON.stringify(journal)}, 'out ' + process.pid + '\\n');`,
    `});`,
  ].join('\n');
  const exits = Array.from(
    { length: count },
    () =>
      new Promise<number>((done) => spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: 'ignore' }).on('exit', (code) => done(code ?? -1))),
  );
  const ready = (): number => (existsSync(`${journal}.ready`) ? readFileSync(`${journal}.ready`, 'utf8').split('\n').length - 1 : 0);
  while (ready() < count) await sleep(5);
  writeFileSync(go, '');
  return Promise.all(exits);
}

/** The journal's entries, checked to be in/out pairs of one process each, never two inside. */
function holders(journal: string): string[] {
  const lines = readFileSync(journal, 'utf8').trim().split('\n');
  const pairs: string[] = [];
  for (let i = 0; i < lines.length; i += 2) {
    expect([lines[i], lines[i + 1]?.replace(/^out/, 'in')]).toEqual([lines[i], lines[i]]);
    pairs.push(lines[i] ?? '');
  }
  return pairs;
}

describe('the settings lock between processes', () => {
  const built = existsSync(BUILT);
  if (!built) console.log('SKIP the lock between processes: dist/ is missing (run npm run build)');

  (built ? test : test.skip)(
    'eight processes that all find a dead owner’s lock: one holder at a time, each gets its turn, the lock is gone after',
    async () => {
      for (let round = 0; round < 4; round += 1) {
        const lock = join(scratch, `round-${round}.lock`);
        const journal = join(scratch, `round-${round}.journal`);
        writeFileSync(lock, String(deadPid()), { mode: 0o600 });
        expect(await contenders(8, lock, journal)).toEqual(Array.from({ length: 8 }, () => 0));
        expect(new Set(holders(journal)).size).toBe(8);
        expect(existsSync(lock)).toBe(false);
        expect(existsSync(`${lock}.break`)).toBe(false);
      }
    },
  );

  test('a live owner’s lock is waited for, then given up with a coded message; a dead owner’s is broken', () => {
    const lock = join(scratch, 'live.lock');
    writeFileSync(lock, String(process.ppid), { mode: 0o600 }); // jest's parent: alive, and not this process
    expect(() => withFileLock(lock, { timeoutMs: 50, retryMs: 5 }, () => 'taken')).toThrow(
      /^The settings are locked by another process \(.*live\.lock\); try again, or remove that file if no docs-unified-search process runs\.$/,
    );
    expect(readFileSync(lock, 'utf8')).toBe(String(process.ppid));
    writeFileSync(lock, String(deadPid()));
    expect(withFileLock(lock, { timeoutMs: 50 }, () => readFileSync(lock, 'utf8'))).toBe(String(process.pid));
    expect(existsSync(lock)).toBe(false);
  });

  test('a break guard left by a breaker that died is removed once old; a fresh one is waited for', () => {
    const lock = join(scratch, 'guarded.lock');
    const guard = `${lock}.break`;
    writeFileSync(lock, String(deadPid()));
    writeFileSync(guard, String(deadPid()));
    // Fresh: someone is breaking the lock right now; this process waits, and gives up at its deadline.
    expect(() => withFileLock(lock, { timeoutMs: 50, retryMs: 5 }, () => 'taken')).toThrow(/locked by another process/);
    const old = (Date.now() - 60_000) / 1000;
    utimesSync(guard, old, old);
    expect(withFileLock(lock, { timeoutMs: 1000, retryMs: 5 }, () => 'taken')).toBe('taken');
    expect(existsSync(guard)).toBe(false);
  });
});
