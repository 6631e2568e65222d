import type { Dataset } from './dataset.js';
import { filterDocuments } from './filters.js';
import { compareKeys, DOCUMENT_ORDERING_FIELDS, parseOrdering, sortDocuments, unknownCustomFieldOrdering, type SortKey } from './ordering.js';
import { paginate, type LinkBase } from './pagination.js';
import { includesAll, type VersionProfile } from './profiles.js';
import { jsonReply, htmlReply, type Reply } from './reply.js';
import { isSearchRequest, modesConflict, runSearch, type PhraseLimit } from './search/run.js';
import { documentJson, namedObjectJson, selectFields, type Json, type JsonObject } from './serialize.js';
import type { EmulatorDocument, NamedObject } from './types.js';
import { parseFormNumber } from './values.js';

/** What a list handler needs to know about the request. */
export interface ListRequest {
  readonly params: ReadonlyMap<string, string>;
  readonly link: LinkBase;
  readonly profile: VersionProfile;
  readonly apiVersion: string;
  /** YYYY-MM-DD in the server's zone, for relative dates in queries. */
  readonly today: string;
  /** Every search fails as an exception inside Paperless does (400 text/html up to 3.1, 500 on 3.2). */
  readonly searchBroken: boolean;
  /** 3.0.x: the expansion ceiling of a regex phrase query, and the whole index it counts terms in. */
  readonly phraseLimit?: PhraseLimit;
}

const INVALID_PAGE = { detail: 'Invalid page.' };

function truthy(value: string | undefined): boolean {
  return value !== undefined && ['1', 'true', 't', 'yes', 'y'].includes(value.toLowerCase());
}

/** StandardPagination's ordered page object: count, next, previous, [all], results. */
function pageObject(count: number, next: string | null, previous: string | null, all: number[] | null, results: Json[]): JsonObject {
  const page: JsonObject = { count, next, previous };
  if (all !== null) page['all'] = all;
  page['results'] = results;
  return page;
}

/** GET /api/documents/ (reference §3). */
export function listDocuments(data: Dataset, request: ListRequest): Reply {
  const { params, profile, apiVersion } = request;
  const conflict = modesConflict(params, profile);
  if (conflict !== null) return { status: conflict.status, headers: { 'Content-Type': conflict.contentType }, body: conflict.body };
  const customField = unknownCustomFieldOrdering(params.get('ordering'));
  if (customField !== null) return jsonReply(400, { [customField]: ['Custom field not found'] });
  const filtered = filterDocuments(data, params);
  if (!filtered.ok) return jsonReply(400, filtered.errors);
  const truncate = truthy(params.get('truncate_content'));
  const withAll = includesAll(apiVersion);
  const serialize = (doc: EmulatorDocument): JsonObject => selectFields(documentJson(doc, profile, apiVersion, truncate), params.get('fields'));

  if (!isSearchRequest(params, profile)) {
    const ordered = sortDocuments(filtered.documents, parseOrdering(params.get('ordering'), DOCUMENT_ORDERING_FIELDS), data);
    const page = paginate(ordered, params, request.link);
    if (!page.ok) return jsonReply(404, INVALID_PAGE);
    return jsonReply(200, pageObject(ordered.length, page.next, page.previous, withAll ? ordered.map((d) => d.id) : null, page.items.map(serialize)));
  }

  const search = runSearch(filtered.documents, data, params, profile, request.today, request.searchBroken, request.phraseLimit);
  if (!search.ok) {
    const { status, contentType, body } = search.refusal;
    return contentType.startsWith('application/json') ? { status, headers: { 'Content-Type': contentType }, body } : htmlReply(status, body);
  }
  const page = paginate(search.hits, params, request.link);
  if (!page.ok) return jsonReply(404, INVALID_PAGE);
  // 3.0.5 builds the highlight query only for a page with hits; parsing it is what fails.
  if (page.items.length > 0 && search.highlightRefusal !== null) return htmlReply(search.highlightRefusal.status, search.highlightRefusal.body);
  const results = page.items.map((hit, i) => ({ ...serialize(hit.doc), __search_hit__: search.hitJson(page.offset + i) }));
  const body = pageObject(search.hits.length, page.next, page.previous, withAll ? search.hits.map((h) => h.doc.id) : null, results);
  body['corrected_query'] = search.correctedQuery;
  return jsonReply(200, body);
}

/** GET /api/documents/<id>/ */
export function documentDetail(data: Dataset, id: number, request: ListRequest): Reply {
  const doc = data.documents.find((d) => d.id === id);
  if (doc === undefined) return jsonReply(404, { detail: 'No Document matches the given query.' });
  const json = documentJson(doc, request.profile, request.apiVersion, truthy(request.params.get('truncate_content')));
  return jsonReply(200, selectFields(json, request.params.get('fields')));
}

export type NamedKind = 'correspondents' | 'document_types';

function nameFilters(params: ReadonlyMap<string, string>): { ok: true; test: (o: NamedObject) => boolean } | { ok: false; errors: Record<string, string[]> } {
  const tests: Array<(o: NamedObject) => boolean> = [];
  const errors: Record<string, string[]> = {};
  const id = params.get('id');
  if (id !== undefined && id !== '') {
    const n = parseFormNumber(id);
    if (n === null) errors['id'] = ['Enter a number.'];
    else tests.push((o) => o.id === n);
  }
  const idIn = params.get('id__in');
  if (idIn !== undefined && idIn !== '') {
    const items = idIn
      .split(',')
      .filter((v) => v !== '')
      .map(parseFormNumber);
    if (items.some((n) => n === null)) errors['id__in'] = ['Enter a number.'];
    else if (items.length > 0) tests.push((o) => items.includes(o.id));
  }
  const text: Array<[string, (name: string, v: string) => boolean]> = [
    ['name__istartswith', (n, v) => n.startsWith(v)],
    ['name__iendswith', (n, v) => n.endsWith(v)],
    ['name__icontains', (n, v) => n.includes(v)],
    ['name__iexact', (n, v) => n === v],
  ];
  for (const [key, test] of text) {
    const v = params.get(key);
    if (v !== undefined && v !== '') tests.push((o) => test(o.name.toLowerCase(), v.toLowerCase()));
  }
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, test: (o) => tests.every((t) => t(o)) };
}

/** GET /api/correspondents/ and /api/document_types/ (reference §5, E10). */
export function listNamed(data: Dataset, kind: NamedKind, request: ListRequest): Reply {
  const { params } = request;
  const objects = kind === 'correspondents' ? data.correspondents : data.documentTypes;
  const pick = (d: EmulatorDocument): number | null => (kind === 'correspondents' ? d.correspondent : d.documentType);
  const filter = nameFilters(params);
  if (!filter.ok) return jsonReply(400, filter.errors);
  const counts = new Map<number, number>();
  const latest = new Map<number, string>();
  for (const d of data.documents) {
    const id = pick(d);
    if (id === null) continue;
    counts.set(id, (counts.get(id) ?? 0) + 1);
    if ((latest.get(id) ?? '') < d.created) latest.set(id, d.created);
  }
  const keys: Record<string, (o: NamedObject) => SortKey> = {
    name: (o) => o.name.toLowerCase(),
    matching_algorithm: () => 1,
    match: () => '',
    document_count: (o) => counts.get(o.id) ?? 0,
  };
  if (kind === 'correspondents') keys['last_correspondence'] = (o) => latest.get(o.id) ?? null;
  const terms = parseOrdering(params.get('ordering'), new Set(Object.keys(keys)));
  const effective = terms.length > 0 ? terms : [{ field: 'name', descending: false }];
  const ordered = objects.filter(filter.test).sort((a, b) => {
    for (const term of effective) {
      const key = keys[term.field];
      if (key === undefined) continue;
      const c = compareKeys(key(a), key(b), term.descending);
      if (c !== 0) return c;
    }
    return a.id - b.id;
  });
  const page = paginate(ordered, params, request.link);
  if (!page.ok) return jsonReply(404, INVALID_PAGE);
  const withLast = kind === 'correspondents' && truthy(params.get('last_correspondence'));
  const results = page.items.map((o) => namedObjectJson(o, counts.get(o.id) ?? 0, withLast ? (latest.get(o.id) ?? null) : undefined));
  return jsonReply(200, pageObject(ordered.length, page.next, page.previous, includesAll(request.apiVersion) ? ordered.map((o) => o.id) : null, results));
}

/** GET /api/correspondents/<id>/ and /api/document_types/<id>/ (detail always has last_correspondence). */
export function namedDetail(data: Dataset, kind: NamedKind, id: number): Reply {
  const objects = kind === 'correspondents' ? data.correspondents : data.documentTypes;
  const object = objects.find((o) => o.id === id);
  const model = kind === 'correspondents' ? 'Correspondent' : 'DocumentType';
  if (object === undefined) return jsonReply(404, { detail: `No ${model} matches the given query.` });
  const docs = data.documents.filter((d) => (kind === 'correspondents' ? d.correspondent : d.documentType) === id);
  const last = docs.reduce<string | null>((max, d) => (max === null || d.created > max ? d.created : max), null);
  return jsonReply(200, namedObjectJson(object, docs.length, kind === 'correspondents' ? last : undefined));
}
