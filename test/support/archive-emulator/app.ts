import { authenticate, challenge, type TokenBook } from './auth.js';
import type { ViewModel } from './types.js';
import { visibleTo, type Dataset } from './dataset.js';
import { documentDetail, listDocuments, listNamed, namedDetail, type ListRequest, type NamedKind } from './lists.js';
import { negotiate } from './negotiate.js';
import { newestApiVersion, type VersionProfile } from './profiles.js';
import { lastValues, parseQuery, quotePath } from './pyquery.js';
import { htmlReply, jsonReply, redirectReply, type Reply } from './reply.js';

/** One request as the router sees it. */
export interface AppRequest {
  readonly method: string;
  /** Path after the prefix, e.g. `/api/documents/`. */
  readonly path: string;
  /** Full path as received, prefix included, no query. */
  readonly fullPath: string;
  /** Raw query string without `?`. */
  readonly query: string;
  readonly headers: Readonly<Record<string, string | undefined>>;
  /** `scheme://host[:port]` as Django's build_absolute_uri sees it. */
  readonly absoluteOrigin: string;
}

export interface AppState {
  readonly prefix: string;
  readonly profile: VersionProfile;
  readonly data: Dataset;
  readonly tokens: TokenBook;
  readonly today: string;
  readonly searchBroken: boolean | 'non-superusers';
  readonly phraseMaxExpansions: number;
  /** Archive user id → its groups now (group membership is read at every request). */
  readonly userGroups: Readonly<Record<number, readonly number[]>>;
}

const LOGIN_PAGE =
  '<!doctype html><html><head><title>Paperless-ngx sign in</title></head><body><form method="post"><input name="login"><input name="password" type="password"></form></body></html>';
const SWAGGER_PAGE = '<!doctype html><html><head><title>Paperless-ngx API</title></head><body><div id="swagger-ui"></div></body></html>';

type Route =
  | { readonly kind: 'documents' }
  | { readonly kind: 'document'; readonly id: number }
  | { readonly kind: 'named'; readonly named: NamedKind }
  | { readonly kind: 'named-detail'; readonly named: NamedKind; readonly id: number }
  | { readonly kind: 'token' };

/** DRF router routes; they need the trailing slash (there is no APPEND_SLASH redirect, §6). */
function drfRoute(path: string): Route | null {
  if (path === '/api/documents/') return { kind: 'documents' };
  if (path === '/api/token/') return { kind: 'token' };
  let m = /^\/api\/documents\/(\d+)\/$/.exec(path);
  if (m !== null) return { kind: 'document', id: Number(m[1]) };
  m = /^\/api\/(correspondents|document_types)\/$/.exec(path);
  if (m !== null) return { kind: 'named', named: m[1] === 'correspondents' ? 'correspondents' : 'document_types' };
  m = /^\/api\/(correspondents|document_types)\/(\d+)\/$/.exec(path);
  if (m !== null) return { kind: 'named-detail', named: m[1] === 'correspondents' ? 'correspondents' : 'document_types', id: Number(m[2]) };
  return null;
}

/** Django's `login_required` catch-all: `LOGIN_URL?next=<full path>`, token headers ignored. */
function loginRedirect(request: AppRequest, state: AppState): Reply {
  const full = request.query === '' ? request.fullPath : `${request.fullPath}?${request.query}`;
  return redirectReply(302, `${state.prefix}/accounts/login/?next=${quotePath(full)}`);
}

function versionHeaders(profile: VersionProfile): Record<string, string> {
  return { 'X-Api-Version': newestApiVersion(profile), 'X-Version': profile.release };
}

/**
 * DRF's BrowsableAPIRenderer: the same status and headers, the JSON inside an HTML page. Plain
 * HTML answers of the view (the search's 400 "Error listing…") are not rendered again.
 */
function browsable(reply: Reply): Reply {
  if (!(reply.headers['Content-Type'] ?? '').startsWith('application/json')) return reply;
  const escaped = reply.body.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const page = `<!DOCTYPE html><html><head><title>Django REST framework</title></head><body><div class="content-main"><div class="response-info"><pre class="prettyprint">${escaped}</pre></div></div></body></html>`;
  return { ...reply, headers: { ...reply.headers, 'Content-Type': 'text/html; charset=utf-8' }, body: page };
}

/** DRF's APIView.initial order: negotiation and version (406), authentication (401), permission (403). */
function drf(request: AppRequest, state: AppState, route: Route): Reply {
  const { profile } = state;
  const pairs = parseQuery(request.query);
  const params = lastValues(pairs);
  const negotiation = negotiate(request.headers['accept'], params.get('format'), profile);
  if (!negotiation.ok) return jsonReply(406, { detail: negotiation.detail }, { Vary: 'Accept' });
  const authorization = request.headers['authorization'];
  const identity = authenticate(authorization, state.tokens);
  const unauthorized = (detail: string): Reply =>
    (negotiation.html ? browsable : (r: Reply) => r)(jsonReply(401, { detail }, { 'WWW-Authenticate': challenge(authorization, profile), Vary: 'Accept' }));
  if (identity.kind === 'failed') return unauthorized(identity.detail);
  const extra: Record<string, string> = identity.kind === 'user' ? versionHeaders(profile) : {};
  const rendered = (reply: Reply): Reply => (negotiation.html ? browsable(reply) : reply);
  const withHeaders = (reply: Reply, allow: string): Reply => rendered({ ...reply, headers: { ...reply.headers, Vary: 'Accept', Allow: allow, ...extra } });

  if (route.kind === 'token') {
    const allow = 'POST, OPTIONS';
    if (request.method === 'POST') return withHeaders(jsonReply(400, { non_field_errors: ['Unable to log in with provided credentials.'] }), allow);
    return withHeaders(jsonReply(405, { detail: `Method "${request.method}" not allowed.` }), allow);
  }
  if (identity.kind === 'anonymous') return unauthorized('Authentication credentials were not provided.');
  const allow = 'GET, HEAD, OPTIONS';
  const model: ViewModel = route.kind === 'named' || route.kind === 'named-detail' ? route.named : 'documents';
  if (!identity.canView.has(model)) return withHeaders(jsonReply(403, { detail: 'You do not have permission to perform this action.' }), allow);
  if (request.method !== 'GET' && request.method !== 'HEAD') return withHeaders(jsonReply(405, { detail: `Method "${request.method}" not allowed.` }), allow);

  const list: ListRequest = {
    params,
    link: { base: `${request.absoluteOrigin}${request.fullPath}`, pairs },
    profile,
    apiVersion: negotiation.apiVersion,
    today: state.today,
    searchBroken: state.searchBroken === true || (state.searchBroken === 'non-superusers' && identity.userId !== null),
    // The index holds every document, whoever asks: term expansion does not see permissions.
    phraseLimit: { max: state.phraseMaxExpansions, index: state.data.documents },
  };
  const groups = identity.userId === null ? [] : (state.userGroups[identity.userId] ?? []);
  const data = visibleTo(state.data, identity.userId, groups);
  switch (route.kind) {
    case 'documents':
      return withHeaders(listDocuments(data, list), allow);
    case 'document':
      return withHeaders(documentDetail(data, route.id, list), allow);
    case 'named':
      return withHeaders(listNamed(data, route.named, list), allow);
    case 'named-detail':
      return withHeaders(namedDetail(data, route.named, route.id), allow);
  }
}

/** Everything under the prefix; the caller answers 404 outside it. */
export function handle(request: AppRequest, state: AppState): Reply {
  const { path } = request;
  // RedirectView, not DRF: no version check, no authentication (§6).
  if (path === '/api/') return redirectReply(302, 'schema/view/');
  if (path === '/api/schema/view/') return htmlReply(200, SWAGGER_PAGE);
  if (path === '/accounts/login/') return htmlReply(200, LOGIN_PAGE);
  const route = drfRoute(path);
  if (route === null) return loginRedirect(request, state);
  return drf(request, state, route);
}
