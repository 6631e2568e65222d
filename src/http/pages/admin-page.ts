import type { SettingsResponse } from '../../core/admin/settings-response.js';
import type { OverviewResult } from '../../core/diagnostics/overview-check.js';
import { catalogLanguage, msg, render, textIn, type MessageKey } from '../../core/i18n/catalog.js';
import { escapeHtml, layout } from './html.js';

export const ADMIN_SCRIPT_PATH = '/apps/docs_unified_search/js/admin-settings.js';

/** A text of the page in `language`, escaped for HTML. */
type Text = (key: MessageKey & `page.${string}`) => string;

function textsIn(language: string | null): Text {
  return (key) => escapeHtml(textIn(key, language));
}

function tokenState(settings: SettingsResponse, t: Text): string {
  if (settings.tokenUnreadable) return `<span class="badge bad" id="dus-token-state">${t('page.token_unreadable')}</span>`;
  if (settings.tokenConfigured) return `<span class="badge" id="dus-token-state">${t('page.token_stored')}</span>`;
  return `<span class="badge bad" id="dus-token-state">${t('page.token_none')}</span>`;
}

/**
 * The connection at a glance, from the overview check (stored data only, no request to the
 * archive server): a marked badge, and for a warning what the check found. The findings are the
 * overview check's own lines, English as in `setupchecks` (docs/i18n.md).
 */
function connectionState(check: OverviewResult, t: Text): string {
  if (check.severity === 'success') return `<span class="badge" id="dus-connection">✓ ${t('page.connected')}</span>`;
  const findings = check.messages.map((line) => escapeHtml(line)).join(' ');
  return `<span class="badge bad" id="dus-connection">! ${t('page.needs_attention')}</span> <span id="dus-connection-findings">${findings}</span>`;
}

/** Every text the page's script writes (admin-script.ts asks for them with `t(key)`); test/http-settings.test.ts holds the two to the same keys. */
export const SCRIPT_TEXTS = [
  'page.script.wrong_password',
  'page.script.too_many',
  'page.script.cancelled',
  'page.script.request_failed',
  'page.script.history_failed',
  'page.script.no_problems',
  'page.script.saved',
  'page.script.disconnected',
  'page.script.history_cleared',
  'page.script.head_shown',
  'page.script.head_why_not',
  'page.script.yes',
  'page.script.no',
  'page.script.who_count',
  'page.token_unreadable',
  'page.token_stored',
  'page.token_none',
  'page.token_keep',
  'page.token_placeholder',
  'page.versions',
  'cli.search.none',
  'cli.search.found',
  'cli.search.head_id',
  'cli.search.head_title',
  'cli.who.head_account',
  'cli.who.head_path',
  'cli.who.head_through',
] as const satisfies readonly MessageKey[];

/** The script's texts in `language`, placeholders kept (the script fills them), as an attribute value. */
function scriptTexts(language: string | null): string {
  const texts = Object.fromEntries(SCRIPT_TEXTS.map((key) => [key, textIn(key, language)]));
  return `<div id="dus-texts" hidden data-texts="${escapeHtml(JSON.stringify(texts))}"></div>`;
}

function checked(on: boolean): string {
  return on ? ' checked' : '';
}

/**
 * The settings form, the problem history, Try a search and the password dialog: the admin
 * page's content, shown by this server's own page and, through the bridge, by Nextcloud's
 * admin settings section (one form, rendered here). The token field is never filled: the
 * form says only whether a token is stored. Its texts are in the administrator's language.
 */
export function adminSettingsForm(s: SettingsResponse, connection: OverviewResult, language: string | null = null): string {
  const t = textsIn(language);
  const versions =
    s.docsVersion === null
      ? ''
      : ` <span id="dus-versions">${escapeHtml(render(msg('page.versions', { version: s.docsVersion, api: s.docsApiVersion ?? '?' }), language))}</span>`;
  const ownerMissing = s.archiveOwnerMissing ? `<p class="hint error" id="dus-owner-missing">${t('page.owner_missing')}</p>` : '';
  const ownerHint = escapeHtml(render(msg('page.owner_hint', { sync: s.syncAccount === null ? '' : ` (${s.syncAccount})` }), language));
  return `${scriptTexts(language)}
<section aria-labelledby="dus-settings-title">
<h2 id="dus-settings-title">${t('page.archive_server')}</h2>
<p class="hint connection">${connectionState(connection, t)}${versions}</p>
<form id="dus-settings" novalidate>
<div class="field"><label for="dus-url">${t('page.url')}</label>
<input type="url" id="dus-url" name="url" value="${escapeHtml(s.url ?? '')}" placeholder="https://paperless.example.com" autocomplete="off" aria-describedby="dus-url-hint">
<p class="hint" id="dus-url-hint">${t('page.url_hint')}</p></div>
<div class="field"><label for="dus-token">${t('page.token')}</label>
<input type="password" id="dus-token" name="token" value="" autocomplete="new-password" placeholder="${s.tokenConfigured ? t('page.token_keep') : t('page.token_placeholder')}" aria-describedby="dus-token-hint">
<p class="hint" id="dus-token-hint">${tokenState(s, t)}</p></div>
<div class="field"><label for="dus-owner">${t('page.owner')}</label>
<input type="text" id="dus-owner" name="archiveOwner" value="${escapeHtml(s.archiveOwner)}" placeholder="${escapeHtml(s.syncAccount ?? '')}" autocomplete="off" aria-describedby="dus-owner-hint">
<p class="hint" id="dus-owner-hint">${ownerHint}</p>${ownerMissing}</div>
<div class="switch"><input type="checkbox" role="switch" id="dus-allow-local" name="allowLocal"${checked(s.allowLocal)}><label for="dus-allow-local">${t('page.allow_local')}</label></div>
<div class="switch"><input type="checkbox" role="switch" id="dus-always-search" name="alwaysSearch"${checked(s.alwaysSearch)}><label for="dus-always-search">${t('page.always_search')}</label></div>
<div class="buttons">
<button type="submit" class="primary" id="dus-save">${t('page.save')}</button>
<button type="button" class="danger" id="dus-disconnect">${t('page.disconnect')}</button>
</div>
<p class="status" id="dus-status" role="status" aria-live="polite"></p>
<p class="error" id="dus-error" role="alert"></p>
</form>
</section>
<section aria-labelledby="dus-history-title">
<h2 id="dus-history-title">${t('page.history')}</h2>
<ul class="history" id="dus-history" aria-live="polite"><li>${t('page.loading')}</li></ul>
<div class="buttons"><button type="button" id="dus-clear-history">${t('page.clear_history')}</button></div>
</section>
<section aria-labelledby="dus-try-title">
<h2 id="dus-try-title">${t('page.try')}</h2>
<form id="dus-try">
<div class="field"><label for="dus-try-term">${t('page.try_term')}</label><input type="text" id="dus-try-term" name="term" required autocomplete="off"></div>
<div class="field"><label for="dus-try-user">${t('page.try_user')}</label><input type="text" id="dus-try-user" name="user" required autocomplete="off"></div>
<div class="buttons"><button type="submit" id="dus-try-run">${t('page.try_run')}</button></div>
<p class="error" id="dus-try-error" role="alert"></p>
<div id="dus-try-results" aria-live="polite"></div>
</form>
<form id="dus-who">
<div class="field"><label for="dus-who-document">${t('page.who_document')}</label><input type="text" id="dus-who-document" name="document" required autocomplete="off" inputmode="numeric" placeholder="412"></div>
<div class="field"><label><input type="checkbox" id="dus-who-blocked" name="includeBlocked"> ${t('page.who_blocked')}</label></div>
<div class="buttons"><button type="submit" id="dus-who-run">${t('page.who_run')}</button></div>
<p class="error" id="dus-who-error" role="alert"></p>
<div id="dus-who-results" aria-live="polite"></div>
</form>
</section>
<dialog id="dus-confirm" aria-labelledby="dus-confirm-title">
<form method="dialog" id="dus-confirm-form">
<h2 id="dus-confirm-title">${t('page.confirm_title')}</h2>
<p>${t('page.confirm_text')}</p>
<div class="field"><label for="dus-confirm-password">${t('page.password')}</label><input type="password" id="dus-confirm-password" autocomplete="current-password"></div>
<p class="error" id="dus-confirm-error" role="alert"></p>
<div class="buttons"><button type="submit" class="primary" id="dus-confirm-ok" value="ok">${t('page.confirm')}</button><button type="button" id="dus-confirm-cancel">${t('page.cancel')}</button></div>
</form>
</dialog>`;
}

/**
 * The administration settings page. The request token of the session rides in a data
 * attribute, as the host puts it on its pages.
 */
export function adminPage(options: {
  readonly uid: string;
  readonly requestToken: string;
  readonly settings: SettingsResponse;
  readonly connection: OverviewResult;
  readonly language?: string | null;
}): string {
  const language = options.language ?? null;
  const t = textsIn(language);
  return layout(
    textIn('page.title', language),
    `<header><h1>${t('page.heading')}</h1>
<form method="post" action="/logout"><input type="hidden" name="requesttoken" value="${escapeHtml(options.requestToken)}"><span>${escapeHtml(options.uid)}</span> <button type="submit">${t('page.log_out')}</button></form>
</header>
<main>
${adminSettingsForm(options.settings, options.connection, language)}</main>`,
    `<meta name="requesttoken" content="${escapeHtml(options.requestToken)}">
<script src="${ADMIN_SCRIPT_PATH}" defer></script>`,
    catalogLanguage(language) ?? 'en',
  );
}
