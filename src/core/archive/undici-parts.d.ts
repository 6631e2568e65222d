// undici's own files that the archive client loads instead of the package's index (connection-pool.ts says why): typed from the index's declarations.
declare module 'undici/lib/dispatcher/client.js' {
  import type { Client } from 'undici';
  const client: typeof Client;
  export default client;
}

declare module 'undici/lib/api/api-request.js' {
  import type { Client, Dispatcher } from 'undici';
  const request: (this: Client, options: Dispatcher.RequestOptions) => Promise<Dispatcher.ResponseData>;
  export default request;
}
