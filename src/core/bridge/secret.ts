import { randomBytes } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { writePrivateFileAtomic } from '../fs/atomic-file.js';

/** The file in the settings directory that holds the bridge's shared secret (mode 0600). */
export const BRIDGE_SECRET_FILE = 'bridge-secret';

/** 32 random bytes, base64url: 43 characters the host stores as one app config value. */
const SECRET_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export function bridgeSecretPath(directory: string): string {
  return join(directory, BRIDGE_SECRET_FILE);
}

/** The stored secret, or null when `bridge:secret` has not made one (or the file holds no secret). */
export function readBridgeSecret(directory: string): string | null {
  try {
    const text = readFileSync(bridgeSecretPath(directory), 'utf8').trim();
    return SECRET_PATTERN.test(text) ? text : null;
  } catch (error: unknown) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/**
 * The secret, made when there is none or when `rotate` asks for a new one. Written whole by a
 * rename (a serve process reading it at that moment sees the old or the new one, never a part).
 */
export function ensureBridgeSecret(directory: string, rotate: boolean): { readonly secret: string; readonly created: boolean } {
  const existing = rotate ? null : readBridgeSecret(directory);
  if (existing !== null) return { secret: existing, created: false };
  const secret = randomBytes(32).toString('base64url');
  writePrivateFileAtomic(bridgeSecretPath(directory), `${secret}\n`);
  return { secret, created: true };
}

/**
 * The secret as a long-running process sees it: read again when the file changes, so that a
 * rotation (`bridge:secret --rotate`) takes effect without a restart. One `stat` per call.
 */
export function watchedBridgeSecret(directory: string): () => string | null {
  let seen: { readonly stamp: string; readonly secret: string | null } | undefined;
  return () => {
    let stamp: string;
    try {
      const stat = statSync(bridgeSecretPath(directory));
      stamp = `${stat.ino}:${stat.mtimeMs}:${stat.size}`;
    } catch (error: unknown) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
    if (seen?.stamp !== stamp) seen = { stamp, secret: readBridgeSecret(directory) };
    return seen.secret;
  };
}
