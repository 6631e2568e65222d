import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';

const HARNESS = join(import.meta.dirname, 'harness.php');

/** Whether `php` is on PATH (Debian's php-cli); the tests that need it skip without. */
export const phpMissing = spawnSync('sh', ['-c', 'command -v php']).status !== 0;

/**
 * Runs PHP against the bridge app's classes outside Nextcloud (harness.php: OCP's shapes, the
 * `Fake` service, session, clock and URL generator) and returns what it printed, parsed as JSON.
 */
export function runAppPhp(code: string): unknown {
  const run = spawnSync('php', ['-d', 'display_errors=stderr', HARNESS], { input: code, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (run.status !== 0) throw new Error(`php failed (${run.status ?? run.signal}): ${run.stderr}${run.stdout}`);
  return JSON.parse(run.stdout) as unknown;
}

/**
 * runAppPhp without blocking this process: for PHP that calls servers this test process runs
 * (`Fake::httpBridge()`), which could not answer while a synchronous child holds the event loop.
 */
export async function runAppPhpAsync(code: string): Promise<unknown> {
  const child = spawn('php', ['-d', 'display_errors=stderr', HARNESS], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  child.stdin.end(code);
  const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
  if (status !== 0) throw new Error(`php failed (${status ?? 'signal'}): ${stderr}${stdout}`);
  return JSON.parse(stdout) as unknown;
}
