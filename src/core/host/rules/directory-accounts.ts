/**
 * Accounts of user_ldap: what the directory's answer lets through, written once for every
 * question (the search, `why`, `who`, serve's logins). Nextcloud resolves an LDAP login by a
 * directory search (`User_LDAP::loginName2UserName`, `checkPassword`), so an entry gone from the
 * directory cannot log in from that moment, long before user_ldap marks it `isDeleted` (its
 * `CleanUp` job, `occ ldap:check-user`, its own failed login). And while the directory cannot be
 * reached, every password login fails (`Helper` asks it before each login). docs/host-adapter.md,
 * "Directory accounts".
 */
import { msg, type Message } from '../../i18n/catalog.js';

/**
 * What the directory answered for an account: its entry is there (`present`), is not (`gone`:
 * the DN read with the user filter found nothing), or the directory could not be asked
 * (`unreachable`: connection, TLS, bind or time-out). `null`: not an account of the directory.
 */
export type DirectoryPresence = 'present' | 'gone' | 'unreachable';

/** Lets through an account of the database, and an LDAP account whose entry the directory found; blocks `gone` and `unreachable` (the side that cannot leak). */
export function directoryLetsIn(presence: DirectoryPresence | null): boolean {
  return presence === null || presence === 'present';
}

/** The sentence `why` says of an account the directory keeps out (`why.directory.*`). */
export function explainDirectory(presence: Exclude<DirectoryPresence, 'present'>, user: string): Message {
  return presence === 'gone' ? msg('why.directory.gone', { user }) : msg('why.directory.unreachable', { user });
}
