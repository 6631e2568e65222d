import { createHash } from 'node:crypto';
import type { SqlClient } from '../host/types.js';

/** `oc_authtoken.type` values (IToken): 0 browser session, 1 app password, 2 remote wipe. */
const TOKEN_WIPE = 2;

interface TokenRow {
  readonly uid: string;
  readonly login_name: string | null;
  readonly type: number | string;
  readonly expires: number | string | null;
  readonly password_invalid: number | string | boolean | null;
  [column: string]: unknown;
}

/**
 * Finds the uid an app password (or session token) used as a password belongs to, with the
 * host's checks (reference/nextcloud-db.md §9): hash sha512(token + secret), fallback
 * without secret; not a wipe token; not expired; password still valid; login name matches.
 * Returns null for every refusal alike.
 */
export async function appTokenOwner(sql: SqlClient, instanceSecret: string | null, login: string, token: string, nowSeconds: number): Promise<string | null> {
  // The host's tokens are at least 22 characters; shorter passwords skip the lookup.
  if (token.length < 22) return null;
  const hashes = [
    createHash('sha512')
      .update(token + (instanceSecret ?? ''))
      .digest('hex'),
  ];
  if (instanceSecret !== null && instanceSecret !== '') hashes.push(createHash('sha512').update(token).digest('hex'));
  const placeholders = hashes.map(() => '?').join(', ');
  const rows = await sql.query<TokenRow>(
    `SELECT uid, login_name, type, expires, password_invalid FROM ${sql.prefix}authtoken WHERE token IN (${placeholders})`,
    hashes,
  );
  for (const row of rows) {
    if (Number(row.type) === TOKEN_WIPE) continue;
    const expires = row.expires === null ? 0 : Number(row.expires);
    if (expires !== 0 && expires < nowSeconds) continue;
    if (isTrue(row.password_invalid)) continue;
    if ((row.login_name ?? '').toLowerCase() !== login.toLowerCase()) continue;
    return row.uid;
  }
  return null;
}

function isTrue(value: number | string | boolean | null): boolean {
  return value === true || value === 1 || value === '1' || value === 't' || value === 'true';
}
