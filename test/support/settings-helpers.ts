import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

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
