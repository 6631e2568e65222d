import type { ServiceContext } from '../core/context-types.js';
import { openContext } from '../core/context.js';
import { runRepair } from '../core/diagnostics/repair.js';
import { SUITE_VERSION } from '../core/version.js';
import { EXIT_OK, reportFailure, serviceOptionsOf } from './shared-options.js';
import type { CommandSpec } from './types.js';

export const command: CommandSpec = {
  name: 'maintenance:repair',
  aliases: ['repair'],
  summary: 'Run the repair step',
  examples: ['docs-unified-search maintenance:repair'],
  configure: (command) => {
    command.addHelpText('after', '\nDeletes the keys last_failure and last_recovery left by app version 0.3.0. Safe to run again.');
  },
  run: async (_args, _options, context) => {
    const { io } = context;
    let service: ServiceContext | undefined;
    try {
      service = openContext(serviceOptionsOf(context));
      const result = runRepair(service.settings);
      service.settings.update({ installed_version: SUITE_VERSION });
      io.stdout.write(' - Remove the keys of app version 0.3.0 (docs_unified_search)\n');
      io.stdout.write(result.deleted.length === 0 ? '     nothing to delete\n' : `     deleted: ${result.deleted.join(', ')}\n`);
      return EXIT_OK;
    } catch (error: unknown) {
      return reportFailure(io, error);
    } finally {
      await service?.close();
    }
  },
};
