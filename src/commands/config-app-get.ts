import { DusError } from '../core/errors.js';
import { plainConfigValue } from '../core/settings/app-config-values.js';
import { CURRENT_APP_CONFIG_KEYS, isAppConfigKey, KEY_DEFINITIONS } from '../core/settings/schema.js';
import { APP_ID } from '../core/version.js';
import { EXIT_FAILURE, EXIT_OK } from '../cli/exit-codes.js';
import { withOutput, withOutputOptions } from '../cli/output.js';
import { withService } from '../cli/shared-options.js';
import type { CommandDefinition } from '../cli/types.js';

interface GetOptions {
  readonly defaultValue?: string | boolean;
  readonly details?: boolean;
}

export const command: CommandDefinition = {
  summary: 'Read an app configuration key',
  examples: [
    'docs-unified-search config:app:get docs_unified_search docs_url',
    'docs-unified-search config:app:get docs_unified_search always_search --output=json',
    'docs-unified-search config:app:get docs_unified_search archive_owner --default-value=""',
    "docs-unified-search config:app:get docs_sync target_user   # the synchronization add-on's account, read from the host",
  ],
  exitCodes: [
    [EXIT_OK, 'the value was printed'],
    [EXIT_FAILURE, 'the key is not set (and no --default-value was given), or the app is not this one'],
  ],
  argumentValues: { app: [APP_ID, 'docs_sync'], name: [...CURRENT_APP_CONFIG_KEYS, 'target_user'] },
  configure: (command) => {
    // The command's own options first, then the output options every data command shares.
    command
      .argument('<app>', 'app id: docs_unified_search (or docs_sync for target_user)')
      .argument('<name>', 'name of the key')
      .option('--default-value [value]', 'printed when the key is not set; without it a missing key exits with 1')
      .option('--details', 'print value, type, lazy and sensitive flags');
    withOutputOptions(command);
  },
  run: (args, rawOptions, context) =>
    withOutput(rawOptions, context, async (out) => {
      const options = rawOptions as GetOptions;
      const [app = '', name = ''] = args;
      return withService(context, { repair: false }, async (service) => {
        let value: string | boolean | undefined;
        if (app === 'docs_sync' && name === 'target_user') {
          value = (await (await service.host()).syncAccount()) ?? undefined;
        } else if (app !== APP_ID) {
          throw new DusError(
            'config_refused',
            `This suite holds only the keys of ${APP_ID} (and reads docs_sync target_user from the host); ${app} is not one of them.`,
          );
        } else if (isAppConfigKey(name)) {
          value = service.settings.get(name);
        }
        const notSet = new DusError('not_configured', `Config ${name} of app ${app} is not set.`);
        if (options.details === true) {
          if (value === undefined) throw notSet;
          const definition = isAppConfigKey(name) ? KEY_DEFINITIONS[name] : { type: 'string', lazy: false };
          const details = { app, key: name, value, type: definition.type, lazy: definition.lazy, sensitive: false };
          out.result(details, () => {
            for (const [k, v] of Object.entries(details)) out.say(`  - ${k}: `, String(v));
          });
          return EXIT_OK;
        }
        if (value === undefined) {
          if (options.defaultValue === undefined) {
            // occ prints nothing for a missing key (scripts test the exit code); JSON gets its error object.
            return out.failAsOcc(notSet, () => undefined);
          }
          value = options.defaultValue === true ? '' : options.defaultValue;
        }
        const shown = value;
        out.result(shown, () => out.say(plainConfigValue(shown)));
        return EXIT_OK;
      });
    }),
};
