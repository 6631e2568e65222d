/**
 * `pace` (who --all writing to a full pipe): a streamed read asks it between reads and waits for
 * its promise before reading on, on SQLite, PostgreSQL and MariaDB, and every row still comes.
 */
import { describe, expect, test } from '@jest/globals';
import { reachableDialects } from './support/host-fixtures/dialects.js';
import { useHostWorld } from './support/host-fixtures/host-world.js';

const ROWS = 3000;
// Digits crossed, not a recursive CTE: MariaDB stops one after 1 000 iterations (max_recursive_iterations) without an error.
const DIGIT =
  '(SELECT 0 AS d UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3 UNION ALL SELECT 4 UNION ALL SELECT 5 UNION ALL SELECT 6 UNION ALL SELECT 7 UNION ALL SELECT 8 UNION ALL SELECT 9)';
const SERIES = `SELECT x.i FROM (SELECT a.d + 10 * b.d + 100 * c.d + 1000 * e.d + 1 AS i FROM ${DIGIT} a, ${DIGIT} b, ${DIGIT} c, ${DIGIT} e) x WHERE x.i <= ${ROWS} ORDER BY x.i`;
const dialects = await reachableDialects('host-stream-pace');

describe.each(dialects)('a paced stream on %s', (dialect) => {
  const world = useHostWorld(dialect, async () => undefined);

  test('the read waits while pace holds it, and every row comes', async () => {
    let asked = 0;
    let waiting = false;
    let deliveredWhileWaiting = 0;
    const seen: number[] = [];
    await world.host.sql.each(
      SERIES,
      [],
      (rows) => {
        if (waiting) deliveredWhileWaiting += rows.length;
        for (const row of rows) seen.push(Number(row.i));
      },
      () => {
        asked += 1;
        waiting = true;
        return new Promise((resolve) =>
          setTimeout(() => {
            waiting = false;
            resolve();
          }, 1),
        );
      },
    );
    expect(seen).toEqual(Array.from({ length: ROWS }, (_, i) => i + 1));
    expect(asked).toBeGreaterThan(0);
    // MariaDB pauses its socket: rows already parsed may still come, never the whole result.
    expect(deliveredWhileWaiting).toBeLessThan(dialect === 'mysql' ? ROWS : 1);
  });
});
