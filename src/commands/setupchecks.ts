import type { ServiceContext } from '../core/context-types.js';
import { openContext } from '../core/context.js';
import { overviewCheck } from '../core/diagnostics/overview-check.js';
import { repairOnStart } from '../core/diagnostics/repair.js';
import { success, warning } from './format.js';
import { EXIT_FAILURE, EXIT_OK, reportFailure, serviceOptionsOf } from './shared-options.js';
import type { CommandSpec } from './types.js';

export const command: CommandSpec = {
  name: 'setupchecks',
  aliases: ['checks'],
  summary: 'Run the administration overview check',
  examples: ['docs-unified-search setupchecks', 'docs-unified-search setupchecks --output=json'],
  configure: (command) => {
    command
      .option('--output <format>', 'plain, json or json_pretty', 'plain')
      .addHelpText('after', '\nReads stored data only; sends no request to the archive server.\nExit codes: 0 no warning, 1 a warning.');
  },
  run: async (_args, options, context) => {
    const { io, globals } = context;
    let service: ServiceContext | undefined;
    try {
      const format = String(options.output ?? 'plain');
      if (!['plain', 'json', 'json_pretty'].includes(format)) {
        io.stderr.write('Error [usage]: --output must be plain, json or json_pretty.\n');
        return 2;
      }
      service = openContext(serviceOptionsOf(context));
      repairOnStart(service.settings, service.logger);
      const result = await overviewCheck(service);
      if (format !== 'plain') {
        const body = { docs_unified_search: { severity: result.severity, description: result.messages.join(' '), linkToDoc: result.link } };
        io.stdout.write(`${format === 'json' ? JSON.stringify(body) : JSON.stringify(body, null, 4)}\n`);
      } else {
        io.stdout.write('Document archive unified search:\n');
        for (const message of result.messages) {
          io.stdout.write(`  ${result.severity === 'success' ? success(globals, message) : warning(globals, message)}\n`);
        }
        if (result.severity !== 'success') io.stdout.write(`  Correct it in the app settings: ${result.link}\n`);
      }
      return result.severity === 'success' ? EXIT_OK : EXIT_FAILURE;
    } catch (error: unknown) {
      return reportFailure(io, error);
    } finally {
      await service?.close();
    }
  },
};
