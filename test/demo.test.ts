import { expect, test } from '@jest/globals';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { DEMO_ADMIN, DEMO_SERVE, DEMO_TOKEN, demoSucceeded, KEEP_HINT, KEPT_HINT, RERUN_PREFIX, runDemo } from '../demo/demo.js';

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
  expect(text).toContain(`Administrator login (serve's admin page and provider routes): ${DEMO_ADMIN.user}, password ${DEMO_ADMIN.password}`);
  expect(readFileSync(join(import.meta.dirname, '..', 'README.md'), 'utf8')).toContain(`**\`${DEMO_ADMIN.user}\`, password\n\`${DEMO_ADMIN.password}\`**`);
  expect(KEEP_HINT).toContain('npm run demo -- --keep');
  expect(text).not.toContain(DEMO_TOKEN);
  expect(err.text()).not.toContain(DEMO_TOKEN);
});

/** Runs a line as a user's shell does, from the checkout, with `env` added to the environment. */
function shell(line: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', line], { cwd: join(import.meta.dirname, '..'), env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out }));
  });
}

test('kept (npm run demo -- --keep), the printed commands rerun as printed from another shell, setup too once DEMO_TOKEN is set as the end says', async () => {
  const out = collect();
  const err = collect();
  let end: () => void = () => undefined;
  const until = new Promise<void>((resolve) => (end = resolve));
  const demo = runDemo({ out: out.stream, err: err.stream, keep: true, until });
  try {
    while (!out.text().includes(KEPT_HINT)) await new Promise((resolve) => setTimeout(resolve, 100));
    // The end prints the line to paste with the value itself (the emulator's demo token), not a placeholder; the commands never show it.
    expect(readFileSync(join(import.meta.dirname, '..', 'demo', 'demo.ts'), 'utf8')).toContain(`DEMO_TOKEN = '${DEMO_TOKEN}'`);
    const exportLine = out
      .text()
      .split('\n')
      .find((line) => line.trimStart().startsWith('export DEMO_TOKEN='));
    expect(exportLine).toBe(`  export DEMO_TOKEN=${DEMO_TOKEN}   # the emulator's token, a demo value`);
    expect(
      out
        .text()
        .split('\n')
        .filter((line) => line.includes(DEMO_TOKEN)),
    ).toEqual([exportLine]);
    const printed = out
      .text()
      .split('\n')
      .filter((line) => line.startsWith('$ '))
      .map((line) => line.slice(2));
    const setup = printed.find((line) => line.includes(' setup '));
    const why = printed.find((line) => line.includes(' why '));
    expect(setup).toBeDefined();
    const rerun = await shell(`${exportLine ?? ''}\n${setup ?? ''}`, {});
    expect({ code: rerun.code, saved: rerun.out.includes('Saved.') }).toEqual({ code: 0, saved: true });
    const withoutToken = await shell(setup ?? '', { DEMO_TOKEN: '' });
    expect(withoutToken.code).toBe(2);
    const asked = await shell(why ?? '', {});
    expect({ code: asked.code, said: asked.out.includes('Document 25 for alice: not owned.') }).toEqual({ code: 0, said: true });
    // The printed serve, on a free port here, lets the demo's administrator in (and no one without the password).
    const serveLine =
      out
        .text()
        .split('\n')
        .find((line) => line.includes(' serve --listen '))
        ?.trim() ?? '';
    expect(serveLine).toMatch(new RegExp(`^${RERUN_PREFIX} --config-dir \\S+ serve --listen ${DEMO_SERVE}$`));
    expect(out.text()).toContain(`log in as ${DEMO_ADMIN.user}, password ${DEMO_ADMIN.password}`);
    const serve = spawn(
      process.execPath,
      [join(import.meta.dirname, '..', 'bin', 'docs-unified-search.cjs'), ...serveLine.split(' ').slice(2, -1), '127.0.0.1:0'],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    try {
      const address = await new Promise<string>((resolve, reject) => {
        let said = '';
        serve.stdout.on('data', (chunk: Buffer) => {
          said += chunk.toString();
          const found = /Listening on (http:\/\/\S+)/.exec(said)?.[1];
          if (found !== undefined) resolve(found);
        });
        serve.on('close', () => reject(new Error(`serve ended: ${said}`)));
      });
      const login = (password: string): Promise<Response> =>
        fetch(`${address}/login`, { method: 'POST', body: new URLSearchParams({ user: DEMO_ADMIN.user, password }), redirect: 'manual' });
      const admitted = await login(DEMO_ADMIN.password);
      expect(admitted.status).toBe(303);
      const cookie = (admitted.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
      const page = await fetch(`${address}/settings/admin/docs_unified_search`, { headers: { cookie }, redirect: 'manual' });
      expect(page.status).toBe(200);
      const basic = `Basic ${Buffer.from(`${DEMO_ADMIN.user}:${DEMO_ADMIN.password}`).toString('base64')}`;
      expect((await fetch(`${address}/apps/docs_unified_search/settings`, { headers: { authorization: basic } })).status).toBe(200);
      expect((await login('nope')).status).toBe(401);
    } finally {
      serve.kill('SIGTERM');
    }
  } finally {
    end();
    await demo;
  }
  const gone = /Demo ended: the archive emulator stopped, the sample Nextcloud database and (\S+) are deleted\.\n$/.exec(out.text());
  expect(gone).not.toBeNull();
  expect(existsSync(gone?.[1] ?? '/')).toBe(false);
  // Three `npx` runs (npm itself starts first): slow on a loaded machine.
}, 300_000);
