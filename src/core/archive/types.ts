/**
 * What the rest of the core needs from the archive server (Paperless-ngx), independent
 * of HTTP. `archive-client.ts` implements it over undici; nothing else talks to the server.
 */
import type { ResolvedAddress } from '../net/resolve.js';

/** Where and how to reach the archive server: the stored settings plus the decrypted token. */
export interface ArchiveConnection {
  /** Base URL as stored: no trailing slash, host in ASCII form, optional path prefix. */
  readonly url: string;
  readonly token: string;
  /** The local-network switch: only this origin may be local, and no redirect is followed. */
  readonly allowLocal: boolean;
}

/** Versions named by the archive server's last answer (`X-Version`, `X-Api-Version`). */
export interface ArchiveVersions {
  readonly version: string | null;
  readonly apiVersion: string | null;
}

export interface ArchiveAnswer {
  readonly versions: ArchiveVersions;
}

/** One hit of a full-text search page, only the fields a result shows. */
export interface SearchHit {
  readonly id: number;
  readonly title: string;
  /** `YYYY-MM-DD` (Paperless `created`). */
  readonly created: string | null;
  readonly correspondent: number | null;
  readonly documentType: number | null;
  /** `__search_hit__.highlights`, HTML fragment as the server sent it. */
  readonly highlights: string | null;
}

export interface SearchPage extends ArchiveAnswer {
  /** Total hits the archive server reports for the query. */
  readonly count: number;
  /** 1-based page number this answer is. */
  readonly page: number;
  readonly hits: readonly SearchHit[];
  /** Whether a later page exists (derived from `count`, never from the server's `next` link). */
  readonly hasMore: boolean;
  /**
   * Set when the archive server rejected the query (400: a query still being typed, unparsable;
   * 404 "Invalid page.": a page past the last). The page is then empty with `hasMore` false:
   * the pipeline treats it as "no more results". The client has already logged the spec's
   * debug line; it is not a failure and goes into no history.
   */
  readonly rejectedStatus?: number | null;
  /**
   * Why it was rejected: `query` the term (being typed, or syntax the server does not accept),
   * `page` a page past the last, `exclusions_only` a term that only excludes (`-invoice`,
   * `NOT invoice`), which Paperless-ngx 3.0 and 3.1 refuse and which no repeat may turn into its
   * opposite; `minus_exclusion` a `-word` sent to Paperless-ngx 2 or 3.2, which read it as the
   * word itself; `refused` the term, with the archive server's own message (`refusal`);
   * `words_too_broad` several words that Paperless-ngx 3.0 could neither search as a phrase (too
   * large an archive) nor word by word (no `all` list, or one too long to keep).
   */
  readonly rejection?: SearchRejection | null;
  /**
   * With `refused`: Paperless's message about the term (its SearchQueryError), made safe to show
   * (`archive/refusal.ts`). It quotes pieces of the term, so it is never logged.
   */
  readonly refusal?: string | null;
}

export type SearchRejection = 'query' | 'page' | 'exclusions_only' | 'minus_exclusion' | 'refused' | 'words_too_broad';

export interface SearchRequest {
  readonly term: string;
  /** 1-based archive page of 25. */
  readonly page: number;
  /** Inclusive lower bound `YYYY-MM-DD` → `created__date__gte`. */
  readonly since?: string;
  /** Inclusive upper bound `YYYY-MM-DD` → `created__date__lt` of the following day. */
  readonly until?: string;
  /** Aborts the request (the pipeline's 3-second budget). */
  readonly signal?: AbortSignal;
}

/** One of the newest documents (widget request). */
export interface NewestDocument {
  readonly id: number;
  readonly title: string;
  /** ISO 8601 moment the archive server added the document. */
  readonly added: string;
  readonly correspondent: number | null;
  readonly documentType: number | null;
}

export interface NewestPage extends ArchiveAnswer {
  readonly documents: readonly NewestDocument[];
}

/** Answer of the connection test (`page_size=1`, `fields=id`). */
export interface ConnectionTestResult extends ArchiveAnswer {
  /** Documents the token's account sees. */
  readonly count: number;
  /** Ids of every document the token's account sees (`all`, present under API version 9). */
  readonly allIds: readonly number[] | null;
}

export type NameKind = 'correspondents' | 'document_types';

export interface ArchiveClient {
  testConnection(): Promise<ConnectionTestResult>;
  search(request: SearchRequest): Promise<SearchPage>;
  newest(): Promise<NewestPage>;
  /** Names by id for one kind; one request (ids chunked only past URL-length limits). */
  names(kind: NameKind, ids: readonly number[], signal?: AbortSignal): Promise<ReadonlyMap<number, string>>;
  /**
   * Closes the kept-alive connections to the archive server. Not closing is harmless (idle
   * connections close after 1 s and never keep a process alive); owners close to release them
   * at once. A request after close still works, on a connection closed after its answer.
   */
  close(): Promise<void>;
}

export type { ResolvedAddress };

/**
 * Construction options of the archive client. Defaults are the spec's numbers and the real
 * DNS and address rules; the seams exist so tests over loopback can stand in for a public
 * network (a resolver answering fixed addresses, an address rule for a test network).
 */
export interface ArchiveClientOptions {
  /** Resolves a host name once; default `dns.lookup` with `all: true`. */
  readonly resolver?: (hostname: string) => Promise<readonly ResolvedAddress[]>;
  /** Whether an address counts as local-network; default the full rule of `net/address-guard.ts`. */
  readonly isLocalAddress?: (address: string) => boolean;
  /** Extra trusted CA certificates in PEM (tests' self-signed archive server). */
  readonly ca?: string | readonly string[];
  readonly timeouts?: {
    readonly connectMs?: number;
    readonly answerMs?: number;
    readonly widgetAnswerMs?: number;
    /** Second-try window: a failure before a connection within this time may be tried once more. */
    readonly retryWindowMs?: number;
  };
  /** Cap on an answer's body; larger answers fail as `not_paperless`. */
  readonly maxBodyBytes?: number;
  /** Called with the versions of every answer (the settings store keeps them). */
  readonly onVersions?: (versions: ArchiveVersions) => void;
  /**
   * Versions named by earlier answers (the stored `docs_version`, `docs_api_version`): a 406 from
   * a server that announced API version 10 or later means it dropped version 9, not that it is old.
   */
  readonly knownVersions?: () => ArchiveVersions;
  /** Host log for the spec's debug line on rejected queries. */
  readonly logger?: import('../log.js').Logger;
}
