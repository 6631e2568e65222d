/** Public shapes of the archive-server emulator (a test double of Paperless-ngx). */

/** The list endpoints, each behind its own view permission. */
export type ViewModel = 'documents' | 'correspondents' | 'document_types';

/**
 * The release answered: 2.15 → 2.15.3 (API 1–8, default 8), 2.20 → 2.20.15 (1–9, default 9),
 * 3.0 → 3.0.5, 3.1 → 3.1.3, 3.2 → 3.2.1, 3.3 → 3.3.0 (9 and 10, default 10). See profiles.ts for what
 * differs.
 */
export type EmulatedVersion = '2.15' | '2.20' | '3.0' | '3.1' | '3.2' | '3.3';

export interface EmulatorDocument {
  id: number;
  title: string;
  content: string;
  /** YYYY-MM-DD */
  created: string;
  /** ISO 8601 with offset (`Z` or `±HH:MM`); served exactly as given. */
  added: string;
  correspondent: number | null;
  documentType: number | null;
  /** Archive user id owning the document; absent or null = unowned, visible to every account. */
  owner?: number | null;
  /** Archive user ids granted `view_document` on this document (a guardian user object permission). */
  viewUsers?: number[];
  /** Archive group ids granted `view_document` on this document (a guardian group object permission). */
  viewGroups?: number[];
  /** `modified` as served (ISO 8601); absent = `added`. 3.2 searches it as its own date field. */
  modified?: string;
}

export interface NamedObject {
  id: number;
  name: string;
}

export interface EmulatorOptions {
  /** Default '2.20'. */
  version?: EmulatedVersion;
  /** Default `sampleArchive().documents`. */
  documents?: EmulatorDocument[];
  /** Default `sampleArchive().correspondents`. */
  correspondents?: NamedObject[];
  /** Default `sampleArchive().documentTypes`. */
  documentTypes?: NamedObject[];
  /** Accepted API tokens; default ['emulator-token']. */
  tokens?: string[];
  /** Tokens of an account without `documents.view_*` permissions: authenticated, answered 403. */
  forbiddenTokens?: string[];
  /**
   * Token → archive user id. Such a token sees unowned documents, its own, and those granted
   * `view_document` to it or to one of its groups (`viewUsers`, `viewGroups`, `userGroups`;
   * reference §7); a token not listed acts as a superuser and sees everything.
   */
  tokenUsers?: Record<string, number>;
  /**
   * Token → the list endpoints its account may view (`view_document`, `view_correspondent`,
   * `view_documenttype` are separate permissions, reference §2): the others answer 403. A token
   * not listed may view all three (a forbidden token none).
   */
  tokenPermissions?: Record<string, ViewModel[]>;
  /**
   * Archive user id → the ids of the groups it belongs to, read at every request (Paperless asks
   * `user.groups` when it searches): a document granted to one of them is visible to the user.
   */
  userGroups?: Record<number, number[]>;
  /**
   * The search backend fails (paperless-ngx#13200, "Field `viewer_group_id` is not defined in the
   * schema"): every search answers 400 `text/html` "Error listing search results…", as Paperless
   * up to 3.1 does for any exception while searching; 3.2 catches only its SearchQueryError, so
   * there the answer is Django's 500. `'non-superusers'`: only for tokens in `tokenUsers`.
   */
  searchBroken?: boolean | 'non-superusers';
  /**
   * 3.0.x `text`/`title_search` of several words is a Tantivy regex phrase query, which refuses to
   * run once the index terms its patterns match, summed over the words, exceed this many
   * ("Phrase query exceeded max expansions", answered 400 text/html "Error listing…";
   * paperless-ngx#13673). Default 16384, tantivy 0.26's `RegexPhraseQuery` default: a small
   * archive never reaches it, a test sets it low to stand for a large one.
   */
  phraseMaxExpansions?: number;
  /** Serve TLS with the committed self-signed certificate of test/support/tls. */
  https?: boolean;
  /** E.g. '/paperless': the API is served under it (and 404s outside it). */
  pathPrefix?: string;
  /** Listen address, default '127.0.0.1'; the port is always ephemeral. */
  host?: string;
  /** A hostile server: echoes the token it was sent into every string and version header (see hostile.ts). */
  echoToken?: boolean;
}

export interface Fault {
  /** Applies to request paths starting with this (path after pathPrefix, e.g. '/api/documents/'); default every path. */
  match?: string;
  /** How many matching requests it applies to, then it is spent; default unlimited. */
  times?: number;
  status?: number;
  body?: string;
  contentType?: string;
  headers?: Record<string, string>;
  /** 200 with a non-JSON body. */
  garbage?: boolean;
  /** 200 JSON-looking body of this many bytes. */
  hugeBodyBytes?: number;
  /** Headers at once, body dribbled over this time. */
  slowBodyMs?: number;
  /** Accept the connection, answer nothing for this long (then answer as the rest of the fault says). */
  hangMs?: number;
  /** Close the connection without answering. */
  destroySocket?: boolean;
  /** Absolute URL or path; Location header. */
  redirectTo?: string;
  /** Default 302. */
  redirectStatus?: number;
}

export interface RecordedRequest {
  method: string;
  /** Full path incl. prefix, no query. */
  path: string;
  /** Decoded as Django decodes it; the last value of a repeated key wins. */
  query: Record<string, string>;
  /** Lowercased names. */
  headers: Record<string, string | undefined>;
  /** Date.now() when the request arrived. */
  at: number;
}

export interface ArchiveEmulator {
  /** Base URL incl. pathPrefix, no trailing slash, e.g. http://127.0.0.1:41234/paperless */
  readonly url: string;
  /** E.g. http://127.0.0.1:41234 */
  readonly origin: string;
  readonly port: number;
  /** PEM of the certificate when https. */
  readonly ca: string | undefined;
  readonly requests: RecordedRequest[];
  /** TCP connections accepted so far. */
  connections: number;
  /** TCP connections open now (closed ones are gone, from either side). */
  readonly openConnections: number;
  /** Added before every answer; settable at any time. */
  latencyMs: number;
  /** Consulted in order for every request; the first live match applies; settable at any time. */
  faults: Fault[];
  /** Settable at any time: echo the token sent into every answer (hostile.ts). */
  echoToken: boolean;
  /** Settable at any time. */
  version: EmulatedVersion;
  /** Settable (tests add/remove documents). */
  documents: EmulatorDocument[];
  /** Settable. */
  correspondents: NamedObject[];
  /** Settable. */
  documentTypes: NamedObject[];
  /** Settable: accepted tokens. */
  tokens: string[];
  /** Settable: tokens answered 403. */
  forbiddenTokens: string[];
  /** Settable: token → archive user id (see EmulatorOptions.tokenUsers). */
  tokenUsers: Record<string, number>;
  /** Settable: token → list endpoints it may view (see EmulatorOptions.tokenPermissions). */
  tokenPermissions: Record<string, ViewModel[]>;
  /** Settable: archive user id → its groups (see EmulatorOptions.userGroups). */
  userGroups: Record<number, number[]>;
  /** Settable: see EmulatorOptions.searchBroken. */
  searchBroken: boolean | 'non-superusers';
  /** Settable: see EmulatorOptions.phraseMaxExpansions. */
  phraseMaxExpansions: number;
  clearRequests(): void;
  close(): Promise<void>;
}
