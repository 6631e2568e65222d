#!/usr/bin/env node
// Writes man/*.1 and completion/* from the command list and the commands' files, as built (run `npm run build` first).
// The output is committed; test/man-and-completion.test.ts fails when it is out of date.
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PassThrough } from 'node:stream';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { buildProgram } = await import(join(root, 'dist/cli.js'));
const { loadCommands } = await import(join(root, 'dist/commands/list.js'));
const { suiteModel } = await import(join(root, 'dist/cli/command-model.js'));
const { renderManPages } = await import(join(root, 'dist/cli/man-pages.js'));
const { bashCompletion, zshCompletion } = await import(join(root, 'dist/cli/completion-scripts.js'));
const { BINARIES } = await import(join(root, 'dist/commands/completion.js'));
const { SUITE_VERSION } = await import(join(root, 'dist/core/version.js'));

const io = { stdout: new PassThrough(), stderr: new PassThrough(), stdin: new PassThrough(), env: {} };
const commands = await loadCommands();
const suite = suiteModel(buildProgram(io, { code: 0 }, commands), commands);

const manDir = join(root, 'man');
mkdirSync(manDir, { recursive: true });
for (const file of readdirSync(manDir)) if (file.endsWith('.1')) rmSync(join(manDir, file));
const pages = renderManPages(suite, SUITE_VERSION);
for (const [file, text] of pages) writeFileSync(join(manDir, file), text);

const completionDir = join(root, 'completion');
mkdirSync(completionDir, { recursive: true });
writeFileSync(join(completionDir, 'docs-unified-search.bash'), bashCompletion(suite, BINARIES));
writeFileSync(join(completionDir, '_docs-unified-search'), zshCompletion(suite, BINARIES));
console.log(`wrote ${pages.size} man pages and 2 completion scripts`);
console.log(JSON.stringify([...pages.keys()].sort().map((file) => `man/${file}`)));
