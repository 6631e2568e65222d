/**
 * One Nextcloud account's HTTP session: WebDAV (files, trash) and the OCS sharing API. Each
 * account keeps its own cookie jar, because a shared jar lets one user's session cookie reach
 * another account's requests (vendor README). Requests carry Basic auth as well, and the
 * `OCS-APIRequest` header, which Nextcloud accepts in place of a CSRF token.
 */
import { parseMultistatus, PROPFIND_BODY, type DavEntry } from './dav-xml.js';

export interface ShareInfo {
  readonly id: number;
  readonly path: string;
  readonly shareType: number;
  readonly shareWith: string | null;
  readonly owner: string;
  readonly permissions: number;
  readonly fileTarget: string;
}

export interface ShareRequest {
  /** Path in the sharer's own tree, e.g. `/Docs` or `/Docs/a [P1].pdf`. */
  readonly path: string;
  readonly type: 'user' | 'group' | 'team';
  /** A user, a group, or a team's id (TeamsApi.createTeam). */
  readonly with: string;
  /** Nextcloud's bit field: 1 read, 2 update, 4 create, 8 delete, 16 share (default 1 | 16 = 17). */
  readonly permissions?: number;
  /** YYYY-MM-DD; Nextcloud refuses today and earlier. */
  readonly expireDate?: string;
}

export class NextcloudHttpError extends Error {
  readonly status: number;
  constructor(what: string, status: number, body: string) {
    super(`${what}: HTTP ${status} ${body.replace(/\s+/g, ' ').slice(0, 400)}`);
    this.name = 'NextcloudHttpError';
    this.status = status;
  }
}

const SHARE_TYPES = { user: 0, group: 1, team: 7 } as const;

/** The circles app's member types: a user, a group (it becomes the group's hidden team), a team. */
const MEMBER_TYPES = { user: 1, group: 2, team: 16 } as const;
export type TeamMemberType = keyof typeof MEMBER_TYPES;

const encodePath = (path: string): string =>
  path
    .split('/')
    .filter((segment) => segment !== '')
    .map(encodeURIComponent)
    .join('/');

interface OcsShareJson {
  id: string | number;
  path: string;
  share_type: number;
  share_with: string | null;
  uid_owner: string;
  permissions: number;
  file_target: string;
}

const toShare = (s: OcsShareJson): ShareInfo => ({
  id: Number(s.id),
  path: s.path,
  shareType: s.share_type,
  shareWith: s.share_with,
  owner: s.uid_owner,
  permissions: s.permissions,
  fileTarget: s.file_target,
});

/** The cookies of one HTTP session: sent with each request, updated from each answer. */
export class CookieJar {
  private readonly cookies = new Map<string, string>();

  header(): string | undefined {
    return this.cookies.size === 0 ? undefined : [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  take(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const at = pair.indexOf('=');
      if (at <= 0) continue;
      const value = pair.slice(at + 1);
      if (value === 'deleted' || /max-age=0|expires=thu, 01 jan 1970/i.test(line)) this.cookies.delete(pair.slice(0, at));
      else this.cookies.set(pair.slice(0, at), value);
    }
  }

  entries(): [string, string][] {
    return [...this.cookies];
  }

  copy(): CookieJar {
    const jar = new CookieJar();
    for (const [k, v] of this.cookies) jar.cookies.set(k, v);
    return jar;
  }
}

export class NextcloudUser {
  readonly login: string;
  private readonly baseUrl: string;
  private readonly authorization: string;
  private readonly cookies = new CookieJar();

  constructor(baseUrl: string, login: string, password: string) {
    this.baseUrl = baseUrl.replace(/\/+$/, '');
    this.login = login;
    this.authorization = `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`;
  }

  /** The same account against another server address (e.g. a server under a shifted clock). */
  at(baseUrl: string, password: string): NextcloudUser {
    return new NextcloudUser(baseUrl, this.login, password);
  }

  async request(
    method: string,
    path: string,
    options: { body?: string | URLSearchParams; headers?: Record<string, string> } = {},
  ): Promise<{ status: number; body: string }> {
    const headers: Record<string, string> = { authorization: this.authorization, 'ocs-apirequest': 'true', ...options.headers };
    const cookie = this.cookies.header();
    if (cookie !== undefined) headers.cookie = cookie;
    const response = await fetch(`${this.baseUrl}${path}`, { method, headers, body: options.body, redirect: 'manual' });
    this.cookies.take(response);
    return { status: response.status, body: await response.text() };
  }

  private async expect(
    what: string,
    method: string,
    path: string,
    ok: readonly number[],
    options: { body?: string | URLSearchParams; headers?: Record<string, string> } = {},
  ): Promise<string> {
    const answer = await this.request(method, path, options);
    if (!ok.includes(answer.status)) throw new NextcloudHttpError(`${this.login}: ${what}`, answer.status, answer.body);
    return answer.body;
  }

  private filesPath(path: string): string {
    const encoded = encodePath(path);
    return `/remote.php/dav/files/${encodeURIComponent(this.login)}${encoded === '' ? '/' : `/${encoded}`}`;
  }

  // --- WebDAV ---------------------------------------------------------------------------

  async put(path: string, content = `content of ${path}`): Promise<void> {
    await this.expect(`PUT ${path}`, 'PUT', this.filesPath(path), [201, 204], { body: content });
  }

  async mkcol(path: string): Promise<void> {
    await this.expect(`MKCOL ${path}`, 'MKCOL', this.filesPath(path), [201]);
  }

  /** Creates every missing folder of `path`. */
  async mkdirs(path: string): Promise<void> {
    let soFar = '';
    for (const segment of path.split('/').filter((s) => s !== '')) {
      soFar = `${soFar}/${segment}`;
      const answer = await this.request('MKCOL', this.filesPath(soFar));
      if (answer.status !== 201 && answer.status !== 405) throw new NextcloudHttpError(`${this.login}: MKCOL ${soFar}`, answer.status, answer.body);
    }
  }

  async move(from: string, to: string, options: { overwrite?: boolean } = {}): Promise<void> {
    await this.expect(`MOVE ${from} → ${to}`, 'MOVE', this.filesPath(from), [201, 204], {
      headers: { destination: `${this.baseUrl}${this.filesPath(to)}`, overwrite: options.overwrite === true ? 'T' : 'F' },
    });
  }

  async copy(from: string, to: string): Promise<void> {
    await this.expect(`COPY ${from} → ${to}`, 'COPY', this.filesPath(from), [201, 204], {
      headers: { destination: `${this.baseUrl}${this.filesPath(to)}`, overwrite: 'F' },
    });
  }

  /** Deletes to the trash bin (Nextcloud's WebDAV DELETE). */
  async delete(path: string): Promise<void> {
    await this.expect(`DELETE ${path}`, 'DELETE', this.filesPath(path), [204]);
  }

  /** PROPFIND with fileid, owner-id, etag; `depth` 'infinity' lists the whole tree below. */
  async propfind(path = '', depth: '0' | '1' | 'infinity' = 'infinity'): Promise<DavEntry[]> {
    const href = this.filesPath(path);
    const body = await this.expect(`PROPFIND ${path || '/'}`, 'PROPFIND', href, [207], {
      body: PROPFIND_BODY,
      headers: { depth, 'content-type': 'application/xml' },
    });
    return parseMultistatus(body, `/remote.php/dav/files/${encodeURIComponent(this.login)}`);
  }

  /** Every file and folder of the account's own tree, received shares included. */
  async tree(): Promise<DavEntry[]> {
    return (await this.propfind('', 'infinity')).filter((entry) => entry.path !== '');
  }

  /** The whole tree as tree() does, or null when Nextcloud refuses the login (a disabled account gets 503). */
  async treeIfAllowed(): Promise<DavEntry[] | null> {
    const href = this.filesPath('');
    const answer = await this.request('PROPFIND', href, { body: PROPFIND_BODY, headers: { depth: 'infinity', 'content-type': 'application/xml' } });
    if (answer.status === 503 || answer.status === 401) return null;
    if (answer.status !== 207) throw new NextcloudHttpError(`${this.login}: PROPFIND /`, answer.status, answer.body);
    return parseMultistatus(answer.body, `/remote.php/dav/files/${encodeURIComponent(this.login)}`).filter((entry) => entry.path !== '');
  }

  /** Whether a GET of the file answers 200: File access control lists a denied file but answers 404 (403 for a file share) to opening it. */
  async opens(path: string): Promise<boolean> {
    const answer = await this.request('GET', this.filesPath(path));
    return answer.status === 200;
  }

  /** Whether the account can log in and list its files (a disabled account gets 503). */
  async canLogIn(): Promise<boolean> {
    const answer = await this.request('PROPFIND', this.filesPath(''), { body: PROPFIND_BODY, headers: { depth: '0', 'content-type': 'application/xml' } });
    return answer.status === 207;
  }

  async trash(): Promise<DavEntry[]> {
    const root = `/remote.php/dav/trashbin/${encodeURIComponent(this.login)}/trash`;
    const body = await this.expect('PROPFIND trash', 'PROPFIND', root, [207], {
      body: PROPFIND_BODY,
      headers: { depth: '1', 'content-type': 'application/xml' },
    });
    return parseMultistatus(body, root).filter((entry) => entry.path !== '');
  }

  /** Restores the trashed item whose original name is `name` (the newest such item). */
  async restore(name: string): Promise<void> {
    const items = (await this.trash()).filter((entry) => entry.trashName === name || entry.name.replace(/\.d\d+$/, '') === name);
    const item = items.at(-1);
    if (item === undefined) throw new Error(`${this.login}: nothing named ${name} in the trash`);
    const user = encodeURIComponent(this.login);
    await this.expect(`restore ${name}`, 'MOVE', `/remote.php/dav/trashbin/${user}/trash/${encodePath(item.path)}`, [201, 204], {
      headers: { destination: `${this.baseUrl}/remote.php/dav/trashbin/${user}/restore/${encodePath(item.path)}` },
    });
  }

  // --- OCS sharing API ------------------------------------------------------------------

  private async ocs(what: string, method: string, path: string, form?: Record<string, string | number | undefined>): Promise<unknown> {
    const body = form === undefined ? undefined : new URLSearchParams();
    for (const [k, v] of Object.entries(form ?? {})) if (v !== undefined) body?.append(k, String(v));
    const text = await this.expect(what, method, `/ocs/v2.php/apps/files_sharing/api/v1${path}${path.includes('?') ? '&' : '?'}format=json`, [200], {
      body,
      headers: { accept: 'application/json' },
    });
    return (JSON.parse(text) as { ocs: { data: unknown } }).ocs.data;
  }

  async share(request: ShareRequest): Promise<ShareInfo> {
    const data = await this.ocs(`share ${request.path} with ${request.type} ${request.with}`, 'POST', '/shares', {
      path: request.path,
      shareType: SHARE_TYPES[request.type],
      shareWith: request.with,
      permissions: request.permissions ?? 17,
      expireDate: request.expireDate,
    });
    return toShare(data as OcsShareJson);
  }

  async updateShare(id: number, change: { permissions?: number; expireDate?: string }): Promise<void> {
    await this.ocs(`update share ${id}`, 'PUT', `/shares/${id}`, change);
  }

  /** As owner: unshare. As recipient: leave the share (for a group share, for this member only). */
  async deleteShare(id: number): Promise<void> {
    await this.ocs(`delete share ${id}`, 'DELETE', `/shares/${id}`);
  }

  /** Shares received, accepted or not. */
  async receivedShares(): Promise<ShareInfo[]> {
    return ((await this.ocs('received shares', 'GET', '/shares?shared_with_me=true')) as OcsShareJson[]).map(toShare);
  }

  async pendingShares(): Promise<ShareInfo[]> {
    return ((await this.ocs('pending shares', 'GET', '/shares/pending')) as OcsShareJson[]).map(toShare);
  }

  async acceptShare(id: number): Promise<void> {
    await this.ocs(`accept share ${id}`, 'POST', `/shares/pending/${id}`);
  }

  // --- OCS Teams API (the circles app) ---------------------------------------------------

  private async circles(what: string, method: string, path: string, form?: Record<string, string | number>): Promise<unknown> {
    const body = form === undefined ? undefined : new URLSearchParams(Object.entries(form).map(([k, v]): [string, string] => [k, String(v)]));
    const text = await this.expect(what, method, `/ocs/v2.php/apps/circles${path}?format=json`, [200], { body, headers: { accept: 'application/json' } });
    return (JSON.parse(text) as { ocs: { data: unknown } }).ocs.data;
  }

  /** Creates a team owned by this account (a member of it at owner level); returns its id, what a team share's shareWith takes. */
  async createTeam(name: string): Promise<string> {
    const data = (await this.circles(`create team ${name}`, 'POST', '/circles', { name })) as { id: string };
    return data.id;
  }

  /** Adds a user, a group or a team to the team; returns the member id (what removeTeamMember takes). */
  async addTeamMember(teamId: string, member: string, type: TeamMemberType): Promise<string> {
    const data = (await this.circles(`add ${type} ${member} to team ${teamId}`, 'POST', `/circles/${teamId}/members`, {
      userId: member,
      type: MEMBER_TYPES[type],
    })) as {
      id: string;
    };
    return data.id;
  }

  async removeTeamMember(teamId: string, memberId: string): Promise<void> {
    await this.circles(`remove member ${memberId} from team ${teamId}`, 'DELETE', `/circles/${teamId}/members/${memberId}`);
  }

  /** The team's config bits (circles' Circle::CFG_*, e.g. 32: adding a member sends an invitation to accept). */
  async setTeamConfig(teamId: string, value: number): Promise<void> {
    await this.circles(`config ${value} of team ${teamId}`, 'PUT', `/circles/${teamId}/config`, { value });
  }

  /** There is no decline endpoint: the web UI declines a pending share by deleting it as the recipient. */
  async declineShare(id: number): Promise<void> {
    await this.deleteShare(id);
  }
}
