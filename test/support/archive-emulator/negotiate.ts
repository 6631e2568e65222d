import type { VersionProfile } from './profiles.js';

/** Outcome of DRF content negotiation followed by `AcceptHeaderVersioning` (reference §1). */
export type Negotiation =
  /** `html`: DRF's BrowsableAPIRenderer was chosen (`Accept: text/html`), which Paperless keeps (no renderer setting). */
  { readonly ok: true; readonly apiVersion: string; readonly html: boolean } | { readonly ok: false; readonly detail: string };

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
    params.set(
      raw.slice(0, eq).trim().toLowerCase(),
      raw
        .slice(eq + 1)
        .trim()
        .replace(/^"(.*)"$/, '$1'),
    );
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

function matches(media: MediaType, type: string, subtype: string): boolean {
  return (media.type === '*' || media.type === type) && (media.subtype === '*' || media.subtype === subtype);
}

/** DRF's renderers in Paperless' (default) order: JSONRenderer, then BrowsableAPIRenderer. */
const RENDERERS = [
  { type: 'application', subtype: 'json', html: false },
  { type: 'text', subtype: 'html', html: true },
] as const;

/**
 * `?format=` filters the renderers (`json` and DRF's `api`). DRF tries the client's media types
 * most specific first; within one precedence level the server's renderer order decides.
 */
export function negotiate(accept: string | undefined, format: string | undefined, profile: VersionProfile): Negotiation {
  if (format !== undefined && format !== '' && format !== 'json' && format !== 'api')
    return { ok: false, detail: 'Could not satisfy the request format suffix or query.' };
  const renderers = RENDERERS.filter((r) => format === undefined || format === '' || (format === 'json') !== r.html);
  let version: string | undefined;
  let html = renderers[0]?.html ?? false;
  if (accept !== undefined && accept.trim() !== '') {
    const media = accept.split(',').map(parseMediaType);
    const levels = [...new Set(media.map(precedence))].sort((a, b) => b - a);
    let chosen: { readonly media: MediaType; readonly html: boolean } | undefined;
    for (const level of levels) {
      const group = media.filter((m) => precedence(m) === level);
      for (const renderer of renderers) {
        const hit = group.find((m) => matches(m, renderer.type, renderer.subtype));
        if (hit !== undefined) {
          chosen = { media: hit, html: renderer.html };
          break;
        }
      }
      if (chosen !== undefined) break;
    }
    if (chosen === undefined) return { ok: false, detail: 'Could not satisfy the request Accept header.' };
    version = chosen.media.params.get('version');
    html = chosen.html;
  }
  if (version === undefined) return { ok: true, apiVersion: profile.defaultApiVersion, html };
  if (!profile.allowedApiVersions.includes(version)) return { ok: false, detail: 'Invalid version in "Accept" header.' };
  return { ok: true, apiVersion: version, html };
}
