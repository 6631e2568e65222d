/**
 * One host with the reference's §11 scenarios and more, the same on every database. Each
 * scenario uses its own document ids so that one world answers the whole table.
 */
import type { HostFixture } from './index.js';

export const ARCHIVE = 'archive';

export function dayOffset(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 19).replace('T', ' ');
}

export async function buildWorld(fx: HostFixture, o: { nestedGroups?: boolean } = {}): Promise<void> {
  const A = ARCHIVE;
  for (const uid of [A, 'alice', 'bob', 'carol', 'dave', 'erin', 'frank', 'gina', 'hank', 'kate']) await fx.addUser(uid);
  await fx.addUser('ivan', { loggedIn: false });
  await fx.addUser('judy', { enabled: false });
  await fx.addUser('obj', { storage: 'object' });
  await fx.addUser('l'.repeat(60), { storage: 'object' });
  await fx.addGroup('acct', ['alice', 'bob', 'carol']);
  await fx.addGroup('pend', ['frank']);
  await fx.addGroup('hgrp', ['hank']);
  await fx.addGroup('egrp', ['erin']);
  await fx.addGroup('withA', [A, 'dave']);
  await fx.addGroup('admin', ['alice']);
  await fx.addGroup('team', ['kate']);
  if (o.nestedGroups !== false) await fx.addSubgroup('division', 'team');

  // §11.1 + §11.3 (group): /Invoices to acct; alice left it, carol moved it.
  await fx.addFile(A, 'Invoices/inv [P1].pdf');
  const invoices = await fx.addFolder(A, 'Invoices');
  const g1 = await fx.share({ owner: A, fileId: invoices, type: 'group', with: 'acct', target: '/Invoices' });
  await fx.overrideGroupShare(g1, 'alice', { permissions: 0 });
  await fx.overrideGroupShare(g1, 'carol', { target: '/Work/Invoices-A' });
  // §11.2: folder share with bob, and a file moved out of it.
  await fx.addFile(A, 'Archive/2024/Q1/bill [P17].pdf');
  await fx.addFile(A, 'Archive/Other/moved [P18].pdf');
  await fx.share({ owner: A, fileId: await fx.addFolder(A, 'Archive/2024'), type: 'user', with: 'bob', target: '/2024' });
  // §11.3 (user share renamed).
  await fx.addFile(A, 'Reports/r [P3].pdf');
  await fx.share({ owner: A, fileId: await fx.addFolder(A, 'Reports'), type: 'user', with: 'dave', target: '/Work/Reports-A' });
  // §11.4: pending user share, pending group share without override.
  await fx.addFile(A, 'Pending/p [P4].pdf');
  await fx.share({ owner: A, fileId: await fx.addFolder(A, 'Pending'), type: 'user', with: 'erin', accepted: 0 });
  await fx.addFile(A, 'PendG/p [P5].pdf');
  await fx.share({ owner: A, fileId: await fx.addFolder(A, 'PendG'), type: 'group', with: 'pend', accepted: 0 });
  // §11.5: expired yesterday; expires tomorrow.
  await fx.addFile(A, 'Exp/e [P6].pdf');
  await fx.share({ owner: A, fileId: await fx.addFolder(A, 'Exp'), type: 'user', with: 'gina', expiration: dayOffset(-1) });
  await fx.addFile(A, 'Later/l [P7].pdf');
  await fx.share({ owner: A, fileId: await fx.addFolder(A, 'Later'), type: 'user', with: 'gina', expiration: dayOffset(1) });
  // §11.6: trash (itself shared) and versions.
  const trashed = await fx.addTrashFile(A, 'x [P8].pdf');
  await fx.share({ owner: A, fileId: trashed, type: 'user', with: 'bob' });
  await fx.addVersionFile(A, 'v [P9].pdf');
  // §11.7: another account's file; a reshare by the archive account.
  const bobs = await fx.addFile('bob', 'y [P10].pdf');
  await fx.share({ owner: 'bob', fileId: bobs, type: 'user', with: 'erin' });
  await fx.share({ owner: 'bob', fileId: bobs, type: 'user', with: A });
  await fx.share({ owner: 'bob', initiator: A, fileId: bobs, type: 'user', with: 'frank' });
  // §11.8: a group share by the archive account to a group holding it.
  await fx.addFile(A, 'Mine/m [P2].pdf');
  await fx.share({ owner: A, fileId: await fx.addFolder(A, 'Mine'), type: 'group', with: 'withA' });
  // §11.9: object storage, and a uid so long that the storage id is stored as md5.
  const objFile = await fx.addFile('obj', 'o [P11].pdf');
  await fx.share({ owner: 'obj', fileId: objFile, type: 'user', with: 'alice' });
  await fx.addFile('l'.repeat(60), 'long [P12].pdf');
  // §11.10: two shares of one node (earliest target wins); accepted + rejected → not mounted.
  await fx.addFile(A, 'Twice/t [P13].pdf');
  const twice = await fx.addFolder(A, 'Twice');
  await fx.share({ owner: A, fileId: twice, type: 'user', with: 'hank', target: '/Twice-user', stime: 1_800_000_001 });
  await fx.share({ owner: A, fileId: twice, type: 'group', with: 'hgrp', target: '/Twice-group', stime: 1_800_000_002 });
  await fx.addFile(A, 'Rej/r [P14].pdf');
  const rej = await fx.addFolder(A, 'Rej');
  await fx.share({ owner: A, fileId: rej, type: 'user', with: 'hank', accepted: 2, stime: 1_800_000_001 });
  await fx.share({ owner: A, fileId: rej, type: 'group', with: 'hgrp', stime: 1_800_000_002 });
  // §11.11: disabled owner, still visible by default.
  const judys = await fx.addFile('judy', 'j [P15].pdf');
  await fx.share({ owner: 'judy', fileId: judys, type: 'user', with: 'carol' });
  // §11.12: shared root without the SHARE bit; share row naming the wrong owner.
  const noShareBit = await fx.addFolder(A, 'NoShareBit', { permissions: 15 });
  await fx.addFile(A, 'NoShareBit/n [P16].pdf');
  await fx.share({ owner: A, fileId: noShareBit, type: 'user', with: 'bob' });
  await fx.addFile(A, 'Stale/s [P19].pdf');
  await fx.share({ owner: 'bob', fileId: await fx.addFolder(A, 'Stale'), type: 'user', with: 'carol' });
  // §11.13: a user who never logged in.
  await fx.addFile(A, 'ForIvan/i [P20].pdf');
  await fx.share({ owner: A, fileId: await fx.addFolder(A, 'ForIvan'), type: 'user', with: 'ivan' });

  // Marker matching.
  await fx.addFile(A, 'Mk/a [P21].pdf');
  await fx.addFile(A, 'Mk/b [P210].pdf');
  await fx.addFile(A, 'Mk/c [P21x].pdf');
  await fx.addFile(A, 'Mk/lower [p22].pdf');
  await fx.addFile(A, 'Mk/zero [P023].pdf');
  await fx.addFile(A, 'Mk/100% [P25] under_score.pdf');
  await fx.addFile(A, 'Mk/two [P26] [P27].pdf');
  await fx.addFile(A, 'Mk/[Photo] [P28].pdf');
  await fx.addFolder(A, 'Mk/Folder [P29]');
  await fx.addFile(A, 'Mk/Folder [P29]/plain.pdf');
  await fx.addFile(A, 'Mk/back\\slash [P24].pdf');
  // A single shared file; its unshared sibling.
  const single = await fx.addFile(A, 'Single/s [P30].pdf');
  await fx.addFile(A, 'Single/t [P31].pdf');
  await fx.share({ owner: A, fileId: single, type: 'user', with: 'dave', target: '/s [P30].pdf' });
  // A share without READ.
  await fx.addFile(A, 'NoRead/n [P32].pdf');
  await fx.share({ owner: A, fileId: await fx.addFolder(A, 'NoRead'), type: 'user', with: 'erin', permissions: 2 });
  // Nested groups (NC34): division ⊃ team ∋ kate. The host shares with direct members only.
  await fx.addFile(A, 'Div/d [P33].pdf');
  await fx.share({ owner: A, fileId: await fx.addFolder(A, 'Div'), type: 'group', with: 'division' });
  // The recipient is the initiator.
  await fx.addFile(A, 'Init/i [P35].pdf');
  await fx.share({ owner: A, initiator: 'erin', fileId: await fx.addFolder(A, 'Init'), type: 'group', with: 'egrp' });
  // A pending group share accepted through frank's override row.
  await fx.addFile(A, 'PendG2/p [P36].pdf');
  const pg2 = await fx.share({ owner: A, fileId: await fx.addFolder(A, 'PendG2'), type: 'group', with: 'pend', accepted: 0 });
  await fx.overrideGroupShare(pg2, 'frank', { accepted: 1 });
  // A group share bob rejected through his override row.
  await fx.addFile(A, 'Rej2/r [P37].pdf');
  const rej2 = await fx.share({ owner: A, fileId: await fx.addFolder(A, 'Rej2'), type: 'group', with: 'acct' });
  await fx.overrideGroupShare(rej2, 'bob', { accepted: 2 });
  // Link and e-mail shares do not mount; circle/room/deck are unsupported.
  await fx.addFile(A, 'Link/l [P38].pdf');
  const link = await fx.addFolder(A, 'Link');
  await fx.share({ owner: A, fileId: link, type: 'link' });
  await fx.share({ owner: A, fileId: link, type: 'email', with: 'bob@example.com' });
  await fx.addFile(A, 'Apps/a [P39].pdf');
  const apps = await fx.addFolder(A, 'Apps');
  for (const type of ['circle', 'room', 'deck'] as const) await fx.share({ owner: A, fileId: apps, type, with: 'bob' });
  // Path-prefix boundary: /Arch shared, /Archive2 not.
  await fx.addFile(A, 'Arch/x [P40].pdf');
  await fx.addFile(A, 'Arch2/y [P41].pdf');
  await fx.share({ owner: A, fileId: await fx.addFolder(A, 'Arch'), type: 'user', with: 'bob', target: '/Arch' });
  // Two shares of nested nodes: two paths for one file.
  await fx.addFile(A, 'Deep/Sub/z [P42].pdf');
  await fx.share({ owner: A, fileId: await fx.addFolder(A, 'Deep'), type: 'user', with: 'erin', target: '/Deep' });
  await fx.share({ owner: A, fileId: await fx.addFolder(A, 'Deep/Sub'), type: 'user', with: 'erin', target: '/A-Sub' });
  // Two files carry one marker: the older (smaller file id) is the answer.
  await fx.addFile(A, 'Dup/first [P43].pdf');
  await fx.addFile(A, 'Dup/second [P43].pdf');
  // A share whose recipient later moved it into a subfolder with a trailing slash in the target.
  await fx.addFile(A, 'Slash/s [P44].pdf');
  await fx.share({ owner: A, fileId: await fx.addFolder(A, 'Slash'), type: 'user', with: 'gina', target: '/In/Slash/' });
  // Another account's file with an archive marker, shared with bob by its owner (question 3).
  const carols = await fx.addFile('carol', 'Copies/copy [P17].pdf');
  await fx.share({ owner: 'carol', fileId: carols, type: 'user', with: 'bob' });
  // Disabled accounts open nothing: a share to the disabled judy; an LDAP account marked gone.
  await fx.addFile(A, 'ForJudy/j [P45].pdf');
  await fx.share({ owner: A, fileId: await fx.addFolder(A, 'ForJudy'), type: 'user', with: 'judy' });
  await fx.addUser('leo');
  await fx.setUserPreference('leo', 'user_ldap', 'isDeleted', '1');
  await fx.addFile(A, 'ForLeo/l [P46].pdf');
  await fx.share({ owner: A, fileId: await fx.addFolder(A, 'ForLeo'), type: 'user', with: 'leo' });
  await fx.addFile('leo', 'own [P46].pdf');
  // A file with a marker in a folder of the same name prefix in another user's storage: never A's.
  await fx.addFile('dave', 'Invoices/inv [P1].pdf');
}
