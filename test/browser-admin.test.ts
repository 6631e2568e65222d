import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { ARCHIVE_TOKEN, PASSWORDS, startHarness, type Harness } from './support/http-harness.js';

const CHROMIUM = process.env.DUS_TEST_CHROMIUM ?? '/usr/bin/chromium';
const available = existsSync(CHROMIUM);
if (!available) process.stdout.write(`SKIP browser tests: no Chromium at ${CHROMIUM} (apt-get install chromium)\n`);
const describeBrowser = available ? describe : describe.skip;
const ARTIFACTS = join(process.cwd(), 'test-artifacts');

describeBrowser('admin settings page in Chromium', () => {
  let h: Harness;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    h = await startHarness({ configured: false });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    page = await browser.newPage({ viewport: { width: 1000, height: 1400 } });
    // Each action waits for its element or navigation; the limit only ends a hang (a loaded machine is slow, not stuck).
    page.setDefaultTimeout(90_000);
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await h?.close();
  });

  test('an anonymous visit goes to the login form; logging in opens the page', async () => {
    await page.goto(`${h.base}/settings/admin/docs_unified_search`);
    expect(new URL(page.url()).pathname).toBe('/login');
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, 'login-page.png') });
    await page.getByLabel('Login').fill('admin');
    await page.getByLabel('Password').fill(PASSWORDS.admin);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL('**/settings/admin/docs_unified_search');
    await expect(page.getByRole('heading', { name: 'Archive server' }).isVisible()).resolves.toBe(true);
    await expect(page.locator('#dus-token-state').textContent()).resolves.toBe('No token stored');
  });

  test('a wrong URL shows the coded error', async () => {
    await page.getByLabel('Archive server URL').fill('ftp://archive.example');
    await page.getByLabel('API token').fill(ARCHIVE_TOKEN);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.locator('#dus-error').filter({ hasText: '(unsupported_scheme)' }).waitFor();
  });

  test('a right save shows the stored indicator and leaves no token in the DOM', async () => {
    await page.getByLabel('Archive server URL').fill(h.emulator.url);
    await page.getByLabel('API token').fill(ARCHIVE_TOKEN);
    await page.getByLabel('Archive account').fill('archive');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.locator('#dus-status').filter({ hasText: 'Saved' }).waitFor();
    await expect(page.locator('#dus-token-state').textContent()).resolves.toBe('A token is stored');
    await expect(page.getByLabel('API token').inputValue()).resolves.toBe('');
    await expect(page.locator('#dus-error').textContent()).resolves.toBe('');
    await page.reload();
    await expect(page.getByLabel('Archive server URL').inputValue()).resolves.toBe(h.emulator.url);
    await expect(page.getByLabel('API token').inputValue()).resolves.toBe('');
    expect(await page.content()).not.toContain(ARCHIVE_TOKEN);
  });

  test('Try a search as another user lists per document whether it shows and why not', async () => {
    await page.getByLabel('Search term').fill('invoice');
    await page.getByLabel('Search as user').fill('bob');
    await page.getByRole('button', { name: 'Try' }).click();
    await page.locator('#dus-try-summary').waitFor();
    const rows = await page.locator('#dus-try-results tbody tr').allTextContents();
    expect(rows.some((row) => row.includes('Invoice one') && row.includes('yes'))).toBe(true);
    expect(rows.some((row) => row.includes('Invoice two') && row.includes('no'))).toBe(true);
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.locator('#dus-try-results').screenshot({ path: join(ARTIFACTS, 'admin-page-try.png') });
  });

  test('Try a search that finds nothing says so, not "0 of the 0 listed show"', async () => {
    await page.getByLabel('Search term').fill('zebracrossingnowhere');
    await page.getByLabel('Search as user').fill('bob');
    await page.getByRole('button', { name: 'Try' }).click();
    await page.locator('#dus-try-summary').filter({ hasText: 'found no document' }).waitFor();
    await expect(page.locator('#dus-try-summary').textContent()).resolves.toBe('The archive server found no document for this term.');
    await expect(page.locator('#dus-try-results tbody tr').count()).resolves.toBe(0);
  });

  test('Who can open a document lists each account, its path and the share', async () => {
    await page.getByLabel('Who can open document').fill('[P1]');
    await page.getByRole('button', { name: 'Who?' }).click();
    await page.locator('#dus-who-summary').waitFor();
    await expect(page.locator('#dus-who-summary').textContent()).resolves.toBe('3 account(s) can open document 1.');
    const rows = await page.locator('#dus-who-results tbody tr').allTextContents();
    expect(rows.some((row) => row.startsWith('bob') && row.includes('user share of'))).toBe(true);
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.locator('#dus-who-results').screenshot({ path: join(ARTIFACTS, 'admin-page-who.png') });
  });

  test('the problem history is listed and Clear history empties it', async () => {
    h.context.settings.update({
      diagnostics: JSON.stringify([{ at: '2026-11-20T08:00:00.000Z', code: 'timeout', message: 'The archive server did not answer in time.' }]),
    });
    await page.reload();
    await page.locator('#dus-history li').filter({ hasText: 'timeout' }).waitFor();
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, 'admin-page.png'), fullPage: true });
    await page.getByRole('button', { name: 'Clear history' }).click();
    await page.locator('#dus-history li').filter({ hasText: 'No problems recorded.' }).waitFor();
    expect(h.context.settings.get('diagnostics')).toBeUndefined();
  });

  test('after 30 minutes Disconnect asks for the password first', async () => {
    h.clock.now += 31 * 60 * 1000;
    await page.getByRole('button', { name: 'Disconnect' }).click();
    const dialog = page.getByRole('dialog', { name: 'Confirm your password' });
    await dialog.waitFor();
    await page.screenshot({ path: join(ARTIFACTS, 'admin-page-confirm.png') });
    await dialog.getByLabel('Password').fill(PASSWORDS.admin);
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await page.locator('#dus-status').filter({ hasText: 'Disconnected' }).waitFor();
    await expect(page.locator('#dus-token-state').textContent()).resolves.toBe('No token stored');
    expect(h.context.settings.get('docs_url')).toBeUndefined();
  });
});
