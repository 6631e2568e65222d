import { EXIT_FAILURE, EXIT_OK } from '../cli/exit-codes.js';
import { withOutput, withOutputOptions } from '../cli/output.js';
import { withService } from '../cli/shared-options.js';
import { statusLine } from '../cli/status-line.js';
import type { CommandDefinition } from '../cli/types.js';
import { scriptLanguageOf } from '../cli/language.js';
import { render } from '../core/i18n/catalog.js';

export const command: CommandDefinition = {
  summary: 'Test the connection with the stored settings and name the archive server version',
  examples: ['docs-unified-search test', 'docs-unified-search --config-dir=/etc/docs-unified-search test'],
  notes: 'A failure is kept in the problem history, so setupchecks warns until a test, check or search works again.',
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
        const { testStoredConnection } = await import('../core/diagnostics/connection-test.js');
        const status = statusLine(context.io, context.globals);
        const { url, answer } = await testStoredConnection(service, (asked) => status.show(`Waiting for the archive server at ${asked} to answer…`)).finally(
          () => status.clear(),
        );
        const { version, apiVersion } = answer.versions;
        const { newerReleaseNote } = await import('../core/archive/releases.js');
        const newer = newerReleaseNote(version);
        const note = newer === null ? {} : { note: render(newer, scriptLanguageOf(context.globals), 'cli') };
        out.result({ url, version, apiVersion, documents: answer.count, ...note }, () => {
          if (context.globals.quiet === true) return;
          out.tell(
            `The archive server at ${url} answered: version ${version ?? 'unknown'}, API version ${apiVersion ?? 'unknown'}; the token's account sees ${answer.count} document(s).`,
          );
          if (newer !== null) out.tell(render(newer, context.globals.language ?? null, 'cli'));
        });
        return EXIT_OK;
      });
    }),
};
