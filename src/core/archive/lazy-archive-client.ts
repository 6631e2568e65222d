import type { ArchiveClient, ArchiveClientOptions, ArchiveConnection } from './types.js';

/**
 * An archive client whose module (TLS, DNS, the address rules, the answer schemas) is loaded at
 * its first request: a command that opens the service context but never asks the archive
 * server (`why`) does not pay for it at start. Construction errors (a URL that cannot be
 * parsed) arrive with the first request, where callers already handle the client's failures.
 */
export function lazyArchiveClient(connection: ArchiveConnection, options: ArchiveClientOptions): ArchiveClient {
  let loading: Promise<ArchiveClient> | undefined;
  const client = (): Promise<ArchiveClient> =>
    (loading ??= import('./archive-client.js').then(({ createArchiveClient }) => createArchiveClient(connection, options)));
  return {
    testConnection: async () => (await client()).testConnection(),
    search: async (request) => (await client()).search(request),
    newest: async () => (await client()).newest(),
    names: async (kind, ids, signal) => (await client()).names(kind, ids, signal),
    // A client never used has no connections to close.
    close: async () => (loading === undefined ? undefined : (await loading).close()),
  };
}
