/** `GET /healthz` of `serve`: for load balancers and container health checks, without login. */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { mkdtempSync, renameSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openContext } from '../src/core/context.js';
import { buildServer } from '../src/http/server.js';
import { call, startHarness, type Harness } from './support/http-harness.js';
import { createHostFixture } from './support/host-fixtures/index.js';

describe('health check', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.close();
  });

  test('200 with every part ok, for anyone, and no request to the archive server', async () => {
    const before = h.emulator.requests.length;
    const answer = await call(h, 'GET', '/healthz');
    expect(answer.status).toBe(200);
    expect(answer.json()).toEqual({ status: 'ok', settings: 'ok', host: 'ok', cache: 'ok' });
    expect(answer.headers['cache-control']).toBe('no-store');
    expect(h.emulator.requests.length).toBe(before);
  });
});

test('503 naming the part while the host database is gone, 200 again once it is back, without a restart', async () => {
  const fixture = await createHostFixture('sqlite');
  const dir = mkdtempSync(join(tmpdir(), 'dus-health-'));
  // The database file taken away and put back, as a database that is restarted.
  const file = fixture.dbUrl.replace(/^sqlite:\/\//, '');
  const context = openContext({ configDir: join(dir, 'config'), logFile: join(dir, 'host.log'), hostLocation: { dbUrl: fixture.dbUrl } });
  renameSync(file, `${file}.away`);
  const app = await buildServer({ context });
  try {
    const down = await app.inject({ method: 'GET', url: '/healthz' });
    expect(down.statusCode).toBe(503);
    expect(down.json()).toEqual({ status: 'unavailable', settings: 'ok', host: 'host_unreachable', cache: 'ok' });
    // Nothing of where the host is: only codes.
    expect(down.body).not.toContain(file);
    renameSync(`${file}.away`, file);
    const up = await app.inject({ method: 'GET', url: '/healthz' });
    expect(up.statusCode).toBe(200);
    expect(up.json()).toMatchObject({ status: 'ok', host: 'ok' });
  } finally {
    await app.close();
    await context.close();
    await fixture.drop();
  }
});
