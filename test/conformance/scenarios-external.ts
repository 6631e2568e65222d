/**
 * External storage (files_external, shipped with Nextcloud): Local storages mounted for the
 * archive account, for it and a group, shared from, read-only. Built with occ (the storage,
 * its applicable users and groups, its options), WebDAV (the files, written through the mount
 * so that Nextcloud indexes them) and OCS (the share); judged like every scenario. Each
 * scenario deletes its storage and its directory afterwards. docs/host-adapter.md
 * ("External storage") cites them by name.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Scenario } from './scenarios.js';
import type { ScenarioWorld } from './world.js';

interface LocalStorage {
  readonly id: string;
  readonly dir: string;
}

/** `occ files_external:create <point> local null::null -c datadir=<a new directory>`; removed after the scenario. */
async function localStorage(s: ScenarioWorld, mountPoint: string): Promise<LocalStorage> {
  await s.nc.occOk(['app:enable', 'files_external']);
  const dir = mkdtempSync(join(tmpdir(), 'dus-external-'));
  const out = await s.nc.occOk(['files_external:create', mountPoint, 'local', 'null::null', '-c', `datadir=${dir}`]);
  const id = /id\s+(\d+)/i.exec(out)?.[1];
  if (id === undefined) throw new Error(`files_external:create printed no id: ${out}`);
  s.onCleanup(async () => {
    await s.nc.occOk(['files_external:delete', id, '--yes']);
    rmSync(dir, { recursive: true, force: true });
  });
  return { id, dir };
}

async function applicable(s: ScenarioWorld, storage: LocalStorage, to: { users?: readonly string[]; groups?: readonly string[] }): Promise<void> {
  const args = [...(to.users ?? []).map((u) => `--add-user=${u}`), ...(to.groups ?? []).map((g) => `--add-group=${g}`)];
  await s.nc.occOk(['files_external:applicable', storage.id, ...args]);
}

async function option(s: ScenarioWorld, storage: LocalStorage, key: string, value: string): Promise<void> {
  await s.nc.occOk(['files_external:option', storage.id, key, value]);
}

/** Files written by the archive account through WebDAV (through the mount for paths under it). */
async function files(s: ScenarioWorld, paths: readonly string[]): Promise<void> {
  for (const path of paths) {
    const folder = path.split('/').slice(0, -1).join('/');
    if (folder !== '') await s.archiveUser.mkdirs(folder);
    await s.archiveUser.put(path);
  }
}

/**
 * Two scenarios, three judgements (a scenario's setup and each judgement cost more than a step
 * inside one): the storage for the archive account alone with a folder on it shared; the storage
 * for the archive account and a group, read-only, with a membership change between judgements.
 */
export const EXTERNAL_SCENARIOS: readonly Scenario[] = [
  {
    name: 'external storage mounted for the archive account alone, a folder on it shared with a user',
    body: async (s) => {
      await s.users('anna', 'dora');
      const storage = await localStorage(s, '/Ext');
      await applicable(s, storage, { users: [s.archive] });
      await option(s, storage, 'enable_sharing', 'true');
      await files(s, ['Ext/A [P1].pdf', 'Ext/Shared/B [P2].pdf', 'Ext/Shared/Sub/C [P3].pdf', 'Home/D [P4].pdf']);
      await s.archiveUser.share({ path: '/Ext/Shared', type: 'user', with: s.login('dora') });
      await s.judge('Ext for the archive account only, Ext/Shared shared with dora', [1, 2, 3, 4]);
    },
  },
  {
    name: 'read-only external storage for the archive account and a group, membership changes',
    body: async (s) => {
      await s.users('carl');
      const team = await s.group('team', ['anna', 'bob']);
      const storage = await localStorage(s, '/Shared drive');
      await applicable(s, storage, { users: [s.archive], groups: [team] });
      await files(s, ['Shared drive/A [P1].pdf', 'Shared drive/Deep/B [P2].pdf']);
      await option(s, storage, 'readonly', 'true');
      await s.judge('read-only, mounted for the archive account and team = anna, bob', [1, 2]);
      await s.nc.removeFromGroup(s.login('bob'), team);
      await s.nc.addToGroup(s.login('carl'), team);
      await s.judge('bob left team, carl joined', [1, 2]);
    },
  },
];
