import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import bcrypt from 'bcryptjs';
import { argon2i, argon2id, argon2Verify } from 'hash-wasm';

/**
 * Checks a password against `oc_users.password` the way the host's Hasher does
 * (reference/nextcloud-db.md §9): `1|` bcrypt, `2|` argon2i, `3|` argon2id, and the legacy
 * unprefixed forms (60 characters: bcrypt of password + `passwordsalt`; 40: sha1).
 * Read-only: the host would rehash on success, this never writes.
 */
export async function verifyPasswordHash(password: string, stored: string, legacySalt = ''): Promise<boolean> {
  const bar = stored.indexOf('|');
  if (bar > 0) {
    const version = stored.slice(0, bar);
    const hash = stored.slice(bar + 1);
    if (version === '1') return verifyBcrypt(password, hash);
    if (version === '2' || version === '3') return verifyArgon2(password, hash);
    return false;
  }
  if (stored.length === 60) return verifyBcrypt(password + legacySalt, stored);
  if (stored.length === 40) return sameText(createHash('sha1').update(password, 'utf8').digest('hex'), stored.toLowerCase());
  return false;
}

async function verifyBcrypt(password: string, hash: string): Promise<boolean> {
  // PHP writes `$2y$`; bcryptjs knows the identical algorithm as `$2b$`.
  const normalised = hash.startsWith('$2y$') ? `$2b$${hash.slice(4)}` : hash;
  if (!/^\$2[abxy]\$\d\d\$[./A-Za-z0-9]{53}$/.test(normalised)) return false;
  return bcrypt.compare(password, normalised);
}

async function verifyArgon2(password: string, hash: string): Promise<boolean> {
  if (!hash.startsWith('$argon2')) return false;
  try {
    return await argon2Verify({ password, hash });
  } catch {
    // A malformed PHC string is a failed login, not a server error.
    return false;
  }
}

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a, 'utf8');
  const right = Buffer.from(b, 'utf8');
  return left.length === right.length && timingSafeEqual(left, right);
}

/** Work comparable to a bcrypt check, for a host whose stored hashes name no known form. */
const FALLBACK_DECOY = '1|$2b$10$V441.E.ycGTrd84B7lkFoutfGsul8lwZkN1KWZS97vfP5s4DpPULW';

/**
 * A hash of a random password in the same form and with the same cost parameters as
 * `sample` (a hash the host stored), so that checking a password against it costs what a
 * wrong password for a real account costs: an unknown login then takes as long as a known one.
 */
export async function decoyLike(sample: string | null): Promise<string> {
  const password = randomBytes(18).toString('base64');
  const bcryptCost = /^1\|\$2[abxy]\$(\d\d)\$/.exec(sample ?? '')?.[1];
  if (bcryptCost !== undefined) return `1|${await bcrypt.hash(password, Number(bcryptCost))}`;
  const argon = /^([23])\|\$(argon2id|argon2i)\$v=19\$m=(\d{1,7}),t=(\d{1,3}),p=(\d{1,3})\$/.exec(sample ?? '');
  if (argon !== null) {
    const [, version, kind, memory, iterations, parallelism] = argon;
    const hash = kind === 'argon2id' ? argon2id : argon2i;
    const encoded = await hash({
      password,
      salt: randomBytes(16),
      memorySize: Number(memory),
      iterations: Number(iterations),
      parallelism: Number(parallelism),
      hashLength: 32,
      outputType: 'encoded',
    });
    return `${version ?? '3'}|${encoded}`;
  }
  return FALLBACK_DECOY;
}

/** Spends a check against a decoy hash; the answer is thrown away. */
export async function spendDecoyCheck(password: string, decoy: string): Promise<void> {
  await verifyPasswordHash(password, decoy).catch(() => false);
}
