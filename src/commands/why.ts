import { DusError } from '../core/errors.js';
import { textIn } from '../core/i18n/catalog.js';
import { EXIT_FAILURE, EXIT_OK } from '../cli/exit-codes.js';
import { cliAdmin } from '../cli/cli-admin.js';
import { saidIn, styled } from '../cli/format.js';
import { documentIdOf } from '../cli/document-id.js';
import { scriptLanguageOf } from '../cli/language.js';
import { withOutput, withOutputOptions } from '../cli/output.js';
import { withService } from '../cli/shared-options.js';
import type { CommandDefinition } from '../cli/types.js';

export const command: CommandDefinition = {
  summary: 'Say whether a user sees one document, and why not, from the host alone',
  examples: ['docs-unified-search why anna 412', 'docs-unified-search why anna "[P412]" --json'],
  notes:
    'The archive server is not asked: the verdict says whether the user can open a file that stands for the document (shown, not shared, not owned, no file), not whether the document exists or matches a term.',
  exitCodes: [
    [EXIT_OK, 'decided'],
    [EXIT_FAILURE, 'the user or the archive account is unknown, or the host cannot be read'],
  ],
  configure: (command) => {
    withOutputOptions(command).argument('<user>', 'host account').argument('<document-id>', "the archive server's document id, or its marker [P<id>]");
  },
  run: (args, options, context) =>
    withOutput(options, context, async (out) => {
      const [user = '', id] = args;
      if (user.trim() === '') throw new DusError('usage', 'Name the user.');
      const documentId = documentIdOf(id);
      return withService(context, { repair: true }, async (service) => {
        const { explanationIn, verdictOfDocument } = await import('../core/search/verdicts.js');
        const answer = await verdictOfDocument(service, user, documentId, cliAdmin());
        const { item } = answer;
        const explanation = explanationIn(item.explanationMessage, scriptLanguageOf(context.globals));
        out.result({ id: item.id, verdict: item.verdict, path: item.path, owner: item.owner, explanation }, () => {
          const language = context.globals.language ?? null;
          const at = item.verdict === 'shown' && item.path !== null ? saidIn(language, 'cli.why.at', { path: item.path }) : [];
          const verdict = styled(item.verdict === 'shown' ? 'green' : 'yellow', item.verdict);
          out.tell(...saidIn(language, 'cli.why.verdict', { id: item.id, user: answer.user, verdict, at }));
          const said = explanationIn(item.explanationMessage, language);
          if (said !== null) out.tell(said);
          // why knows the host only: an id the archive server does not have looks the same as a missing file.
          if (item.verdict === 'no file' && context.globals.quiet !== true) out.tell(...saidIn(language, 'cli.why.archive_not_asked', { id: item.id }));
          if (answer.caveat !== null) out.tell(styled('yellow', textIn('cli.note', language)), ' ', answer.caveat);
        });
        return EXIT_OK;
      });
    }),
};
