import { createRequire } from 'node:module';
import type { Ajv, JSONSchemaType, ValidateFunction } from 'ajv';

/**
 * The shapes of the archive server's answers this project reads. Only what is used is
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

/** A type guard of one answer shape. */
export type AnswerCheck<T> = (data: unknown) => data is T;

let ajv: Ajv | undefined;

/** Compiled at the first answer: commands that never ask the archive server (why, --help) load no schema library. */
function checkOf<T>(schema: JSONSchemaType<T>): AnswerCheck<T> {
  let compiled: ValidateFunction<T> | undefined;
  return (data: unknown): data is T => {
    ajv ??= new (createRequire(import.meta.url)('ajv') as typeof import('ajv')).Ajv({ allErrors: false, strict: true });
    compiled ??= ajv.compile<T>(schema);
    return compiled(data);
  };
}

export const validateSearchPage = checkOf(pageSchema(searchHit));
export const validateNewestPage = checkOf(pageSchema(newestDocument));
export const validateIdPage = checkOf(pageSchema(idOnly));
export const validateNamePage = checkOf(pageSchema(namedObject));

/** An error answer of the archive server's API (`{"detail": "…"}`), e.g. 404 "Invalid page.". */
export interface DetailJson {
  detail: string;
}

export const validateDetail = checkOf<DetailJson>({
  type: 'object',
  required: ['detail'],
  properties: { detail: { type: 'string' } },
});

/**
 * A SearchQueryError as the search views answer it: DRF's `ValidationError({"query": messages})`,
 * HTTP 400 (`views.py` @3.0.5, `views/documents.py` on 3.2).
 */
export interface QueryRefusalJson {
  query: string[];
}

export const validateQueryRefusal = checkOf<QueryRefusalJson>({
  type: 'object',
  required: ['query'],
  properties: { query: { type: 'array', items: { type: 'string' }, minItems: 1, maxItems: 50 } },
});
