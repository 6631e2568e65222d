import { Option } from 'commander';
import { openContext } from '../core/context.js';
import { DusError } from '../core/errors.js';
import { plainConfigValue } from '../core/settings/app-config-values.js';
import { isAppConfigKey, KEY_DEFINITIONS } from '../core/settings/schema.js';
import { APP_ID } from '../core/version.js';
import { EXIT_FAILURE, EXIT_OK, formatJson, OUTPUT_FORMATS, reportFailure, serviceOptionsOf, type OutputFormat } from './shared-options.js';
import type { CommandIO, CommandSpec } from './types.js';

interface GetOptions {
  readonly output: OutputFormat;
  readonly defaultValue?: string | boolean;
  readonly details?: boolean;
}

function write(io: CommandIO, value: string | boolean, format: OutputFormat): void {
  io.stdout.write(`${format === 'plain' ? plainConfigValue(value) : formatJson(value, format)}\n`);
}

export const command: CommandSpec = {
  name: 'config:app:get',
  aliases: ['config:get'],
  summary: 'Read an app configuration key',
  examples: [
    'docs-unified-search config:app:get docs_unified_search docs_url',
    'docs-unified-search config:app:get docs_unified_search always_search --output=json',
    'docs-unified-search config:app:get docs_unified_search archive_owner --default-value=""',
    "docs-unified-search config:app:get docs_sync target_user   # the synchronization add-on's account, read from the host",
  ],
  configure: (command) => {
    command
      .argument('<app>', 'app id: docs_unified_search (or docs_sync for target_user)')
      .argument('<name>', 'name of the key')
      .addOption(new Option('--output <format>', 'output format').choices(OUTPUT_FORMATS).default('plain'))
      .option('--default-value [value]', 'printed when the key is not set; without it a missing key exits with 1')
      .option('--details', 'print value, type, lazy and sensitive flags')
      .addHelpText('after', '\nExit codes: 0 the value was printed, 1 the key is not set (and no --default-value was given).');
  },
  run: async (args, rawOptions, context) => {
    const options = rawOptions as unknown as GetOptions;
    const { io } = context;
    const [app = '', name = ''] = args;
    const service = openContext(serviceOptionsOf(context));
    try {
      let value: string | boolean | undefined;
      if (app === 'docs_sync' && name === 'target_user') {
        value = (await (await service.host()).syncAccount()) ?? undefined;
      } else if (app !== APP_ID) {
        throw new DusError('config_refused', `This suite holds only the keys of ${APP_ID} (and reads docs_sync target_user from the host); ${app} is not one of them.`);
      } else if (isAppConfigKey(name)) {
        value = service.settings.get(name);
      }
      if (options.details === true) {
        if (value === undefined) throw new DusError('not_configured', `Config ${name} of app ${app} is not set.`);
        const definition = isAppConfigKey(name) ? KEY_DEFINITIONS[name] : { type: 'string', lazy: false };
        const details = { app, key: name, value, type: definition.type, lazy: definition.lazy, sensitive: false };
        if (options.output === 'plain') {
          io.stdout.write(Object.entries(details).map(([k, v]) => `  - ${k}: ${String(v)}\n`).join(''));
        } else {
          io.stdout.write(`${formatJson(details, options.output)}\n`);
        }
        return EXIT_OK;
      }
      if (value === undefined) {
        // occ prints nothing for a missing key: scripts test the exit code.
        if (options.defaultValue === undefined) return EXIT_FAILURE;
        value = options.defaultValue === true ? '' : options.defaultValue;
      }
      write(io, value, options.output);
      return EXIT_OK;
    } catch (error: unknown) {
      return reportFailure(io, error);
    } finally {
      await service.close();
    }
  },
};
