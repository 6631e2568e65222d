import { Option } from 'commander';
import { DusError } from '../core/errors.js';
import { effectiveHostLocation } from '../core/settings/host-location.js';
import type { SaveSettingsInput } from '../core/admin/save-settings.js';
import type { SettingsResponse } from '../core/admin/settings-response.js';
import { EXIT_FAILURE, EXIT_OK } from '../cli/exit-codes.js';
import { withOutput, withOutputOptions } from '../cli/output.js';
import { hostLocationOf, withService, readFirstLine } from '../cli/shared-options.js';
import { readHiddenLine } from '../cli/hidden-prompt.js';
import { waitingFor } from '../cli/status-line.js';
import type { CommandDefinition, CommandIO } from '../cli/types.js';

interface SetupOptions {
  readonly url?: string;
  readonly token?: string | boolean;
  readonly tokenStdin?: boolean;
  readonly tokenEnv?: string;
  readonly archiveAccount?: string;
  readonly allowLocal?: boolean;
  readonly alwaysSearch?: boolean;
}

function usage(message: string): DusError {
  return new DusError('usage', message);
}

/** The token from its one allowed source, or undefined to keep the stored one (Rule 3). */
async function readToken(options: SetupOptions, io: CommandIO): Promise<string | undefined> {
  if (options.tokenStdin === true && options.tokenEnv !== undefined) {
    throw usage('give the API token through one source only: --token-stdin or --token-env=NAME.');
  }
  let token: string | undefined;
  if (options.tokenStdin === true) {
    // On a terminal, a password prompt: the typed token is not echoed (gh and occ ask the same way).
    token =
      io.stdin.isTTY === true
        ? (
            await readHiddenLine(
              io,
              'API token of the archive server (input is hidden): ',
              'pipe the API token into it (… --token-stdin < token.txt) or use --token-env=NAME.',
            )
          ).trim()
        : (await readFirstLine(io.stdin)).trim();
    if (token === '') throw usage('--token-stdin read an empty first line: pipe the API token into standard input.');
  } else if (options.tokenEnv !== undefined) {
    token = io.env[options.tokenEnv]?.trim() ?? '';
    if (token === '') throw usage(`the environment variable ${options.tokenEnv} named by --token-env is empty or not set.`);
  }
  return token;
}

function onOff(value: boolean): string {
  return value ? 'on' : 'off';
}

function describe(saved: SettingsResponse): string[] {
  const version = saved.docsVersion ?? 'unknown';
  const apiVersion = saved.docsApiVersion ?? 'unknown';
  const account = saved.archiveOwner !== '' ? saved.archiveOwner : `${saved.syncAccount ?? 'none'} (the synchronization add-on's account)`;
  const lines = [
    `Saved. The archive server at ${saved.url ?? ''} answered: version ${version}, API version ${apiVersion}.`,
    `Archive account: ${account}${saved.archiveOwnerMissing ? ' (does not exist on the host: set --archive-account=ID)' : ''}`,
    `Local network: ${onOff(saved.allowLocal)}. Always search: ${onOff(saved.alwaysSearch)}.`,
  ];
  return lines;
}

export const command: CommandDefinition = {
  summary: 'Test the connection with URL and token, then save the settings',
  examples: [
    'docs-unified-search setup --url=https://paperless.example.com --host-db=sqlite:///var/www/nextcloud/data/nextcloud.db --token-stdin < token.txt',
    'PAPERLESS_TOKEN=… docs-unified-search setup --url=https://paperless.example.com --token-env=PAPERLESS_TOKEN --archive-account=archive',
    'docs-unified-search setup --url=http://192.168.1.20:8000 --allow-local --no-always-search   # keeps the stored token (same server)',
  ],
  notes:
    'The API token is never accepted on the command line. Without a token source the stored token is kept, but only for the server it was saved for.\n' +
    'An omitted option keeps its stored value.',
  exitCodes: [
    [EXIT_OK, 'saved'],
    [
      EXIT_FAILURE,
      'the host cannot be opened (checked before the archive server is asked), the archive server does not answer, or a setting is wrong (URL, archive account, a stored token of another server)',
    ],
  ],
  configure: (command) => {
    // The command's own options first, then the output options every data command shares.
    command
      .option('--url <url>', 'address of the archive server, with its path if it runs under one (required)')
      .option('--token-stdin', 'read the API token from the first line of standard input (on a terminal: a prompt that does not echo)')
      .option('--token-env <name>', 'read the API token from the environment variable NAME')
      .option('--archive-account <id>', "archive account; empty means the synchronization add-on's account")
      .option('--allow-local', 'the archive server runs in the local network')
      .option('--no-allow-local', 'the archive server does not run in the local network')
      .option('--always-search', 'ask the archive server on every search')
      .option('--no-always-search', 'ask the archive server only when the user chose it')
      // Declared so that an attempt is refused with a hint, rather than echoed as an unknown option.
      .addOption(new Option('--token [token]').hideHelp());
    withOutputOptions(command);
  },
  run: (_args, rawOptions, context) =>
    withOutput(rawOptions, context, async (out) => {
      const options = rawOptions as SetupOptions;
      if (options.token !== undefined) {
        throw usage(
          'the API token is never accepted on the command line (it would show in the process list and the shell history): use --token-stdin or --token-env=NAME.',
        );
      }
      if (options.url === undefined || options.url.trim() === '') {
        throw usage('--url=URL is required: the address of the archive server.');
      }
      const token = await readToken(options, context.io);
      const input: SaveSettingsInput = {
        url: options.url,
        ...(token === undefined ? {} : { token }),
        ...(options.archiveAccount === undefined ? {} : { archiveOwner: options.archiveAccount }),
        ...(options.allowLocal === undefined ? {} : { allowLocal: options.allowLocal }),
        ...(options.alwaysSearch === undefined ? {} : { alwaysSearch: options.alwaysSearch }),
        hostLocation: hostLocationOf(context.globals),
      };
      return withService(context, { repair: false }, async (service) => {
        const location = effectiveHostLocation(service.settings.readWithoutRefusedUrl(), input.hostLocation);
        if (location.dbUrl === undefined && location.nextcloudDir === undefined) {
          throw usage('setup needs to know where the host is: give --nextcloud=DIR or --host-db=URL (stored for later commands).');
        }
        // A host that cannot be opened fails here with its own code and message, before the
        // archive server is asked; after the test the save could only call it `internal`.
        await service.host();
        const { saveSettings } = await import('../core/admin/save-settings.js');
        const saved = await waitingFor(context.io, `Testing the archive server at ${input.url}…`, saveSettings(service, input), context.globals);
        // The directory behind user_ldap, when the host has an active configuration: reached, bound, what it finds.
        const directories = await (await service.host()).directoryReport(true);
        out.done(directories.length === 0 ? saved : { ...saved, directories }, () => {
          for (const said of describe(saved)) out.tell(said);
          for (const d of directories) {
            out.tell(
              d.bound && d.error === null
                ? `The directory of user_ldap's configuration ${d.prefix} (${d.url}) answers and binds as the agent: its filters find ${d.accounts ?? 0} account(s) and ${d.groups ?? 0} group(s).`
                : `The directory of user_ldap's configuration ${d.prefix} (${d.url}) ${d.reachable ? 'refuses the agent' : 'cannot be reached'} (${d.error ?? ''}): no LDAP account is shown anything until it answers; check says the same.`,
            );
          }
        });
        return EXIT_OK;
      });
    }),
};
