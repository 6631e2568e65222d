import { createdAsDatetime, type VersionProfile } from './profiles.js';
import type { EmulatorDocument, NamedObject } from './types.js';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

function fileName(title: string): string {
  return `${title.replace(/[^\p{L}\p{N} ._-]+/gu, '').trim() || 'document'}.pdf`;
}

/** Python slicing counts code points. */
function truncate(text: string, length: number): string {
  const chars = Array.from(text);
  return chars.length <= length ? text : chars.slice(0, length).join('');
}

/**
 * DocumentSerializer output in declared field order (reference §3.3). Fields the emulator
 * has no data for get the values an archive without tags, notes or owners would show.
 */
export function documentJson(doc: EmulatorDocument, profile: VersionProfile, apiVersion: string, truncateContent: boolean): JsonObject {
  const json: JsonObject = {
    id: doc.id,
    correspondent: doc.correspondent,
    document_type: doc.documentType,
    storage_path: null,
    title: doc.title,
    content: truncateContent ? truncate(doc.content, 550) : doc.content,
    tags: [],
    created: createdAsDatetime(apiVersion) ? `${doc.created}T00:00:00${profile.legacyCreatedZone}` : doc.created,
    created_date: doc.created,
    modified: doc.modified ?? doc.added,
    added: doc.added,
    deleted_at: null,
    archive_serial_number: null,
    original_file_name: fileName(doc.title),
    archived_file_name: fileName(doc.title),
    owner: doc.owner ?? null,
    user_can_change: true,
    is_shared_by_requester: false,
    notes: [],
    custom_fields: [],
    page_count: 1,
    mime_type: 'application/pdf',
  };
  if (profile.engine === 'tantivy') {
    json['duplicate_documents'] = [];
    json['root_document'] = null;
    json['versions'] = [];
  }
  return json;
}

/**
 * DynamicFieldsModelSerializer: `fields` split on commas without trimming; unknown names
 * are ignored; an empty parameter means every field.
 */
export function selectFields(json: JsonObject, fields: string | undefined): JsonObject {
  if (fields === undefined || fields === '') return json;
  const wanted = new Set(fields.split(','));
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(json)) if (wanted.has(key)) out[key] = value;
  return out;
}

export function slugify(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^\w\s-]/g, '')
    .trim()
    .replace(/[-\s]+/g, '-');
}

/** Correspondent / document type objects (reference §5, E10). */
export function namedObjectJson(object: NamedObject, documentCount: number, lastCorrespondence: string | null | undefined): JsonObject {
  const json: JsonObject = {
    id: object.id,
    slug: slugify(object.name),
    name: object.name,
    match: '',
    matching_algorithm: 1,
    is_insensitive: true,
    document_count: documentCount,
  };
  if (lastCorrespondence !== undefined) json['last_correspondence'] = lastCorrespondence;
  json['owner'] = null;
  json['user_can_change'] = true;
  return json;
}
