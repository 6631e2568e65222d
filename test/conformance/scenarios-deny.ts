/**
 * File access control (files_accesscontrol, issue 34): deny rules built through Nextcloud's own
 * interfaces only (occ to enable the vendored app, WebDAV for system tags and their relations,
 * the workflow engine's OCS API for rules, as an administrator with basic auth and no session
 * cookie: 33.0.1 asks a session for password confirmation). Judged by each user's WebDAV tree and
 * a GET of each marked file it lists (world.ts `accessControlled`). Each scenario removes its rules
 * and tags when it ends.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ADMIN_PASSWORD, type RealNextcloud } from '../support/real-nextcloud/index.js';
import { releaseTarball } from '../support/real-nextcloud/source.js';
import type { Scenario } from './scenarios.js';
import { accessControlled, type ScenarioWorld } from './world.js';

const CHECK = 'OCA\\WorkflowEngine\\Check\\';

/** The vendored app release for the installed major (vendor/README.md): 5.0.0 for 34, 4.0.1 for 33; null for another major. */
export function accessControlTarball(nc: RealNextcloud): string | null {
  const vendor = join(releaseTarball('34.0.1'), '..');
  const name = nc.version.startsWith('33.') ? 'files_accesscontrol-4.0.1.tar.gz' : nc.version.startsWith('34.') ? 'files_accesscontrol-5.0.0.tar.gz' : null;
  return name === null || !existsSync(join(vendor, name)) ? null : join(vendor, name);
}

function appTarball(nc: RealNextcloud): string {
  const tarball = accessControlTarball(nc);
  if (tarball === null) throw new Error(`no vendored files_accesscontrol for Nextcloud ${nc.version}`);
  return tarball;
}

/** Unpacks the vendored app into the server's apps/ and enables it, once per install. */
async function withAccessControl(s: ScenarioWorld): Promise<void> {
  if (accessControlled.has(s.nc)) return;
  if (!existsSync(join(s.nc.serverDir, 'apps', 'files_accesscontrol'))) {
    const out = spawnSync('tar', ['-xzf', appTarball(s.nc), '-C', join(s.nc.serverDir, 'apps')], { encoding: 'utf8' });
    if (out.status !== 0) throw new Error(`unpacking files_accesscontrol failed: ${out.stderr}`);
  }
  await s.nc.occOk(['app:enable', 'files_accesscontrol']);
  accessControlled.add(s.nc);
}

/** Disables the app again (its files stay in apps/): the groups after this one judge by the trees alone. */
export async function withoutAccessControl(nc: RealNextcloud): Promise<void> {
  if (!accessControlled.has(nc)) return;
  await nc.occOk(['app:disable', 'files_accesscontrol']);
  accessControlled.delete(nc);
}

/** An administrator's request with basic auth and no cookie. */
async function adminRequest(nc: RealNextcloud, method: string, path: string, body?: unknown): Promise<{ status: number; text: string; headers: Headers }> {
  const response = await fetch(`${nc.url}${path}`, {
    method,
    headers: {
      authorization: `Basic ${Buffer.from(`admin:${ADMIN_PASSWORD}`).toString('base64')}`,
      'ocs-apirequest': 'true',
      accept: 'application/json',
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, text: await response.text(), headers: response.headers };
}

/** A user-visible, assignable system tag (WebDAV), deleted when the scenario ends; its id. */
async function systemTag(s: ScenarioWorld, name: string): Promise<number> {
  const made = await adminRequest(s.nc, 'POST', '/remote.php/dav/systemtags', { name: `${s.prefix}${name}`, userVisible: true, userAssignable: true });
  const location = made.headers.get('content-location') ?? '';
  const id = Number(location.split('/').pop());
  if (made.status !== 201 || !Number.isInteger(id)) throw new Error(`creating tag ${name}: ${made.status} ${made.text}`);
  s.onCleanup(async () => {
    await adminRequest(s.nc, 'DELETE', `/remote.php/dav/systemtags/${id}`);
  });
  return id;
}

/** Tags the archive account's node at `path` (WebDAV, as the owner). */
async function tag(s: ScenarioWorld, path: string, tagId: number): Promise<void> {
  const [entry] = await s.archiveUser.propfind(path.replace(/^\/+/, ''), '0');
  if (entry?.fileId === null || entry === undefined) throw new Error(`no file id for ${path}`);
  const answer = await s.archiveUser.request('PUT', `/remote.php/dav/systemtags-relations/files/${entry.fileId}/${tagId}`);
  if (answer.status !== 201 && answer.status !== 409) throw new Error(`tagging ${path}: ${answer.status} ${answer.body}`);
}

interface Check {
  readonly class: string;
  readonly operator: string;
  readonly value: string;
}

/** A global deny rule (workflow engine OCS API); removed when the scenario ends or by the returned function. */
async function denyRule(s: ScenarioWorld, name: string, checks: readonly Check[]): Promise<() => Promise<void>> {
  const made = await adminRequest(s.nc, 'POST', '/ocs/v2.php/apps/workflowengine/api/v1/workflows/global?format=json', {
    class: 'OCA\\FilesAccessControl\\Operation',
    name,
    checks,
    operation: 'deny',
    entity: 'OCA\\WorkflowEngine\\Entity\\File',
    events: [],
  });
  const parsed = JSON.parse(made.text) as { ocs?: { data?: { id?: number } } };
  const id = parsed.ocs?.data?.id;
  if (made.status !== 200 || id === undefined) throw new Error(`creating rule ${name}: ${made.status} ${made.text}`);
  let removed = false;
  const remove = async (): Promise<void> => {
    if (removed) return;
    removed = true;
    const gone = await adminRequest(s.nc, 'DELETE', `/ocs/v2.php/apps/workflowengine/api/v1/workflows/global/${id}?format=json`);
    if (gone.status !== 200) throw new Error(`deleting rule ${name}: ${gone.status} ${gone.text}`);
  };
  s.onCleanup(remove);
  return remove;
}

async function files(s: ScenarioWorld, paths: readonly string[]): Promise<void> {
  for (const path of paths) {
    const folder = path.split('/').slice(0, -1).join('/');
    if (folder !== '') await s.archiveUser.mkdirs(folder);
    await s.archiveUser.put(path);
  }
}

export const ACCESS_RULE_SCENARIOS: readonly Scenario[] = [
  {
    name: 'access rule: system tag secret and group denied, then the rule deleted',
    body: async (s) => {
      await withAccessControl(s);
      await s.users('anna');
      const denied = await s.group('denied', ['bob']);
      await files(s, ['Docs/A [P1].pdf', 'Docs/B [P2].pdf']);
      await s.archiveUser.share({ path: '/Docs', type: 'user', with: s.login('anna') });
      await s.archiveUser.share({ path: '/Docs', type: 'user', with: s.login('bob') });
      const secret = await systemTag(s, 'secret');
      await tag(s, '/Docs/A [P1].pdf', secret);
      const remove = await denyRule(s, 'Secret', [
        { class: `${CHECK}FileSystemTags`, operator: 'is', value: String(secret) },
        { class: `${CHECK}UserGroupMembership`, operator: 'is', value: denied },
      ]);
      await s.judge('A tagged secret, bob in denied', [1, 2]);
      await remove();
      await s.judge('the rule deleted', [1, 2]);
    },
  },
  {
    name: 'access rule: file name',
    body: async (s) => {
      await withAccessControl(s);
      await s.users('anna');
      await files(s, ['Docs/secret plan [P1].pdf', 'Docs/Plan [P2].pdf', 'Mine [P3].pdf']);
      await s.archiveUser.share({ path: '/Docs', type: 'user', with: s.login('anna') });
      await s.archiveUser.share({ path: '/Mine [P3].pdf', type: 'user', with: s.login('anna') });
      await denyRule(s, 'Names', [{ class: `${CHECK}FileName`, operator: 'matches', value: '/secret|mine/i' }]);
      await s.judge('names matching /secret|mine/i denied for everyone', [1, 2, 3]);
    },
  },
  {
    name: 'access rule: a tag on a folder above the shared folder',
    body: async (s) => {
      await withAccessControl(s);
      await s.users('bob');
      const denied = await s.group('denied', ['anna']);
      await files(s, ['Top/Shared/C [P1].pdf', 'Top/Shared/Sub/D [P2].pdf', 'Open/E [P3].pdf']);
      await s.archiveUser.share({ path: '/Top/Shared', type: 'user', with: s.login('anna') });
      await s.archiveUser.share({ path: '/Top/Shared', type: 'user', with: s.login('bob') });
      await s.archiveUser.share({ path: '/Open', type: 'user', with: s.login('anna') });
      const secret = await systemTag(s, 'top');
      await tag(s, '/Top', secret);
      await denyRule(s, 'Top secret', [
        { class: `${CHECK}FileSystemTags`, operator: 'is', value: String(secret) },
        { class: `${CHECK}UserGroupMembership`, operator: 'is', value: denied },
      ]);
      await s.judge('Top tagged, anna in denied', [1, 2, 3]);
    },
  },
  {
    name: 'access rule that depends on the request (user agent)',
    body: async (s) => {
      await withAccessControl(s);
      await s.users('bob');
      const denied = await s.group('denied', ['anna']);
      await files(s, ['Docs/A [P1].pdf']);
      await s.archiveUser.share({ path: '/Docs', type: 'user', with: s.login('anna') });
      await s.archiveUser.share({ path: '/Docs', type: 'user', with: s.login('bob') });
      // The suite's client is not a browser: Nextcloud opens the file for anna; the product cannot know and omits it.
      await denyRule(s, 'Browsers', [
        { class: `${CHECK}UserGroupMembership`, operator: 'is', value: denied },
        { class: `${CHECK}RequestUserAgent`, operator: 'matches', value: '/Mozilla/' },
      ]);
      await s.judge('anna in denied, browsers only', [1]);
    },
  },
];
