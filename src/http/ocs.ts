/** The host's OCS v2 envelope (`format=json`): HTTP status and `meta.statuscode` agree. */
export interface OcsEnvelope<T> {
  readonly ocs: {
    readonly meta: { readonly status: 'ok' | 'failure'; readonly statuscode: number; readonly message: string };
    readonly data: T;
  };
}

export function ocsOk<T>(data: T): OcsEnvelope<T> {
  return { ocs: { meta: { status: 'ok', statuscode: 200, message: 'OK' }, data } };
}

export function ocsFailure(status: number, code: string, message: string): OcsEnvelope<{ readonly code: string; readonly message: string }> {
  return { ocs: { meta: { status: 'failure', statuscode: status, message }, data: { code, message } } };
}

export function isOcsPath(url: string): boolean {
  return url.startsWith('/ocs/') || url.startsWith('/bridge/ocs/');
}
