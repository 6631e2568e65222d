/**
 * How the statements of the rules write a branch of their UNION: every branch names its
 * columns in one layout, and PostgreSQL is given NULLs it can type. It changes when a layout
 * or a dialect's typing does.
 */
import type { Dialect } from '../db/types.js';

/** The lookup's columns (lookup-sql.ts); `who`'s statement for many accounts adds `u` and `gid` (share-reach.ts). */
export const COLUMNS = ['k', 'a', 'b', 'c', 'd', 'e', 'g', 't1', 't2', 't3', 't4'] as const;
export const ACCOUNT_COLUMNS = [...COLUMNS, 'u', 'gid'] as const;
/** Columns `a` to `g` carry numbers in every branch that fills them. */
const NUMERIC = new Set(['a', 'b', 'c', 'd', 'e', 'g']);

/** A branch whose columns are named: the layout of the statement places them, NULL elsewhere. */
export interface RowBranch {
  readonly kind: string;
  readonly fills: Readonly<Partial<Record<string, string>>>;
  /** `FROM … WHERE …` */
  readonly rest: string;
}

/** `values` in the order of `layout` (the lookup's by default): the first branch names the result's columns, and it varies. */
export function branch(values: readonly string[], rest: string, dialect?: Dialect, layout: readonly string[] = COLUMNS): string {
  return `SELECT ${values.map((v, i) => `${typedNull(v, layout[i], dialect)} AS ${layout[i] ?? 'x'}`).join(', ')} ${rest}`;
}

/** A named branch in `layout`. Without `dialect` its NULLs stay bare (a statement whose first branch types every column). */
export function branchOf(row: RowBranch, dialect?: Dialect, layout: readonly string[] = COLUMNS): string {
  return branch(
    layout.map((column) => (column === 'k' ? `'${row.kind}'` : (row.fills[column] ?? 'NULL'))),
    row.rest,
    dialect,
    layout,
  );
}

/**
 * PostgreSQL resolves a UNION's column types pair by pair from the left: two branches with a
 * bare NULL in a column (the `U` and `A` rows of the archive account's own search come first,
 * it has no share rows) settle on text, and the file branch's bigint after them is refused.
 * A NULL typed as a number agrees with every branch.
 */
function typedNull(value: string, column: string | undefined, dialect: Dialect | undefined): string {
  return dialect === 'pgsql' && value === 'NULL' && column !== undefined && NUMERIC.has(column) ? 'CAST(NULL AS BIGINT)' : value;
}
