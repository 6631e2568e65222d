/**
 * `files_sharing`/`hide_disabled_user_shares`: whether Nextcloud hides shares whose owner or
 * resharer is disabled. How the value is read, and what a missing key means, depend on the
 * release (docs/host-adapter.md, "Shares of a disabled owner or resharer").
 */

import { msg, type Message } from '../../i18n/catalog.js';
import { releaseOf } from './release.js';

/** Values every release reads as "show": an explicit false. */
const SHOWN_DISABLED: ReadonlySet<string> = new Set(['no', 'false', '0', 'off', '']);

/**
 * Releases whose source was read and which read the key as `getAppValue(…, 'no') === 'yes'`:
 * a missing key shows such shares, and only the literal `yes` hides them (33.0.1 and 34.0.1
 * `lib/private/Share20/Manager.php` `checkShare`, lines 1484 and 1502). Releases below 33 are
 * not supported (31.0.2 read so too, but its tree is no longer at hand): read as unknown.
 */
function readsLiteralYes(hostVersion: string | null): boolean {
  const release = releaseOf(hostVersion);
  if (release === null) return false;
  const { major, minor, patch } = release;
  return (major === 33 || major === 34) && minor === 0 && patch === 1;
}

/**
 * Whether the host hides shares whose owner or resharer is disabled. On a release read to
 * compare with `yes`, exactly that. On any other or an unknown release (server PR #62092,
 * backported to 30–34 in patch releases not known here, made the default `yes` and reads the
 * value as a boolean), an explicit false value shows them and anything else, a missing key
 * included, hides them: the side that cannot leak.
 */
export function hidesDisabledUserShares(value: string | undefined, hostVersion: string | null): boolean {
  if (readsLiteralYes(hostVersion)) return value === 'yes';
  return value === undefined || !SHOWN_DISABLED.has(value);
}

/**
 * What an explanation adds when the rule above hid the shares without knowing the release: a
 * missing key, and config.php's `version` unread (a database URL given) or not one read here.
 */
export function hidingAssumed(value: string | undefined, hostVersion: string | null): Message | null {
  if (value !== undefined || readsLiteralYes(hostVersion)) return null;
  return hostVersion === null ? msg('why.assumed.unknown_release') : msg('why.assumed.unread_release', { version: hostVersion });
}
