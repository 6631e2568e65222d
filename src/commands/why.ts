import type { ServiceContext } from '../core/context-types.js';
import { openContext } from '../core/context.js';
import { DusError } from '../core/errors.js';
import { repairOnStart } from '../core/diagnostics/repair.js';
import { verdictOfDocument } from '../core/search/verdicts.js';
import { cliAdmin } from './cli-admin.js';
import { line, styled } from './format.js';
import { EXIT_OK, reportFailure, serviceOptionsOf } from './shared-options.js';
import type { CommandSpec } from './types.js';

function documentIdOf(value: string | undefined): number {
  const text = (value ?? '').trim().replace(/^\[?P/i, '').replace(/\]$/, '');
  if (!/^\d{1,15}$/.test(text) || Number(text) < 1) throw new DusError('usage', 'Give the document id as a whole number from 1 (412, or its marker [P412]).');
  return Number(text);
}

export const command: CommandSpec = {
  name: 'docs_unified_search:why',
  aliases: ['why'],
  summary: 'Say whether a user sees one document, and why not, from the host alone',
  examples: ['docs-unified-search why anna 412', 'docs-unified-search why anna "[P412]" --json'],
  configure: (command) => {
    command
      .argument('<user>', 'host account')
      .argument('<document-id>', 'the archive server\'s document id, or its marker [P<id>]')
      .option('--json', 'print only a JSON object {id, verdict, path, owner, explanation}')
      .addHelpText(
        'after',
        '\nThe archive server is not asked: the verdict says whether the user can open a file that stands for the\ndocument (shown, not shared, not owned, no file), not whether the document exists or matches a term.\nExit codes: 0 decided, 1 the user or the archive account is unknown or the host cannot be read, 2 wrong call.',
      );
  },
  run: async (args, options, context) => {
    const { io, globals } = context;
    let service: ServiceContext | undefined;
    try {
      const [user = '', id] = args;
      if (user.trim() === '') throw new DusError('usage', 'Name the user.');
      const documentId = documentIdOf(id);
      service = openContext(serviceOptionsOf(context));
      repairOnStart(service.settings, service.logger);
      const answer = await verdictOfDocument(service, user, documentId, cliAdmin());
      const { item } = answer;
      if (options.json === true) {
        io.stdout.write(`${JSON.stringify({ id: item.id, verdict: item.verdict, path: item.path, owner: item.owner, explanation: item.explanation })}\n`);
        return EXIT_OK;
      }
      const verdict = styled(item.verdict === 'shown' ? 'green' : 'yellow', item.verdict);
      const at = item.verdict === 'shown' && item.path !== null ? [', at ', item.path] : [];
      io.stdout.write(`${line(globals, `Document ${item.id} for `, answer.user, ': ', verdict, ...at, '.')}\n`);
      if (item.explanation !== null) io.stdout.write(`${line(globals, item.explanation)}\n`);
      if (answer.caveat !== null) io.stdout.write(`${line(globals, styled('yellow', 'Note:'), ' ', answer.caveat)}\n`);
      return EXIT_OK;
    } catch (error: unknown) {
      return reportFailure(io, error);
    } finally {
      await service?.close();
    }
  },
};
