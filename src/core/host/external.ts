/**
 * The external mounts read on their own (`who`, `check`): files_external's flags first, its
 * tables only once it was installed (they do not exist before). The questions read the same
 * rows inside their one statement (rules/lookup-sql.ts).
 */
import type { HostContext } from './host-context.js';
import { branchOf } from './rules/row-branch.js';
import {
  addExternalRow,
  externalBranches,
  externalFactsOf,
  externalProbe,
  externalRows,
  NO_EXTERNAL,
  type ExternalFacts,
  type ExternalRows,
} from './rules/external-storage.js';

/** `probed`: files_external's flags already read with another statement (no statement more when it is not installed). */
export async function readExternal(host: HostContext, probed?: ExternalRows): Promise<ExternalFacts> {
  const { statements } = host;
  const dialect = statements.sql.dialect;
  const raw = probed ?? externalRows();
  if (probed === undefined) for (const row of await statements.query(branchOf(externalProbe(statements.prefix), dialect), [])) addExternalRow(row, raw);
  if (!raw.installed) return NO_EXTERNAL;
  const sql = externalBranches(statements.prefix, dialect, null)
    .map((b) => branchOf(b, dialect))
    .join(' UNION ALL ');
  for (const row of await statements.query(sql, [])) addExternalRow(row, raw);
  return externalFactsOf(raw);
}
