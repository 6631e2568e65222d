import type { VersionProfile } from './profiles.js';

/** Outcome of DRF content negotiation followed by `AcceptHeaderVersioning` (reference §1). */
export type Negotiation =
  | { readonly ok: true; readonly apiVersion: string }
  | { readonly ok: false; readonly detail: string };

interface MediaType {
  readonly type: string;
  readonly subtype: string;
  readonly params: ReadonlyMap<string, string>;
}

function parseMediaType(text: string): MediaType {
  const [full = '', ...rawParams] = text.split(';');
  const [type = '', subtype = ''] = full.trim().toLowerCase().split('/');
  const params = new Map<string, string>();
  for (const raw of rawParams) {
    const eq = raw.indexOf('=');
    if (eq === -1) continue;
    params.set(raw.slice(0, eq).trim().toLowerCase(), raw.slice(eq + 1).trim().replace(/^"(.*)"$/, '$1'));
  }
  return { type, subtype: subtype.trim(), params };
}

/** DRF `_MediaType.precedence`: the most specific client media types are tried first. */
function precedence(media: MediaType): number {
  if (media.type === '*') return 0;
  if (media.subtype === '*') return 1;
  const names = [...media.params.keys()];
  if (names.length === 0 || (names.length === 1 && names[0] === 'q')) return 2;
  return 3;
}

function matchesJson(media: MediaType): boolean {
  return (media.type === '*' || media.type === 'application') && (media.subtype === '*' || media.subtype === 'json');
}

/** `?format=` filters the renderers; only `json` is served. */
export function negotiate(accept: string | undefined, format: string | undefined, profile: VersionProfile): Negotiation {
  if (format !== undefined && format !== '' && format !== 'json') return { ok: false, detail: 'Could not satisfy the request format suffix or query.' };
  let version: string | undefined;
  if (accept !== undefined && accept.trim() !== '') {
    const candidates = accept
      .split(',')
      .map(parseMediaType)
      .map((media, index) => ({ media, index }))
      .sort((a, b) => precedence(b.media) - precedence(a.media) || a.index - b.index);
    const chosen = candidates.find((c) => matchesJson(c.media));
    if (chosen === undefined) return { ok: false, detail: 'Could not satisfy the request Accept header.' };
    version = chosen.media.params.get('version');
  }
  if (version === undefined) return { ok: true, apiVersion: profile.defaultApiVersion };
  if (!profile.allowedApiVersions.includes(version)) return { ok: false, detail: 'Invalid version in "Accept" header.' };
  return { ok: true, apiVersion: version };
}
