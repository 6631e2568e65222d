import { DusError } from '../errors.js';
import type { StoredToken } from './types.js';
import { originOf } from './url-rules.js';

/**
 * The spec's rule for using the stored token (Authentication 5, setup Rule 3): only for the
 * server it was saved for. Returns the token or the coded reason it cannot be used.
 */
export function storedTokenFor(stored: StoredToken, url: string): string {
  if (stored.status === 'none') {
    throw new DusError('token_required', 'No API token is stored: enter the API token of the archive server account the search should use.');
  }
  if (stored.status === 'unreadable') {
    throw new DusError('token_required', "The stored API token can't be decrypted (the instance secret changed): enter the API token again.");
  }
  if (stored.origin !== originOf(url)) {
    throw new DusError(
      'token_for_other_server',
      'The stored API token was saved for another server (scheme, host or port differ): enter the token for this server.',
    );
  }
  return stored.token;
}
