import { openContext } from '../core/context.js';
import { DusError } from '../core/errors.js';
import { isAppConfigKey } from '../core/settings/schema.js';
import { APP_ID } from '../core/version.js';
import { EXIT_FAILURE, EXIT_OK, reportFailure, serviceOptionsOf } from './shared-options.js';
import type { CommandSpec } from './types.js';

export const command: CommandSpec = {
  name: 'config:app:delete',
  aliases: ['config:delete'],
  summary: 'Delete an app configuration key',
  examples: [
    'docs-unified-search config:app:delete docs_unified_search always_search',
    'docs-unified-search config:app:delete docs_unified_search last_failure --error-if-not-exists',
  ],
  configure: (command) => {
    command
      .argument('<app>', 'app id: docs_unified_search')
      .argument('<name>', 'name of the key')
      .option('--error-if-not-exists', 'exit with 1 when the key is not set')
      .addHelpText('after', '\nExit codes: 0 deleted (or not set), 1 not set with --error-if-not-exists, or refused.');
  },
  run: async (args, rawOptions, context) => {
    const options = rawOptions as { errorIfNotExists?: boolean };
    const { io } = context;
    const [app = '', name = ''] = args;
    try {
      if (app !== APP_ID) throw new DusError('config_refused', `This suite holds only the keys of ${APP_ID}; ${app} is not one of them.`);
      const service = openContext(serviceOptionsOf(context));
      try {
        const isSet = isAppConfigKey(name) && service.settings.get(name) !== undefined;
        if (!isSet && options.errorIfNotExists === true) {
          io.stderr.write(`Config ${name} of app ${app} could not be deleted because it did not exist\n`);
          return EXIT_FAILURE;
        }
        if (isSet && isAppConfigKey(name)) service.settings.delete([name]);
        io.stdout.write(`Config value ${name} of app ${app} deleted\n`);
        return EXIT_OK;
      } finally {
        await service.close();
      }
    } catch (error: unknown) {
      return reportFailure(io, error);
    }
  },
};
