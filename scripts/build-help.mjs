#!/usr/bin/env node
// Writes dist/help.txt: the command list as `--help` prints it at 80 columns (help is never
// wider), which bin/ prints for a bare `--help` without loading the suite. Run by `npm run build`;
// test/cli-process-edges.test.ts fails when it differs from what the program prints.
// Writes dist/commands.json too, from the command list (src/commands/list.ts): every command name
// and alias mapped to the one word bin/ names that command's code cache by (program.<word>.v8cache),
// and the global options that come before a command's name, so bin/ finds the command as the
// list's commandOfArgv does, without loading the program.
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { main } = await import(join(root, 'dist/cli.js'));
const stdout = new PassThrough();
const chunks = [];
stdout.on('data', (chunk) => chunks.push(chunk));
const io = { stdout, stderr: new PassThrough(), stdin: new PassThrough(), env: {} };
const code = await main(['--help'], io);
if (code !== 0) throw new Error(`--help exited ${code}`);
writeFileSync(join(root, 'dist', 'help.txt'), Buffer.concat(chunks));

const { COMMAND_LIST } = await import(join(root, 'dist/commands/list.js'));
const { FLAG_GLOBALS, VALUED_GLOBALS } = await import(join(root, 'dist/cli/global-options.js'));
const { pageName } = await import(join(root, 'dist/cli/command-model.js'));
const cacheWords = {};
for (const entry of COMMAND_LIST) {
  // The man page's and the command file's word: `docs_unified_search:why` → `why`, `config:app:get` → `config-app-get`.
  const word = pageName(entry);
  if (!/^[a-z][a-z0-9-]*$/.test(word)) throw new Error(`command ${entry.name}: no file-name word`);
  for (const name of [entry.name, ...entry.aliases]) cacheWords[name] = word;
}
writeFileSync(join(root, 'dist', 'commands.json'), `${JSON.stringify({ words: cacheWords, valued: VALUED_GLOBALS, flags: FLAG_GLOBALS })}\n`);
