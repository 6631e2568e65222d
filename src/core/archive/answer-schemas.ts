import type { JSONSchemaType } from 'ajv';

/**
 * The shapes of the archive server's answers this project reads, as JSON Schema: the source of
 * the answer validators, which `npm run build` generates from it (scripts/build-validators.mjs,
 * into answer-validators.generated.ts; schemas.ts wraps them). No import of a value here: the
 * build script loads this file with Node's own type stripping, before tsc runs. Only what is used is
 * required; everything else the server adds is allowed, so a newer server still passes.
 * An answer that fails these is "not a list of documents of the archive server".
 */

export interface PaperlessPage<T> {
  count: number;
  next: string | null;
  previous: string | null;
  all?: number[];
  results: T[];
}

export interface SearchHitJson {
  id: number;
  title: string;
  created?: string | null;
  correspondent?: number | null;
  document_type?: number | null;
  __search_hit__?: { highlights?: string | null } | null;
}

export interface NewestDocumentJson {
  id: number;
  title: string;
  added: string;
  correspondent?: number | null;
  document_type?: number | null;
}

export interface IdJson {
  id: number;
}

export interface NamedObjectJson {
  id: number;
  name: string;
}

/** An error answer of the archive server's API (`{"detail": "…"}`), e.g. 404 "Invalid page.". */
export interface DetailJson {
  detail: string;
}

/**
 * A SearchQueryError as the search views answer it: DRF's `ValidationError({"query": messages})`,
 * HTTP 400 (`views.py` @3.0.5, `views/documents.py` on 3.2).
 */
export interface QueryRefusalJson {
  query: string[];
}

const nullableString = { type: 'string', nullable: true } as const;
const nullableId = { type: 'integer', nullable: true } as const;

function pageSchema<T>(item: JSONSchemaType<T>): JSONSchemaType<PaperlessPage<T>> {
  // The generic page cannot be checked structurally by ajv's types; the item schema is.
  const schema: unknown = {
    type: 'object',
    required: ['count', 'next', 'previous', 'results'],
    properties: {
      count: { type: 'integer', minimum: 0 },
      next: nullableString,
      previous: nullableString,
      all: { type: 'array', items: { type: 'integer' }, nullable: true },
      results: { type: 'array', items: item },
    },
  };
  return schema as JSONSchemaType<PaperlessPage<T>>;
}

const searchHit: JSONSchemaType<SearchHitJson> = {
  type: 'object',
  required: ['id', 'title'],
  properties: {
    id: { type: 'integer' },
    title: { type: 'string' },
    created: nullableString,
    correspondent: nullableId,
    document_type: nullableId,
    __search_hit__: {
      type: 'object',
      nullable: true,
      required: [],
      properties: { highlights: nullableString },
    },
  },
};

const newestDocument: JSONSchemaType<NewestDocumentJson> = {
  type: 'object',
  required: ['id', 'title', 'added'],
  properties: {
    id: { type: 'integer' },
    title: { type: 'string' },
    added: { type: 'string' },
    correspondent: nullableId,
    document_type: nullableId,
  },
};

const idOnly: JSONSchemaType<IdJson> = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'integer' } },
};

const namedObject: JSONSchemaType<NamedObjectJson> = {
  type: 'object',
  required: ['id', 'name'],
  properties: { id: { type: 'integer' }, name: { type: 'string' } },
};

const detail: JSONSchemaType<DetailJson> = {
  type: 'object',
  required: ['detail'],
  properties: { detail: { type: 'string' } },
};

const queryRefusal: JSONSchemaType<QueryRefusalJson> = {
  type: 'object',
  required: ['query'],
  properties: { query: { type: 'array', items: { type: 'string' }, minItems: 1, maxItems: 50 } },
};

/** Every answer shape by the name its validator is exported under from answer-validators.generated.ts. */
export const ANSWER_SCHEMAS = {
  searchPage: pageSchema(searchHit),
  newestPage: pageSchema(newestDocument),
  idPage: pageSchema(idOnly),
  namePage: pageSchema(namedObject),
  detail,
  queryRefusal,
} as const;

/** ajv's options for them, at build time and in the test that compiles them anew (test/answer-validators.test.ts). */
export const ANSWER_AJV_OPTIONS = { allErrors: false, strict: true } as const;
