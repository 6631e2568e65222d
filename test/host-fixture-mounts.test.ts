/**
 * oc_mounts in the host fixture as Nextcloud 34.0.1 has it: mount_point_hash required, xxh128 of
 * the mount point (the value below is PHP's hash('xxh128', '/anna/files/Sub/')), and one row per
 * (user, mount point, root).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createHostFixture, mountPointHash, SHARE_MOUNT_PROVIDER, type HostFixture } from './support/host-fixtures/index.js';

describe('oc_mounts rows of the host fixture', () => {
  let fx: HostFixture;
  beforeAll(async () => {
    fx = await createHostFixture('sqlite');
    await fx.addUser('anna');
    await fx.addUser('bob');
  });
  afterAll(async () => {
    await fx.drop();
  });

  it("hashes a mount point as Nextcloud 34.0.1's UserMountCache does", async () => {
    expect(await mountPointHash('/anna/files/Sub/')).toBe('fd31e1d8dd578005e6b761e8fd2c3a30');
  });

  it('writes the hash with the row, and refuses a second row for the same user, mount point and root', async () => {
    const sub = await fx.addFolder('bob', 'Sub');
    await fx.addMount('anna', '/anna/files/Sub/', sub);
    expect(await fx.all('SELECT user_id, mount_point, mount_point_hash, mount_provider_class, root_id FROM oc_mounts')).toEqual([
      {
        user_id: 'anna',
        mount_point: '/anna/files/Sub/',
        mount_point_hash: 'fd31e1d8dd578005e6b761e8fd2c3a30',
        mount_provider_class: SHARE_MOUNT_PROVIDER,
        root_id: sub,
      },
    ]);
    await expect(fx.addMount('anna', '/anna/files/Sub/', sub)).rejects.toThrow(/UNIQUE/);
    await expect(fx.exec("INSERT INTO oc_mounts (storage_id, root_id, user_id, mount_point) VALUES (1, 1, 'anna', '/anna/')")).rejects.toThrow(/NOT NULL/);
  });
});
