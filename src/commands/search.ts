import { Option } from 'commander';
import { DusError } from '../core/errors.js';
import { msg, render, textIn } from '../core/i18n/catalog.js';
import { VERDICT_LIMIT_DEFAULT, VERDICT_LIMIT_MAX } from '../core/search/limits.js';
import { explanationIn, type VerdictItem, type VerdictReport } from '../core/search/verdicts.js';
import { EXIT_FAILURE, EXIT_OK } from '../cli/exit-codes.js';
import { cliAdmin } from '../cli/cli-admin.js';
import { prose, saidIn, styled, type Piece } from '../cli/format.js';
import { table, type Column } from '../cli/table.js';
import { scriptLanguageOf } from '../cli/language.js';
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

/** `--cursor N`: the absolute offset in the archive server's result order, as the provider's cursor. */
function cursorOf(value: unknown): number {
  if (value === undefined) return 0;
  const text = typeof value === 'string' ? value : '';
  if (!/^\d{1,15}$/.test(text)) throw new DusError('usage', '--cursor takes the number a search printed after "--cursor" (a whole number from 0).');
  return Number(text);
}

function optionalText(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function columnsIn(language: string | null): readonly Column[] {
  const head = (key: 'cli.search.head_id' | 'cli.search.head_title' | 'cli.search.head_verdict' | 'cli.search.head_file'): string => textIn(key, language);
  return [
    { head: head('cli.search.head_id'), fit: 'whole' },
    { head: head('cli.search.head_title'), fit: 'shorten' },
    { head: head('cli.search.head_verdict'), fit: 'whole' },
    { head: head('cli.search.head_file'), fit: 'shorten' },
  ];
}

/**
 * The File cell says whose path it is: the path the user sees (when it shows, and for `not
 * owned`, marked with the owner's name: the user sees it, another account owns it); for `not
 * shared` the archive account's own path, written `owner:path` as scp writes a path on another
 * host, since the user has no path to it.
 */
function fileCell(item: VerdictItem): string {
  if (item.path === null) return '—';
  if (item.verdict === 'not shared' && item.owner !== null) return `${item.owner}:${item.path}`;
  if (item.verdict === 'not owned' && item.owner !== null) return `${item.path} (${item.owner}'s)`;
  return item.path;
}

function summaryOf(report: VerdictReport, shown: number, language: string | null): readonly Piece[] {
  const listed = report.items.length;
  if (listed === 0) {
    return report.offset > 0 && report.found <= report.offset
      ? saidIn(language, 'cli.search.past_end', { offset: report.offset })
      : saidIn(language, 'cli.search.none', {});
  }
  const range =
    report.offset > 0 || report.next !== null ? render(msg('cli.search.range', { from: report.offset + 1, to: report.offset + listed }), language) : '';
  return saidIn(language, 'cli.search.found', { found: report.found, shown, listed, range, user: report.user });
}

function printPlain(report: VerdictReport, rejection: string, explain: boolean, globals: GlobalOptions, write: (s: string) => void): void {
  if (report.rejected) {
    write(`${rejection}\n`);
    return;
  }
  const language = globals.language ?? null;
  const rows = report.items.map((item) => [item.id, item.title, styled(item.verdict === 'shown' ? 'green' : 'yellow', item.verdict), fileCell(item)]);
  if (rows.length > 0) write(`${table(columnsIn(language), rows, globals)}\n`);
  const shown = report.items.filter((item) => item.verdict === 'shown').length;
  const tell = (...pieces: readonly Piece[]): void => write(`${prose(globals, 2, ...pieces)}\n`);
  const quiet = globals.quiet === true;
  if (!quiet && report.items.some((item) => item.verdict !== 'shown' && item.path !== null)) {
    tell(...saidIn(language, 'cli.search.file_legend', { user: report.user }));
  }
  tell(...summaryOf(report, shown, language));
  if (explain) {
    for (const item of report.items) {
      const said = explanationIn(item.explanationMessage, language);
      if (said !== null) tell(said);
    }
    if (report.caveat !== null) tell(styled('yellow', textIn('cli.note', language)), ' ', report.caveat);
  } else if (!quiet && shown < report.items.length) {
    tell(...saidIn(language, 'cli.search.explain_hint', {}));
  }
  if (!quiet && report.next !== null) tell(...saidIn(language, 'cli.search.more', { next: report.next, count: report.items.length }));
}

export const command: CommandDefinition = {
  summary: 'Search as a user and state for each document whether it shows',
  examples: [
    'docs-unified-search search alice invoice',
    'docs-unified-search search alice "bank statement" --explain',
    'docs-unified-search search alice invoice --limit=50 --json',
    'docs-unified-search search alice invoice --cursor=10  # the next 10',
    'docs-unified-search search alice invoice --since=2024-01-01 --until=2024-12-31',
  ],
  notes: [
    'Verdicts: shown, not shared, not owned, no file (with --explain), hidden (without).',
    "File: the path the user sees, with (owner's) when another account owns the file (not owned); owner:path is a path in the archive account's own files, which the user cannot open (not shared).",
    'Paging: a result longer than --limit ends with "More: run again with --cursor N"; N is the offset of the next document in the archive server\'s order, as the search provider\'s cursor.',
    "--json prints an array of {id, title, verdict, path, owner} (the spec's fields) with explanation (what --explain says, else null), found (documents the archive server found) and cursor (give it to --cursor to continue after this item) added to each.",
  ].join('\n'),
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
      .option('--cursor <n>', "begin at this document of the archive server's result (0 = the first), as a previous run printed")
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
      const offset = cursorOf(options.cursor);
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
          offset,
          admin: cliAdmin(),
          ...(since === undefined ? {} : { since }),
          ...(until === undefined ? {} : { until }),
        });
        const report = await waitingFor(context.io, `Searching the archive server as ${user}…`, decided, context.globals);
        // The spec's five fields first, unchanged; then what the human output says besides (docs/json.md).
        const items = report.items.map(({ id, title, verdict, path, owner, explanationMessage }, index) => ({
          id,
          title,
          verdict,
          path,
          owner,
          explanation: explanationIn(explanationMessage, scriptLanguageOf(context.globals)),
          found: report.found,
          cursor: report.offset + index + 1,
        }));
        out.result(items, () =>
          printPlain(report, rejectionMessage(report.rejection, report.refusal), explain, context.globals, (s) => out.io.stdout.write(s)),
        );
        return EXIT_OK;
      });
    }),
};
