/** How an entry names its file and day: host URLs (reference §14) and a date in the user's language. */

function base(hostUrl: string | null): string {
  return (hostUrl ?? '').replace(/\/+$/, '');
}

/** `files.View.showFile`: opens the file in the Files app for whoever may open it. */
export function fileLink(hostUrl: string | null, fileId: number): string {
  return `${base(hostUrl)}/f/${fileId}`;
}

/** Preview as the current user; `mimeFallback=1` makes the host answer with the type icon when it has no preview. */
export function previewUrl(hostUrl: string | null, fileId: number): string {
  return `${base(hostUrl)}/core/preview?fileId=${fileId}&x=64&y=64&mimeFallback=1`;
}

/** The public type icon, for clients whose preview request is refused (shares without download). */
export function typeIconUrl(hostUrl: string | null, mimetype: string): string {
  return `${base(hostUrl)}/core/mimeicon?mime=${encodeURIComponent(mimetype)}`;
}

/** Building a DateTimeFormat costs far more than using one: one per language, kept. */
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(language: string | null | undefined): Intl.DateTimeFormat {
  const key = language ?? '';
  let formatter = formatters.get(key);
  if (formatter === undefined) {
    formatter = new Intl.DateTimeFormat(localeOf(language), { dateStyle: 'medium', timeZone: 'UTC' });
    if (formatters.size < 200) formatters.set(key, formatter);
  }
  return formatter;
}

/** The host stores languages as `de_DE`; Intl wants `de-DE`. Unknown or absent → English. */
export function localeOf(language: string | null | undefined): string {
  if (language === null || language === undefined || language === '') return 'en';
  const tag = language.replace(/_/g, '-');
  try {
    return Intl.DateTimeFormat.supportedLocalesOf([tag]).length > 0 ? tag : 'en';
  } catch {
    return 'en';
  }
}

/**
 * Days already written, by language and `created` value: ICU's format costs some microseconds a
 * call, and a warm search writes the same few days again and again. Bounded in entries and in
 * their size (a server's odd `created` of any length is written, not kept); emptied when full.
 */
const written = new Map<string, string>();
const WRITTEN_MAX = 4096;
/** An ISO moment with offset and fraction, or a language tag, is under 40 characters. */
const KEPT_LENGTH = 40;

/** A `YYYY-MM-DD` day (Paperless `created`, API ≥ 9) or an ISO moment, written in the user's language. */
export function formatDay(created: string | null, language: string | null | undefined): string | null {
  if (created === null || created === '') return null;
  if (created.length > KEPT_LENGTH || (language?.length ?? 0) > KEPT_LENGTH) return writeDay(created, language);
  const key = `${language ?? ''}\u0000${created}`;
  const known = written.get(key);
  if (known !== undefined) return known;
  const text = writeDay(created, language);
  if (written.size >= WRITTEN_MAX) written.clear();
  written.set(key, text);
  return text;
}

function writeDay(created: string, language: string | null | undefined): string {
  const day = /^(\d{4})-(\d{2})-(\d{2})/.exec(created);
  if (day === null) return created;
  const moment = new Date(Date.UTC(Number(day[1]), Number(day[2]) - 1, Number(day[3])));
  if (Number.isNaN(moment.getTime())) return created;
  // The day is a calendar day, not a moment: formatting it in UTC keeps it from moving.
  return formatterFor(language).format(moment);
}
