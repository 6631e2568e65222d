/**
 * The real-Nextcloud harness itself (test/support/real-nextcloud): install, occ, accounts,
 * WebDAV with file ids and owners, the OCS sharing API, trash, a shifted clock. Run inside the
 * SQLite conformance file, on its install (one install per database per run).
 */
import { beforeAll, describe, expect, it } from '@jest/globals';
import { existsSync } from 'node:fs';
import { mountPointHash } from '../support/host-fixtures/index.js';
import { passwordOf, type RealNextcloud } from '../support/real-nextcloud/index.js';
import { fixtureSchemaDifferences } from './fixture-schema.js';

export function harnessChecks(instance: () => RealNextcloud): void {
  describe('the real-Nextcloud harness', () => {
    let nc: RealNextcloud;
    beforeAll(() => {
      nc = instance();
    });

    it('answers occ and gives a database URL that exists', async () => {
      expect(await nc.occOk(['status', '--output=json'])).toContain('"installed":true');
      expect(nc.dbUrl).toMatch(/^sqlite:\/\/\/.+\.db$/);
      expect(existsSync(nc.dbUrl.slice('sqlite://'.length))).toBe(true);
      expect(existsSync(`${nc.serverDir}/occ`)).toBe(true);
    });

    it("gives the host fixture's tables the installed Nextcloud's schema, and the fixture's mount_point_hash is Nextcloud's", async () => {
      const { differences, absentFromReal } = await fixtureSchemaDifferences(nc.dbUrl.slice('sqlite://'.length));
      process.stdout.write(
        `harness (${nc.label}): fixture schema vs the installed one: ${differences.length === 0 ? 'the same' : differences.join('; ')}; not in the install: ${absentFromReal.join(', ') || 'nothing'}\n`,
      );
      // The fixture follows 34.0.1; another installed version (DUS_NEXTCLOUD_TARBALL) only prints what differs.
      if (nc.version === '34.0.1') expect(differences).toEqual([]);
      const mounts = await nc.rows('SELECT mount_point, mount_point_hash FROM oc_mounts');
      expect(mounts.length).toBeGreaterThan(0);
      for (const row of mounts) if (row.mount_point_hash !== null) expect(await mountPointHash(String(row.mount_point))).toBe(row.mount_point_hash);
    });

    it('creates accounts and shares a file, which the recipient sees with its owner and file id', async () => {
      const owner = await nc.createUser('h_owner');
      const anna = await nc.createUser('h_anna');
      await nc.createGroup('h_team');
      await nc.addToGroup('h_anna', 'h_team');
      await owner.mkdirs('Docs/Sub');
      await owner.put('Docs/Sub/Invoice [P1].pdf');
      const mine = (await owner.tree()).find((e) => e.name === 'Invoice [P1].pdf');
      expect(mine?.ownerId).toBe('h_owner');
      expect(typeof mine?.fileId).toBe('number');

      const share = await owner.share({ path: '/Docs', type: 'group', with: 'h_team' });
      const seen = (await anna.tree()).find((e) => e.name === 'Invoice [P1].pdf');
      expect(seen).toMatchObject({ path: 'Docs/Sub/Invoice [P1].pdf', ownerId: 'h_owner', fileId: mine?.fileId });

      await anna.move('Docs', 'Renamed');
      expect((await anna.tree()).some((e) => e.path === 'Renamed/Sub/Invoice [P1].pdf')).toBe(true);
      await anna.deleteShare(share.id);
      expect((await anna.tree()).some((e) => e.name === 'Invoice [P1].pdf')).toBe(false);
      expect((await owner.tree()).some((e) => e.name === 'Invoice [P1].pdf')).toBe(true);
    }, 120_000);

    it('moves to the trash and restores', async () => {
      const owner = nc.as('h_owner');
      await owner.delete('Docs/Sub/Invoice [P1].pdf');
      expect((await owner.tree()).some((e) => e.name === 'Invoice [P1].pdf')).toBe(false);
      expect((await owner.trash()).map((e) => e.trashName)).toContain('Invoice [P1].pdf');
      await owner.restore('Invoice [P1].pdf');
      expect((await owner.tree()).some((e) => e.path === 'Docs/Sub/Invoice [P1].pdf')).toBe(true);
    }, 60_000);

    it('holds pending shares when acceptance is on, and a disabled account cannot log in', async () => {
      await nc.occOk(['config:system:set', 'sharing.enable_share_accept', '--type=boolean', '--value=true']);
      try {
        const bert = await nc.createUser('h_bert');
        const share = await nc.as('h_owner').share({ path: '/Docs', type: 'user', with: 'h_bert' });
        expect((await bert.pendingShares()).map((s) => s.id)).toEqual([share.id]);
        expect((await bert.tree()).some((e) => e.path.startsWith('Docs'))).toBe(false);
        await bert.acceptShare(share.id);
        expect((await bert.tree()).some((e) => e.path === 'Docs/Sub/Invoice [P1].pdf')).toBe(true);
        await nc.setEnabled('h_bert', false);
        expect(await bert.canLogIn()).toBe(false);
        await nc.setEnabled('h_bert', true);
        expect(await bert.canLogIn()).toBe(true);
      } finally {
        await nc.occOk(['config:system:delete', 'sharing.enable_share_accept']);
      }
    }, 120_000);

    it('creates, through a server whose clock runs three days behind, a share that has already expired', async () => {
      const past = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
      const carl = await nc.createUser('h_carl');
      const behind = await nc.startClockedServer('-3d');
      try {
        await nc.as('h_owner').at(behind.url, passwordOf('h_owner')).share({ path: '/Docs', type: 'user', with: 'h_carl', expireDate: past });
      } finally {
        await behind.stop();
      }
      expect((await carl.tree()).some((e) => e.path.startsWith('Docs'))).toBe(false);
    }, 120_000);
  });
}
