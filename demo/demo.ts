/**
 * `npm run demo`: the whole main job on one machine. An archive-server emulator with sample
 * documents, a sample Nextcloud SQLite database, then the real CLI: setup (token on stdin),
 * test, search --explain as two users, why for one document, check, setupchecks. Prints each command so that it
 * can be rerun (`--keep` keeps the emulator running for that).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { main } from '../src/cli.js';
import type { CommandIO } from '../src/cli/types.js';
import { sampleArchive, startArchiveEmulator, type ArchiveEmulator } from '../test/support/archive-emulator/index.js';
import { createHostFixture, type HostFixture } from '../test/support/host-fixtures/index.js';

export const DEMO_TOKEN = 'demo-token-0123456789abcdef';
const ARCHIVE_ACCOUNT = 'archive';
/**
 * The demo's administrator: in the host's admin group, with a password serve accepts, so that
 * the admin page and the provider routes can be tried locally (a demo login, documented and printed).
 */
export const DEMO_ADMIN = { user: 'admin', password: 'demo-admin-password' } as const;
/** Where the serve the kept demo suggests listens. */
export const DEMO_SERVE = '127.0.0.1:8080';
const HOST_URL = 'https://cloud.example.com';

export interface DemoOptions {
  readonly out: NodeJS.WritableStream;
  readonly err: NodeJS.WritableStream;
  /** Keep the emulator and the files until interrupted, so the printed commands can be rerun. */
  readonly keep?: boolean;
  /** With `keep`: what ends the kept demo instead of Ctrl-C (a test's own signal). */
  readonly until?: Promise<void>;
}

export interface DemoStep {
  readonly args: readonly string[];
  readonly code: number;
}

/** The sample host: which documents each user sees, and why the others do not show. */
async function buildHost(host: HostFixture, documentIds: readonly number[]): Promise<void> {
  await host.addUser(ARCHIVE_ACCOUNT, { displayName: 'Archive (sync target)' });
  await host.addUser('alice', { lang: 'de', displayName: 'Alice' });
  await host.addUser('bob', { lang: 'en', displayName: 'Bob' });
  await host.addUser('carol', { displayName: 'Carol' });
  await host.addUser(DEMO_ADMIN.user, { displayName: 'Administrator', password: DEMO_ADMIN.password });
  await host.addGroup('admin', [DEMO_ADMIN.user]);
  await host.addGroup('accounting', ['alice', 'bob']);
  await host.setAppConfig('docs_sync', 'target_user', ARCHIVE_ACCOUNT);
  const invoices = await host.addFolder(ARCHIVE_ACCOUNT, 'Paperless/Invoices');
  const contracts = await host.addFolder(ARCHIVE_ACCOUNT, 'Paperless/Contracts');
  await host.addFolder(ARCHIVE_ACCOUNT, 'Paperless/Unsorted');
  // A group share to accounting; a share with alice alone; a share with bob he has not accepted yet.
  await host.share({ owner: ARCHIVE_ACCOUNT, fileId: invoices, type: 'group', with: 'accounting', target: '/Invoices' });
  await host.share({ owner: ARCHIVE_ACCOUNT, fileId: contracts, type: 'user', with: 'alice', target: '/Contracts' });
  await host.share({ owner: ARCHIVE_ACCOUNT, fileId: contracts, type: 'user', with: 'bob', target: '/Contracts', accepted: 0 });
  for (const id of documentIds) {
    if (id % 5 === 0) continue; // no file: the synchronization has not written one
    const folder = id % 3 === 0 ? 'Contracts' : id % 7 === 0 ? 'Unsorted' : 'Invoices';
    await host.addFile(ARCHIVE_ACCOUNT, `Paperless/${folder}/Document [P${id}].pdf`);
  }
  // A copy with the marker in carol's own files, shared with alice: not an archive file (document 25 has none).
  const copy = await host.addFile('carol', 'Scans/Copy of [P25].pdf');
  await host.share({ owner: 'carol', fileId: copy, type: 'user', with: 'alice' });
  // A file without the marker does not stand for any document.
  await host.addFile(ARCHIVE_ACCOUNT, 'Paperless/Invoices/renamed by hand.pdf');
}

/** How the printed commands start: npx finds the executable of this checkout (and its Node 24) without npm link. */
export const RERUN_PREFIX = 'npx docs-unified-search';

function quote(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, "'\\''")}'`;
}

/** Said where the demo's output ends when its world is deleted: how to keep it for rerunning the commands. */
export const KEEP_HINT =
  'The emulator and the files above are deleted now. To rerun the printed commands, start the demo with\n' +
  '  npm run demo -- --keep\n' +
  'which keeps them until Ctrl-C (run the commands from this checkout in another terminal).';

/** Said where the kept demo's output ends: what to rerun, and how to rerun setup without the token on the screen. */
export const KEPT_HINT =
  'The emulator and the files above stay until Ctrl-C: rerun the commands from this checkout in another terminal\n' +
  '(setup has stored the settings and the token, so start with test, search or why). To rerun setup as printed, first\n' +
  `  export DEMO_TOKEN=${DEMO_TOKEN}   # the emulator's token, a demo value\n` +
  'Ctrl-C ends the demo and deletes its files.';

/** Said by the kept demo: how to try serve's admin page with the demo's administrator. */
export function servingHint(configDir: string): string {
  return (
    `To try the admin page and the provider routes, start serve in another terminal:\n` +
    `  ${[RERUN_PREFIX, '--config-dir', quote(configDir), 'serve', '--listen', DEMO_SERVE].join(' ')}\n` +
    `then open http://${DEMO_SERVE}/settings/admin/docs_unified_search and log in as ${DEMO_ADMIN.user}, password ${DEMO_ADMIN.password}\n` +
    `(a script: curl -u ${DEMO_ADMIN.user}:${DEMO_ADMIN.password} http://${DEMO_SERVE}/apps/docs_unified_search/settings).`
  );
}

export async function runDemo(options: DemoOptions): Promise<DemoStep[]> {
  const write = (text: string): void => void options.out.write(text);
  const dir = mkdtempSync(join(tmpdir(), 'dus-demo-'));
  const configDir = join(dir, 'config');
  let archive: ArchiveEmulator | undefined;
  let host: HostFixture | undefined;
  const steps: DemoStep[] = [];
  try {
    const sample = sampleArchive(60);
    archive = await startArchiveEmulator({ ...sample, version: '2.20', tokens: [DEMO_TOKEN] });
    host = await createHostFixture('sqlite', { sqlitePath: join(dir, 'nextcloud.db') });
    await buildHost(
      host,
      sample.documents.map((document) => document.id),
    );
    write(`Archive server emulator (Paperless-ngx 2.20) with ${sample.documents.length} documents: ${archive.url}\n`);
    write(`Sample Nextcloud database: ${host.dbUrl} (users archive, alice, bob, carol)\n`);
    write(`Administrator login (serve's admin page and provider routes): ${DEMO_ADMIN.user}, password ${DEMO_ADMIN.password}\n`);
    write(`Settings directory: ${configDir}\n\n`);

    const base = ['--config-dir', configDir];
    const run = async (args: readonly string[], stdin?: string, shown?: string): Promise<number> => {
      write(`$ ${shown ?? [RERUN_PREFIX, ...[...base, ...args].map(quote)].join(' ')}\n`);
      const io: CommandIO = {
        stdout: options.out,
        stderr: options.err,
        stdin: Readable.from(stdin === undefined ? [] : [stdin]),
        env: { ...process.env, NO_COLOR: '1' },
      };
      const code = await main([...base, ...args], io);
      write(`(exit ${code})\n\n`);
      steps.push({ args, code });
      return code;
    };

    const setupArgs = ['--host-db', host.dbUrl, '--host-url', HOST_URL, 'setup', `--url=${archive.url}`, '--token-stdin', '--allow-local'];
    await run(setupArgs, `${DEMO_TOKEN}\n`, `echo "$DEMO_TOKEN" | ${[RERUN_PREFIX, ...[...base, ...setupArgs].map(quote)].join(' ')}`);
    await run(['test']);
    await run(['search', 'alice', 'invoice', '--explain']);
    await run(['search', 'bob', 'invoice', '--explain']);
    await run(['why', 'alice', '25']);
    await run(['check']);
    await run(['setupchecks']);

    write('What to look at:\n');
    write('  - search --explain: alice sees the invoices (group share) and the contracts (her own share);\n');
    write('    bob has not accepted the contracts share, so those are "not shared" for him;\n');
    write('    documents whose id is a multiple of 5 have "no file"; carol\'s copy of [P25], shared with alice, is "not owned" for her.\n');
    write('  - why alice 25: the same verdict for one document id, without a search term (Paperless is not asked).\n');
    write(`  - check: coverage of documents with a file, and example ids of those without one.\n`);
    write(`  - the host log and the audit log in ${configDir} (never a term, never the token).\n`);
    write(`  - man pages: man -l man/docs-unified-search.1; completion: source <(${RERUN_PREFIX} completion bash)\n`);
    if (options.keep === true) {
      // The token is not printed: setup stored it already, so the other commands need none.
      write(`\n${servingHint(configDir)}\n${KEPT_HINT}\n`);
      await (options.until ?? new Promise<void>((resolve) => process.once('SIGINT', () => resolve())));
    } else {
      write(`\n${KEEP_HINT}\n`);
    }
    return steps;
  } finally {
    await archive?.close();
    await host?.drop();
    rmSync(dir, { recursive: true, force: true });
    // Ctrl-C on a kept demo: say that it ended and what is gone, so the terminal does not just fall silent.
    if (options.keep === true) write(`\nDemo ended: the archive emulator stopped, the sample Nextcloud database and ${dir} are deleted.\n`);
  }
}

/** Every step must end as the demo expects: all of them succeed on the sample data. */
/** setup, test, search as alice, search as bob, why, check, setupchecks. */
const DEMO_STEPS = 7;

export function demoSucceeded(steps: readonly DemoStep[]): boolean {
  return steps.length === DEMO_STEPS && steps.every((step) => step.code === 0);
}

const entry = process.argv[1];
if (entry !== undefined && import.meta.url === pathToFileURL(entry).href) {
  const steps = await runDemo({ out: process.stdout, err: process.stderr, keep: process.argv.includes('--keep') });
  process.exitCode = demoSucceeded(steps) ? 0 : 1;
}
