import { runRepair } from '../core/diagnostics/repair.js';
import { SUITE_VERSION } from '../core/version.js';
import { EXIT_FAILURE, EXIT_OK } from '../cli/exit-codes.js';
import { withOutput, withOutputOptions } from '../cli/output.js';
import { withService } from '../cli/shared-options.js';
import type { CommandDefinition } from '../cli/types.js';

export const command: CommandDefinition = {
  summary: 'Run the repair step',
  examples: ['docs-unified-search maintenance:repair'],
  notes: 'Deletes the keys last_failure and last_recovery left by app version 0.3.0. Safe to run again.',
  exitCodes: [
    [EXIT_OK, 'repaired (or nothing to do)'],
    [EXIT_FAILURE, 'the settings cannot be read or written'],
  ],
  configure: (command) => {
    withOutputOptions(command);
  },
  run: (_args, options, context) =>
    withOutput(options, context, async (out) => {
      return withService(context, { repair: false }, async (service) => {
        const result = runRepair(service.settings);
        service.settings.update({ installed_version: SUITE_VERSION });
        out.done({ deleted: result.deleted, installedVersion: SUITE_VERSION }, () => {
          out.say(' - Remove the keys of app version 0.3.0 (docs_unified_search)');
          out.say(result.deleted.length === 0 ? '     nothing to delete' : `     deleted: ${result.deleted.join(', ')}`);
        });
        return EXIT_OK;
      });
    }),
};
