import type { EmulatedVersion } from './types.js';

/** What differs between the emulated releases (reference §1, §2, §3.4, §4). */
export interface VersionProfile {
  /** `X-Version`: the full release string. */
  readonly release: string;
  /** DRF ALLOWED_VERSIONS, compared as exact strings. */
  readonly allowedApiVersions: readonly string[];
  /** DRF DEFAULT_VERSION, used when Accept names no version. */
  readonly defaultApiVersion: string;
  /** Whoosh (2.x) or Tantivy (3.x) search behaviour. */
  readonly engine: 'whoosh' | 'tantivy';
  /** `WWW-Authenticate: Token` from 2.20.12 on; `Basic realm="api"` before. */
  readonly tokenChallenge: boolean;
  /**
   * Zone suffix of `created` when it is a datetime (API ≤ 8): 2.15 stores a DateTimeField
   * that DRF renders with `Z`; 2.16+ builds `isoformat()` of local midnight, `+00:00`.
   */
  readonly legacyCreatedZone: string;
}

const PROFILES: Record<EmulatedVersion, VersionProfile> = {
  '2.15': {
    release: '2.15.3',
    allowedApiVersions: ['1', '2', '3', '4', '5', '6', '7', '8'],
    defaultApiVersion: '8',
    engine: 'whoosh',
    tokenChallenge: false,
    legacyCreatedZone: 'Z',
  },
  '2.20': {
    release: '2.20.15',
    allowedApiVersions: ['1', '2', '3', '4', '5', '6', '7', '8', '9'],
    defaultApiVersion: '9',
    engine: 'whoosh',
    tokenChallenge: true,
    legacyCreatedZone: '+00:00',
  },
  '3.0': {
    release: '3.0.5',
    allowedApiVersions: ['9', '10'],
    defaultApiVersion: '10',
    engine: 'tantivy',
    tokenChallenge: true,
    legacyCreatedZone: '+00:00',
  },
};

export function profileOf(version: EmulatedVersion): VersionProfile {
  return PROFILES[version];
}

/** `X-Api-Version` is the newest allowed version, not the negotiated one (ApiVersionMiddleware). */
export function newestApiVersion(profile: VersionProfile): string {
  return profile.allowedApiVersions[profile.allowedApiVersions.length - 1] ?? profile.defaultApiVersion;
}

/** The paginated `all` array is dropped only for API version 10 and later (3.x StandardPagination). */
export function includesAll(apiVersion: string): boolean {
  return Number(apiVersion) < 10;
}

/** API versions below 9 serve `created` as a datetime at server-local midnight. */
export function createdAsDatetime(apiVersion: string): boolean {
  return Number(apiVersion) < 9;
}
