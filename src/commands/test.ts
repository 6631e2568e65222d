import type { ServiceContext } from '../core/context-types.js';
import { DusError, isDusError } from '../core/errors.js';
import { storedTokenFor } from '../core/settings/token-rule.js';
import { EXIT_FAILURE, EXIT_OK } from '../cli/exit-codes.js';
import { withOutput, withOutputOptions } from '../cli/output.js';
import { withService } from '../cli/shared-options.js';
import { waitingFor } from '../cli/status-line.js';
import type { CommandDefinition } from '../cli/types.js';

/** Why the stored settings give no connection, in the words of the spec's error codes. */
function whyNotConfigured(service: ServiceContext): DusError {
  const url = service.settings.get('docs_url');
  if (url === undefined) return new DusError('not_configured', 'No archive server is configured: run setup --url=URL --token-stdin.');
  try {
    storedTokenFor(service.credentials.load(), url);
  } catch (error: unknown) {
    if (isDusError(error)) return new DusError(error.code, `${error.message} Run setup again with --token-stdin or --token-env=NAME.`);
    throw error;
  }
  return new DusError('not_configured', 'The settings are incomplete: run setup again.');
}

export const command: CommandDefinition = {
  summary: 'Test the connection with the stored settings and name the archive server version',
  examples: ['docs-unified-search test', 'docs-unified-search --config-dir=/etc/docs-unified-search test'],
  exitCodes: [
    [EXIT_OK, 'the archive server answers'],
    [EXIT_FAILURE, 'it does not, or the settings are incomplete'],
  ],
  configure: (command) => {
    withOutputOptions(command);
  },
  run: (_args, options, context) =>
    withOutput(options, context, async (out) => {
      return withService(context, { repair: false }, async (service) => {
        const connection = service.archiveConnection();
        const client = service.archiveClient(connection);
        if (connection === null || client === null) throw whyNotConfigured(service);
        const asked = waitingFor(context.io, `Waiting for the archive server at ${connection.url} to answer…`, client.testConnection());
        const answer = await asked.catch(async (error: unknown) => {
          (await import('../core/archive/connection-test-log.js')).logConnectionTestFailed(service.logger, error);
          throw error;
        });
        const { version, apiVersion } = answer.versions;
        out.result({ url: connection.url, version, apiVersion, documents: answer.count }, () =>
          out.tell(
            `The archive server at ${connection.url} answered: version ${version ?? 'unknown'}, API version ${apiVersion ?? 'unknown'}; the token's account sees ${answer.count} document(s).`,
          ),
        );
        return EXIT_OK;
      });
    }),
};
