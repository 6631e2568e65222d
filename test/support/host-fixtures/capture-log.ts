/** A pino logger whose lines are kept in memory, to assert what the adapter logged. */
import { Writable } from 'node:stream';
import { pino, type Logger } from 'pino';

export function captureLogger(): { logger: Logger; lines: () => Record<string, unknown>[] } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      chunks.push(chunk.toString('utf8'));
      done();
    },
  });
  const logger = pino({ level: 'debug', base: { app: 'docs_unified_search' } }, stream);
  return {
    logger,
    lines: () =>
      chunks
        .join('')
        .split('\n')
        .filter((l) => l.trim() !== '')
        .map((l) => JSON.parse(l) as Record<string, unknown>),
  };
}
