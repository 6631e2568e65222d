import { linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { nodeCrypto } from '../node-crypto.js';
import { temporaryPath } from '../fs/atomic-file.js';
import { errnoOf, fileAccessError, withFileAccess } from './file-access.js';
import { SECRET_FILE } from './paths.js';

/**
 * The instance secret the credential store derives its key from: `DUS_SECRET`, else the
 * `secret` file (mode 0600) in the settings directory, created at the first save of a token.
 * Like the host's config.php `secret`: changing it makes the stored token unreadable.
 */
export function readInstanceSecret(directory: string, env: NodeJS.ProcessEnv): Buffer | null {
  const fromEnv = env.DUS_SECRET;
  if (fromEnv !== undefined && fromEnv !== '') return Buffer.from(fromEnv, 'utf8');
  const path = join(directory, SECRET_FILE);
  try {
    const text = readFileSync(path, 'utf8').trim();
    return text === '' ? null : Buffer.from(text, 'utf8');
  } catch (error: unknown) {
    if (errnoOf(error) === 'ENOENT') return null;
    throw fileAccessError(error, path, 'read') ?? error;
  }
}

/** The secret, creating the file when there is none; two processes creating it at once agree on one. */
export function ensureInstanceSecret(directory: string, env: NodeJS.ProcessEnv): Buffer {
  const existing = readInstanceSecret(directory, env);
  if (existing !== null) return existing;
  const path = join(directory, SECRET_FILE);
  withFileAccess(path, 'write', () => {
    mkdirSync(directory, { recursive: true, mode: 0o700 });
    // A complete temporary file linked into place: the secret appears whole or not at all.
    const temporary = temporaryPath(path);
    writeFileSync(temporary, `${nodeCrypto().randomBytes(32).toString('base64url')}\n`, { mode: 0o600, flush: true });
    try {
      linkSync(temporary, path);
    } catch (error: unknown) {
      if (errnoOf(error) !== 'EEXIST') throw error;
    } finally {
      rmSync(temporary, { force: true });
    }
  });
  const created = readInstanceSecret(directory, env);
  if (created === null) throw new Error(`The instance secret ${join(directory, SECRET_FILE)} is empty.`);
  return created;
}
