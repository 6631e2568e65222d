/** Value parsing as Django forms do it for the filters (reference §3.1). */

/** Django DATE_INPUT_FORMATS that matter: `%Y-%m-%d`, `%m/%d/%Y`, `%m/%d/%y`. Returns YYYY-MM-DD or null. */
export function parseFormDate(text: string): string | null {
  const value = text.trim();
  let year: number;
  let month: number;
  let day: number;
  let m = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(value);
  if (m !== null) {
    year = Number(m[1]);
    month = Number(m[2]);
    day = Number(m[3]);
  } else {
    m = /^(\d{1,2})\/(\d{1,2})\/(\d{4}|\d{2})$/.exec(value);
    if (m === null) return null;
    month = Number(m[1]);
    day = Number(m[2]);
    const y = m[3] ?? '';
    year = y.length === 2 ? (Number(y) < 69 ? 2000 + Number(y) : 1900 + Number(y)) : Number(y);
  }
  return isoDate(year, month, day);
}

/** YYYY-MM-DD when the parts name a real calendar day. */
export function isoDate(year: number, month: number, day: number): string | null {
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day || year < 1) return null;
  return date.toISOString().slice(0, 10);
}

/** Django's DateTimeField: ISO 8601; naive values are in the server's zone (UTC here). Epoch ms or null. */
export function parseFormDateTime(text: string): number | null {
  const value = text.trim();
  const date = parseFormDate(value);
  if (date !== null) return Date.parse(`${date}T00:00:00Z`);
  const m = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d{1,6})?)?)(Z|[+-]\d{2}:?\d{2})?$/.exec(value);
  if (m === null) return null;
  const zone = m[3] ?? 'Z';
  const ms = Date.parse(`${m[1]}T${m[2]}${zone.length === 5 ? `${zone.slice(0, 3)}:${zone.slice(3)}` : zone}`);
  return Number.isNaN(ms) ? null : ms;
}

/** forms.DecimalField as NumberFilter uses it ("Enter a number."). */
export function parseFormNumber(text: string): number | null {
  const value = text.trim();
  if (!/^[+-]?(\d+(\.\d*)?|\.\d+)$/.test(value)) return null;
  return Number(value);
}

/** The UTC calendar day of an ISO moment (the emulated server runs with TIME_ZONE=UTC). */
export function utcDay(moment: string): string {
  const ms = Date.parse(moment);
  return Number.isNaN(ms) ? moment.slice(0, 10) : new Date(ms).toISOString().slice(0, 10);
}

export function addDays(day: string, days: number): string {
  const ms = Date.parse(`${day}T00:00:00Z`) + days * 86_400_000;
  return new Date(ms).toISOString().slice(0, 10);
}
