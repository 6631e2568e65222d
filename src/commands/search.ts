import { Option } from 'commander';
import { DusError } from '../core/errors.js';
import { VERDICT_LIMIT_DEFAULT, VERDICT_LIMIT_MAX } from '../core/search/limits.js';
import type { VerdictReport } from '../core/search/verdicts.js';
import { EXIT_FAILURE, EXIT_OK } from '../cli/exit-codes.js';
import { cliAdmin } from '../cli/cli-admin.js';
import { prose, styled, table, type Column, type Piece } from '../cli/format.js';
import { withOutput, withOutputOptions } from '../cli/output.js';
import { withService } from '../cli/shared-options.js';
import { waitingFor } from '../cli/status-line.js';
import type { CommandDefinition, GlobalOptions } from '../cli/types.js';

function limitOf(value: unknown): number {
  if (value === undefined) return VERDICT_LIMIT_DEFAULT;
  // commander hands over the text given; a number when a caller passes one. Anything else fails the check below.
  const text = typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';
  if (!/^\d+$/.test(text) || Number(text) < 1 || Number(text) > VERDICT_LIMIT_MAX) {
    throw new DusError('usage', `--limit must be a whole number from 1 to ${VERDICT_LIMIT_MAX}.`);
  }
  return Number(text);
}

function optionalText(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

const COLUMNS: readonly Column[] = [
  { head: 'ID', fit: 'whole' },
  { head: 'Title', fit: 'shorten' },
  { head: 'Verdict', fit: 'whole' },
  { head: 'File', fit: 'shorten' },
];

function printPlain(report: VerdictReport, rejection: string, explain: boolean, globals: GlobalOptions, write: (s: string) => void): void {
  if (report.rejected) {
    write(`${rejection}\n`);
    return;
  }
  const rows = report.items.map((item) => [item.id, item.title, styled(item.verdict === 'shown' ? 'green' : 'yellow', item.verdict), item.path ?? '—']);
  if (rows.length > 0) write(`${table(COLUMNS, rows, globals)}\n`);
  const shown = report.items.filter((item) => item.verdict === 'shown').length;
  const tell = (...pieces: readonly Piece[]): void => write(`${prose(globals, 2, ...pieces)}\n`);
  tell(`The archive server found ${report.found} document(s); ${shown} of the ${report.items.length} listed show to `, report.user, '.');
  if (explain) {
    for (const item of report.items) if (item.explanation !== null) tell(item.explanation);
    if (report.caveat !== null) tell(styled('yellow', 'Note:'), ' ', report.caveat);
  } else if (shown < report.items.length) {
    tell('Run again with --explain to learn why the others do not show.');
  }
}

export const command: CommandDefinition = {
  summary: 'Search as a user and state for each document whether it shows',
  examples: [
    'docs-unified-search search alice invoice',
    'docs-unified-search search alice "bank statement" --explain',
    'docs-unified-search search alice invoice --limit=50 --json',
    'docs-unified-search search alice invoice --since=2024-01-01 --until=2024-12-31',
  ],
  notes: 'Verdicts: shown, not shared, not owned, no file (with --explain), hidden (without).\n--json prints an array of {id, title, verdict, path, owner}.',
  exitCodes: [
    [EXIT_OK, 'the archive server answered (also when no document shows, or it refused the term)'],
    [EXIT_FAILURE, 'it did not, or the user is unknown'],
  ],
  configure: (command) => {
    command
      .argument('<user>', 'host account to search as')
      .argument('<term>', 'search term, as the archive server takes it')
      .option('--explain', 'say for each document that does not show why, and what to do')
      .addOption(
        new Option('--limit <n>', `documents of the archive server's result to decide for, in its order (1-${VERDICT_LIMIT_MAX})`).default(
          VERDICT_LIMIT_DEFAULT,
        ),
      )
      .option('--since <day>', 'only documents created on or after this day (YYYY-MM-DD)')
      .option('--until <day>', 'only documents created on or before this day (YYYY-MM-DD)');
    withOutputOptions(command);
  },
  run: (args, options, context) =>
    withOutput(options, context, async (out) => {
      const [user = '', term = ''] = args;
      if (user.trim() === '') throw new DusError('usage', 'Name the user to search as.');
      if (term.trim() === '') throw new DusError('usage', 'Give a search term.');
      const limit = limitOf(options.limit);
      const explain = options.explain === true;
      const since = optionalText(options.since);
      const until = optionalText(options.until);
      const { dayOf } = await import('../core/search/inputs.js');
      const [firstDay, lastDay] = [dayOf(since, 'since'), dayOf(until, 'until')];
      if (firstDay !== undefined && lastDay !== undefined && firstDay > lastDay) {
        // An empty range would only ever answer "found 0": a swapped pair is said at once.
        throw new DusError('usage', `--since ${firstDay} is after --until ${lastDay}: no day is in that range; swap them.`);
      }
      return withService(context, { repair: true }, async (service) => {
        const { decideVerdicts, rejectionMessage } = await import('../core/search/verdicts.js');
        const decided = decideVerdicts(service, {
          user,
          term,
          explain,
          limit,
          admin: cliAdmin(),
          ...(since === undefined ? {} : { since }),
          ...(until === undefined ? {} : { until }),
        });
        const report = await waitingFor(context.io, `Searching the archive server as ${user}…`, decided);
        // The spec's item: exactly these five fields, whatever else the report holds.
        const items = report.items.map(({ id, title, verdict, path, owner }) => ({ id, title, verdict, path, owner }));
        out.result(items, () =>
          printPlain(report, rejectionMessage(report.rejection, report.refusal), explain, context.globals, (s) => out.io.stdout.write(s)),
        );
        return EXIT_OK;
      });
    }),
};
