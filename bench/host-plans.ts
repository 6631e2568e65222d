/**
 * Plans that cannot flip: on a Nextcloud-shaped host of 1 M file-cache rows, refresh the
 * statistics (`ANALYZE`) before each of 20 samples, then ask every question once, timing it
 * and reading the plan (`EXPLAIN`) of each statement it sent. Prints, per question, the worst
 * and median time and how many different plans the samples produced; the target is a worst
 * question 1 of 60 ms whatever the statistics. PostgreSQL's plan is the one a session runs a
 * prepared statement with from its sixth run (generic or made for the values, as the server
 * chooses), as the adapter keeps its statements prepared.
 *
 *   npm run build:tools && node dist-tools/bench/host-plans.js [sqlite|pgsql|mysql ...]
 *   BENCH_ROWS (1 000 000), BENCH_SAMPLES (20), BENCH_KEEP=1 keeps the database,
 *   BENCH_DB=<name> reuses a kept MariaDB/PostgreSQL database (prefix oc_).
 */
import { createRequire } from 'node:module';
import { cpus, loadavg } from 'node:os';
import type { Client as PgClient } from 'pg';
import { openHost } from '../src/core/host/open-host.js';
import { toNumberedPlaceholders } from '../src/core/host/db/placeholders.js';
import { rowText } from '../src/core/host/rules/lookup-sql.js';
import type { HostAdapter, SqlValue } from '../src/core/host/types.js';
import type { FixtureDialect } from '../test/support/host-fixtures/index.js';
import { mysqlWriter, pgWriter, sqliteWriter, type Writer } from '../test/support/host-fixtures/writer.js';
import { bigHostFixture, folderDocumentIds, loadBigHost, spreadDocumentIds } from './support/big-host.js';

const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 20);
const TARGET_MS = 60;

interface Sent {
  readonly sql: string;
  readonly params: readonly SqlValue[];
}

/**
 * PostgreSQL's plan steps as a session runs the statement: the adapter keeps its statements
 * prepared (src/core/host/db/pg-statements.ts), and from the sixth run on the server may run a
 * generic plan instead of one made for the values. So the same text is prepared on `session`
 * (the bench's own), run five times with the same values, then explained.
 */
function preparedPlans(session: PgClient): (sent: Sent) => Promise<string[]> {
  let prepared = 0;
  return async (sent) => {
    prepared += 1;
    // A name never used before on this session: the driver remembers every name it parsed.
    const name = `dus_plan_${prepared}`;
    const text = toNumberedPlaceholders(sent.sql);
    const values = sent.params.map((v) => (typeof v === 'bigint' ? v.toString() : v));
    for (let run = 0; run < 5; run += 1) await session.query({ name, text, values });
    const literals = values.map((v) => (v === null ? 'NULL' : session.escapeLiteral(String(v)))).join(', ');
    const rows = (await session.query<{ 'QUERY PLAN': string }>(`EXPLAIN (COSTS OFF) EXECUTE ${name}${literals === '' ? '' : `(${literals})`}`)).rows;
    await session.query(`DEALLOCATE ${name}`);
    return rows.map((r) => r['QUERY PLAN']);
  };
}

/** One line per plan step: the table and how it is reached, enough to tell two plans apart. */
async function planOf(dialect: FixtureDialect, writer: Writer, sent: Sent, pgPlan: ((sent: Sent) => Promise<string[]>) | null): Promise<string> {
  if (dialect === 'mysql') {
    const rows = await writer.all(`EXPLAIN ${sent.sql}`, sent.params);
    return rows.map((r) => `${String(r.table)}:${String(r.type)}:${rowText(r.key) ?? '-'}`).join(' ');
  }
  if (dialect === 'pgsql') {
    if (pgPlan === null) throw new Error('PostgreSQL plans are read on a session of the bench');
    const steps = await pgPlan(sent);
    return steps
      .map((l) => l.trim().replace(/\s+/g, ' '))
      .filter((l) => /Scan|Join|Loop|Hash|Materialize/.test(l))
      .join(' | ');
  }
  const rows = await writer.all(`EXPLAIN QUERY PLAN ${sent.sql}`, sent.params);
  return rows.map((r) => String(r.detail)).join(' | ');
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

async function writerFor(dialect: FixtureDialect, database: string): Promise<Writer> {
  return dialect === 'pgsql' ? pgWriter(database) : mysqlWriter(database);
}

async function benchOne(dialect: FixtureDialect): Promise<void> {
  const reuse = process.env.BENCH_DB;
  let dbUrl: string;
  let writer: Writer;
  let finish: () => Promise<void>;
  if (reuse !== undefined && dialect !== 'sqlite') {
    writer = await writerFor(dialect, reuse);
    dbUrl = dialect === 'pgsql' ? `postgres://postgres@127.0.0.1:5432/${reuse}` : `mysql://root@127.0.0.1:3306/${reuse}`;
    finish = () => writer.close();
  } else {
    const fx = await bigHostFixture(dialect);
    if (fx === null) return;
    const started = Date.now();
    await loadBigHost(fx, ROWS);
    process.stderr.write(`${dialect}: loaded ${ROWS} rows in ${((Date.now() - started) / 1000).toFixed(0)} s\n`);
    const fixture = fx;
    dbUrl = fx.dbUrl;
    writer = dialect === 'sqlite' ? await sqliteWriter(dbUrl.slice('sqlite://'.length)) : await writerFor(dialect, new URL(dbUrl).pathname.slice(1));
    const own = writer;
    finish = async () => {
      await own.close();
      if (process.env.BENCH_KEEP === '1') {
        await fixture.release();
        console.log(`kept ${fixture.dbUrl}`);
      } else await fixture.drop();
    };
  }
  let sent: Sent[] = [];
  let host: HostAdapter | null = null;
  let planner: PgClient | null = null;
  if (dialect === 'pgsql') {
    const pg = createRequire(import.meta.url)('pg') as (typeof import('pg'))['default'];
    planner = new pg.Client({ connectionString: dbUrl });
    await planner.connect();
  }
  const pgPlan = planner === null ? null : preparedPlans(planner);
  try {
    host = await openHost({ dbUrl, tablePrefix: 'oc_' }, { onStatement: (sql, params) => sent.push({ sql, params }) });
    const opened = host;
    const ids = spreadDocumentIds(ROWS);
    const folderIds = folderDocumentIds(ROWS);
    const questions: Record<string, () => Promise<ReadonlyMap<number, unknown>>> = {
      'question 1 (whole archive shared)': () => opened.visibleArchiveFiles('reader', 'archive', ids),
      'question 1 (one shared folder)': () => opened.visibleArchiveFiles('reader2', 'archive', folderIds),
      'question 1 (archive account itself)': () => opened.visibleArchiveFiles('archive', 'archive', ids),
      'question 2': () => opened.ownedArchiveFiles('archive', ids),
      'question 3': () => opened.visibleForeignFiles('reader', 'archive', ids),
    };
    const times = new Map<string, number[]>();
    const plans = new Map<string, Set<string>>();
    const analyze =
      dialect === 'mysql'
        ? `ANALYZE TABLE ${['filecache', 'share', 'storages', 'mimetypes', 'preferences', 'appconfig', 'group_user'].map((t) => `oc_${t}`).join(', ')}`
        : 'ANALYZE';
    // The first call of a host adds a once-only branch (unsupported share types): not a plan change.
    for (const ask of Object.values(questions)) await ask();
    for (let sample = 1; sample <= SAMPLES; sample += 1) {
      await writer.exec(analyze);
      for (const [name, ask] of Object.entries(questions)) {
        sent = [];
        const started = process.hrtime.bigint();
        const found = await ask();
        const ms = Number(process.hrtime.bigint() - started) / 1e6;
        if (found.size === 0 && name !== 'question 3') throw new Error(`${name}: nothing found`);
        const asked = sent;
        times.set(name, [...(times.get(name) ?? []), ms]);
        const signature: string[] = [];
        for (const statement of asked) signature.push(await planOf(dialect, writer, statement, pgPlan));
        const seen = plans.get(name) ?? new Set<string>();
        seen.add(signature.join(' ;; '));
        plans.set(name, seen);
      }
      process.stderr.write('.');
    }
    process.stderr.write('\n');
    const load = `load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')} on ${cpus().length} cores`;
    for (const [name, list] of times) {
      const worst = Math.max(...list);
      const variants = plans.get(name)?.size ?? 0;
      console.log(
        `${dialect}: ${name}: ${SAMPLES} ANALYZE samples, worst ${worst.toFixed(1)} ms, median ${median(list).toFixed(1)} ms, ${variants} plan${variants === 1 ? '' : 's'}` +
          `${name.startsWith('question 1') ? `; target worst ≤ ${TARGET_MS} ms ${worst <= TARGET_MS ? 'met' : 'MISSED'}` : ''}`,
      );
      if (process.env.BENCH_PLANS === '1' || variants > 1) for (const plan of plans.get(name) ?? []) console.log(`    plan: ${plan}`);
    }
    console.log(`${dialect}: (${load})`);
  } finally {
    await host?.close();
    await planner?.end();
    await finish();
  }
}

const wanted = process.argv.slice(2).filter((a): a is FixtureDialect => a === 'sqlite' || a === 'pgsql' || a === 'mysql');
for (const dialect of wanted.length > 0 ? wanted : (['mysql', 'pgsql', 'sqlite'] as const)) await benchOne(dialect);
