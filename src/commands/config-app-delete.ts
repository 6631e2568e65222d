import { DusError } from '../core/errors.js';
import { CURRENT_APP_CONFIG_KEYS, isAppConfigKey } from '../core/settings/schema.js';
import { APP_ID } from '../core/version.js';
import { EXIT_FAILURE, EXIT_OK } from '../cli/exit-codes.js';
import { line } from '../cli/format.js';
import { withOutput, withOutputOptions } from '../cli/output.js';
import { withService } from '../cli/shared-options.js';
import type { CommandDefinition } from '../cli/types.js';

export const command: CommandDefinition = {
  summary: 'Delete an app configuration key',
  examples: [
    'docs-unified-search config:app:delete docs_unified_search always_search',
    'docs-unified-search config:app:delete docs_unified_search archive_owner --error-if-not-exists',
  ],
  exitCodes: [
    [EXIT_OK, 'deleted, or not set'],
    [EXIT_FAILURE, 'not set with --error-if-not-exists, or refused'],
  ],
  argumentValues: { app: [APP_ID], name: CURRENT_APP_CONFIG_KEYS },
  configure: (command) => {
    // The command's own options first, then the output options every data command shares.
    command
      .argument('<app>', 'app id: docs_unified_search')
      .argument('<name>', 'name of the key')
      .option('--error-if-not-exists', 'exit with 1 when the key is not set');
    withOutputOptions(command);
  },
  run: (args, rawOptions, context) =>
    withOutput(rawOptions, context, async (out) => {
      const options = rawOptions as { errorIfNotExists?: boolean };
      const [app = '', name = ''] = args;
      if (app !== APP_ID) throw new DusError('config_refused', `This suite holds only the keys of ${APP_ID}; ${app} is not one of them.`);
      return withService(context, { repair: false }, async (service) => {
        // Deleted without reading it through the rules first: deleting a stored value the rules refuse is its repair.
        const isSet = (isAppConfigKey(name) ? service.settings.delete([name]) : []).length > 0;
        if (!isSet && options.errorIfNotExists === true) {
          const said = `Config ${name} of app ${app} could not be deleted because it did not exist`;
          // occ's own line on stderr; JSON reports it as the failure it is.
          return out.failAsOcc(new DusError('not_configured', `${said}.`), () => out.io.stderr.write(`${line(context.globals, said)}\n`));
        }
        // As --json's deleted:false: a key that was not set is said so, not reported deleted.
        out.done({ app, key: name, deleted: isSet }, () =>
          out.say(isSet ? `Config value ${name} of app ${app} deleted` : `Config value ${name} of app ${app} was not set: nothing deleted`),
        );
        return EXIT_OK;
      });
    }),
};
