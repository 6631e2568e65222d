import { isClean, type Scrubber } from './token-scrub.js';
import type { ArchiveVersions } from './types.js';

/**
 * What a version header may hold to be stored (`docs_version`, `docs_api_version`) and shown
 * by `test`, `check`, `setupchecks`, the settings and overview routes. Anything else is taken
 * as absent: the values reach administrators' screens, so a header that is no plain version
 * (markup, a sentence, the token echoed back) is never kept.
 */

/** DRF's ALLOWED_VERSIONS entries: "9", "10". */
const API_VERSION_FORM = /^[0-9]{1,3}$/;

/**
 * `__full_version_str__`: "2.20.15", "3.0.5", and pre-releases like "3.0.0-beta.rc1":
 * up to four dotted numbers of up to four digits, then at most one short suffix.
 */
const SERVER_VERSION_FORM = /^[0-9]{1,4}(?:\.[0-9]{1,4}){0,3}(?:[-+~][0-9A-Za-z]{1,10}(?:\.[0-9A-Za-z]{1,10})?)?$/;

export function isApiVersion(value: string): boolean {
  return API_VERSION_FORM.test(value);
}

export function isServerVersion(value: string): boolean {
  return SERVER_VERSION_FORM.test(value);
}

export interface ReadVersions {
  readonly versions: ArchiveVersions;
  /** Names of the headers present but refused (for a debug line; never their values). */
  readonly refused: readonly string[];
}

type Headers = Record<string, string | string[] | undefined>;

function headerValue(headers: Headers, name: string): string | null {
  const value = headers[name];
  if (value === undefined) return null;
  return (Array.isArray(value) ? value.join(', ') : value).trim();
}

/** The versions an answer names, each checked alone: one refused header leaves the other. */
export function readVersionHeaders(headers: Headers, scrub: Scrubber): ReadVersions {
  const refused: string[] = [];
  const read = (name: string, valid: (value: string) => boolean): string | null => {
    const value = headerValue(headers, name);
    if (value === null) return null;
    if (valid(value) && isClean(scrub, value)) return value;
    refused.push(name);
    return null;
  };
  const versions = { version: read('x-version', isServerVersion), apiVersion: read('x-api-version', isApiVersion) };
  return { versions, refused };
}

interface StoredVersions {
  docs_version?: string;
  docs_api_version?: string;
}

/** Stored settings with a version that is no version (written by hand, or before this check) read as absent. */
export function withCheckedVersions<T extends StoredVersions>(config: T): T {
  const { docs_version: version, docs_api_version: apiVersion, ...rest } = config;
  return {
    ...rest,
    ...(version !== undefined && isServerVersion(version) ? { docs_version: version } : {}),
    ...(apiVersion !== undefined && isApiVersion(apiVersion) ? { docs_api_version: apiVersion } : {}),
  } as T;
}
