/**
 * `serve`'s marker index against real writes (issue 9, item 4). The index trusts Nextcloud to
 * change the etag of the archive account's `files` folder on every change below it. Here each
 * kind of write is made through Nextcloud's own interfaces, and a search through the product's
 * `serve` (its marker index is always on) must reflect it at once: the documents it returns
 * are exactly those whose archive file the user's WebDAV tree holds.
 */
import { expect } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { openContext } from '../../src/core/context.js';
import { saveSettings } from '../../src/core/admin/save-settings.js';
import { startArchiveEmulator } from '../support/archive-emulator/index.js';
import { ARCHIVE_TOKEN, doc } from '../support/http-harness.js';
import { passwordOf, type NextcloudUser, type RealNextcloud } from '../support/real-nextcloud/index.js';
import { markerIds } from './judge.js';
import { CLI } from './world.js';

const SEARCH = '/ocs/v2.php/search/providers/docs_unified_search_documents/search?term=invoice&limit=50';
const DOCUMENT_IDS = [1, 2, 3, 4, 5, 6, 7];

export interface ServeWorld {
  readonly base: string;
  close(): Promise<void>;
}

/**
 * The product's `serve` (the built CLI, marker index on as it always is there), configured as
 * `setup` would be: the archive emulator's URL and token, the Nextcloud directory, the archive
 * account. Its documents 1–7 stand for the markers the steps write.
 */
async function startServe(nc: RealNextcloud, archive: string): Promise<ServeWorld> {
  const emulator = await startArchiveEmulator({
    documents: DOCUMENT_IDS.map((id) => doc(id, `Doc ${id}`, `2026-11-0${id}T10:00:00+00:00`)),
    tokens: [ARCHIVE_TOKEN],
  });
  const dir = mkdtempSync(join(tmpdir(), 'dus-conformance-serve-'));
  const hostLocation = { nextcloudDir: nc.serverDir };
  const setup = openContext({ configDir: dir, hostLocation, env: {} });
  try {
    await saveSettings(setup, { url: emulator.url, token: ARCHIVE_TOKEN, allowLocal: true, archiveOwner: archive, hostLocation });
  } finally {
    await setup.close();
  }
  const child = spawn(process.execPath, [CLI, '--config-dir', dir, 'serve', '--listen', '127.0.0.1:0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const base = await new Promise<string>((resolvePromise, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start: ${output}`)), 120_000);
    const read = (chunk: Buffer): void => {
      output += chunk.toString('utf8');
      const listening = /Listening on (http:\/\/[^\s]+)/.exec(output);
      if (listening?.[1] !== undefined) {
        clearTimeout(timer);
        resolvePromise(listening[1]);
      }
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited with ${code ?? 'a signal'}: ${output}`));
    });
  });
  return {
    base,
    close: async () => {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
      await emulator.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function searchAs(base: string, login: string): Promise<number[]> {
  const response = await fetch(`${base}${SEARCH}`, {
    headers: { accept: 'application/json', authorization: `Basic ${Buffer.from(`${login}:${passwordOf(login)}`).toString('base64')}` },
  });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`search as ${login}: HTTP ${response.status} ${text.slice(0, 300)}`);
  const entries = (JSON.parse(text) as { ocs: { data: { entries: { title: string }[] } } }).ocs.data.entries;
  return entries.map((entry) => Number(entry.title.replace(/^Doc /, ''))).sort((a, b) => a - b);
}

/** Document ids whose archive-account file `session` opens, per its WebDAV tree. */
async function opened(session: NextcloudUser, archive: string): Promise<number[]> {
  const ids = new Set<number>();
  for (const entry of await session.tree())
    if (!entry.isFolder && entry.ownerId === archive) for (const id of markerIds(entry.name)) if (DOCUMENT_IDS.includes(id)) ids.add(id);
  return [...ids].sort((a, b) => a - b);
}

export async function checkServeAgainstRealWrites(nc: RealNextcloud, prefix: string): Promise<string[]> {
  const archive = `${prefix}archive`;
  const owner = await nc.createUser(archive);
  const reader = await nc.createUser(`${prefix}reader`);
  const editor = await nc.createUser(`${prefix}editor`);
  await nc.setAppConfig('docs_sync', 'target_user', archive);
  await owner.mkdirs('Docs');
  await owner.mkdirs('Private');
  await owner.put('Docs/A [P1].pdf');
  await owner.put('Private/C [P4].pdf');
  await owner.share({ path: '/Docs', type: 'user', with: reader.login, permissions: 1 });
  await owner.share({ path: '/Docs', type: 'user', with: editor.login, permissions: 31 });
  const serve = await startServe(nc, archive);
  const steps: string[] = [];
  try {
    const expectStep = async (what: string, expected: number[]): Promise<void> => {
      await nc.settled();
      const found = await searchAs(serve.base, reader.login);
      const truth = await opened(reader, archive);
      steps.push(`${what}: serve ${JSON.stringify(found)}, Nextcloud ${JSON.stringify(truth)}`);
      // The scenario did what it meant to in Nextcloud, and the search agrees with Nextcloud.
      expect({ what, truth }).toEqual({ what, truth: expected });
      expect({ what, found }).toEqual({ what, found: truth });
    };
    await expectStep('start (index built)', [1]);
    await owner.put('Docs/B [P2].pdf');
    await expectStep('upload', [1, 2]);
    await owner.put('Docs/B [P2].pdf', 'new content');
    await expectStep('overwrite', [1, 2]);
    await owner.move('Docs/B [P2].pdf', 'Docs/B [P3].pdf');
    await expectStep('rename to another marker', [1, 3]);
    await owner.move('Docs/A [P1].pdf', 'Private/A [P1].pdf');
    await expectStep('move out of the shared folder', [3]);
    await owner.mkdirs('Docs/Sub');
    await owner.move('Private/A [P1].pdf', 'Docs/Sub/A [P1].pdf');
    await expectStep('move into a subfolder of the shared folder', [1, 3]);
    await owner.delete('Docs/B [P3].pdf');
    await expectStep('delete', [1]);
    await owner.restore('B [P3].pdf');
    await expectStep('restore from the trash', [1, 3]);
    const privateShare = await owner.share({ path: '/Private', type: 'user', with: reader.login, permissions: 1 });
    await expectStep('share', [1, 3, 4]);
    await owner.deleteShare(privateShare.id);
    await expectStep('unshare', [1, 3]);
    await editor.put('Docs/E [P5].pdf');
    await expectStep('upload by a recipient with edit rights', [1, 3, 5]);
    await editor.move('Docs/E [P5].pdf', 'Docs/E [P6].pdf');
    await expectStep('rename by that recipient', [1, 3, 6]);
    await editor.put('Docs/E [P6].pdf', 'edited by the recipient');
    await expectStep('overwrite by that recipient', [1, 3, 6]);
    await editor.move('Docs/E [P6].pdf', 'Docs/Sub/E [P7].pdf');
    await expectStep('move into a subfolder by that recipient', [1, 3, 7]);
    await editor.delete('Docs/Sub/E [P7].pdf');
    await expectStep('delete by that recipient', [1, 3]);
    await owner.restore('E [P7].pdf');
    await expectStep('restore of the recipient’s delete by the archive account', [1, 3, 7]);
    await owner.move('Docs/Sub', 'Private/Sub');
    await expectStep('a folder with marked files moved out', [3]);
    await owner.move('Private/Sub', 'Docs/Sub');
    await expectStep('that folder moved back in', [1, 3, 7]);
    return steps;
  } finally {
    await serve.close();
  }
}
