/**
 * File access control read from the host's database (rules/access-rules.ts) on SQLite,
 * PostgreSQL and MariaDB: the rows the workflow engine stores for a rule (an operation of the
 * app's class in the admin scope, its checks by id) and the system tags on files and folders, as
 * question 1 and `why` judge them. The check classes and operators themselves: access-rules.test.ts.
 */
import { beforeEach, describe, expect, it, test } from '@jest/globals';
import { render } from '../src/core/i18n/catalog.js';
import { reachableDialects } from './support/host-fixtures/dialects.js';
import { askPaths, useContextWorld, useHostWorld } from './support/host-fixtures/host-world.js';
import { verdictOfDocument } from '../src/core/search/verdicts.js';
import { whoAll, whoCanOpen } from '../src/core/search/who.js';
import type { HostFixture } from './support/host-fixtures/index.js';

const CHECK = 'OCA\\WorkflowEngine\\Check\\';
const OPERATION = 'OCA\\FilesAccessControl\\Operation';
const ARCH = 'arch';

interface Built {
  docs: number;
  top: number;
  a: number;
}
const built: Built = { docs: 0, top: 0, a: 0 };

async function buildWorld(fx: HostFixture): Promise<void> {
  for (const uid of [ARCH, 'anna', 'bob']) await fx.addUser(uid);
  await fx.addGroup('denied', ['anna']);
  built.docs = await fx.addFolder(ARCH, 'Docs');
  built.a = await fx.addFile(ARCH, 'Docs/A [P1].pdf', { mimetype: 'application/pdf' });
  await fx.addFile(ARCH, 'Docs/secret B [P2].pdf', { mimetype: 'application/pdf' });
  await fx.addFile(ARCH, 'Docs/C [P3].png', { mimetype: 'image/png' });
  built.top = await fx.addFolder(ARCH, 'Top');
  const shared = await fx.addFolder(ARCH, 'Top/Shared');
  await fx.addFile(ARCH, 'Top/Shared/D [P4].pdf', { mimetype: 'application/pdf' });
  for (const user of ['anna', 'bob']) {
    await fx.share({ owner: ARCH, fileId: built.docs, type: 'user', with: user });
    await fx.share({ owner: ARCH, fileId: shared, type: 'user', with: user });
  }
  await fx.exec("INSERT INTO oc_systemtag (name) VALUES ('secret')");
  await fx.setAppConfig('files_accesscontrol', 'enabled', 'yes');
  await fx.setAppConfig('files_accesscontrol', 'installed_version', '5.0.0');
}

let hashes = 0;
/** A rule as the workflow engine's Manager stores it; scope 0 = admin, 1 = user. */
async function rule(fx: HostFixture, name: string, checks: readonly [string, string, string][], scope = 0): Promise<void> {
  const ids: number[] = [];
  for (const [cls, operator, value] of checks) {
    hashes += 1;
    const hash = `h${hashes}`;
    await fx.exec('INSERT INTO oc_flow_checks (class, operator, value, hash) VALUES (?, ?, ?, ?)', [`${CHECK}${cls}`, operator, value, hash]);
    const [row] = await fx.all('SELECT id FROM oc_flow_checks WHERE hash = ?', [hash]);
    ids.push(Number(row?.id));
  }
  await fx.exec("INSERT INTO oc_flow_operations (class, name, checks, operation, events) VALUES (?, ?, ?, 'deny', '[]')", [
    OPERATION,
    name,
    JSON.stringify(ids),
  ]);
  const [op] = await fx.all('SELECT MAX(id) AS id FROM oc_flow_operations');
  await fx.exec("INSERT INTO oc_flow_operations_scope (operation_id, type, value) VALUES (?, ?, '')", [Number(op?.id), scope]);
}

async function tagged(fx: HostFixture, fileId: number): Promise<void> {
  const [tag] = await fx.all("SELECT id FROM oc_systemtag WHERE name = 'secret'");
  await fx.exec("INSERT INTO oc_systemtag_object_mapping (objectid, objecttype, systemtagid) VALUES (?, 'files', ?)", [String(fileId), Number(tag?.id)]);
}

const dialects = await reachableDialects('host access rules');

describe.each(dialects)('File access control rules on %s', (dialect) => {
  const world = useHostWorld(dialect, buildWorld);
  const shown = async (user: string): Promise<number[]> => Object.keys(await askPaths(world.host, 'visible', user, ARCH, [1, 2, 3, 4])).map(Number);
  const tagId = async (): Promise<string> => String((await world.fx.all("SELECT id FROM oc_systemtag WHERE name = 'secret'"))[0]?.id);

  beforeEach(async () => {
    for (const table of ['oc_flow_operations', 'oc_flow_checks', 'oc_flow_operations_scope', 'oc_systemtag_object_mapping'])
      await world.fx.exec(`DELETE FROM ${table}`);
    await world.fx.setAppConfig('files_accesscontrol', 'enabled', 'yes');
  });

  it('a system tag and a group: the tagged file is blocked for the group member only, and why names the rule', async () => {
    await tagged(world.fx, built.a);
    await rule(world.fx, 'Secret', [
      ['FileSystemTags', 'is', await tagId()],
      ['UserGroupMembership', 'is', 'denied'],
    ]);
    expect(await shown('anna')).toEqual([2, 3, 4]);
    expect(await shown('bob')).toEqual([1, 2, 3, 4]);
    const why = (await world.host.accessRuleBlocks('anna', ARCH, [1, 2])).get(1);
    expect(why === undefined ? '' : render(why)).toBe(
      "the access-control rule 'Secret' (system tag secret, group denied) blocks it for anna (File access control answers 404 to opening it): change the rule or its tags and groups",
    );
    expect((await world.host.accessRuleBlocks('bob', ARCH, [1])).size).toBe(0);
    expect(await world.host.accessRules()).toEqual({ rules: ['Secret'], undecided: [] });
  });

  it('a tag on a folder above the shared folder counts, through the owner storage', async () => {
    await tagged(world.fx, built.top);
    await rule(world.fx, 'Top', [['FileSystemTags', 'is', await tagId()]]);
    expect(await shown('bob')).toEqual([1, 2, 3]);
    // The archive account's own files: the same folders.
    expect(await shown(ARCH)).toEqual([1, 2, 3]);
    // Question 2 is what the archive account holds, whatever may open it.
    expect(Object.keys(await askPaths(world.host, 'owned', ARCH, ARCH, [1, 2, 3, 4])).map(Number)).toEqual([1, 2, 3, 4]);
  });

  it('file name (matches, and is without regard to case) and MIME type', async () => {
    await rule(world.fx, 'Names', [['FileName', 'matches', '/^secret/']]);
    expect(await shown('bob')).toEqual([1, 3, 4]);
    await world.fx.exec('DELETE FROM oc_flow_operations');
    await rule(world.fx, 'Exact', [['FileName', 'is', 'a [p1].PDF']]);
    expect(await shown('bob')).toEqual([2, 3, 4]);
    await world.fx.exec('DELETE FROM oc_flow_operations');
    await rule(world.fx, 'Images', [['FileMimeType', 'is', 'image/png']]);
    expect(await shown('bob')).toEqual([1, 2, 4]);
  });

  it('!is on a group: everyone else is blocked', async () => {
    await rule(world.fx, 'Only denied', [
      ['UserGroupMembership', '!is', 'denied'],
      ['FileName', 'matches', '/^D /'],
    ]);
    expect(await shown('anna')).toEqual([1, 2, 3, 4]);
    expect(await shown('bob')).toEqual([1, 2, 3]);
  });

  it('a rule that depends on the request is taken as blocking, and said to be undecidable', async () => {
    await rule(world.fx, 'Browsers', [
      ['UserGroupMembership', 'is', 'denied'],
      ['RequestUserAgent', 'matches', '/Mozilla/'],
    ]);
    expect(await shown('anna')).toEqual([]);
    expect(await shown('bob')).toEqual([1, 2, 3, 4]);
    // check and the overview name it.
    expect(await world.host.accessRules()).toEqual({ rules: ['Browsers'], undecided: ['Browsers'] });
    const why = (await world.host.accessRuleBlocks('anna', ARCH, [4])).get(4);
    expect(why === undefined ? '' : render(why)).toMatch(
      /^the access-control rule 'Browsers' \(group denied, RequestUserAgent matches \/Mozilla\/\) may block it for anna: .*cannot be decided ahead of the request/,
    );
  });

  it('a group the database does not hold (another backend) is not decided: taken as blocking', async () => {
    await rule(world.fx, 'Directory', [
      ['UserGroupMembership', 'is', 'ldap-staff'],
      ['FileName', 'matches', '/^A /'],
    ]);
    expect(await shown('bob')).toEqual([2, 3, 4]);
    const why = (await world.host.accessRuleBlocks('bob', ARCH, [1])).get(1);
    expect(why === undefined ? '' : render(why)).toContain(
      "the access-control rule 'Directory' (group ldap-staff, FileName matches /^A /) may block it for bob",
    );
  });

  it('nothing is blocked when the app is disabled, or by a rule outside the admin scope', async () => {
    await rule(world.fx, 'All', [['FileName', 'matches', '/P/']], 1);
    expect(await shown('bob')).toEqual([1, 2, 3, 4]);
    await rule(world.fx, 'All', [['FileName', 'matches', '/P/']]);
    expect(await shown('bob')).toEqual([]);
    await world.fx.setAppConfig('files_accesscontrol', 'enabled', 'no');
    expect(await shown('bob')).toEqual([1, 2, 3, 4]);
    expect(await world.host.accessControlEnabled()).toBe(false);
    expect(await world.host.accessRules()).toBeNull();
  });
});

describe.each(dialects)('who and why under a File access control rule on %s', (dialect) => {
  const world = useContextWorld(dialect, async (fx) => {
    await buildWorld(fx);
    await fx.setAppConfig('docs_sync', 'target_user', ARCH);
    await tagged(fx, built.a);
    const [tag] = await fx.all("SELECT id FROM oc_systemtag WHERE name = 'secret'");
    await rule(fx, 'Secret', [
      ['FileSystemTags', 'is', String(tag?.id)],
      ['UserGroupMembership', 'is', 'denied'],
    ]);
  });

  test('who leaves the blocked member out, --include-blocked names the rule, who --all agrees, and why says the same', async () => {
    const answer = await whoCanOpen(world.ctx, 1, { includeBlocked: true });
    expect(answer.accounts.map((e) => [e.account, e.blocked === null])).toEqual([
      [ARCH, true],
      ['bob', true],
      ['anna', false],
    ]);
    expect(answer.accounts.find((e) => e.account === 'anna')?.blocked).toContain(
      "the access-control rule 'Secret' (system tag secret, group denied) blocks it for anna",
    );
    const rows: string[] = [];
    await whoAll(world.ctx, {}, (r) => rows.push(`${r.documentId} ${r.account}`));
    expect(rows.filter((r) => r.startsWith('1 '))).toEqual([`1 ${ARCH}`, '1 bob']);
    expect(rows).toContain('2 anna');
    const why = (await verdictOfDocument(world.ctx, 'anna', 1)).item;
    expect([why.verdict, why.explanation]).toEqual([
      'not shared',
      "Document 1: the archive account arch has /Docs/A [P1].pdf but anna cannot open it: the access-control rule 'Secret' (system tag secret, group denied) blocks it for anna (File access control answers 404 to opening it): change the rule or its tags and groups.",
    ]);
    expect((await verdictOfDocument(world.ctx, 'bob', 1)).item.verdict).toBe('shown');
  });
});

describe.each(dialects)('File access control on an external storage on %s', (dialect) => {
  const storage = { id: 0, root: 0, sub: 0 };
  const world = useHostWorld(dialect, async (fx) => {
    for (const uid of [ARCH, 'anna']) await fx.addUser(uid);
    const ext = await fx.addExternalStorage({ mountPoint: '/Ext', datadir: '/srv/acl-ext', users: [ARCH, 'anna'] });
    storage.id = ext.storage;
    await fx.addExternalFile(ext.storage, 'E [P5].pdf');
    await fx.addExternalFile(ext.storage, 'Sub/F [P6].pdf');
    const node = async (path: string): Promise<number> =>
      Number((await fx.all(`SELECT fileid FROM ${fx.prefix}filecache WHERE storage = ? AND path = ?`, [ext.storage, path]))[0]?.fileid);
    storage.root = await node('');
    storage.sub = await node('Sub');
    await fx.exec("INSERT INTO oc_systemtag (name) VALUES ('secret')");
    await fx.setAppConfig('files_accesscontrol', 'enabled', 'yes');
    await fx.setAppConfig('files_accesscontrol', 'installed_version', '5.0.0');
  });
  const shown = async (user: string): Promise<number[]> => Object.keys(await askPaths(world.host, 'visible', user, ARCH, [5, 6])).map(Number);

  beforeEach(async () => {
    for (const table of ['oc_flow_operations', 'oc_flow_checks', 'oc_flow_operations_scope', 'oc_systemtag_object_mapping'])
      await world.fx.exec(`DELETE FROM ${table}`);
    const [tag] = await world.fx.all("SELECT id FROM oc_systemtag WHERE name = 'secret'");
    await rule(world.fx, 'Secret', [['FileSystemTags', 'is', String(tag?.id)]]);
  });

  it('untagged, both files open at the mount point', async () => {
    expect(await shown('anna')).toEqual([5, 6]);
  });

  it("a tag on the storage's root counts (the workflow engine stops below the root only on a home storage)", async () => {
    await tagged(world.fx, storage.root);
    expect(await shown('anna')).toEqual([]);
    expect(await shown(ARCH)).toEqual([]);
  });

  it('a tag on a folder of the storage blocks what lies under it', async () => {
    await tagged(world.fx, storage.sub);
    expect(await shown('anna')).toEqual([5]);
  });
});
