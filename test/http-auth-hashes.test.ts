import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { createHash, randomBytes } from 'node:crypto';
import bcrypt from 'bcryptjs';
import { argon2i, argon2id } from 'hash-wasm';
import { decoyLike, verifyPasswordHash } from '../src/core/auth/password-hash.js';
import { fileIdOfLink } from '../src/core/auth/file-access.js';
import { call, startHarness, type Harness } from './support/http-harness.js';

const argon = async (fn: typeof argon2id, password: string): Promise<string> =>
  fn({ password, salt: randomBytes(16), parallelism: 1, iterations: 2, memorySize: 1024, hashLength: 32, outputType: 'encoded' });

describe('the host password hashes (oc_users.password)', () => {
  test('1| bcrypt as PHP writes it ($2y$)', async () => {
    const stored = `1|${bcrypt.hashSync('correct horse', 4).replace(/^\$2b\$/, '$2y$')}`;
    expect(stored.startsWith('1|$2y$')).toBe(true);
    await expect(verifyPasswordHash('correct horse', stored)).resolves.toBe(true);
    await expect(verifyPasswordHash('correct hors', stored)).resolves.toBe(false);
  });

  test('2| argon2i and 3| argon2id', async () => {
    await expect(verifyPasswordHash('pw-2', `2|${await argon(argon2i, 'pw-2')}`)).resolves.toBe(true);
    await expect(verifyPasswordHash('pw-3', `3|${await argon(argon2id, 'pw-3')}`)).resolves.toBe(true);
    await expect(verifyPasswordHash('pw-x', `3|${await argon(argon2id, 'pw-3')}`)).resolves.toBe(false);
  });

  test('legacy forms: 60-character bcrypt of password + passwordsalt, 40-character sha1', async () => {
    const legacyBcrypt = bcrypt.hashSync('old-pw' + 'instance-salt', 4);
    expect(legacyBcrypt).toHaveLength(60);
    await expect(verifyPasswordHash('old-pw', legacyBcrypt, 'instance-salt')).resolves.toBe(true);
    await expect(verifyPasswordHash('old-pw', legacyBcrypt, 'other-salt')).resolves.toBe(false);
    const sha1 = createHash('sha1').update('older-pw').digest('hex');
    await expect(verifyPasswordHash('older-pw', sha1)).resolves.toBe(true);
    await expect(verifyPasswordHash('older-pw ', sha1)).resolves.toBe(false);
  });

  test('unknown versions and damaged hashes are a failed check, not an error', async () => {
    const bcryptHash = bcrypt.hashSync('pw', 4);
    await expect(verifyPasswordHash('pw', `9|${bcryptHash}`)).resolves.toBe(false);
    await expect(verifyPasswordHash('pw', '3|$argon2id$v=19$garbage')).resolves.toBe(false);
    await expect(verifyPasswordHash('pw', '1|not-a-hash')).resolves.toBe(false);
    await expect(verifyPasswordHash('pw', '')).resolves.toBe(false);
  });
});

describe('the decoy an unknown login is checked against', () => {
  test("copies the form and cost of the host's hashes, and no password matches it", async () => {
    const argonDecoy = await decoyLike(`3|${await argon(argon2id, 'pw')}`);
    expect(argonDecoy).toMatch(/^3\|\$argon2id\$v=19\$m=1024,t=2,p=1\$/);
    const argoniDecoy = await decoyLike(`2|${await argon(argon2i, 'pw')}`);
    expect(argoniDecoy).toMatch(/^2\|\$argon2i\$v=19\$m=1024,t=2,p=1\$/);
    const bcryptDecoy = await decoyLike(`1|${bcrypt.hashSync('pw', 5).replace(/^\$2b\$/, '$2y$')}`);
    expect(bcryptDecoy).toMatch(/^1\|\$2b\$05\$/);
    await expect(verifyPasswordHash('pw', bcryptDecoy)).resolves.toBe(false);
    await expect(verifyPasswordHash('pw', argonDecoy)).resolves.toBe(false);
    // No sample (or an unknown form): a bcrypt check of the host's default cost.
    expect(await decoyLike(null)).toMatch(/^1\|\$2b\$10\$/);
    expect(await decoyLike('sha1-or-worse')).toMatch(/^1\|\$2b\$10\$/);
  });
});

describe('host file links', () => {
  test.each([
    ['https://cloud.example/f/42', 42],
    ['https://cloud.example/index.php/f/42', 42],
    ['https://cloud.example/apps/files/?dir=/x&fileid=42', 42],
    ['https://cloud.example/index.php/apps/files/files/42?openfile=42', 42],
    ['https://cloud.example/f/42x', null],
    ['https://cloud.example.evil/f/42', null],
    ['https://other.example/f/42', null],
  ])('%s → %s', (link, id) => {
    expect(fileIdOfLink(link, 'https://cloud.example')).toBe(id);
  });
});

describe('app passwords with the instance secret of config.php', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ configured: false, viaNextcloudDir: true });
  });
  afterAll(async () => {
    await h.close();
  });
  const insert = async (id: number, hash: string): Promise<void> => {
    await h.fixture.exec(
      'INSERT INTO oc_authtoken (id, uid, login_name, name, token, type, remember, last_activity, last_check, version, password_invalid) VALUES (?, ?, ?, ?, ?, 1, 0, 0, 0, 2, 0)',
      [id, 'admin', 'admin', 'script', hash],
    );
  };
  const sha512 = (text: string): string => createHash('sha512').update(text).digest('hex');

  test('sha512(token + secret) is found, and so is the no-secret fallback; a hash with another secret is not', async () => {
    const secret = 'fixture-secret-0123456789abcdef';
    await insert(1, sha512(`WithSecret-aaaa-bbbbb-ccccc-ddddd${secret}`));
    await insert(2, sha512('NoSecret-aaaaa-bbbbb-ccccc-ddddd'));
    await insert(3, sha512('OtherSecret-aa-bbbbb-ccccc-ddddd' + 'another-secret'));
    const get = (password: string) => call(h, 'GET', '/apps/docs_unified_search/settings', { basic: ['admin', password] });
    expect((await get('WithSecret-aaaa-bbbbb-ccccc-ddddd')).status).toBe(200);
    expect((await get('NoSecret-aaaaa-bbbbb-ccccc-ddddd')).status).toBe(200);
    expect((await get('OtherSecret-aa-bbbbb-ccccc-ddddd')).status).toBe(401);
  });
});
