import { expect, test } from '@jest/globals';
import { PassThrough } from 'node:stream';
import { DEMO_TOKEN, demoSucceeded, KEEP_HINT, RERUN_PREFIX, runDemo } from '../demo/demo.js';

function collect(): { stream: PassThrough; text: () => string } {
  const stream = new PassThrough();
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
}

test('the demo runs every step successfully, prints the commands to rerun, and never shows the token', async () => {
  const out = collect();
  const err = collect();
  const steps = await runDemo({ out: out.stream, err: err.stream });
  expect(steps.map((step) => step.code)).toEqual([0, 0, 0, 0, 0, 0, 0]);
  expect(demoSucceeded(steps)).toBe(true);
  const text = out.text();
  for (const command of ['setup', 'test', 'search alice invoice --explain', 'search bob invoice --explain', 'why alice 25', 'check', 'setupchecks']) {
    expect(text).toContain(` ${command}`);
  }
  for (const verdict of ['shown', 'not shared', 'not owned', 'no file']) expect(text).toMatch(new RegExp(`│ ${verdict} +│`));
  // carol's copy of [P25], shared with alice, is no file of the archive account.
  expect(text).toContain('Document 25 for alice: not owned.');
  expect(text).toContain(`echo "$DEMO_TOKEN" | ${RERUN_PREFIX} --config-dir `);
  // Every printed command runs from the checkout (npx finds its executable), and the end says how to keep the world.
  const printed = text.split('\n').filter((line) => line.startsWith('$ '));
  expect(printed).toHaveLength(7);
  for (const line of printed) expect(line).toMatch(/^\$ (echo "\$DEMO_TOKEN" \| )?npx docs-unified-search --config-dir /);
  expect(text.trimEnd().endsWith(KEEP_HINT)).toBe(true);
  expect(KEEP_HINT).toContain('npm run demo -- --keep');
  expect(text).not.toContain(DEMO_TOKEN);
  expect(err.text()).not.toContain(DEMO_TOKEN);
});
