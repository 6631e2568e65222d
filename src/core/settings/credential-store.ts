import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from '../log.js';
import { LOG_MESSAGES } from '../log.js';
import { nodeCrypto } from '../node-crypto.js';
import { writePrivateFileAtomic } from '../fs/atomic-file.js';
import { errnoOf, fileAccessError, withFileAccess } from './file-access.js';
import { ensureInstanceSecret, readInstanceSecret } from './instance-secret.js';
import { settledStamp, StampedValue } from './file-stamp.js';
import { CREDENTIALS_FILE, SECRET_FILE } from './paths.js';
import type { CredentialSnapshot, CredentialStore, StoredToken } from './types.js';

/** The name the host's credentials manager would hold the token under. */
export const TOKEN_KEY = 'docs_unified_search.api-token';

interface TokenRecord {
  readonly v: 1;
  readonly key: typeof TOKEN_KEY;
  readonly origin: string;
  readonly salt: string;
  readonly iv: string;
  readonly tag: string;
  readonly data: string;
}

function deriveKey(secret: Buffer, salt: Buffer): Buffer {
  return Buffer.from(nodeCrypto().hkdfSync('sha256', secret, salt, TOKEN_KEY, 32));
}

/** The origin is authenticated data: a record moved to another server's origin does not decrypt. */
function additionalData(origin: string): Buffer {
  return Buffer.from(`${TOKEN_KEY}\n${origin}`, 'utf8');
}

function isRecord(value: unknown): value is TokenRecord {
  if (typeof value !== 'object' || value === null) return false;
  const r = value as Record<string, unknown>;
  return r.v === 1 && r.key === TOKEN_KEY && ['origin', 'salt', 'iv', 'tag', 'data'].every((f) => typeof r[f] === 'string');
}

export interface CredentialStoreOptions {
  readonly directory: string;
  readonly env: NodeJS.ProcessEnv;
  readonly logger?: Logger;
}

/**
 * The API token, AES-256-GCM encrypted with a key derived (HKDF-SHA256) from the instance
 * secret, in `<dir>/credentials.json` (mode 0600, written atomically). The record names the
 * origin it was saved for, and that origin is bound into the authentication tag.
 */
export class FileCredentialStore implements CredentialStore {
  readonly path: string;
  readonly #options: CredentialStoreOptions;
  #warned = false;
  /**
   * The record and secret last decrypted, with their token: key derivation and decryption cost
   * more than the rest of a warm search's own steps.
   */
  #lastDecrypted: { readonly text: string; readonly secret: Buffer; readonly token: StoredToken } | undefined;
  /**
   * The last answer of `load()`, kept under the stamps of both files it came from (the secret
   * given by `DUS_SECRET` instead: its value). While neither changed, a warm search looks at
   * their stamps (two stat calls) instead of reading and parsing both files.
   */
  readonly #lastLoad = new StampedValue<StoredToken>();

  constructor(options: CredentialStoreOptions) {
    this.#options = options;
    this.path = join(options.directory, CREDENTIALS_FILE);
  }

  load(): StoredToken {
    return this.#lastLoad.get(
      () => this.#filesKey(),
      () => this.#loadFromFiles(),
    );
  }

  /** The stamps of the record and the secret (or DUS_SECRET), or null when a file is missing or unsettled. */
  #filesKey(): string | null {
    const record = settledStamp(this.path);
    if (record === null) return null;
    const envSecret = this.#envSecret();
    if (envSecret !== undefined) return JSON.stringify([record, 'DUS_SECRET', envSecret]);
    const secret = settledStamp(join(this.#options.directory, SECRET_FILE));
    return secret === null ? null : JSON.stringify([record, secret]);
  }

  /** `DUS_SECRET` when it gives the secret (it then wins over the file). */
  #envSecret(): string | undefined {
    const fromEnv = this.#options.env.DUS_SECRET;
    return fromEnv === undefined || fromEnv === '' ? undefined : fromEnv;
  }

  #loadFromFiles(): StoredToken {
    const text = this.#readRecord();
    if (text === null) return { status: 'none' };
    const token = this.#decrypt(text);
    if (token === null) {
      this.#warnOnce();
      return { status: 'unreadable' };
    }
    return token;
  }

  save(token: string, origin: string): void {
    const secret = ensureInstanceSecret(this.#options.directory, this.#options.env);
    const { createCipheriv, randomBytes } = nodeCrypto();
    const salt = randomBytes(16);
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', deriveKey(secret, salt), iv);
    cipher.setAAD(additionalData(origin));
    const data = Buffer.concat([cipher.update(token, 'utf8'), cipher.final()]);
    const record: TokenRecord = {
      v: 1,
      key: TOKEN_KEY,
      origin,
      salt: salt.toString('base64'),
      iv: iv.toString('base64'),
      tag: cipher.getAuthTag().toString('base64'),
      data: data.toString('base64'),
    };
    this.#write(`${JSON.stringify(record)}\n`);
  }

  delete(): void {
    withFileAccess(this.path, 'write', () => rmSync(this.path, { force: true }));
  }

  snapshot(): CredentialSnapshot {
    return { record: this.#readRecord() };
  }

  restore(snapshot: CredentialSnapshot): void {
    if (snapshot.record === null) this.delete();
    else this.#write(snapshot.record);
  }

  #write(text: string): void {
    withFileAccess(this.path, 'write', () => writePrivateFileAtomic(this.path, text));
  }

  #readRecord(): string | null {
    try {
      return readFileSync(this.path, 'utf8');
    } catch (error: unknown) {
      if (errnoOf(error) === 'ENOENT') return null;
      throw fileAccessError(error, this.path, 'read') ?? error;
    }
  }

  #decrypt(text: string): StoredToken | null {
    let record: unknown;
    try {
      record = JSON.parse(text);
    } catch {
      return null;
    }
    if (!isRecord(record)) return null;
    const secret = readInstanceSecret(this.#options.directory, this.#options.env);
    if (secret === null) return null;
    const last = this.#lastDecrypted;
    if (last !== undefined && last.text === text && last.secret.equals(secret)) return last.token;
    try {
      const decipher = nodeCrypto().createDecipheriv('aes-256-gcm', deriveKey(secret, Buffer.from(record.salt, 'base64')), Buffer.from(record.iv, 'base64'));
      decipher.setAAD(additionalData(record.origin));
      decipher.setAuthTag(Buffer.from(record.tag, 'base64'));
      const token = Buffer.concat([decipher.update(Buffer.from(record.data, 'base64')), decipher.final()]).toString('utf8');
      const stored: StoredToken = { status: 'ok', token, origin: record.origin };
      this.#lastDecrypted = { text, secret, token: stored };
      return stored;
    } catch {
      return null;
    }
  }

  #warnOnce(): void {
    if (this.#warned) return;
    this.#warned = true;
    this.#options.logger?.warn(LOG_MESSAGES.tokenUnreadable());
  }
}
