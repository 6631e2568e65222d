import type { ServiceContext } from '../context-types.js';
import { normalizeHostUrl } from '../host/db/host-url.js';
import { originOf } from '../settings/url-rules.js';
import { readHistory } from './history.js';
import { msg, render, type Message } from '../i18n/catalog.js';
import { newerReleaseNote } from '../archive/releases.js';

/** Where an administrator corrects what the check warns about (served by `serve`). */
export const SETTINGS_PAGE_PATH = '/settings/admin/docs_unified_search';

export interface OverviewResult {
  readonly severity: 'success' | 'warning';
  /** One line per finding; for success, the connected archive server and its version. */
  readonly messages: readonly string[];
  readonly link: string;
}

/** The check's findings as messages, to be written in each reader's language (`inLanguage`). */
export interface OverviewFindings {
  readonly severity: OverviewResult['severity'];
  readonly findings: readonly Message[];
  readonly link: string;
}

/** The findings written out in `language` (English when none is given). */
export function inLanguage(found: OverviewFindings, language: string | null): OverviewResult {
  return { severity: found.severity, messages: found.findings.map((message) => render(message, language)), link: found.link };
}

/** The administration overview check, its lines in `language` (English when none is given). */
export async function overviewCheck(ctx: ServiceContext, language: string | null = null): Promise<OverviewResult> {
  return inLanguage(await overviewFindings(ctx), language);
}

function validHostUrl(stored: string | undefined): string | null {
  if (stored === undefined || stored === '') return null;
  try {
    return normalizeHostUrl(stored, 'host_url');
  } catch {
    return null;
  }
}

/**
 * What the administration overview check finds. Reads stored data only (settings, credential
 * store, host accounts) and never sends a request to the archive server, so it is fast and safe
 * to run from monitoring.
 */
export async function overviewFindings(ctx: ServiceContext): Promise<OverviewFindings> {
  const stored = ctx.settings.read();
  const warnings: Message[] = [];
  // A stored host_url the rule refuses makes no link (the host then fails to open and says why).
  let hostUrl: string | null = validHostUrl(stored.host_url);

  if (stored.docs_url === undefined) {
    warnings.push(msg('overview.no_server'));
  } else {
    const token = ctx.credentials.load();
    if (token.status === 'unreadable') warnings.push(msg('overview.token_unreadable'));
    else if (token.status === 'none') warnings.push(msg('overview.token_none'));
    else if (token.origin !== originOf(stored.docs_url)) warnings.push(msg('overview.token_other_server'));
  }

  try {
    const host = await ctx.host();
    hostUrl ??= host.hostUrl;
    const named = stored.archive_owner ?? (await host.syncAccount());
    if (named === null || named === '') warnings.push(msg('overview.no_account'));
    else if ((await host.findAccount(named)) === null) warnings.push(msg('overview.unknown_account', { account: named }));
    const rules = await host.accessRules();
    if (rules !== null && rules.undecided.length > 0) warnings.push(msg('overview.access_rules_undecided', { rules: rules.undecided.join(', ') }));
  } catch (error: unknown) {
    warnings.push(msg('overview.host_unreadable', { code: error instanceof Error && 'code' in error ? String(error.code) : 'internal' }));
  }

  if (stored.diagnostics_pending === true) {
    const last = readHistory(ctx.settings)[0];
    warnings.push(
      last === undefined
        ? msg('overview.search_failed')
        : last.source === 'test'
          ? msg('overview.test_failed_at', { code: last.code, at: last.at })
          : msg('overview.search_failed_at', { code: last.code, at: last.at }),
    );
  }

  const link = `${(hostUrl ?? '').replace(/\/+$/, '')}${SETTINGS_PAGE_PATH}`;
  if (warnings.length > 0) return { severity: 'warning', findings: warnings, link };
  const known = stored.docs_version;
  const api = stored.docs_api_version;
  const version =
    known === undefined
      ? api === undefined
        ? msg('overview.version_unknown')
        : msg('overview.version_unknown_api', { api })
      : api === undefined
        ? msg('overview.version', { version: known })
        : msg('overview.version_api', { version: known, api });
  // A release newer than the checked ones is information, not a warning: the search works with the newest known rules.
  const newer = newerReleaseNote(known);
  const connected = msg('overview.connected', { url: stored.docs_url ?? '', version });
  return { severity: 'success', findings: newer === null ? [connected] : [connected, newer], link };
}
