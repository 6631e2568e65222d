/**
 * The young generation held during a marker-index build and `serve`'s start-up
 * (src/core/young-generation.ts):
 * V8 does not grow it while the hold lasts, grows it again as usual after, and leaves an
 * operator's own growth factor alone. Each case runs in a fresh process (the built module, as
 * `serve` runs it): jest's own process has long grown its young generation to the maximum.
 */
import { describe, expect, test } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const BUILT = pathToFileURL(resolve('dist/core/young-generation.js')).href;

// Work like a build's: short-lived objects, with the last few thousand alive at every
// scavenge (a driver's buffers, the rows of one read), yielding to the event loop between
// batches. Prints the young generation's size before, after the held run and after a free one.
const SCRIPT = [
  `import { getHeapSpaceStatistics } from 'node:v8';`,
  `import { holdingYoungGeneration } from ${JSON.stringify(BUILT)};`,
  `const young = () => getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.space_size ?? -1;`,
  `async function churn() {`,
  `  const alive = new Array(4096);`,
  `  for (let i = 0; i < 200000; i += 1) {`,
  `    alive[i % alive.length] = { i, text: ('row ' + i).repeat(8) };`,
  `    if (i % 1000 === 0) await new Promise((done) => setImmediate(done));`,
  `  }`,
  `}`,
  `const before = young();`,
  `let inside = -1;`,
  `await holdingYoungGeneration(async () => { await holdingYoungGeneration(churn); await churn(); inside = young(); });`,
  `const held = young();`,
  `await churn();`,
  `console.log(JSON.stringify({ before, inside, held, after: young() }));`,
].join('\n');

interface Sizes {
  readonly before: number;
  readonly inside: number;
  readonly held: number;
  readonly after: number;
}

function run(nodeFlags: readonly string[]): Sizes {
  const child = spawnSync(process.execPath, [...nodeFlags, '--input-type=module', '-e', SCRIPT], { encoding: 'utf8' });
  expect(child.stderr).toBe('');
  expect(child.status).toBe(0);
  return JSON.parse(child.stdout) as Sizes;
}

const MiB = 1024 * 1024;

describe('young generation during a build', () => {
  test('held while the work runs (nested holds too), grown again by the same work after', () => {
    const sizes = run([]);
    // Held, V8 still rounds its first size up once (1 → 2 MiB here) and, under load, may count a
    // page or two it keeps while a scavenge runs (3.25 MiB in a CI run, 2.75 MiB here beside three
    // busy processes); it never doubles it as it does freely, where the same work ends at 16 MiB
    // (`after` below).
    expect(sizes.inside).toBeLessThan(Math.max(4 * sizes.before, 4 * MiB));
    expect(sizes.held).toBe(sizes.inside);
    expect(sizes.after).toBeGreaterThanOrEqual(4 * sizes.held);
  });

  test("an operator's own growth factor is left alone", () => {
    const sizes = run(['--semi-space-growth-factor=4']);
    expect(sizes.inside).toBeGreaterThanOrEqual(8 * sizes.before);
  });
});
