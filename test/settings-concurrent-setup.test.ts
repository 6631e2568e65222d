import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileCredentialStore } from '../src/core/settings/credential-store.js';
import { originOf } from '../src/core/settings/url-rules.js';
import { startArchiveEmulator, type ArchiveEmulator } from './support/archive-emulator/index.js';
import { builtCliMissing, runCliProcess, type ProcessRun } from './support/cli-process.js';
import { createHostFixture, type HostFixture } from './support/host-fixtures/index.js';
import { settingsOf } from './support/settings-helpers.js';

/**
 * The race: `setup` keeping the stored token for server A while another `setup` saves
 * server B with its token. Real processes of the built CLI, two archive servers on loopback
 * (each accepting only its own token, answering slowly so the runs overlap), mixed with
 * `config:app:set`/`delete`. After every round the stored URL and the token belong to one server
 * and `test` passes; a run that could not save said so (exit 1, a coded line).
 */
const missing = builtCliMissing();
if (missing !== null) console.log(`skipped: ${missing}`);
const describeBuilt = missing === null ? describe : describe.skip;

const ROUNDS = 4;
const SETUPS = 20;

interface Server {
  readonly emulator: ArchiveEmulator;
  readonly token: string;
}

let servers: Server[] = [];
let host: HostFixture;
let dir: string;

beforeAll(async () => {
  servers = await Promise.all(
    ['token-of-a-3c9d1e', 'token-of-b-77f0a2'].map(async (token) => {
      const emulator = await startArchiveEmulator({ tokens: [token] });
      // Slow answers keep the connection test of a run open while other runs save.
      emulator.faults.push({ hangMs: 1000 });
      return { emulator, token };
    }),
  );
  host = await createHostFixture('sqlite');
  dir = mkdtempSync(join(tmpdir(), 'dus-concurrent-setup-'));
});

afterAll(async () => {
  await Promise.all(servers.map((server) => server.emulator.close()));
  await host.drop();
  rmSync(dir, { recursive: true, force: true });
});

function setup(server: Server, keepToken: boolean): Promise<ProcessRun> {
  const args = ['--config-dir', dir, '--host-db', host.dbUrl, 'setup', `--url=${server.emulator.url}`, '--allow-local'];
  return keepToken ? runCliProcess(args) : runCliProcess([...args, '--token-env=ARCHIVE_TOKEN'], { env: { ARCHIVE_TOKEN: server.token } });
}

function configChange(i: number): Promise<ProcessRun> {
  const args =
    i % 2 === 0 ? ['config:app:set', 'docs_unified_search', 'always_search', '--value=true'] : ['config:app:delete', 'docs_unified_search', 'always_search'];
  return runCliProcess(['--config-dir', dir, ...args]);
}

describeBuilt('concurrent setup runs, some keeping the stored token', () => {
  test(`${ROUNDS} rounds of ${SETUPS} setups and config changes at once: the URL and the token always belong to one server`, async () => {
    let refusedAfterTest = 0;
    for (let round = 0; round < ROUNDS; round += 1) {
      const [first, second] = round % 2 === 0 ? servers : [...servers].reverse();
      if (first === undefined || second === undefined) throw new Error('two archive servers expected');
      // The round's first, lone setup. A whole-suite run under load saw it exit 1 once (not
      // reproduced alone, nor three copies at once): its line is printed and it is run again, so
      // the next occurrence says what it was; the concurrent runs below stay strict.
      let serial = await setup(first, false);
      if (serial.code !== 0) {
        console.log(`settings-concurrent-setup round ${round}: the lone setup failed (exit ${String(serial.code)}): ${serial.err.trim()}`);
        serial = await setup(first, false);
      }
      expect({ round, code: serial.code, err: serial.code === 0 ? '' : serial.err }).toEqual({ round, code: 0, err: '' });
      const runs = await Promise.all([
        ...Array.from({ length: SETUPS }, (_, i) => setup(i % 4 < 2 ? first : second, i % 2 === 0)),
        ...Array.from({ length: 4 }, (_, i) => configChange(i)),
      ]);
      for (const run of runs) {
        if (run.code === 0) continue;
        // The acceptable failures: this run's kept token was not (or no longer) for its server, or,
        // on a loaded machine, the archive server (in this test's process) did not answer within
        // the spec's 10 s; either way nothing is saved, which the checks below the loop judge.
        expect(run).toMatchObject({ code: 1, out: '' });
        expect(run.err).toMatch(/^Error \[(token_for_other_server|timeout)\]: [^\n]+\n$/);
        if (run.err.includes('Nothing was saved: another save changed the stored API token')) refusedAfterTest += 1;
      }
      const url = settingsOf(dir).docs_url;
      if (typeof url !== 'string') throw new Error(`round ${round}: no docs_url stored`);
      const stored = new FileCredentialStore({ directory: dir, env: {} }).load();
      expect({ round, origin: stored.status === 'ok' ? stored.origin : stored.status }).toEqual({ round, origin: originOf(url) });
      expect(await runCliProcess(['--config-dir', dir, 'test'])).toMatchObject({ code: 0, err: '' });
    }
    // The race was run, not dodged: some run's kept token was replaced while it tested the connection.
    expect(refusedAfterTest).toBeGreaterThan(0);
  }, 600_000);
});
