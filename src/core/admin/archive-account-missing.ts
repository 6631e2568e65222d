import type { ServiceContext } from '../context-types.js';
import { DusError } from '../errors.js';

/**
 * The spec's unknown_archive_account refusal, naming the value it came from: the stored
 * `archive_owner`, or the synchronization add-on's `target_user`, or neither set.
 */
export async function archiveAccountMissing(ctx: ServiceContext, advice: string): Promise<DusError> {
  const owner = ctx.settings.readWithoutRefusedUrl().archive_owner;
  if (owner !== undefined && owner !== '') {
    return new DusError('unknown_archive_account', `The archive account "${owner}" (archive_owner) does not exist on the host: ${advice}`);
  }
  const named = await (await ctx.host()).syncAccount();
  if (named !== null && named !== '') {
    return new DusError(
      'unknown_archive_account',
      `The synchronization add-on's account "${named}" (docs_sync target_user) does not exist on the host: ${advice}`,
    );
  }
  return new DusError(
    'unknown_archive_account',
    `No archive account is set (archive_owner) and the synchronization add-on names none (docs_sync target_user): ${advice}`,
  );
}
