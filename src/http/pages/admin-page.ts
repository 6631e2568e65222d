import type { SettingsResponse } from '../../core/admin/settings-response.js';
import { escapeHtml, layout } from './html.js';

export const ADMIN_SCRIPT_PATH = '/apps/docs_unified_search/js/admin-settings.js';

function tokenState(settings: SettingsResponse): string {
  if (settings.tokenUnreadable) return `<span class="badge bad" id="dus-token-state">The stored token can't be decrypted: enter it again</span>`;
  if (settings.tokenConfigured) return `<span class="badge" id="dus-token-state">A token is stored</span>`;
  return `<span class="badge bad" id="dus-token-state">No token stored</span>`;
}

function checked(on: boolean): string {
  return on ? ' checked' : '';
}

/**
 * The settings form, the problem history, Try a search and the password dialog: the admin
 * page's content, shown by this server's own page and, through the bridge, by Nextcloud's
 * admin settings section (one form, rendered here). The token field is never filled: the
 * form says only whether a token is stored.
 */
export function adminSettingsForm(s: SettingsResponse): string {
  const versions =
    s.docsVersion === null
      ? ''
      : `<p class="hint" id="dus-versions">Archive server ${escapeHtml(s.docsVersion)}, API ${escapeHtml(s.docsApiVersion ?? '?')}</p>`;
  const ownerMissing = s.archiveOwnerMissing
    ? '<p class="hint error" id="dus-owner-missing">The archive account does not exist: name an existing account.</p>'
    : '';
  return `<section aria-labelledby="dus-settings-title">
<h2 id="dus-settings-title">Archive server</h2>
${versions}
<form id="dus-settings" novalidate>
<div class="field"><label for="dus-url">Archive server URL</label>
<input type="url" id="dus-url" name="url" value="${escapeHtml(s.url ?? '')}" placeholder="https://paperless.example.com" autocomplete="off" aria-describedby="dus-url-hint">
<p class="hint" id="dus-url-hint">With its path if the archive server runs under one. Another server needs its token again.</p></div>
<div class="field"><label for="dus-token">API token</label>
<input type="password" id="dus-token" name="token" value="" autocomplete="new-password" placeholder="${s.tokenConfigured ? 'Leave blank to keep the stored token' : 'Token of the archive account the search uses'}" aria-describedby="dus-token-hint">
<p class="hint" id="dus-token-hint">${tokenState(s)}</p></div>
<div class="field"><label for="dus-owner">Archive account</label>
<input type="text" id="dus-owner" name="archiveOwner" value="${escapeHtml(s.archiveOwner)}" placeholder="${escapeHtml(s.syncAccount ?? '')}" autocomplete="off" aria-describedby="dus-owner-hint">
<p class="hint" id="dus-owner-hint">Host account whose files stand for documents. Blank takes the synchronization add-on's account${s.syncAccount === null ? '' : ` (${escapeHtml(s.syncAccount)})`}.</p>${ownerMissing}</div>
<div class="switch"><input type="checkbox" role="switch" id="dus-allow-local" name="allowLocal"${checked(s.allowLocal)}><label for="dus-allow-local">Archive server runs in my local network</label></div>
<div class="switch"><input type="checkbox" role="switch" id="dus-always-search" name="alwaysSearch"${checked(s.alwaysSearch)}><label for="dus-always-search">Always include archive in global search</label></div>
<div class="buttons">
<button type="submit" class="primary" id="dus-save">Save</button>
<button type="button" class="danger" id="dus-disconnect">Disconnect</button>
</div>
<p class="status" id="dus-status" role="status" aria-live="polite"></p>
<p class="error" id="dus-error" role="alert"></p>
</form>
</section>
<section aria-labelledby="dus-history-title">
<h2 id="dus-history-title">Problem history</h2>
<ul class="history" id="dus-history" aria-live="polite"><li>Loading…</li></ul>
<div class="buttons"><button type="button" id="dus-clear-history">Clear history</button></div>
</section>
<section aria-labelledby="dus-try-title">
<h2 id="dus-try-title">Try a search</h2>
<form id="dus-try">
<div class="field"><label for="dus-try-term">Search term</label><input type="text" id="dus-try-term" name="term" required autocomplete="off"></div>
<div class="field"><label for="dus-try-user">Search as user</label><input type="text" id="dus-try-user" name="user" required autocomplete="off"></div>
<div class="buttons"><button type="submit" id="dus-try-run">Try</button></div>
<p class="error" id="dus-try-error" role="alert"></p>
<div id="dus-try-results" aria-live="polite"></div>
</form>
<form id="dus-who">
<div class="field"><label for="dus-who-document">Who can open document</label><input type="text" id="dus-who-document" name="document" required autocomplete="off" inputmode="numeric" placeholder="412"></div>
<div class="field"><label><input type="checkbox" id="dus-who-blocked" name="includeBlocked"> Also those a share reaches who cannot open it</label></div>
<div class="buttons"><button type="submit" id="dus-who-run">Who?</button></div>
<p class="error" id="dus-who-error" role="alert"></p>
<div id="dus-who-results" aria-live="polite"></div>
</form>
</section>
<dialog id="dus-confirm" aria-labelledby="dus-confirm-title">
<form method="dialog" id="dus-confirm-form">
<h2 id="dus-confirm-title">Confirm your password</h2>
<p>This action needs your password: it was last confirmed more than 30 minutes ago.</p>
<div class="field"><label for="dus-confirm-password">Password</label><input type="password" id="dus-confirm-password" autocomplete="current-password"></div>
<p class="error" id="dus-confirm-error" role="alert"></p>
<div class="buttons"><button type="submit" class="primary" id="dus-confirm-ok" value="ok">Confirm</button><button type="button" id="dus-confirm-cancel">Cancel</button></div>
</form>
</dialog>`;
}

/**
 * The administration settings page. The request token of the session rides in a data
 * attribute, as the host puts it on its pages.
 */
export function adminPage(options: { readonly uid: string; readonly requestToken: string; readonly settings: SettingsResponse }): string {
  return layout(
    'Document archive search – Administration',
    `<header><h1>Document archive search</h1>
<form method="post" action="/logout"><input type="hidden" name="requesttoken" value="${escapeHtml(options.requestToken)}"><span>${escapeHtml(options.uid)}</span> <button type="submit">Log out</button></form>
</header>
<main>
${adminSettingsForm(options.settings)}</main>`,
    `<meta name="requesttoken" content="${escapeHtml(options.requestToken)}">
<script src="${ADMIN_SCRIPT_PATH}" defer></script>`,
  );
}
