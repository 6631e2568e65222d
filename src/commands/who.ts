import { DusError } from '../core/errors.js';
import { EXIT_FAILURE, EXIT_OK } from '../cli/exit-codes.js';
import { cliAdmin } from '../cli/cli-admin.js';
import { prose, styled, table, type Column } from '../cli/format.js';
import { documentIdOf } from '../cli/document-id.js';
import { withOutput, withOutputOptions } from '../cli/output.js';
import { withService } from '../cli/shared-options.js';
import type { CommandDefinition } from '../cli/types.js';

const COLUMNS: readonly Column[] = [
  { head: 'Account', fit: 'whole' },
  { head: 'Path', fit: 'shorten' },
  { head: 'Through', fit: 'shorten' },
];

function optionalText(value: unknown, option: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.trim() === '') throw new DusError('usage', `${option} needs a name.`);
  return value.trim();
}

export const command: CommandDefinition = {
  summary: 'List every account that can open one document, where it sees it and through what',
  examples: ['docs-unified-search who 412', 'docs-unified-search who "[P412]" --include-blocked', 'docs-unified-search who 412 --group staff --json'],
  notes:
    "The host alone answers: each account a share of the document's file reaches is asked what `why <account> <id>` asks, so who lists an account exactly when why says shown, at the same path.\n" +
    "Through: owner; user share of F from S; group G: share of F from S; a re-share by R of S's share. --include-blocked adds the accounts a share reaches that cannot open the file, with the cause why names.\n" +
    '--json prints {document, files, accounts: [{account, path, through, blocked}], noFile}.',
  exitCodes: [
    [EXIT_OK, 'the document has a file of the archive account (also when no other account opens it)'],
    [EXIT_FAILURE, 'it has none (the no file explanation says why), the user or archive account is unknown, or the host cannot be read'],
  ],
  configure: (command) => {
    command
      .argument('<document-id>', "the archive server's document id, or its marker [P<id>]")
      .option('--include-blocked', 'also list the accounts a share reaches that cannot open the file, and why')
      .option('--user <uid>', 'only this account')
      .option('--group <gid>', 'only the members of this group');
    withOutputOptions(command);
  },
  run: (args, options, context) =>
    withOutput(options, context, async (out) => {
      const documentId = documentIdOf(args[0]);
      const user = optionalText(options.user, '--user');
      const group = optionalText(options.group, '--group');
      const includeBlocked = options.includeBlocked === true;
      return withService(context, { repair: true }, async (service) => {
        const { chainText, whoCanOpen } = await import('../core/search/who.js');
        const answer = await whoCanOpen(
          service,
          documentId,
          { includeBlocked, ...(user === undefined ? {} : { user }), ...(group === undefined ? {} : { group }) },
          cliAdmin(),
        );
        const accounts = answer.accounts.map((entry) => ({
          account: entry.account,
          path: entry.path,
          through: entry.chain === null ? null : chainText(entry.chain),
          blocked: entry.blocked,
        }));
        out.result({ document: answer.documentId, files: answer.files, accounts, noFile: answer.noFile }, () => {
          const write = (s: string): void => void out.io.stdout.write(s);
          if (answer.noFile !== null) {
            out.tell(answer.noFile);
            return;
          }
          const open = accounts.filter((a) => a.blocked === null);
          if (open.length > 0)
            write(
              `${table(
                COLUMNS,
                open.map((a) => [a.account, a.path ?? '', a.through ?? '']),
                context.globals,
              )}\n`,
            );
          out.tell(`${open.length} account(s) can open document ${answer.documentId} (`, answer.files.join(', '), `, of ${answer.archiveAccount}).`);
          for (const a of accounts) if (a.blocked !== null) write(`${prose(context.globals, 2, styled('yellow', `${a.account}:`), ' ', a.blocked)}\n`);
        });
        return answer.noFile === null ? EXIT_OK : EXIT_FAILURE;
      });
    }),
};
