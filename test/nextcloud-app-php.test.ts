/**
 * The bridge app's own PHP, run outside Nextcloud (test/support/php-app): what it tells the
 * service and what it passes on of the service's answers (issue 23). What Nextcloud does around
 * it (its middleware, its routes, its OCS answers) is test/nextcloud-bridge/'s, in a real Nextcloud.
 */
import { describe, expect, test } from '@jest/globals';
import { phpMissing, runAppPhp } from './support/php-app/index.js';

if (phpMissing) process.stdout.write('SKIP the bridge app\'s PHP: php is not installed\n');
const withPhp = phpMissing ? test.skip : test;
const NOW = 1_800_000_000;

/** A PHP expression giving `value` (through JSON: arrays stay arrays). */
function php(value: unknown): string {
  return `json_decode('${JSON.stringify(value).replaceAll('\\', '\\\\').replaceAll("'", "\\'")}', true)`;
}

describe('Save and Disconnect tell the service "confirmed" only after a typed password', () => {
  const confirmedFlag = (session: Record<string, unknown>, action: 'save' | 'disconnect' | 'show'): unknown =>
    runAppPhp(`
      Fake::$session = ${php(session)};
      Fake::answer(['url' => '']);
      $controller = new OCA\\DocsUnifiedSearch\\Controller\\SettingsController(Fake::request(['url' => 'https://archive.example']), Fake::bridge(), Fake::userSession(), Fake::session(), Fake::time());
      $controller->${action}();
      echo json_encode(Fake::$sent[0]['headers']['X-DUS-Bridge-Confirmed']);
    `);

  withPhp.each([
    ['the login password, typed ten minutes ago', { 'last-password-confirm': NOW - 600 }, '1'],
    ['the login password, typed 30 minutes and 15 s ago (Nextcloud\'s own window)', { 'last-password-confirm': NOW - 1815 }, '1'],
    ['the login password, typed 31 minutes ago', { 'last-password-confirm': NOW - 1860 }, '0'],
    ['no confirmation at all', {}, '0'],
    // Nextcloud lets these through its PasswordConfirmationMiddleware: a stolen device token must not.
    ['an app password (Basic or Bearer), whatever else the session holds', { app_password: 'app-token', 'last-password-confirm': NOW }, '0'],
    ['a one-time token', { one_time_token: 'once', 'last-password-confirm': NOW }, '0'],
    ["AppAPI's call", { app_api: true, 'last-password-confirm': NOW }, '0'],
  ])('%s', (_name, session, flag) => {
    expect(confirmedFlag(session, 'save')).toBe(flag);
    expect(confirmedFlag(session, 'disconnect')).toBe(flag);
  });

  withPhp('routes without the attribute never send it, even just after a typed password', () => {
    expect(confirmedFlag({ 'last-password-confirm': NOW }, 'show')).toBe('0');
  });
});
