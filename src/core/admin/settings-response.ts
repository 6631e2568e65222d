import type { ServiceContext } from '../context-types.js';

/** The spec's "Settings response object": what the settings routes and `setup` report. Never the token. */
export interface SettingsResponse {
  readonly url: string | null;
  readonly tokenConfigured: boolean;
  readonly alwaysSearch: boolean;
  /** The stored archive account; '' when the synchronization add-on's account is used. */
  readonly archiveOwner: string;
  readonly syncAccount: string | null;
  readonly tokenUnreadable: boolean;
  readonly archiveOwnerMissing: boolean;
  readonly allowLocal: boolean;
  readonly docsVersion: string | null;
  readonly docsApiVersion: string | null;
}

export async function settingsResponse(context: ServiceContext): Promise<SettingsResponse> {
  // A stored URL the URL rules refuse is shown as none, so the form that replaces it still opens.
  const stored = context.settings.readWithoutRefusedUrl();
  const token = context.credentials.load();
  const host = await context.host();
  const syncAccount = await host.syncAccount();
  const archiveAccount = await context.archiveAccount();
  return {
    url: stored.docs_url ?? null,
    tokenConfigured: token.status !== 'none',
    alwaysSearch: stored.always_search ?? false,
    archiveOwner: stored.archive_owner ?? '',
    syncAccount,
    tokenUnreadable: token.status === 'unreadable',
    archiveOwnerMissing: archiveAccount === null,
    allowLocal: stored.allow_local ?? false,
    docsVersion: stored.docs_version ?? null,
    docsApiVersion: stored.docs_api_version ?? null,
  };
}
