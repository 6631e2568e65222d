import { msg, type Message } from '../i18n/catalog.js';

/**
 * The newest Paperless-ngx release line whose sources this version was checked against
 * (docs/archive-client.md "Releases"). A newer one is searched with its rules (`termReaderOf`
 * reads every later release as whoosh-compat, as 3.2), and `test`, `check` and the overview check
 * say so as information: nothing is wrong, but nobody has read what the newer release changed.
 */
export const NEWEST_CHECKED_RELEASE = { major: 3, minor: 2 } as const;

/** `3.3.0`, `4.0.0-beta.rc1` → true; `3.2.1`, `2.20.15`, anything that names no release → false. */
export function isNewerThanChecked(version: string | null | undefined): boolean {
  const release = /^(\d+)\.(\d+)/.exec(version ?? '');
  if (release === null) return false;
  const major = Number(release[1]);
  const minor = Number(release[2]);
  return major > NEWEST_CHECKED_RELEASE.major || (major === NEWEST_CHECKED_RELEASE.major && minor > NEWEST_CHECKED_RELEASE.minor);
}

/** The information line for a release newer than the checked ones, or null for any other. */
export function newerReleaseNote(version: string | null | undefined): Message | null {
  if (version === null || version === undefined || !isNewerThanChecked(version)) return null;
  return msg('overview.newer_release', { version, newest: `${NEWEST_CHECKED_RELEASE.major}.${NEWEST_CHECKED_RELEASE.minor}` });
}
