import { logConnectionTestFailed } from '../archive/connection-test-log.js';
import type { ConnectionTestResult } from '../archive/types.js';
import type { ServiceContext } from '../context-types.js';
import { isArchiveErrorCode, isDusError } from '../errors.js';
import { whyNoConnection } from '../settings/why-no-connection.js';
import { recordProblem, recordTestWorked } from './history.js';

export interface StoredConnectionTest {
  readonly url: string;
  readonly answer: ConnectionTestResult;
}

/**
 * `test`'s and `check`'s connection test with the stored settings. A failure of the archive
 * server is logged as the spec's warning and kept in the problem history (`source: 'test'`,
 * `diagnostics_pending` raised), so that the overview check stops saying "Connected" after
 * `check` or `test` failed; a test that works lowers the flag it raised (docs/search.md,
 * "Overview check decisions"). A history that cannot be written (a read-only config directory)
 * never hides the test's own answer. `asking` is called with the URL before the request.
 */
export async function testStoredConnection(ctx: ServiceContext, asking?: (url: string) => void): Promise<StoredConnectionTest> {
  const connection = ctx.archiveConnection();
  const client = ctx.archiveClient(connection);
  if (connection === null || client === null) throw whyNoConnection(ctx.settings, ctx.credentials);
  asking?.(connection.url);
  try {
    const answer = await client.testConnection();
    noted(ctx, () => recordTestWorked(ctx.settings));
    return { url: connection.url, answer };
  } catch (error: unknown) {
    logConnectionTestFailed(ctx.logger, error);
    if (isDusError(error) && isArchiveErrorCode(error.code)) {
      noted(ctx, () => recordProblem(ctx.settings, { code: error.code, message: error.message, status: error.status, source: 'test' }, [connection.token]));
    }
    throw error;
  }
}

function noted(ctx: ServiceContext, write: () => void): void {
  try {
    write();
  } catch (error: unknown) {
    ctx.logger.debug({ code: isDusError(error) ? error.code : 'internal' }, 'the connection test could not be noted in the history');
  }
}
