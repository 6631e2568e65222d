import { describe, expect, test } from '@jest/globals';
import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createLogger, LOG_MESSAGES } from '../src/core/log.js';
import { FileCredentialStore } from '../src/core/settings/credential-store.js';
import { scratchDir } from './support/scratch.js';

const TOKEN = 'tok-9f3c1d2e7a6b5c4d3e2f1a0b';
const ORIGIN = 'https://paperless.example.com:443';

function freshDir(): string {
  return scratchDir('dus-cred-');
}

function modeOf(path: string): number {
  return statSync(path).mode & 0o777;
}

function everyFileText(dir: string): string {
  return readdirSync(dir)
    .map((name) => readFileSync(join(dir, name), 'utf8'))
    .join('\n');
}

describe('credential store', () => {
  test('round trip: none, then the token with the origin it was saved for', () => {
    const dir = freshDir();
    const store = new FileCredentialStore({ directory: dir, env: {} });
    expect(store.load()).toEqual({ status: 'none' });
    store.save(TOKEN, ORIGIN);
    expect(new FileCredentialStore({ directory: dir, env: {} }).load()).toEqual({ status: 'ok', token: TOKEN, origin: ORIGIN });
    store.delete();
    expect(store.load()).toEqual({ status: 'none' });
  });

  test('the secret and the record are private files (0600) and hold no clear token', () => {
    const dir = freshDir();
    new FileCredentialStore({ directory: dir, env: {} }).save(TOKEN, ORIGIN);
    expect(modeOf(join(dir, 'secret'))).toBe(0o600);
    expect(modeOf(join(dir, 'credentials.json'))).toBe(0o600);
    expect(everyFileText(dir)).not.toContain(TOKEN);
    // No temporary file is left behind by the atomic writes.
    expect(readdirSync(dir).sort()).toEqual(['credentials.json', 'secret']);
  });

  test('DUS_SECRET replaces the secret file; another secret makes the token unreadable, warned once', () => {
    const dir = freshDir();
    const logFile = join(dir, 'host.log');
    new FileCredentialStore({ directory: dir, env: { DUS_SECRET: 'first secret' } }).save(TOKEN, ORIGIN);
    expect(readdirSync(dir)).not.toContain('secret');
    expect(new FileCredentialStore({ directory: dir, env: { DUS_SECRET: 'first secret' } }).load().status).toBe('ok');

    const logger = createLogger({ destination: logFile });
    const store = new FileCredentialStore({ directory: dir, env: { DUS_SECRET: 'second secret' }, logger });
    expect(store.load()).toEqual({ status: 'unreadable' });
    expect(store.load()).toEqual({ status: 'unreadable' });
    logger.flush();
    const lines = readFileSync(logFile, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { msg: string; level: number; app: string });
    const warnings = lines.filter((l) => l.msg === LOG_MESSAGES.tokenUnreadable());
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.level).toBe(40);
    expect(warnings[0]?.app).toBe('docs_unified_search');
    expect(readFileSync(logFile, 'utf8')).not.toContain(TOKEN);
  });

  test('a removed secret file makes the stored token unreadable', () => {
    const dir = freshDir();
    new FileCredentialStore({ directory: dir, env: {} }).save(TOKEN, ORIGIN);
    writeFileSync(join(dir, 'secret'), 'a different secret\n');
    expect(new FileCredentialStore({ directory: dir, env: {} }).load()).toEqual({ status: 'unreadable' });
  });

  test.each([
    [
      'ciphertext',
      (r: Record<string, string>) => ({ ...r, data: Buffer.from('x' + Buffer.from(r.data ?? '', 'base64').toString('latin1'), 'latin1').toString('base64') }),
    ],
    ['tag', (r: Record<string, string>) => ({ ...r, tag: Buffer.alloc(16, 7).toString('base64') })],
    ['origin (the record moved to another server)', (r: Record<string, string>) => ({ ...r, origin: 'https://evil.example:443' })],
    ['salt', (r: Record<string, string>) => ({ ...r, salt: Buffer.alloc(16, 1).toString('base64') })],
  ])('a tampered %s gives unreadable', (_what, tamper) => {
    const dir = freshDir();
    const store = new FileCredentialStore({ directory: dir, env: {} });
    store.save(TOKEN, ORIGIN);
    const path = join(dir, 'credentials.json');
    const record = JSON.parse(readFileSync(path, 'utf8')) as Record<string, string>;
    writeFileSync(path, JSON.stringify(tamper(record)));
    expect(store.load()).toEqual({ status: 'unreadable' });
  });

  test('a token loaded before is never served from memory once its record or the secret changed', () => {
    const dir = freshDir();
    const store = new FileCredentialStore({ directory: dir, env: {} });
    store.save(TOKEN, ORIGIN);
    expect(store.load()).toEqual({ status: 'ok', token: TOKEN, origin: ORIGIN });
    // Another process saves a token of the same length for another origin.
    const other = TOKEN.replace(/.$/, 'Z');
    new FileCredentialStore({ directory: dir, env: {} }).save(other, 'https://other.example.com:443');
    expect(store.load()).toEqual({ status: 'ok', token: other, origin: 'https://other.example.com:443' });
    writeFileSync(join(dir, 'secret'), 'a different secret\n');
    expect(store.load()).toEqual({ status: 'unreadable' });
    expect(new FileCredentialStore({ directory: dir, env: { DUS_SECRET: 'yet another' } }).load()).toEqual({ status: 'unreadable' });
  });

  test('files left alone for a while are looked at by their stamps, and a change is still seen: a new record, the secret rewritten in place at the same length', async () => {
    const dir = freshDir();
    const store = new FileCredentialStore({ directory: dir, env: {} });
    store.save(TOKEN, ORIGIN);
    const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 150));
    await settle();
    expect(store.load()).toEqual({ status: 'ok', token: TOKEN, origin: ORIGIN });
    expect(store.load()).toEqual({ status: 'ok', token: TOKEN, origin: ORIGIN });
    const other = TOKEN.replace(/.$/, 'Z');
    new FileCredentialStore({ directory: dir, env: {} }).save(other, 'https://other.example.com:443');
    await settle();
    expect(store.load()).toEqual({ status: 'ok', token: other, origin: 'https://other.example.com:443' });
    const secretPath = join(dir, 'secret');
    const secret = readFileSync(secretPath, 'utf8');
    writeFileSync(
      secretPath,
      secret.replace(/^./, (first) => (first === 'A' ? 'B' : 'A')),
    );
    expect(store.load()).toEqual({ status: 'unreadable' });
    await settle();
    expect(store.load()).toEqual({ status: 'unreadable' });
    writeFileSync(secretPath, secret);
    await settle();
    expect(store.load()).toEqual({ status: 'ok', token: other, origin: 'https://other.example.com:443' });
    store.delete();
    expect(store.load()).toEqual({ status: 'none' });
  });

  test('a record that is not JSON gives unreadable, not an exception', () => {
    const dir = freshDir();
    const store = new FileCredentialStore({ directory: dir, env: {} });
    store.save(TOKEN, ORIGIN);
    writeFileSync(join(dir, 'credentials.json'), '{ broken');
    expect(store.load()).toEqual({ status: 'unreadable' });
  });

  test('snapshot and restore put the previous record back, or remove a new one', () => {
    const dir = freshDir();
    const store = new FileCredentialStore({ directory: dir, env: {} });
    const empty = store.snapshot();
    store.save(TOKEN, ORIGIN);
    const first = store.snapshot();
    store.save('another-token', 'http://other.example:80');
    store.restore(first);
    expect(store.load()).toEqual({ status: 'ok', token: TOKEN, origin: ORIGIN });
    store.restore(empty);
    expect(store.load()).toEqual({ status: 'none' });
  });
});
