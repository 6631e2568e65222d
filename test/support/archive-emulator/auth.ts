import type { VersionProfile } from './profiles.js';

/** Who a request is, as DRF's authentication classes decide it (reference §2). */
export type Identity =
  /** `userId` null: a superuser, who sees every document. */
  | { readonly kind: 'user'; readonly canView: ReadonlySet<ViewModel>; readonly userId: number | null }
  | { readonly kind: 'anonymous' }
  | { readonly kind: 'failed'; readonly detail: string };

import type { ViewModel } from './types.js';

const EVERY_MODEL: ReadonlySet<ViewModel> = new Set(['documents', 'correspondents', 'document_types']);

export interface TokenBook {
  readonly tokens: readonly string[];
  readonly forbiddenTokens: readonly string[];
  readonly users: Readonly<Record<string, number>>;
  readonly permissions: Readonly<Record<string, readonly ViewModel[]>>;
}

/**
 * PaperlessBasicAuthentication runs first, then TokenAuthentication; a scheme neither
 * knows (Bearer, …) leaves the request anonymous. Basic logins are not emulated: every
 * Basic credential is refused as a wrong password.
 */
export function authenticate(authorization: string | undefined, book: TokenBook): Identity {
  const parts = (authorization ?? '').split(/\s+/).filter((p) => p !== '');
  const scheme = parts[0]?.toLowerCase();
  if (scheme === 'basic') {
    if (parts.length === 1) return { kind: 'failed', detail: 'Invalid basic header. No credentials provided.' };
    if (parts.length > 2) return { kind: 'failed', detail: 'Invalid basic header. Credentials string should not contain spaces.' };
    return { kind: 'failed', detail: 'Invalid username/password.' };
  }
  if (scheme !== 'token') return { kind: 'anonymous' };
  if (parts.length === 1) return { kind: 'failed', detail: 'Invalid token header. No credentials provided.' };
  if (parts.length > 2) return { kind: 'failed', detail: 'Invalid token header. Token string should not contain spaces.' };
  const key = parts[1] ?? '';
  const userId = Object.hasOwn(book.users, key) ? (book.users[key] ?? null) : null;
  const granted = Object.hasOwn(book.permissions, key) ? new Set(book.permissions[key]) : undefined;
  if (book.tokens.includes(key)) return { kind: 'user', canView: granted ?? EVERY_MODEL, userId };
  if (book.forbiddenTokens.includes(key)) return { kind: 'user', canView: granted ?? new Set(), userId };
  return { kind: 'failed', detail: 'Invalid token.' };
}

/** `WWW-Authenticate` of a 401: `Token` from 2.20.12 on unless the client tried Basic. */
export function challenge(authorization: string | undefined, profile: VersionProfile): string {
  const triedBasic = (authorization ?? '').toLowerCase().startsWith('basic ');
  return profile.tokenChallenge && !triedBasic ? 'Token' : 'Basic realm="api"';
}
