import { expect, test } from '@jest/globals';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { logConnectionTestFailed } from '../src/core/archive/connection-test-log.js';
import { statusFailure, timeoutFailure } from '../src/core/archive/failures.js';
import { DusError } from '../src/core/errors.js';

/** The message of each line a real pino logger writes. */
function logged(errors: readonly unknown[]): string[] {
  const lines: string[] = [];
  const logger = pino(
    { level: 'debug' },
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push((JSON.parse(chunk.toString()) as { msg: string }).msg);
        done();
      },
    }),
  );
  for (const error of errors) logConnectionTestFailed(logger, error);
  return lines;
}

test("the reason is the settings routes' code; beside it what the server or the network said, never more than a short code", () => {
  const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' });
  const expired = Object.assign(new Error('certificate has expired'), { code: 'CERT_HAS_EXPIRED' });
  const odd = Object.assign(new Error('odd'), { code: 'https://p.example/?token=abc123' });
  expect(
    logged([
      statusFailure(401, '/api/documents/'),
      new DusError('unreachable', 'The archive server refused the connection.', { cause: refused }),
      new DusError('tls', 'The certificate is not trusted.', { cause: expired }),
      timeoutFailure(false),
      new DusError('unreachable', 'x', { cause: odd }),
      new TypeError('fetch failed'),
    ]),
  ).toEqual([
    'The test of the connection to the archive server failed: unauthorized (HTTP 401)',
    'The test of the connection to the archive server failed: unreachable (ECONNREFUSED)',
    'The test of the connection to the archive server failed: tls (CERT_HAS_EXPIRED)',
    'The test of the connection to the archive server failed: timeout (timeout)',
    'The test of the connection to the archive server failed: unreachable (unreachable)',
    'The test of the connection to the archive server failed: internal (internal)',
  ]);
});
