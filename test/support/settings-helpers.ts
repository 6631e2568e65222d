import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { main } from '../../src/cli.js';
import { captureIO } from './capture-io.js';

/** Every byte under a directory as one text, for proving that a secret is nowhere in clear. */
export function everyFileUnder(dir: string): string {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((name) => join(dir, name))
    .filter((path) => statSync(path).isFile())
    .map((path) => readFileSync(path, 'latin1'))
    .join('\n');
}

/**
 * The first lines of a child-process script that imports the TypeScript sources: the
 * sources name their imports `.js`, which the child finds as `.ts`.
 */
export const TS_IMPORT_PRELUDE = `
import { registerHooks } from 'node:module';
registerHooks({
  resolve(specifier, context, next) {
    try { return next(specifier, context); }
    catch (error) {
      if (specifier.startsWith('.') && specifier.endsWith('.js')) return next(specifier.slice(0, -3) + '.ts', context);
      throw error;
    }
  },
});
`;

/** Runs a script in a separate Node process (the project's Node 24) and gives its exit code and stderr. */
export function runNodeScript(script: string, args: readonly string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, ['--no-warnings', '--experimental-transform-types', script, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (code) => done({ code, stderr }));
  });
}

export interface CliRun {
  readonly code: number;
  readonly out: string;
  readonly err: string;
}

/** Runs the suite in-process with `--config-dir dir`, an environment of its own and optional stdin. */
export async function runCli(dir: string, args: readonly string[], options: { stdin?: string; env?: NodeJS.ProcessEnv } = {}): Promise<CliRun> {
  const io = captureIO({ ...(options.stdin === undefined ? {} : { stdin: options.stdin }), env: options.env ?? {} });
  const code = await main(['--config-dir', dir, ...args], io);
  return { code, out: io.out(), err: io.err() };
}

/** The settings file of a config directory as plain JSON; empty when there is none. */
export function settingsOf(dir: string): Record<string, unknown> {
  const path = join(dir, 'settings.json');
  return existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>) : {};
}
