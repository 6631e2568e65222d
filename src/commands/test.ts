import type { ServiceContext } from '../core/context-types.js';
import { openContext } from '../core/context.js';
import { DusError, isDusError } from '../core/errors.js';
import { LOG_MESSAGES } from '../core/log.js';
import { originOf } from '../core/settings/url-rules.js';
import { EXIT_OK, reportFailure, serviceOptionsOf } from './shared-options.js';
import type { CommandSpec } from './types.js';

/** Why the stored settings give no connection, in the words of the spec's error codes. */
function whyNotConfigured(service: ServiceContext): DusError {
  const url = service.settings.get('docs_url');
  if (url === undefined) return new DusError('not_configured', 'No archive server is configured: run setup --url=URL --token-stdin.');
  const token = service.credentials.load();
  if (token.status === 'none') return new DusError('token_required', 'No API token is stored: run setup again with --token-stdin or --token-env=NAME.');
  if (token.status === 'unreadable') return new DusError('token_required', "The stored API token can't be decrypted (the instance secret changed): run setup again with the token.");
  if (token.origin !== originOf(url)) return new DusError('token_for_other_server', 'The stored API token was saved for another server: run setup again with the token for this server.');
  return new DusError('not_configured', 'The settings are incomplete: run setup again.');
}

export const command: CommandSpec = {
  name: 'docs_unified_search:test',
  aliases: ['test'],
  summary: 'Test the connection with the stored settings and name the archive server version',
  examples: ['docs-unified-search test', 'docs-unified-search --config-dir=/etc/docs-unified-search test'],
  configure: (command) => {
    command.addHelpText('after', '\nExit codes: 0 the archive server answers, 1 it does not or the settings are incomplete.');
  },
  run: async (_args, _options, context) => {
    const { io } = context;
    let service: ServiceContext | undefined;
    try {
      service = openContext(serviceOptionsOf(context));
      const connection = service.archiveConnection();
      const client = service.archiveClient();
      if (connection === null || client === null) throw whyNotConfigured(service);
      try {
        const answer = await client.testConnection();
        io.stdout.write(
          `The archive server at ${connection.url} answered: version ${answer.versions.version ?? 'unknown'}, API version ${answer.versions.apiVersion ?? 'unknown'}; the token's account sees ${answer.count} document(s).\n`,
        );
        return EXIT_OK;
      } catch (error: unknown) {
        service.logger.warn(LOG_MESSAGES.connectionTestFailed(isDusError(error) ? error.code : 'internal'));
        throw error;
      }
    } catch (error: unknown) {
      return reportFailure(io, error);
    } finally {
      await service?.close();
    }
  },
};
