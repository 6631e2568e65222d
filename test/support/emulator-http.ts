import { request } from 'undici';

/** Paperless's answer to any exception while searching, up to 3.1 (400 `text/html`). */
export const LISTING_ERROR = 'Error listing search results, check logs for more detail.';

/** One answer of the archive-server emulator as the product reads it: status, type, body and version headers. */
export interface EmulatorAnswer {
  readonly status: number;
  readonly type: string;
  readonly text: string;
  /** Whether the version headers came (only after authentication). */
  readonly versioned: boolean;
  readonly version: string | undefined;
  readonly apiVersion: string | undefined;
}

/** GET `path` (with its query) from the emulator at `url` over real HTTP, with the token and `Accept` given. */
export async function emulatorGet(url: string, path: string, token: string, accept = 'application/json; version=9'): Promise<EmulatorAnswer> {
  const response = await request(`${url}${path}`, { headers: { authorization: `Token ${token}`, accept } });
  const text = await response.body.text();
  const header = (name: string): string | undefined => {
    const value = response.headers[name];
    return typeof value === 'string' ? value : undefined;
  };
  const apiVersion = header('x-api-version');
  return {
    status: response.statusCode,
    type: String(response.headers['content-type']),
    text,
    versioned: apiVersion !== undefined,
    version: header('x-version'),
    apiVersion,
  };
}
