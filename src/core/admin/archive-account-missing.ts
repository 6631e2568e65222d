import type { ServiceContext } from '../context-types.js';
import { DusError } from '../errors.js';
import { msg, type Message } from '../i18n/catalog.js';

/**
 * The spec's unknown_archive_account refusal, naming the value it came from: the stored
 * `archive_owner`, or the synchronization add-on's `target_user`, or neither set.
 */
export async function archiveAccountMissing(ctx: ServiceContext, advice: Message): Promise<DusError> {
  const owner = ctx.settings.readWithoutRefusedUrl().archive_owner;
  if (owner !== undefined && owner !== '') {
    return new DusError('unknown_archive_account', msg('unknown_archive_account.archive_owner', { account: owner, advice }));
  }
  const named = await (await ctx.host()).syncAccount();
  if (named !== null && named !== '') {
    return new DusError('unknown_archive_account', msg('unknown_archive_account.target_user', { account: named, advice }));
  }
  return new DusError('unknown_archive_account', msg('unknown_archive_account.none_set', { advice }));
}
