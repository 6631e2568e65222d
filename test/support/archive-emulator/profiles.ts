import type { EmulatedVersion } from './types.js';

/** What differs between the emulated releases (reference §1, §2, §3.4, §4). */
export interface VersionProfile {
  /** `X-Version`: the full release string. */
  readonly release: string;
  /** DRF ALLOWED_VERSIONS, compared as exact strings. */
  readonly allowedApiVersions: readonly string[];
  /** DRF DEFAULT_VERSION, used when Accept names no version. */
  readonly defaultApiVersion: string;
  /** The index: Whoosh (2.x) or Tantivy (3.x): analysis, scoring, highlights, search parameters. */
  readonly engine: 'whoosh' | 'tantivy';
  /**
   * What reads `query`: Whoosh's lenient MultifieldParser (2.x), Tantivy's strict `parse_query`
   * after the handwritten translation (3.0, 3.1), or whoosh-compat's fork of Whoosh's grammar,
   * emitted as Tantivy queries (3.2, paperless-ngx#14072).
   */
  readonly queryParser: 'whoosh' | 'tantivy' | 'whoosh-compat';
  /**
   * `text` / `title_search` (3.x): `phrase` = the first chunk inside a chunk, later chunks start
   * the following chunks (3.0.5); `all-words` = every chunk somewhere, in any order (#13504, 3.1).
   */
  readonly simpleText: 'phrase' | 'all-words';
  /**
   * The highlight query of `text`: the chunks parsed by Tantivy's strict parser, so punctuation
   * fails the request when the page has hits (3.0, 3.1); each chunk quoted as a phrase, which
   * cannot fail (3.2).
   */
  readonly textHighlight: 'parsed' | 'quoted';
  /** `QueryTooLongError`: the longest `query`/`text`/`title_search` in characters (3.2: 4096), else none. */
  readonly maxQueryLength: number | null;
  /**
   * The answer to an exception while searching that is not a SearchQueryError: 400 text/html
   * "Error listing search results…" (views.py up to 3.1), or Django's 500 (3.2's views catch
   * only SearchQueryError).
   */
  readonly searchFailureStatus: 400 | 500;
  /** `WWW-Authenticate: Token` from 2.20.12 on; `Basic realm="api"` before. */
  readonly tokenChallenge: boolean;
  /**
   * Zone suffix of `created` when it is a datetime (API ≤ 8): 2.15 stores a DateTimeField
   * that DRF renders with `Z`; 2.16+ builds `isoformat()` of local midnight, `+00:00`.
   */
  readonly legacyCreatedZone: string;
}

/** The search behaviour of the 3.x releases before whoosh-compat (3.0.5; 3.1 changes `text`). */
const TANTIVY_3_0 = {
  engine: 'tantivy',
  queryParser: 'tantivy',
  simpleText: 'phrase',
  textHighlight: 'parsed',
  maxQueryLength: null,
  searchFailureStatus: 400,
} as const;

const WHOOSH_2 = {
  engine: 'whoosh',
  queryParser: 'whoosh',
  simpleText: 'phrase',
  textHighlight: 'parsed',
  maxQueryLength: null,
  searchFailureStatus: 400,
} as const;

/**
 * whoosh-compat reading `query` (3.2.1 pins 0.3.0, as 3.3.0 does: docs/archive-emulator.md
 * "Releases 3.2.1 and 3.3.0").
 */
const WHOOSH_COMPAT_3_2 = {
  allowedApiVersions: ['9', '10'],
  defaultApiVersion: '10',
  engine: 'tantivy',
  queryParser: 'whoosh-compat',
  simpleText: 'all-words',
  textHighlight: 'quoted',
  maxQueryLength: 4096,
  searchFailureStatus: 500,
  tokenChallenge: true,
  legacyCreatedZone: '+00:00',
} as const;

/** Facts and their sources: docs/archive-emulator.md "Releases 3.1.x and 3.2.0". */
const PROFILES: Record<EmulatedVersion, VersionProfile> = {
  '2.15': {
    release: '2.15.3',
    allowedApiVersions: ['1', '2', '3', '4', '5', '6', '7', '8'],
    defaultApiVersion: '8',
    ...WHOOSH_2,
    tokenChallenge: false,
    legacyCreatedZone: 'Z',
  },
  '2.20': {
    release: '2.20.15',
    allowedApiVersions: ['1', '2', '3', '4', '5', '6', '7', '8', '9'],
    defaultApiVersion: '9',
    ...WHOOSH_2,
    tokenChallenge: true,
    legacyCreatedZone: '+00:00',
  },
  '3.0': {
    release: '3.0.5',
    allowedApiVersions: ['9', '10'],
    defaultApiVersion: '10',
    ...TANTIVY_3_0,
    tokenChallenge: true,
    legacyCreatedZone: '+00:00',
  },
  '3.1': {
    release: '3.1.3',
    allowedApiVersions: ['9', '10'],
    defaultApiVersion: '10',
    ...TANTIVY_3_0,
    simpleText: 'all-words',
    tokenChallenge: true,
    legacyCreatedZone: '+00:00',
  },
  '3.2': {
    release: '3.2.1',
    ...WHOOSH_COMPAT_3_2,
  },
  // Newer than the releases the product was checked against; its search rules are 3.2.1's.
  '3.3': {
    release: '3.3.0',
    ...WHOOSH_COMPAT_3_2,
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
