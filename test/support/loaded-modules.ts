import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** What one run of `node <args>` loaded and how it ended. */
export interface LoadedRun {
  /** URLs of every module loaded (files, and Node's public builtins as `node:…`, however they were reached). */
  readonly urls: readonly string[];
  readonly status: number | null;
  readonly stderr: string;
}

/** Runs `node <args>` with a module load hook that records every module (scratch: a directory for the hook and its record; env: the child's environment). */
export function runRecordingModules(args: readonly string[], scratch: string, env: NodeJS.ProcessEnv = process.env): LoadedRun {
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
  const run = spawnSync(process.execPath, ['--no-warnings', '--import', hook, ...args], { encoding: 'utf8', env });
  return {
    urls: readFileSync(out, 'utf8')
      .split('\n')
      .filter((url) => url !== ''),
    status: run.status,
    stderr: run.stderr,
  };
}

/** The npm packages among loaded module URLs. */
export function packagesOf(urls: readonly string[]): Set<string> {
  return new Set(urls.flatMap((url) => /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)?.[1] ?? []));
}
