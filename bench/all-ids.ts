/**
 * The cost of `all` (every matching id, which API version 9 brings back on archive server 3) on a
 * 100 000-document archive: bytes on the wire, parse time and memory per request, for the
 * connection test (page_size 1) and the widget (25 newest), with version 9 as the spec fixes and
 * with version 10 for comparison. "buffered" is what the client did before: the whole body in
 * memory, JSON.parse, validation. "streamed" is what it does now: `all` taken out while it
 * streams (`src/core/archive/all-ids.ts`), the ids kept as numbers for the connection test only.
 *
 *   npm run build && npm run build:tools && node_modules/.bin/node --expose-gc dist-tools/bench/all-ids.js [documents]
 */
import { performance } from 'node:perf_hooks';
import { request } from 'undici';
import { AllIdsFilter } from '../src/core/archive/all-ids.js';
import { createArchiveClient } from '../src/core/archive/archive-client.js';
import { CONNECTION_TEST_QUERY, WIDGET_QUERY, endpoint } from '../src/core/archive/requests.js';
import { validateIdPage, validateNewestPage } from '../src/core/archive/schemas.js';
import { sampleArchive, startArchiveEmulator } from '../test/support/archive-emulator/index.js';

const DOCUMENTS = Number(process.argv[2] ?? 100_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const TOKEN = 'bench-token';
const gc = (globalThis as { gc?: () => void }).gc;

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

function heap(): number {
  gc?.();
  return process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers;
}

async function raw(url: URL, version: string): Promise<Buffer[]> {
  const answer = await request(url, { headers: { authorization: `Token ${TOKEN}`, accept: `application/json; version=${version}` } });
  const chunks: Buffer[] = [];
  for await (const chunk of answer.body) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
  return chunks;
}

interface Cost {
  readonly bytes: number;
  readonly ms: number;
  readonly retained: number;
}

/** Parse time and what stays in memory while the parsed answer is held. */
function measure(chunks: readonly Buffer[], parse: (chunks: readonly Buffer[]) => unknown): Cost {
  const times: number[] = [];
  for (let run = 0; run < RUNS; run += 1) {
    const started = performance.now();
    parse(chunks);
    times.push(performance.now() - started);
  }
  const before = heap();
  const held = parse(chunks);
  const retained = heap() - before;
  if (held === undefined) throw new Error('nothing parsed');
  return { bytes: chunks.reduce((sum, c) => sum + c.length, 0), ms: median(times), retained };
}

const buffered =
  (validate: (data: unknown) => boolean) =>
  (chunks: readonly Buffer[]): unknown => {
    const body = Buffer.concat(chunks);
    const data: unknown = JSON.parse(body.toString('utf8'));
    if (!validate(data)) throw new Error('not a page');
    return { body, data };
  };

const streamed =
  (validate: (data: unknown) => boolean, keep: boolean) =>
  (chunks: readonly Buffer[]): unknown => {
    const filter = new AllIdsFilter(keep);
    const kept = Buffer.concat(chunks.map((chunk) => filter.push(chunk)));
    const data: unknown = JSON.parse(kept.toString('utf8'));
    if (!validate(data)) throw new Error('not a page');
    return { kept, data, ids: filter.allIds() };
  };

function kb(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KiB`;
}

const archive = sampleArchive(DOCUMENTS);
const emulator = await startArchiveEmulator({ version: '3.0', ...archive, tokens: [TOKEN] });
try {
  const base = new URL(emulator.url);
  const requests = [
    { name: 'connection test', url: endpoint(base, 'documents', CONNECTION_TEST_QUERY), validate: validateIdPage, keep: true },
    { name: 'widget', url: endpoint(base, 'documents', WIDGET_QUERY), validate: validateNewestPage, keep: false },
  ];
  console.log(`archive of ${DOCUMENTS} documents, emulator 3.0 (version 9 brings back all), ${RUNS} runs, median`);
  for (const { name, url, validate, keep } of requests) {
    const v9 = await raw(url, '9');
    const v10 = await raw(url, '10');
    const without = measure(v10, buffered(validate));
    const before = measure(v9, buffered(validate));
    const after = measure(v9, streamed(validate, keep));
    console.log(`${name}: wire v10 ${kb(without.bytes)}, v9 ${kb(before.bytes)} (${(before.bytes / without.bytes).toFixed(0)}x)`);
    console.log(`  v10 buffered: parse ${without.ms.toFixed(2)} ms, held ${kb(without.retained)}`);
    console.log(`  v9 buffered:  parse ${before.ms.toFixed(2)} ms, held ${kb(before.retained)}`);
    console.log(
      `  v9 streamed:  parse ${after.ms.toFixed(2)} ms, held ${kb(after.retained)} (${keep ? 'ids kept' : 'ids dropped'}); parse ratio streamed/buffered ${(after.ms / before.ms).toFixed(2)}`,
    );
  }
  const client = createArchiveClient({ url: emulator.url, token: TOKEN, allowLocal: true });
  const test: number[] = [];
  const widget: number[] = [];
  for (let run = 0; run < RUNS; run += 1) {
    let started = performance.now();
    const tested = await client.testConnection();
    test.push(performance.now() - started);
    if (tested.allIds?.length !== DOCUMENTS) throw new Error('ids missing');
    started = performance.now();
    await client.newest();
    widget.push(performance.now() - started);
  }
  await client.close();
  console.log(`end to end over loopback (emulator time included): connection test ${median(test).toFixed(1)} ms, widget ${median(widget).toFixed(1)} ms`);
  if (gc === undefined) console.log('(run with --expose-gc for exact held-memory figures)');
} finally {
  await emulator.close();
}
