import { CookieJar } from './client.js';

/**
 * A browser-like session on the real Nextcloud: logged in through the login form (cookies and
 * the request token, no Basic auth, no OCS-APIRequest header), so that Nextcloud's CSRF and
 * password-confirmation checks apply as they do to its web pages.
 */
export class BrowserSession {
  /** The request token of the last page read (`<head data-requesttoken>`). */
  requestToken = '';

  private constructor(
    private readonly baseUrl: string,
    private readonly cookies = new CookieJar(),
  ) {}

  static async logIn(baseUrl: string, login: string, password: string): Promise<BrowserSession> {
    const session = new BrowserSession(baseUrl);
    // Nextcloud takes a login form only with its own origin and the login page's request token.
    await session.page('/index.php/login');
    const body = new URLSearchParams({ user: login, password, requesttoken: session.requestToken, timezone: 'UTC', timezone_offset: '0' });
    const answer = await session.request('POST', '/index.php/login', {
      body,
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: baseUrl },
    });
    if (answer.status !== 303 || /login\?/.test(answer.location ?? ''))
      throw new Error(`login of ${login} failed: HTTP ${answer.status} to ${answer.location ?? ''}`);
    return session;
  }

  /** The same cookies against another address of the same instance (a server under a shifted clock). */
  at(baseUrl: string): BrowserSession {
    const copy = new BrowserSession(baseUrl, this.cookies.copy());
    copy.requestToken = this.requestToken;
    return copy;
  }

  /** The session's cookies, for a real browser to carry on. */
  cookieEntries(): [string, string][] {
    return this.cookies.entries();
  }

  /** GETs an HTML page and keeps its request token. */
  async page(path: string): Promise<{ status: number; body: string }> {
    const answer = await this.request('GET', path, { headers: { accept: 'text/html' } });
    const token = /<head[^>]*data-requesttoken="([^"]+)"/.exec(answer.body)?.[1];
    if (token !== undefined) this.requestToken = token;
    return answer;
  }

  async request(
    method: string,
    path: string,
    options: { body?: string | URLSearchParams; headers?: Record<string, string> } = {},
  ): Promise<{ status: number; body: string; location: string | null }> {
    const headers: Record<string, string> = { ...options.headers };
    const cookie = this.cookies.header();
    if (cookie !== undefined) headers.cookie = cookie;
    const response = await fetch(`${this.baseUrl}${path}`, { method, headers, body: options.body, redirect: 'manual' });
    this.cookies.take(response);
    return { status: response.status, body: await response.text(), location: response.headers.get('location') };
  }
}
