import type { ServiceContext } from '../core/context-types.js';
import { DusError, isDusError } from '../core/errors.js';
import { parseConfigValue, plainConfigValue } from '../core/settings/app-config-values.js';
import { CURRENT_APP_CONFIG_KEYS, isAppConfigKey, KEY_DEFINITIONS } from '../core/settings/schema.js';
import { OBSOLETE_KEYS } from '../core/settings/types.js';
import type { AppConfigKey } from '../core/settings/types.js';
import { APP_ID } from '../core/version.js';
import { EXIT_FAILURE, EXIT_OK } from '../cli/exit-codes.js';
import { line } from '../cli/format.js';
import { withOutput, withOutputOptions } from '../cli/output.js';
import { withService } from '../cli/shared-options.js';
import type { CommandDefinition } from '../cli/types.js';

interface SetOptions {
  readonly value?: string;
  readonly type?: string;
  readonly lazy?: boolean;
  readonly sensitive?: boolean;
  readonly updateOnly?: boolean;
}

const OCC_TYPES = ['mixed', 'string', 'integer', 'float', 'boolean', 'array'];

function refuse(message: string): DusError {
  return new DusError('config_refused', message);
}

/** The key to set, or a refusal that says what to do instead. */
function settableKey(app: string, name: string): AppConfigKey {
  if (app !== APP_ID) throw refuse(`This suite holds only the keys of ${APP_ID}; ${app} is not one of them.`);
  if (name === 'docs_url') {
    throw refuse(
      'docs_url cannot be changed with config:app:set: the stored API token would follow the URL to the new server. ' +
        'Run setup --url=URL with --token-stdin or --token-env=NAME, which tests the new server and asks for its token.',
    );
  }
  if (!isAppConfigKey(name)) throw refuse(`${name} is not a key of ${APP_ID}; the keys are: ${CURRENT_APP_CONFIG_KEYS.join(', ')}.`);
  if (OBSOLETE_KEYS.includes(name)) throw refuse(`${name} is a key of app version 0.3.0, no longer used: maintenance:repair deletes it.`);
  return name;
}

/** The flags of every key are fixed, as by a host config lexicon: a request to change them is refused. */
function checkFlags(key: AppConfigKey, options: SetOptions): void {
  const definition = KEY_DEFINITIONS[key];
  if (options.type !== undefined) {
    if (!OCC_TYPES.includes(options.type)) throw refuse(`Unknown type ${options.type}: use one of ${OCC_TYPES.join(', ')}.`);
    if (options.type !== definition.type) throw refuse(`${key} is stored as ${definition.type}: use --type=${definition.type}.`);
  }
  if (options.lazy !== undefined && options.lazy !== definition.lazy) {
    throw refuse(`${key} is ${definition.lazy ? '' : 'not '}lazy and stays so: leave out --${options.lazy ? '' : 'no-'}lazy.`);
  }
  if (options.sensitive === true) {
    throw refuse('No key of this app is sensitive: the API token is kept in the encrypted credential store, set it with setup.');
  }
}

/**
 * The host's spelling of the archive account to store, refused as setup refuses it
 * (unknown_archive_account) when the host has no such account; stored with a warning when the
 * host cannot be opened to check it.
 */
async function existingArchiveAccount(service: ServiceContext, owner: string, warn: (said: string) => void): Promise<string> {
  let host;
  try {
    host = await service.host();
  } catch (error: unknown) {
    if (!isDusError(error)) throw error;
    warn(`Warning: the archive account "${owner}" was stored unchecked: the host cannot be opened (${error.code}). check tells whether it exists.`);
    return owner;
  }
  const account = await host.findAccount(owner);
  if (account === null) {
    throw new DusError(
      'unknown_archive_account',
      `The archive account "${owner}" does not exist on the host: give the ID of an existing account, or delete archive_owner for the synchronization add-on's account. Nothing was stored.`,
    );
  }
  return account.uid;
}

/**
 * A host_db value before it is stored: refused (host_config) when it is no database URL this
 * suite reads; stored with a warning naming the value when the database cannot be opened now
 * (a file that is no Nextcloud database, a server that is down).
 */
async function checkHostDb(url: string, tablePrefix: string | undefined, warn: (said: string) => void): Promise<void> {
  const source = `host_db "${url.replace(/\/\/[^/@]*@/, '//…@')}"`;
  const { paramsFromUrl } = await import('../core/host/db/locate.js');
  paramsFromUrl(url, 'oc_', source);
  const { openHost } = await import('../core/host/open-host.js');
  try {
    const host = await openHost({ dbUrl: url, dbUrlSource: source, ...(tablePrefix === undefined ? {} : { tablePrefix }) });
    await host.close();
  } catch (error: unknown) {
    if (!isDusError(error)) throw error;
    warn(`Warning: stored, but the host cannot be opened with it: Error [${error.code}]: ${error.message}`);
  }
}

export const command: CommandDefinition = {
  summary: 'Set an app configuration key (typed as the key requires)',
  examples: [
    'docs-unified-search config:app:set docs_unified_search always_search --value=true --type=boolean',
    'docs-unified-search config:app:set docs_unified_search archive_owner --value=archive',
    'docs-unified-search config:app:set docs_unified_search allow_local --value=false --update-only',
  ],
  notes: 'docs_url is never set this way: the stored token would follow the URL to another server; use setup.',
  exitCodes: [
    [EXIT_OK, 'set, or unchanged'],
    [EXIT_FAILURE, 'refused (config_refused; an archive_owner the host does not have: unknown_archive_account), or --update-only on a key that is not set'],
  ],
  argumentValues: { app: [APP_ID], name: CURRENT_APP_CONFIG_KEYS.filter((key) => key !== 'docs_url') },
  configure: (command) => {
    // The command's own options first, then the output options every data command shares.
    command
      .argument('<app>', 'app id: docs_unified_search')
      .argument('<name>', 'name of the key')
      .option('--value <value>', 'the new value')
      .option('--type <type>', 'value type: string or boolean (each key has one fixed type)')
      .option('--lazy', 'accepted when the key is lazy (diagnostics)')
      .option('--no-lazy', 'accepted when the key is not lazy')
      .option('--sensitive', 'refused: no key of this app is sensitive')
      .option('--no-sensitive', 'accepted')
      .option('--update-only', 'change the value only when the key is set already');
    withOutputOptions(command);
  },
  run: (args, rawOptions, context) =>
    withOutput(rawOptions, context, async (out) => {
      const options = rawOptions as SetOptions;
      const [app = '', name = ''] = args;
      const key = settableKey(app, name);
      const given = options.value;
      if (given === undefined) {
        // occ would answer "not updated" and exit 0; here every key's flags are fixed, so a call without a value can only be a mistake.
        throw new DusError(
          'usage',
          `--value=VALUE is required: the new value of ${key} (each key's type and lazy flag are fixed; config:app:get ${app} ${key} shows the stored value).`,
        );
      }
      checkFlags(key, options);
      return withService(context, { repair: false }, async (service) => {
        const current = service.settings.get(key);
        if (options.updateOnly === true && current === undefined) {
          const said = `Config value ${name} for app ${app} not updated, as it has not been set before.`;
          // occ says so on stdout; JSON reports it as the failure it is (exit 1).
          return out.failAsOcc(new DusError('not_configured', said), () => out.say(said));
        }
        const type = KEY_DEFINITIONS[key].type;
        let value = parseConfigValue(type, given);
        if (value === null) throw refuse(`Value is not a boolean, please use 'true' or 'false' (${key} is a switch).`);
        const warn = (said: string): void => void out.io.stderr.write(`${line(context.globals, said)}\n`);
        if (key === 'archive_owner' && typeof value === 'string' && value !== '') value = await existingArchiveAccount(service, value, warn);
        if (key === 'host_url' && typeof value === 'string' && value !== '') {
          const { normalizeHostUrl } = await import('../core/host/db/host-url.js');
          value = normalizeHostUrl(value, 'host_url');
        }
        if (key === 'host_db' && typeof value === 'string' && value !== '' && value !== current)
          await checkHostDb(value, service.settings.get('table_prefix'), warn);
        const updated = value !== current;
        if (updated) service.settings.update({ [key]: value });
        out.done({ app, key, value, updated }, () => {
          const where = KEY_DEFINITIONS[key].lazy ? 'lazy cache' : 'fast cache';
          out.say(
            updated
              ? `Config value '${name}' for app '${app}' is now set to '${plainConfigValue(value)}', stored as ${type} in ${where}`
              : 'Config value were not updated',
          );
        });
        return EXIT_OK;
      });
    }),
};
