import { statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { bridgeSecretPath, ensureBridgeSecret } from '../core/bridge/secret.js';
import { loginOf } from '../core/fs/permissions.js';
import { configDirectory } from '../core/settings/paths.js';
import { FileSettingsStore } from '../core/settings/settings-store.js';
import { EXIT_FAILURE, EXIT_OK } from '../cli/exit-codes.js';
import { withOutput, withOutputOptions } from '../cli/output.js';
import type { CommandDefinition } from '../cli/types.js';

const OCC_HINT = 'sudo -u www-data php /var/www/nextcloud/occ docs_unified_search:bridge-secret';
const DEFAULT_NEXTCLOUD = '/var/www/nextcloud';
const DEFAULT_WEB_ACCOUNT = 'www-data';

/**
 * The occ line for this machine's Nextcloud: its directory (`--nextcloud`, DUS_NEXTCLOUD, else
 * the one `setup` stored; Debian's default when none is known), run as the account that owns its
 * config.php (the web server's, as occ wants), switched to the way the running account can:
 * nothing when it is that account, `runuser` for root (every Linux has it; sudo may be missing),
 * else sudo.
 */
function occLine(given: string | undefined, configDir: string): string {
  let nextcloud = given;
  if (nextcloud === undefined || nextcloud === '') {
    try {
      nextcloud = new FileSettingsStore(configDir).readWithoutRefusedUrl().nextcloud_dir;
    } catch {
      // Unreadable settings say so at the commands that need them; the hint falls back to the default.
    }
  }
  const dir = resolve(nextcloud ?? DEFAULT_NEXTCLOUD);
  let owner: number | undefined;
  try {
    owner = statSync(join(dir, 'config', 'config.php')).uid;
  } catch {
    // Not here, or not readable from this account: the web server's usual account.
  }
  const account = (owner === undefined ? null : loginOf(owner)) ?? DEFAULT_WEB_ACCOUNT;
  const me = process.getuid?.();
  const switchTo = owner !== undefined && owner === me ? '' : me === 0 ? `runuser -u ${shellWord(account)} -- ` : `sudo -u ${shellWord(account)} `;
  return `${switchTo}php ${shellWord(join(dir, 'occ'))} docs_unified_search:bridge-secret`;
}

/** A word as a POSIX shell reads it back: bare when it is safe, else in single quotes. */
function shellWord(word: string): string {
  return /^[A-Za-z0-9_./:=@%+-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

export const command: CommandDefinition = {
  summary: 'Make the secret the Nextcloud bridge app signs its calls with',
  examples: [`docs-unified-search bridge:secret | ${OCC_HINT}`, `docs-unified-search bridge:secret --rotate | ${OCC_HINT}`],
  notes:
    'The secret lives in the settings directory (file bridge-secret, mode 0600) and is made at the first run.\n' +
    "Into a pipe the command writes the secret alone, for the bridge app's occ command to read from its standard input: the secret never stands on a command line (process list, shell history). " +
    'On a terminal it writes where the secret is and the pipe to run, never the secret; --json gives {path, created, rotated}, never the secret.',
  exitCodes: [
    [EXIT_OK, 'the secret was made or read (and written out)'],
    [EXIT_FAILURE, 'the secret cannot be read or written'],
  ],
  configure: (command) => {
    // The command's own options first, then the output options every data command shares.
    command.option('--rotate', 'replace the secret with a new one (serve takes it at its next call; calls signed with the old one are refused)');
    withOutputOptions(command);
  },
  run: (_args, options, context) =>
    withOutput(options, context, async (out) => {
      const { io, globals } = context;
      const directory = configDirectory(globals.configDir, io.env);
      const rotate = options.rotate === true;
      const { secret, created } = ensureBridgeSecret(directory, rotate);
      const path = bridgeSecretPath(directory);
      if (created) io.stderr.write(`${rotate ? 'Made a new bridge secret' : 'Made the bridge secret'} in ${path} (mode 0600).\n`);
      // JSON says where the secret is and whether this run made it; the secret itself goes only into a pipe.
      out.result({ path, created, rotated: rotate && created }, () => {
        if (io.stdout.isTTY === true) {
          // The pipe to paste carries the directory this run was given: without it, it would read (or make) another directory's secret.
          const dirOption = globals.configDir === undefined ? '' : ` --config-dir ${shellWord(resolve(directory))}`;
          // The sentence is broken to the terminal's width; the command stays one line, to be pasted whole.
          out.tell('The bridge secret is in ', path, '. Give it to Nextcloud through a pipe, so that it stands on no command line:');
          io.stdout.write(`  docs-unified-search${dirOption} bridge:secret | ${occLine(globals.nextcloud, directory)}\n`);
        } else {
          io.stdout.write(`${secret}\n`);
        }
      });
      return EXIT_OK;
    }),
};
