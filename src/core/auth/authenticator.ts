import { createHash, createHmac, randomBytes } from 'node:crypto';
import { accountsWithEmail } from '../host/account-email.js';
import type { HostAdapter } from '../host/types.js';
import { appTokenOwner } from './app-token.js';
import { decoyLike, spendDecoyCheck, verifyPasswordHash } from './password-hash.js';

/** Who a request acts as, and how it proved it. */
export interface Principal {
  readonly uid: string;
  readonly admin: boolean;
  /** `password`: the login password (counts as a fresh password confirmation); `app-password` does not. */
  readonly via: 'password' | 'app-password' | 'session' | 'bridge';
  /**
   * For a login password: a fingerprint of the stored hash, kept in a session so that a
   * changed password (a new hash) ends the sessions started with the old one, as the host does.
   */
  readonly passwordFingerprint?: string;
  /** The language Nextcloud shows this account in (forced, its own `core`/`lang`, else `default_language`); null: none set. */
  readonly language?: string | null;
}

function fingerprintOf(storedHash: string): string {
  return createHash('sha256').update(storedHash).digest('hex');
}

export interface AuthenticatorOptions {
  /** config.php `passwordsalt`, used only by legacy 60-character hashes. */
  readonly legacySalt?: string;
  readonly now?: () => number;
}

interface UserRow {
  readonly uid: string;
  readonly password: string | null;
  [column: string]: unknown;
}

/** How long a verified login password is remembered (keyed by its stored hash too). */
const VERIFIED_TTL_MS = 60_000;
const VERIFIED_MAX = 1000;

/** The forms the host writes, newest first: the decoy copies the one its accounts use. */
const HASH_FORMS = ['3|%', '2|%', '1|%'] as const;

/**
 * Checks a login and a password (or app password) against the host database. Every refusal
 * (unknown login, wrong password, disabled account, bad token) is the same `null`, and an
 * unknown login costs a check against a decoy hash with the host's own algorithm and cost,
 * so neither answer nor timing tells whether a user exists.
 */
export class Authenticator {
  private readonly legacySalt: string;
  private readonly now: () => number;
  /**
   * Scripts send Basic auth on every call and argon2id costs the host's work per check. A
   * success is remembered briefly under an HMAC with a per-process key of uid, stored hash
   * and password: a changed password (new hash) or another password never matches.
   */
  private readonly verified = new Map<string, number>();
  private readonly verifiedKey = randomBytes(32);
  private decoy: Promise<string> | undefined;

  constructor(
    private readonly host: HostAdapter,
    options: AuthenticatorOptions = {},
  ) {
    this.legacySalt = options.legacySalt ?? '';
    this.now = options.now ?? Date.now;
  }

  /** The full check: app password, else the login password (a hash check, or the decoy's). */
  authenticate(login: string, password: string): Promise<Principal | null> {
    return this.check(login, password, true);
  }

  /**
   * The login when it needs no hash check: an app password, or a login password verified in
   * the last minute. Null says only "not quick": the full check decides, under the throttle.
   */
  quickLogin(login: string, password: string): Promise<Principal | null> {
    return this.check(login, password, false);
  }

  private async check(login: string, password: string, hashCheck: boolean): Promise<Principal | null> {
    if (login === '' || password === '' || login.length > 255 || password.length > 4096) return null;
    const tokenUid = await appTokenOwner(this.host.sql, this.host.instanceSecret, login, password, Math.floor(this.now() / 1000));
    if (tokenUid !== null) return this.principal(tokenUid, 'app-password');

    const sql = this.host.sql;
    const byLogin = (await sql.query<UserRow>(`SELECT uid, password FROM ${sql.prefix}users WHERE uid_lower = ?`, [login.toLowerCase()]))[0];
    let verified = byLogin === undefined ? 'unknown' : await this.passwordMatches(byLogin, password, hashCheck);
    let row = byLogin;
    if (verified !== 'yes' && login.includes('@')) {
      // As the host's login: a failed login that is the e-mail address of exactly one other account logs in as that account.
      const other = await this.accountByEmail(login);
      if (other !== undefined && other.uid !== login) {
        row = other;
        verified = await this.passwordMatches(other, password, hashCheck);
      }
    }
    if (verified === 'unknown' && hashCheck) await spendDecoyCheck(password, await this.decoyHash());
    if (verified !== 'yes' || row === undefined || row.password === null) return null;
    const principal = await this.principal(row.uid, 'password');
    return principal === null ? null : { ...principal, passwordFingerprint: fingerprintOf(row.password) };
  }

  /**
   * `unknown`: no password to check (the caller spends a decoy check instead); `no` also when
   * only a hash check could tell and the caller asked for none (the quick path).
   */
  private async passwordMatches(row: UserRow, password: string, hashCheck: boolean): Promise<'yes' | 'no' | 'unknown'> {
    if (row.password === null || row.password === '') return 'unknown';
    const remembered = createHmac('sha256', this.verifiedKey).update(`${row.uid}\0${row.password}\0${password}`).digest('hex');
    const until = this.verified.get(remembered);
    if (until !== undefined && until >= this.now()) return 'yes';
    if (!hashCheck || !(await verifyPasswordHash(password, row.password, this.legacySalt))) return 'no';
    if (this.verified.size >= VERIFIED_MAX) this.verified.clear();
    this.verified.set(remembered, this.now() + VERIFIED_TTL_MS);
    return 'yes';
  }

  /** The one account whose e-mail address (`settings`/`email`, compared case-insensitively as the host does) is `email`. */
  private async accountByEmail(email: string): Promise<UserRow | undefined> {
    const rows = await accountsWithEmail(this.host.sql, email);
    return rows.length === 1 ? rows[0] : undefined;
  }

  /** The decoy an unknown login is checked against, made once from a hash the host stored. */
  decoyHash(): Promise<string> {
    // A failed look-up is tried again at the next unknown login, with the bcrypt decoy meanwhile.
    this.decoy ??= this.sampleHash().then(decoyLike, () => {
      this.decoy = undefined;
      return decoyLike(null);
    });
    return this.decoy;
  }

  private async sampleHash(): Promise<string | null> {
    const sql = this.host.sql;
    for (const form of HASH_FORMS) {
      const rows = await sql.query<UserRow>(`SELECT uid, password FROM ${sql.prefix}users WHERE password LIKE ? LIMIT 1`, [form]);
      const stored = rows[0]?.password;
      if (typeof stored === 'string') return stored;
    }
    return null;
  }

  /**
   * The principal of a uid a session names, re-checked on every request: a deleted or
   * disabled account, or a password changed since the session began, ends the session.
   */
  async sessionPrincipal(uid: string, passwordFingerprint: string): Promise<Principal | null> {
    const sql = this.host.sql;
    const rows = await sql.query<UserRow>(`SELECT uid, password FROM ${sql.prefix}users WHERE uid = ?`, [uid]);
    const stored = rows[0]?.password;
    if (typeof stored !== 'string' || fingerprintOf(stored) !== passwordFingerprint) return null;
    return this.principal(uid, 'session');
  }

  /** The user a signed bridge call names: it must exist and be enabled, as for every other caller. */
  bridgePrincipal(uid: string): Promise<Principal | null> {
    return this.principal(uid, 'bridge');
  }

  private async principal(uid: string, via: Principal['via']): Promise<Principal | null> {
    const account = await this.host.findAccount(uid);
    if (account === null || !account.enabled) return null;
    return { uid: account.uid, admin: await this.host.isAdmin(account.uid), via, language: account.language };
  }
}
