import * as generated from './answer-validators.generated.js';
import type { DetailJson, IdJson, NamedObjectJson, NewestDocumentJson, PaperlessPage, QueryRefusalJson, SearchHitJson } from './answer-schemas.js';

export type { DetailJson, IdJson, NamedObjectJson, NewestDocumentJson, PaperlessPage, QueryRefusalJson, SearchHitJson } from './answer-schemas.js';

/**
 * The checks of the archive server's answers (answer-schemas.ts). An answer that fails these is
 * "not a list of documents of the archive server".
 */

/** A type guard of one answer shape. */
export type AnswerCheck<T> = (data: unknown) => data is T;

/**
 * ajv's code for the schema, generated at build time (scripts/build-validators.mjs): no schema
 * is compiled at run time, which cost a one-shot search about 60 ms (ajv's 63 modules, then the
 * compilation), and nothing of ajv is loaded.
 */
function checkOf<T>(validate: (data: unknown) => boolean): AnswerCheck<T> {
  return (data: unknown): data is T => validate(data);
}

export const validateSearchPage = checkOf<PaperlessPage<SearchHitJson>>(generated.searchPage);
export const validateNewestPage = checkOf<PaperlessPage<NewestDocumentJson>>(generated.newestPage);
export const validateIdPage = checkOf<PaperlessPage<IdJson>>(generated.idPage);
export const validateNamePage = checkOf<PaperlessPage<NamedObjectJson>>(generated.namePage);
export const validateDetail = checkOf<DetailJson>(generated.detail);
export const validateQueryRefusal = checkOf<QueryRefusalJson>(generated.queryRefusal);
