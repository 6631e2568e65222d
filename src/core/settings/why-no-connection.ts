import { DusError } from '../errors.js';
import { storedTokenFor } from './token-rule.js';
import type { CredentialStore, SettingsStore } from './types.js';

/**
 * Why the stored settings give no connection to the archive server, with one code per
 * condition for every command and route (docs/search.md, "One code per condition"): no URL is
 * `not_configured`; no token, or one that can't be decrypted, is the spec's `token_required`; a
 * token saved for another server is `token_for_other_server`.
 */
export function whyNoConnection(settings: SettingsStore, credentials: CredentialStore): DusError {
  const url = settings.readWithoutRefusedUrl().docs_url;
  if (url === undefined) return new DusError('not_configured', 'No archive server is configured: run setup --url=URL --token-stdin.');
  // A stored URL the rules refuse throws here with the rule's code (e.g. unsupported_scheme).
  settings.read();
  try {
    storedTokenFor(credentials.load(), url);
  } catch (error: unknown) {
    if (error instanceof DusError) return new DusError(error.code, `${error.message} Run setup again with --token-stdin or --token-env=NAME.`);
    throw error;
  }
  return new DusError('not_configured', 'The settings are incomplete: run setup again.');
}
