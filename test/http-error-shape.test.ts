import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { connect } from 'node:net';
import { asciiLocation, sameServerPath } from '../src/http/redirect.js';
import { call, PASSWORDS, startHarness, type Harness } from './support/http-harness.js';

/**
 * Every failure answers in the product's shape (`{message, code}`, the OCS envelope on OCS
 * paths), whichever layer refuses the request: fastify's body parser and router, Node's HTTP
 * parser, or a redirect target the header could not carry. Before, a `redirect_url` outside
 * Latin-1 made the login's answer throw inside fastify's send (the request then hung without
 * an answer), and Node's parser errors answered fastify's `{statusCode, error}`.
 */

const ADMIN_PAGE = '/settings/admin/docs_unified_search';
let h: Harness;

// The harness's users carry passwords hashed ahead of time (support/http-harness.ts): the setup
// no longer hashes four argon2id passwords, which took over jest's 30 s on a machine at load 6–23.
beforeAll(async () => {
  h = await startHarness();
});

afterAll(async () => {
  await h.close();
});

/**
 * One request written as raw bytes (what no HTTP client would send), the answer as text: done when
 * the whole answer is there (its head and Content-Length bytes of body) or the server closes the
 * connection, whichever comes first; the test's own time bounds a server that does neither.
 */
function raw(text: string): Promise<string> {
  const { port } = new URL(h.base);
  return new Promise((resolve, reject) => {
    let got = '';
    const socket = connect(Number(port), '127.0.0.1', () => socket.write(text));
    const complete = (): boolean => {
      const end = got.indexOf('\r\n\r\n');
      if (end < 0) return false;
      const length = /\r\ncontent-length: *(\d+)/i.exec(got.slice(0, end));
      return length?.[1] !== undefined && Buffer.byteLength(got.slice(end + 4), 'latin1') >= Number(length[1]);
    };
    socket.on('data', (chunk: Buffer) => {
      got += chunk.toString('latin1');
      if (complete()) socket.destroy();
    });
    socket.on('close', () => resolve(got));
    socket.on('error', reject);
  });
}

function productShape(text: string): { code: unknown; message: unknown } {
  const body = JSON.parse(text) as { code?: unknown; message?: unknown; ocs?: { data?: { code?: unknown; message?: unknown } } };
  const data = body.ocs?.data ?? body;
  return { code: data.code, message: typeof data.message };
}

describe('the login redirect', () => {
  test.each([
    ['a path with characters outside Latin-1', '/apps/files/?dir=/日本', '/apps/files/?dir=/%E6%97%A5%E6%9C%AC'],
    ['a Latin-1 letter', '/apps/files/?dir=/é', '/apps/files/?dir=/%C3%A9'],
    ['an emoji in the fragment', '/settings/admin/docs_unified_search#📄', '/settings/admin/docs_unified_search#%F0%9F%93%84'],
    ['a C1 control a browser may drop', '/\u0085/evil.example/', ADMIN_PAGE],
    ['a backslash', '/\\evil.example/', ADMIN_PAGE],
  ])('%s: goes to a path of this server as ASCII, or to the admin page', async (_name, target, location) => {
    const answer = await call(h, 'POST', '/login', { form: { user: 'bob', password: PASSWORDS.bob, redirect_url: target } });
    expect([answer.status, answer.headers.location]).toEqual([303, location]);
  });

  test('the redirect builder keeps percent escapes and makes every Location ASCII', () => {
    expect(asciiLocation('/a%20b/ü c')).toBe('/a%20b/%C3%BC%20c');
    expect(asciiLocation('/x\uD800y')).toBe('/x%EF%BF%BDy');
    expect(sameServerPath('/a/../../b?c=d', ADMIN_PAGE)).toBe('/b?c=d');
    expect(sameServerPath('/%2F%2Fevil.example', ADMIN_PAGE)).toBe('/%2F%2Fevil.example');
    expect(sameServerPath(42, ADMIN_PAGE)).toBe(ADMIN_PAGE);
  });
});

describe('every refusal in the product shape', () => {
  const admin = { basic: ['admin', PASSWORDS.admin] as const, headers: { 'ocs-apirequest': 'true' } };

  test.each([
    [
      'a body that is not JSON',
      'POST',
      '/apps/docs_unified_search/settings',
      { ...admin, headers: { ...admin.headers, 'content-type': 'application/json' }, body: '{bad' },
      400,
      'usage',
    ],
    ['a path that cannot be decoded', 'GET', '/apps/docs_unified_search/settings/%', admin, 400, 'usage'],
    ['an OCS path that cannot be decoded', 'GET', '/ocs/v2.php/search/providers/docs_unified_search_documents/search%', admin, 400, 'usage'],
    [
      'a content type no parser takes',
      'POST',
      '/apps/docs_unified_search/settings',
      { ...admin, headers: { ...admin.headers, 'content-type': 'text/x-weird' }, body: 'x' },
      415,
      'usage',
    ],
    [
      'a body over the limit',
      'POST',
      '/apps/docs_unified_search/settings',
      { ...admin, headers: { ...admin.headers, 'content-type': 'application/json' }, body: 'x'.repeat(70_000) },
      413,
      'too_large',
    ],
    ['a method no route has', 'PATCH', '/apps/docs_unified_search/settings', admin, 404, 'not_found'],
  ] as const)('%s', async (_name, method, path, options, status, code) => {
    const answer = await call(h, method, path, options);
    expect([answer.status, productShape(answer.text)]).toEqual([status, { code, message: 'string' }]);
  });

  test.each([
    ['a header line without a colon', 'GET / HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n', 400, 'usage'],
    ['an unknown method', 'FOO / HTTP/1.1\r\nHost: x\r\n\r\n', 400, 'usage'],
    ['headers over the size limit', `GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, 431, 'too_large'],
  ])('Node cannot read the request (%s)', async (_name, request, status, code) => {
    const answer = await raw(request);
    const [head = '', body = ''] = answer.split('\r\n\r\n');
    expect(head.split('\r\n')[0]).toBe(`HTTP/1.1 ${status} ${status === 431 ? 'Request Header Fields Too Large' : 'Bad Request'}`);
    expect(head).toMatch(/\r\nContent-Type: application\/json; charset=utf-8\r\n/);
    expect(productShape(body)).toEqual({ code, message: 'string' });
  });
});
