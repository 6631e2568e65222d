import { describe, expect, test } from '@jest/globals';
import { DusError } from '../src/core/errors.js';
import { normalizeArchiveUrl, originOf } from '../src/core/settings/url-rules.js';

function codeOf(input: string): string {
  try {
    normalizeArchiveUrl(input);
  } catch (error: unknown) {
    if (error instanceof DusError) return error.code;
    throw error;
  }
  return 'accepted';
}

describe('normalizeArchiveUrl', () => {
  test.each([
    ['https://paperless.example.com/', 'https://paperless.example.com'],
    ['https://paperless.example.com', 'https://paperless.example.com'],
    ['  https://Paperless.Example.COM/  ', 'https://paperless.example.com'],
    ['https://example.com/paperless/', 'https://example.com/paperless'],
    ['https://example.com/paperless//', 'https://example.com/paperless'],
    ['https://example.com/a/b', 'https://example.com/a/b'],
    ['http://192.168.1.20:8000/', 'http://192.168.1.20:8000'],
    ['https://example.com:443/', 'https://example.com'],
    ['http://example.com:80/x/', 'http://example.com/x'],
    ['http://[::1]:8000/', 'http://[::1]:8000'],
    ['HTTPS://xn--bcher-kva.example/', 'https://xn--bcher-kva.example'],
  ])('%s is stored as %s', (input, stored) => {
    expect(normalizeArchiveUrl(input)).toBe(stored);
  });

  test.each([
    ['paperless.example.com', 'invalid_url'],
    ['', 'invalid_url'],
    ['https:paperless.example.com', 'invalid_url'],
    ['https://', 'invalid_url'],
    ['http://exa mple.com/', 'invalid_url'],
    ['http://example.com:99999/', 'invalid_url'],
    ['ftp://example.com/', 'unsupported_scheme'],
    ['file:///etc/passwd', 'unsupported_scheme'],
    ['javascript:alert(1)', 'unsupported_scheme'],
    ['https://user:pass@example.com/', 'url_extras'],
    ['https://user@example.com/', 'url_extras'],
    ['https://@example.com/', 'url_extras'],
    ['https://example.com/?a=1', 'url_extras'],
    ['https://example.com/?', 'url_extras'],
    ['https://example.com/#', 'url_extras'],
    ['https://example.com/#top', 'url_extras'],
    ['https://bücher.example/', 'host_not_ascii'],
    ['https://例え.テスト/paperless', 'host_not_ascii'],
    ['https://example\uff0ecom/', 'host_not_ascii'],
  ])('%s is refused with %s', (input, code) => {
    expect(codeOf(input)).toBe(code);
  });

  test('a path outside the host may carry Unicode: only the host must be ASCII', () => {
    expect(normalizeArchiveUrl('https://example.com/büro/')).toBe('https://example.com/b%C3%BCro');
  });
});

describe('originOf', () => {
  test('makes the default port explicit so that only a real port change differs', () => {
    expect(originOf('https://example.com')).toBe('https://example.com:443');
    expect(originOf('https://example.com/paperless')).toBe(originOf('https://example.com:443/other'));
    expect(originOf('http://example.com')).toBe('http://example.com:80');
    expect(originOf('http://example.com:8000')).not.toBe(originOf('http://example.com:8001'));
    expect(originOf('http://example.com')).not.toBe(originOf('https://example.com'));
    expect(originOf('http://[::1]:8000/x')).toBe('http://[::1]:8000');
  });
});
