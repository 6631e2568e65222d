/** Which of the three databases answer here; the reason is printed for every one that does not. */
import type { FixtureDialect } from './index.js';
import { mysqlWriter, pgWriter } from './writer.js';

export const ALL_DIALECTS: readonly FixtureDialect[] = ['sqlite', 'pgsql', 'mysql'];

let cached: Promise<Map<FixtureDialect, string | null>> | null = null;

/** dialect → null when reachable, else why not. */
export function dialectAvailability(): Promise<Map<FixtureDialect, string | null>> {
  cached ??= (async () => {
    const result = new Map<FixtureDialect, string | null>();
    for (const dialect of ALL_DIALECTS) {
      try {
        if (dialect === 'sqlite') await import('node:sqlite');
        else await (await (dialect === 'pgsql' ? pgWriter('test') : mysqlWriter(undefined))).close();
        result.set(dialect, null);
      } catch (error) {
        const where = dialect === 'pgsql' ? 'PostgreSQL 127.0.0.1:5432' : dialect === 'mysql' ? 'MariaDB 127.0.0.1:3306' : 'node:sqlite';
        result.set(dialect, `${where} is not reachable: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    return result;
  })();
  return cached;
}

/** Reachable dialects; prints a SKIP line naming the reason for each one that is not. */
export async function reachableDialects(label: string): Promise<FixtureDialect[]> {
  const availability = await dialectAvailability();
  const reachable: FixtureDialect[] = [];
  for (const [dialect, reason] of availability) {
    if (reason === null) reachable.push(dialect);
    else process.stderr.write(`SKIP ${label} on ${dialect}: ${reason}\n`);
  }
  return reachable;
}
