import { DusError } from '../errors.js';
import { msg } from '../i18n/catalog.js';
import type { StoredToken } from './types.js';
import { originOf } from './url-rules.js';

/**
 * The spec's rule for using the stored token (Authentication 5, setup Rule 3): only for the
 * server it was saved for. Returns the token or the coded reason it cannot be used.
 */
export function storedTokenFor(stored: StoredToken, url: string): string {
  if (stored.status === 'none') {
    throw new DusError('token_required', msg('token_required.none'));
  }
  if (stored.status === 'unreadable') {
    throw new DusError('token_required', msg('token_required.unreadable'));
  }
  if (stored.origin !== originOf(url)) {
    throw new DusError('token_for_other_server', msg('token_for_other_server.origin'));
  }
  return stored.token;
}
