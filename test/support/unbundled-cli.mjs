// The program as tsc leaves it in dist/, one module a file, before scripts/build-bundle.mjs makes
// it the one file bin/ loads: what a run loads is counted here module by module. The bundle keeps
// the same laziness: a module that dist/ reaches through import() runs when that import() runs.
const { main } = await import('../../dist/cli.js');
process.exitCode = await main(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env });
