/**
 * The host fixture's schema (test/support/host-fixtures/schema.ts) against the tables a real
 * Nextcloud created: for every table the fixture writes, the columns (declared type up to
 * UNSIGNED and TEXT/CLOB spelling, NOT NULL, default, primary key) and the indexes (columns and
 * uniqueness; names differ, the fixture prefixes them). SQLite only: PRAGMA reads both sides.
 */
import { createHostFixture } from '../support/host-fixtures/index.js';
import { NESTED_GROUPS_TABLE, TABLES } from '../support/host-fixtures/schema.js';

interface ColumnInfo {
  readonly type: string;
  readonly notNull: boolean;
  readonly dflt: string | null;
  readonly pk: number;
}

interface TableInfo {
  readonly columns: ReadonlyMap<string, ColumnInfo>;
  /** `UNIQUE (a,b)` or `(a,b)`. */
  readonly indexes: ReadonlySet<string>;
}

async function sqliteTables(file: string, names: readonly string[]): Promise<Map<string, TableInfo | null>> {
  const { DatabaseSync } = await import('node:sqlite');
  const db = new DatabaseSync(file, { readOnly: true, timeout: 60_000 });
  try {
    const out = new Map<string, TableInfo | null>();
    for (const name of names) {
      const cols = db.prepare(`PRAGMA table_info("${name}")`).all() as { name: string; type: string; notnull: number; dflt_value: string | null; pk: number }[];
      if (cols.length === 0) {
        out.set(name, null);
        continue;
      }
      const columns = new Map<string, ColumnInfo>(
        cols.map((col) => [
          col.name,
          {
            type: col.type.replace(/ UNSIGNED$/, '').replace(/^TEXT$/, 'CLOB'),
            notNull: col.notnull === 1,
            dflt: col.dflt_value === 'NULL' ? null : col.dflt_value,
            pk: col.pk,
          },
        ]),
      );
      const indexes = new Set<string>();
      for (const index of db.prepare(`PRAGMA index_list("${name}")`).all() as { name: string; unique: number; origin: string }[]) {
        if (index.origin !== 'c') continue;
        const on = (db.prepare(`PRAGMA index_info("${index.name}")`).all() as { name: string }[]).map((c) => c.name);
        indexes.add(`${index.unique === 1 ? 'UNIQUE ' : ''}(${on.join(',')})`);
      }
      out.set(name, { columns, indexes });
    }
    return out;
  } finally {
    db.close();
  }
}

/** Every difference between the fixture's tables and those of the SQLite database `realFile` (prefix oc_). */
export async function fixtureSchemaDifferences(realFile: string): Promise<{ differences: string[]; absentFromReal: string[] }> {
  const fixture = await createHostFixture('sqlite');
  try {
    const names = TABLES.map((table) => `oc_${table.name}`);
    const mine = await sqliteTables(fixture.dbUrl.slice('sqlite://'.length), names);
    const real = await sqliteTables(realFile, [...names, `oc_${NESTED_GROUPS_TABLE.name}`]);
    const differences: string[] = [];
    for (const name of names) {
      const a = mine.get(name);
      const b = real.get(name);
      if (a === undefined || a === null) throw new Error(`the fixture did not create ${name}`);
      if (b === undefined || b === null) {
        differences.push(`${name}: absent from the real install`);
        continue;
      }
      for (const [col, info] of b.columns) {
        const have = a.columns.get(col);
        if (have === undefined) differences.push(`${name}.${col}: missing from the fixture (real ${JSON.stringify(info)})`);
        else if (JSON.stringify(have) !== JSON.stringify(info))
          differences.push(`${name}.${col}: fixture ${JSON.stringify(have)}, real ${JSON.stringify(info)}`);
      }
      for (const col of a.columns.keys()) if (!b.columns.has(col)) differences.push(`${name}.${col}: not in the real install`);
      for (const index of b.indexes) if (!a.indexes.has(index)) differences.push(`${name}: fixture lacks the index ${index}`);
      for (const index of a.indexes) if (!b.indexes.has(index)) differences.push(`${name}: the real install has no index ${index}`);
    }
    const absentFromReal = real.get(`oc_${NESTED_GROUPS_TABLE.name}`) === null ? [`oc_${NESTED_GROUPS_TABLE.name}`] : [];
    return { differences, absentFromReal };
  } finally {
    await fixture.drop();
  }
}
