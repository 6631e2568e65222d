#!/usr/bin/env node
// Writes dist/help.txt: the command list as `--help` prints it at 80 columns (help is never
// wider), which bin/ prints for a bare `--help` without loading the suite. Run by `npm run build`;
// test/cli-process-edges.test.ts fails when it differs from what the program prints.
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
