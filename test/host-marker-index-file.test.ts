/**
 * The index file of one-shot commands (marker-index-file.ts) as a file: private and written
 * whole; a file of another format, host or account, or a broken or hand-edited one, is never
 * trusted beyond choosing which rows to read: it is rebuilt, or what it lists is re-judged, so it
 * can only leave files out. A file that cannot be read or written costs the index, not the
 * answer. (The stale-index cases, with the file, are in host-marker-index.test.ts.)
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MARKER_INDEX_FORMAT } from '../src/core/host/index/marker-index-file.js';
import { openHost } from '../src/core/host/open-host.js';
import type { HostAdapter } from '../src/core/host/types.js';
import { captureLogger } from './support/host-fixtures/capture-log.js';
import { reachableDialects } from './support/host-fixtures/dialects.js';
import { askPaths, useHostWorld, type Question } from './support/host-fixtures/host-world.js';
import { createHostFixture, type HostFixture } from './support/host-fixtures/index.js';
import { useCliWorld } from './support/cli-world.js';

const A = 'arc';
const IDS = [1, 2, 3, 6, 9];

async function build(fx: HostFixture): Promise<void> {
  for (const uid of [A, 'bob', 'carol']) await fx.addUser(uid);
  await fx.addFile(A, 'Shared/one [P1].pdf');
  await fx.addFile(A, 'Shared/two [P2].pdf');
  await fx.share({ owner: A, fileId: await fx.addFolder(A, 'Shared'), type: 'user', with: 'bob', target: '/Shared' });
  await fx.addFile(A, 'Private/six [P6].pdf');
  await fx.addFile(A, 'Private/three [P3].pdf');
  // Another account's marked file shared with bob: never the archive's, whatever an index says.
  await fx.share({ owner: 'carol', fileId: await fx.addFile('carol', 'nine [P9].pdf'), type: 'user', with: 'bob' });
}

/** The file's parts, as marker-index-file.ts lays them out. */
function parse(bytes: Buffer): { header: Record<string, unknown>; body: Buffer; pairsAt: number } {
  const length = bytes.readUInt32LE(8);
  const header = JSON.parse(bytes.subarray(12, 12 + length).toString('utf8')) as Record<string, unknown>;
  const bodyAt = Math.ceil((12 + length) / 8) * 8;
  const blocks = Math.ceil(Number(header.count) / Number(header.block));
  return { header, body: bytes.subarray(bodyAt), pairsAt: bodyAt + 8 * blocks };
}

function withHeader(bytes: Buffer, change: (header: Record<string, unknown>) => Record<string, unknown>): Buffer {
  const { header, body } = parse(bytes);
  const text = Buffer.from(JSON.stringify(change(header)), 'utf8');
  const length = Buffer.alloc(4);
  length.writeUInt32LE(text.length);
  const padding = Buffer.alloc(Math.ceil((12 + text.length) / 8) * 8 - 12 - text.length);
  return Buffer.concat([bytes.subarray(0, 8), length, text, padding, body]);
}

const dialects = await reachableDialects('marker index file');

describe.each(dialects)('index file on %s', (dialect) => {
  const world = useHostWorld(dialect, build);
  let directory = '';
  let file = '';
  beforeAll(() => {
    directory = mkdtempSync(join(tmpdir(), 'dus-index-file-'));
    file = join(directory, 'marker-index.bin');
  });
  afterAll(() => {
    if (directory !== '') rmSync(directory, { recursive: true, force: true });
  });

  /** One fresh run, as a CLI command would make: opens, asks, closes (which saves); its statements and the file events it logged. */
  const run = async (q: Question, user: string, options: { fx?: HostFixture; archive?: string; path?: string } = {}) => {
    const fx = options.fx ?? world.fx;
    const { logger, lines } = captureLogger();
    const host = await openHost({ dbUrl: fx.dbUrl, tablePrefix: fx.prefix }, { markerIndexFile: options.path ?? file, logger });
    try {
      const before = host.sql.queryCount;
      const answer = await askPaths(host, q, user, options.archive ?? A, IDS);
      const statements = host.sql.queryCount - before;
      return {
        answer,
        statements,
        host,
        events: () =>
          lines()
            .map((l) => String(l.msg))
            .filter((m) => m.startsWith('marker index file')),
      };
    } finally {
      await host.close();
    }
  };
  const scan = async (q: Question, user: string, fx: HostFixture = world.fx): Promise<Record<number, string>> => {
    const host: HostAdapter = await openHost({ dbUrl: fx.dbUrl, tablePrefix: fx.prefix });
    try {
      return await askPaths(host, q, user, A, IDS);
    } finally {
      await host.close();
    }
  };

  test('private (0600, directory 0700), written whole (no temporary file left), then one statement per run', async () => {
    rmSync(file, { force: true });
    const first = await run('visible', 'bob');
    expect(first.answer).toEqual(await scan('visible', 'bob'));
    expect(first.answer).toEqual({ 1: '/Shared/one [P1].pdf', 2: '/Shared/two [P2].pdf' });
    // The etags, the folders, their marked children, the lookup.
    expect(first.statements).toBe(4);
    expect(first.events()).toEqual(['marker index file missing', 'marker index file saved']);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(directory)).toEqual(['marker-index.bin']);
    const nested = join(directory, 'sub', 'marker-index.bin');
    await run('visible', 'bob', { path: nested });
    expect(statSync(join(directory, 'sub')).mode & 0o777).toBe(0o700);
    rmSync(join(directory, 'sub'), { recursive: true });

    const warm = await run('visible', 'bob');
    expect(warm.statements).toBe(1);
    expect(warm.events()).toEqual(['marker index file loaded']);
    expect(warm.answer).toEqual(first.answer);
    expect((await run('owned', A)).answer).toEqual(await scan('owned', A));
  });

  test("a run that changed nothing reads only what it asks and leaves the file as it was (its folders, at the end, are not read); check's coverage, which needs all of it, builds it again", async () => {
    await run('visible', 'bob');
    const whole = readFileSync(file);
    const etagBytes = Number(parse(whole).header.etagBytes);
    // The folders' etags are the file's last bytes: made unreadable, the rest untouched.
    const tailBroken = Buffer.concat([whole.subarray(0, whole.length - etagBytes), Buffer.alloc(etagBytes, 0x21)]);
    writeFileSync(file, tailBroken);
    const warm = await run('visible', 'bob');
    expect(warm.statements).toBe(1);
    expect(warm.events()).toEqual(['marker index file loaded']);
    expect(warm.answer).toEqual(await scan('visible', 'bob'));
    expect(readFileSync(file).equals(tailBroken)).toBe(true);
    // check's coverage needs every id, so the whole file: unreadable, it is built again.
    const covered = async (options: { markerIndexFile?: string }): Promise<readonly number[]> => {
      const host = await openHost({ dbUrl: world.fx.dbUrl, tablePrefix: world.fx.prefix }, options);
      try {
        return await host.markedDocuments(A);
      } finally {
        await host.close();
      }
    };
    expect(await covered({ markerIndexFile: file })).toEqual(await covered({}));
    expect(readFileSync(file).equals(whole)).toBe(true);
  });

  test('another format: not read, rebuilt and rewritten', async () => {
    await run('visible', 'bob');
    writeFileSync(
      file,
      withHeader(readFileSync(file), (h) => ({ ...h, format: 99 })),
    );
    const next = await run('visible', 'bob');
    expect(next.events()).toEqual(['marker index file rejected', 'marker index file saved']);
    expect(next.statements).toBe(4);
    expect(next.answer).toEqual(await scan('visible', 'bob'));
    expect(parse(readFileSync(file)).header.format).toBe(MARKER_INDEX_FORMAT);
    expect((await run('visible', 'bob')).statements).toBe(1);
  });

  test("cut short, overwritten with garbage, or emptied: rebuilt, and the answers are the scan's", async () => {
    await run('visible', 'bob');
    const whole = readFileSync(file);
    for (const broken of [whole.subarray(0, whole.length - 8), whole.subarray(0, 30), Buffer.alloc(whole.length, 0x41), Buffer.alloc(0)]) {
      writeFileSync(file, broken);
      const next = await run('visible', 'bob');
      expect(next.events()[0]).toMatch(/rejected|unreadable/);
      expect(next.statements).toBe(4);
      expect(next.answer).toEqual(await scan('visible', 'bob'));
      expect(readFileSync(file).equals(whole)).toBe(true);
    }
  });

  test('a file of another host or another archive account is not used', async () => {
    const other = await createHostFixture(dialect);
    try {
      // Same uids, other files: the first fixture's index would point at the wrong rows.
      for (const uid of [A, 'bob']) await other.addUser(uid);
      await other.addFile(A, 'Elsewhere/x [P2].pdf');
      await other.share({ owner: A, fileId: await other.addFolder(A, 'Elsewhere'), type: 'user', with: 'bob', target: '/Elsewhere' });
      await run('visible', 'bob');
      const fromOther = await run('visible', 'bob', { fx: other });
      expect(fromOther.events()).toEqual(['marker index file rejected', 'marker index file saved']);
      expect(fromOther.answer).toEqual({ 2: '/Elsewhere/x [P2].pdf' });
      expect(fromOther.answer).toEqual(await scan('visible', 'bob', other));
      // And back: the first host's run does not take the other's file either.
      expect((await run('visible', 'bob')).events()[0]).toBe('marker index file rejected');
      // Another archive account on the same host: its own index.
      expect((await run('owned', 'carol', { archive: 'carol' })).events()[0]).toBe('marker index file rejected');
    } finally {
      await other.drop();
    }
  });

  test('hand-edited to point documents at other files (etags left as they were): nothing shown that the scan does not show', async () => {
    await run('visible', 'bob');
    const bytes = Buffer.from(readFileSync(file));
    const { header, pairsAt } = parse(bytes);
    const count = Number(header.count);
    const files = [...world.fx.model.files.values()].map((f) => f.fileid);
    expect(count).toBe(4);
    // Every listed document now points at every other file of the fixture in turn (the
    // private [P6], carol's [P9], folders, roots): the file ids change, the order by document
    // id (the binary search) is kept.
    let omitted = 0;
    for (let shift = 0; shift < files.length; shift += 1) {
      for (let i = 0; i < count; i += 1) bytes.writeDoubleLE(files[(i + shift) % files.length] ?? 0, pairsAt + 16 * i + 8);
      writeFileSync(file, bytes);
      for (const [q, user] of [
        ['visible', 'bob'],
        ['owned', A],
        ['visible', A],
      ] as const) {
        const tampered = await run(q, user);
        expect(tampered.events()).toEqual(['marker index file loaded']);
        expect(tampered.statements).toBe(1);
        const truth = await scan(q, user);
        for (const [id, path] of Object.entries(tampered.answer)) expect(truth[Number(id)]).toBe(path);
        if (Object.keys(tampered.answer).length < Object.keys(truth).length) omitted += 1;
      }
    }
    // The edited file was what the runs used: it cost files (the documented omission).
    expect(omitted).toBeGreaterThan(0);
    // Documents pointed at other files' ids are judged by those files' own names: [P9] is
    // carol's, [P6] is not shared with bob.
    const last = await run('visible', 'bob');
    expect(last.answer).not.toHaveProperty('9');
    expect(last.answer).not.toHaveProperty('6');
    rmSync(file);
  });

  test('a file that cannot be read or written (a directory in its place) costs the index, not the answer: the run scans, builds nothing', async () => {
    rmSync(file, { force: true });
    mkdirSync(file);
    try {
      for (let i = 0; i < 2; i += 1) {
        const next = await run('visible', 'bob');
        expect(next.answer).toEqual(await scan('visible', 'bob'));
        expect(next.events()).toEqual(['marker index file unreadable']);
        // The scanning statement alone: an index that could not be kept is not built.
        expect(next.statements).toBe(1);
      }
      expect(readdirSync(directory)).toEqual(['marker-index.bin']);
    } finally {
      rmSync(file, { recursive: true, force: true });
    }
  });

  test('a directory the file cannot be written into: the run scans, builds nothing (not as root, who may write anywhere)', async () => {
    const locked = join(directory, 'locked');
    mkdirSync(locked, { mode: 0o500 });
    try {
      const next = await run('visible', 'bob', { path: join(locked, 'marker-index.bin') });
      expect(next.answer).toEqual(await scan('visible', 'bob'));
      const root = process.getuid?.() === 0;
      expect(next.events()).toEqual(
        root ? ['marker index file missing', 'marker index file saved'] : ['marker index file missing', 'marker index file unwritable'],
      );
      expect(next.statements).toBe(root ? 4 : 1);
    } finally {
      rmSync(locked, { recursive: true, force: true });
    }
  });
});

describe('commands', () => {
  const cli = useCliWorld(30);

  test('search uses and keeps the file; DUS_MARKER_INDEX=off neither reads nor writes it; an unusable file changes nothing on stdout', async () => {
    const path = join(cli.dir, 'marker-index.bin');
    rmSync(path, { force: true });
    const off = await cli.run(['search', 'bob', 'invoice'], { env: { DUS_MARKER_INDEX: 'off' } });
    expect(off.code).toBe(0);
    expect(() => statSync(path)).toThrow();
    const first = await cli.run(['search', 'bob', 'invoice']);
    expect(first.code).toBe(0);
    expect(first.out).toBe(off.out);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const warm = await cli.run(['search', 'bob', 'invoice']);
    expect(warm.out).toBe(off.out);
    rmSync(path);
    mkdirSync(path);
    try {
      const unusable = await cli.run(['search', 'bob', 'invoice']);
      expect(unusable.code).toBe(0);
      expect(unusable.out).toBe(off.out);
      expect(unusable.err).toBe(off.err);
    } finally {
      rmSync(path, { recursive: true, force: true });
    }
  });
});
