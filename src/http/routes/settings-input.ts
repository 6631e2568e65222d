import type { SaveSettingsInput } from '../../core/admin/save-settings.js';
import { msg } from '../../core/i18n/catalog.js';
import { badInput } from '../http-error.js';

const MAX_FIELD = 4096;

/** A form field as text: urlencoded and JSON give strings, a multipart file upload gives a Buffer. */
function text(body: Record<string, unknown>, name: string): string | undefined {
  const value = body[name];
  if (value === undefined || value === null) return undefined;
  if (Array.isArray(value)) throw badInput(msg('usage.form_repeated', { field: name }));
  const raw = Buffer.isBuffer(value) ? value.toString('utf8') : typeof value === 'string' ? value : typeof value === 'boolean' ? String(value) : undefined;
  if (raw === undefined) throw badInput(msg('usage.form_not_text', { field: name }));
  if (raw.length > MAX_FIELD) throw badInput(msg('usage.form_too_long', { field: name, max: MAX_FIELD }));
  return raw;
}

/** The switches accept what forms and scripts send: true/false, 1/0, on/off, yes/no. */
function flag(body: Record<string, unknown>, name: string): boolean | undefined {
  const raw = text(body, name);
  if (raw === undefined || raw === '') return undefined;
  const value = raw.trim().toLowerCase();
  if (['true', '1', 'on', 'yes'].includes(value)) return true;
  if (['false', '0', 'off', 'no'].includes(value)) return false;
  throw badInput(msg('usage.form_not_flag', { field: name }));
}

/** The token as a file upload keeps its file's line end; like `--token-stdin` the first line counts. */
function tokenOf(body: Record<string, unknown>): string | undefined {
  const raw = text(body, 'token');
  if (raw === undefined) return undefined;
  return (raw.split(/\r?\n/, 1)[0] ?? '').trim();
}

export function saveInputOf(body: unknown): SaveSettingsInput {
  if (typeof body !== 'object' || body === null) throw badInput(msg('usage.form_missing'));
  const fields = body as Record<string, unknown>;
  const url = text(fields, 'url');
  if (url === undefined) throw badInput(msg('usage.form_url_required'));
  const token = tokenOf(fields);
  const archiveOwner = text(fields, 'archiveOwner');
  const allowLocal = flag(fields, 'allowLocal');
  const alwaysSearch = flag(fields, 'alwaysSearch');
  return {
    url,
    ...(token === undefined ? {} : { token }),
    ...(archiveOwner === undefined ? {} : { archiveOwner }),
    ...(allowLocal === undefined ? {} : { allowLocal }),
    ...(alwaysSearch === undefined ? {} : { alwaysSearch }),
  };
}
