import type { ServiceContext } from '../context-types.js';
import { originOf } from '../settings/url-rules.js';
import { readHistory } from './history.js';

/** Where an administrator corrects what the check warns about (served by `serve`). */
export const SETTINGS_PAGE_PATH = '/settings/admin/docs_unified_search';

export interface OverviewResult {
  readonly severity: 'success' | 'warning';
  /** One line per finding; for success, the connected archive server and its version. */
  readonly messages: readonly string[];
  readonly link: string;
}

/**
 * The administration overview check. Reads stored data only (settings, credential store,
 * host accounts) and never sends a request to the archive server, so it is fast and safe to
 * run from monitoring.
 */
export async function overviewCheck(ctx: ServiceContext): Promise<OverviewResult> {
  const stored = ctx.settings.read();
  const warnings: string[] = [];
  let hostUrl: string | null = stored.host_url ?? null;

  if (stored.docs_url === undefined) {
    warnings.push('No archive server is configured.');
  } else {
    const token = ctx.credentials.load();
    if (token.status === 'unreadable') warnings.push("The stored API token can't be decrypted: enter the token again.");
    else if (token.status === 'none') warnings.push('No API token is stored: enter the token.');
    else if (token.origin !== originOf(stored.docs_url)) warnings.push('The stored API token was saved for another server: enter the token again.');
  }

  try {
    const host = await ctx.host();
    hostUrl ??= host.hostUrl;
    const named = stored.archive_owner ?? (await host.syncAccount());
    if (named === null || named === '') warnings.push('No archive account is set, and the synchronization add-on names none.');
    else if ((await host.findAccount(named)) === null) warnings.push(`The archive account ${named} does not exist.`);
  } catch (error: unknown) {
    warnings.push(`The host could not be read to check the archive account (${error instanceof Error && 'code' in error ? String(error.code) : 'internal'}).`);
  }

  if (stored.diagnostics_pending === true) {
    const last = readHistory(ctx.settings)[0];
    warnings.push(
      last === undefined
        ? 'A search failed and none has worked since.'
        : last.source === 'test'
          ? `The connection test of check or test failed (${last.code}) at ${last.at}, and no test or search has worked since.`
          : `A search failed (${last.code}) at ${last.at} and none has worked since.`,
    );
  }

  const link = `${(hostUrl ?? '').replace(/\/+$/, '')}${SETTINGS_PAGE_PATH}`;
  if (warnings.length > 0) return { severity: 'warning', messages: warnings, link };
  const version = stored.docs_version === undefined ? 'version unknown' : `version ${stored.docs_version}`;
  const api = stored.docs_api_version === undefined ? '' : `, API version ${stored.docs_api_version}`;
  return { severity: 'success', messages: [`Connected to the archive server at ${stored.docs_url ?? ''} (${version}${api} at its last answer).`], link };
}
