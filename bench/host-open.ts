/**
 * Opening a host given as a Nextcloud directory (`--nextcloud DIR`) in a fresh process, with
 * `php` installed: reading config.php (and its overlays), connecting to the SQLite database and
 * checking its schema. Target: ≤ 25 ms for a config.php as the installer writes it (plain
 * values: parsed, `php` never started). Also printed, without a target: an overlay calling
 * `getenv()`, which only PHP can evaluate (the probe and one evaluation), and the same open
 * given `--host-db` (no config to read) as the floor.
 * Each case runs in its own child process (modules loaded cold, as a one-shot command meets
 * them), `BENCH_RUNS` (default 11) times, interleaved; medians printed.
 *
 *   npm run build && npm run build:tools && node_modules/.bin/node dist-tools/bench/host-open.js
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createHostFixture } from '../test/support/host-fixtures/index.js';

const RUNS = Math.max(3, Number(process.env.BENCH_RUNS ?? 11));
const TARGET_MS = 25;
const openHostUrl = pathToFileURL(join(import.meta.dirname, '..', 'src', 'core', 'host', 'open-host.js')).href;
const configPhpUrl = pathToFileURL(join(import.meta.dirname, '..', 'src', 'core', 'host', 'config-php.js')).href;

function phpInstalled(): boolean {
  try {
    execFileSync('php', ['-r', 'echo 1;'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** One fresh process: imports the adapter, then times openHost + close; prints ms and php starts. */
function openOnce(location: Record<string, string>): { readonly ms: number; readonly phpStarts: number } {
  const script = [
    `const { openHost } = await import(${JSON.stringify(openHostUrl)});`,
    `const { phpStartCount } = await import(${JSON.stringify(configPhpUrl)});`,
    'const started = performance.now();',
    `const host = await openHost(${JSON.stringify(location)});`,
    'const ms = performance.now() - started;',
    'await host.close();',
    'console.log(JSON.stringify({ ms, phpStarts: phpStartCount() }));',
  ].join('\n');
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`open failed: ${run.stderr}`);
  return JSON.parse(run.stdout.trim()) as { ms: number; phpStarts: number };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

const fixture = await createHostFixture('sqlite');
const scratch = mkdtempSync(join(tmpdir(), 'dus-bench-open-'));
try {
  await fixture.addUser('archive');
  const plain = join(scratch, 'plain');
  await fixture.writeNextcloudDir(plain);
  const overlay = join(scratch, 'overlay');
  await fixture.writeNextcloudDir(overlay);
  writeFileSync(
    join(overlay, 'config', 'env.config.php'),
    "<?php\n$CONFIG = array ( 'overwrite.cli.url' => getenv('DUS_BENCH_URL') ?: 'http://localhost:8080' );\n",
  );

  const cases: Record<string, Record<string, string>> = {
    '--host-db URL (floor)': { dbUrl: fixture.dbUrl },
    'config.php, plain values': { nextcloudDir: plain },
    'config.php + getenv() overlay': { nextcloudDir: overlay },
  };
  const php = phpInstalled();
  const samples = new Map<string, number[]>(Object.keys(cases).map((name) => [name, []]));
  const starts = new Map<string, number>();
  for (let run = 0; run < RUNS; run += 1) {
    for (const [name, location] of Object.entries(cases)) {
      if (name.includes('getenv') && !php) continue;
      const once = openOnce(location);
      samples.get(name)?.push(once.ms);
      starts.set(name, once.phpStarts);
    }
  }
  console.log(
    `Node ${process.versions.node}, ${RUNS} runs each, php ${php ? 'installed' : 'NOT installed'}; load average ${loadavg()
      .map((n) => n.toFixed(1))
      .join(' ')} on ${cpus().length} cores`,
  );
  console.log('case                               median ms  php starts  target');
  for (const [name, values] of samples) {
    if (values.length === 0) {
      console.log(`${name.padEnd(34)} skipped: php is not installed`);
      continue;
    }
    const ms = median(values);
    const target = name.includes('plain') ? `≤ ${TARGET_MS}: ${ms <= TARGET_MS ? 'met' : 'MISSED'}` : '';
    console.log(`${name.padEnd(34)} ${ms.toFixed(1).padStart(9)}  ${String(starts.get(name) ?? 0).padStart(10)}  ${target}`);
  }
} finally {
  await fixture.drop();
  rmSync(scratch, { recursive: true, force: true });
}
