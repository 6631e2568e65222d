import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Cache } from '../cache/types.js';

/** The host's password confirmation window (30 minutes) plus its 15 seconds of grace. */
export const CONFIRMATION_WINDOW_MS = 30 * 60 * 1000 + 15_000;
/** Idle lifetime of a browser session (the host's `session_lifetime` default, 24 hours). */
export const SESSION_TTL_MS = 24 * 60 * 60 * 1000;

export interface SessionRecord {
  readonly uid: string;
  /** Fingerprint of the password hash at login (see `Principal.passwordFingerprint`). */
  readonly passwordFingerprint: string;
  /** The CSRF token (`requesttoken`) of this session. */
  readonly csrfToken: string;
  /** When the password was last typed in this session; null never. */
  readonly passwordConfirmedAt: number | null;
}

/**
 * Server-side browser sessions in the shared cache, so that every wrapper process behind one
 * address knows them. The cookie carries a random id; the cache key is its SHA-256, so a look
 * into the cache does not hand out live session ids.
 */
export class SessionStore {
  constructor(
    private readonly cache: Cache,
    private readonly now: () => number = Date.now,
    private readonly ttlMs: number = SESSION_TTL_MS,
  ) {}

  /** A session for a login with the password (the login confirms it). */
  async create(uid: string, passwordFingerprint: string): Promise<{ readonly id: string; readonly record: SessionRecord }> {
    const id = randomBytes(32).toString('base64url');
    const record: SessionRecord = {
      uid,
      passwordFingerprint,
      csrfToken: randomBytes(32).toString('base64url'),
      passwordConfirmedAt: this.now(),
    };
    await this.cache.set(keyOf(id), record, this.ttlMs);
    return { id, record };
  }

  /** The session, its idle lifetime renewed; undefined when unknown or expired. */
  async get(id: string): Promise<SessionRecord | undefined> {
    if (!/^[A-Za-z0-9_-]{43}$/.test(id)) return undefined;
    const record = await this.cache.get<SessionRecord>(keyOf(id));
    if (record !== undefined) await this.cache.set(keyOf(id), record, this.ttlMs);
    return record;
  }

  async confirmPassword(id: string, record: SessionRecord): Promise<SessionRecord> {
    const confirmed: SessionRecord = { ...record, passwordConfirmedAt: this.now() };
    await this.cache.set(keyOf(id), confirmed, this.ttlMs);
    return confirmed;
  }

  async destroy(id: string): Promise<void> {
    await this.cache.delete(keyOf(id));
  }

  isConfirmed(record: SessionRecord): boolean {
    return record.passwordConfirmedAt !== null && this.now() - record.passwordConfirmedAt <= CONFIRMATION_WINDOW_MS;
  }
}

export function csrfTokenMatches(record: SessionRecord, presented: string | undefined): boolean {
  if (presented === undefined) return false;
  const expected = Buffer.from(record.csrfToken, 'utf8');
  const given = Buffer.from(presented, 'utf8');
  return expected.length === given.length && timingSafeEqual(expected, given);
}

function keyOf(id: string): string {
  return `auth:session:${createHash('sha256').update(id).digest('hex')}`;
}
