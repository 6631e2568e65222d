import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** What one run of `node <args>` loaded and how it ended. */
export interface LoadedRun {
  /** URLs of every module loaded (files, and Node's public builtins as `node:…`, however they were reached). */
  readonly urls: readonly string[];
  readonly status: number | null;
  readonly stderr: string;
}

/** Writes the module load hook into `scratch`: its path, and the file it records to. */
function recordingHook(scratch: string): { hook: string; out: string } {
  const hook = join(scratch, 'record-modules.mjs');
  const out = join(scratch, 'modules.txt');
  writeFileSync(
    hook,
    [
      "import { registerHooks } from 'node:module';",
      "import { writeFileSync } from 'node:fs';",
      'const loaded = new Set();',
      'registerHooks({ load(url, context, next) { loaded.add(url); return next(url, context); } });',
      // Builtins reached by require() or process.getBuiltinModule() pass no hook: Node lists every one it loaded.
      'const builtins = () => process.moduleLoadList.flatMap((entry) => /^NativeModule (?!internal\\/)(.+)$/.exec(entry)?.slice(1).map((id) => `node:${id}`) ?? []);',
      `process.on('exit', () => writeFileSync(${JSON.stringify(out)}, [...new Set([...loaded, ...builtins()])].join('\\n')));`,
    ].join('\n'),
  );
  return { hook, out };
}

function recorded(out: string): string[] {
  return readFileSync(out, 'utf8')
    .split('\n')
    .filter((url) => url !== '');
}

/** Runs `node <args>` with a module load hook that records every module (scratch: a directory for the hook and its record; env: the child's environment). */
export function runRecordingModules(args: readonly string[], scratch: string, env: NodeJS.ProcessEnv = process.env): LoadedRun {
  const { hook, out } = recordingHook(scratch);
  const run = spawnSync(process.execPath, ['--no-warnings', '--import', hook, ...args], { encoding: 'utf8', env });
  return { urls: recorded(out), status: run.status, stderr: run.stderr };
}

/** The same without blocking this process: for runs that talk to a server this process serves (the archive emulator). */
export async function recordModules(args: readonly string[], scratch: string, env: NodeJS.ProcessEnv = process.env): Promise<LoadedRun> {
  const { hook, out } = recordingHook(scratch);
  const child = spawn(process.execPath, ['--no-warnings', '--import', hook, ...args], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => {
    stderr += chunk;
  });
  const status = await new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return { urls: recorded(out), status, stderr };
}

/** The npm packages among loaded module URLs. */
export function packagesOf(urls: readonly string[]): Set<string> {
  return new Set(urls.flatMap((url) => /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)?.[1] ?? []));
}
