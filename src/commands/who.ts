import { DusError } from '../core/errors.js';
import { textIn } from '../core/i18n/catalog.js';
import { EXIT_FAILURE, EXIT_OK } from '../cli/exit-codes.js';
import { cliAdmin } from '../cli/cli-admin.js';
import { csvCell, csvRecord } from '../cli/csv.js';
import { prose, saidIn, styled } from '../cli/format.js';
import { table, type Column } from '../cli/table.js';
import { documentIdOf } from '../cli/document-id.js';
import { scriptLanguageOf } from '../cli/language.js';
import { withOutput, withOutputOptions } from '../cli/output.js';
import { withService } from '../cli/shared-options.js';
import { statusLine } from '../cli/status-line.js';
import { terminalJson } from '../cli/terminal-text.js';
import type { CommandDefinition, CommandIO } from '../cli/types.js';
import type { WhoAllHooks, WhoAllSummary, WhoChain, WhoRow } from '../core/search/who.js';

function columnsIn(language: string | null): readonly Column[] {
  const head = (key: 'cli.who.head_account' | 'cli.who.head_path' | 'cli.who.head_through'): string => textIn(key, language);
  return [
    { head: head('cli.who.head_account'), fit: 'whole' },
    { head: head('cli.who.head_path'), fit: 'shorten' },
    { head: head('cli.who.head_through'), fit: 'shorten' },
  ];
}

function optionalText(value: unknown, option: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.trim() === '') throw new DusError('usage', `${option} needs a name.`);
  return value.trim();
}

/** Lines are gathered and written 64 kB at a time. */
const FLUSH_AT = 64 * 1024;

async function printAll(
  io: CommandIO,
  json: boolean,
  run: (onRow: (row: WhoRow) => void, hooks: WhoAllHooks) => Promise<WhoAllSummary>,
  chainText: (chain: WhoChain, language: string | null) => string,
  language: string | null,
): Promise<void> {
  // A terminal is read by people: every name is escaped as the tables escape it (JSON losslessly,
  // CSV as the tables show it); a file or a pipe gets the exact text.
  const terminal = io.stdout.isTTY === true;
  const quoted = (text: string): string => (terminal ? terminalJson(JSON.stringify(text)) : JSON.stringify(text));
  let pending = json ? '' : csvRecord(['document', 'account', 'path', 'through']);
  // A pipe takes what is written without blocking and queues the rest in memory: the host's
  // rows are read on only once the queue drained (pace), so memory stays flat for a slow reader.
  let full: Promise<void> | undefined;
  const flush = (): void => {
    if (pending !== '' && !io.stdout.write(pending) && full === undefined)
      full = new Promise((resolve) =>
        io.stdout.once('drain', () => {
          full = undefined;
          resolve();
        }),
      );
    pending = '';
  };
  // Each chain's words once, quoted (a chain serves every file of its folder, for every member).
  const words = new WeakMap<WhoChain, string>();
  const through = (chain: WhoChain): string => {
    const known = words.get(chain);
    if (known !== undefined) return known;
    const text = json ? quoted(chainText(chain, language)) : csvCell(chainText(chain, language), terminal);
    words.set(chain, text);
    return text;
  };
  const status = statusLine(io);
  let shownAt = 0;
  try {
    await run(
      (row) => {
        pending += json
          ? `{"document":${row.documentId},"account":${quoted(row.account)},"path":${quoted(row.path)},"through":${through(row.chain)}}\n`
          : `${row.documentId},${csvCell(row.account, terminal)},${csvCell(row.path, terminal)},${through(row.chain)}\r\n`;
        if (pending.length >= FLUSH_AT) flush();
      },
      {
        onDocument: (summary) => {
          const now = Date.now();
          if (now - shownAt < 250) return;
          shownAt = now;
          status.show(`who --all: ${summary.documents} documents, ${summary.rows} rows`);
        },
        pace: () => full,
      },
    );
  } finally {
    status.clear();
    flush();
  }
}

export const command: CommandDefinition = {
  summary: 'List who can open one document (--all: every one), where and through what',
  examples: [
    'docs-unified-search who 412',
    'docs-unified-search who "[P412]" --include-blocked',
    'docs-unified-search who 412 --group staff --json',
    'docs-unified-search who --all > who.csv',
    'docs-unified-search who --all --json --group staff',
  ],
  notes:
    "The host alone answers: each account a share of the document's file reaches is asked what `why <account> <id>` asks, so who lists an account exactly when why says shown, at the same path.\n" +
    "Through: owner; user share of F from S; group G: share of F from S; a re-share by R of S's share. --include-blocked adds the accounts a share reaches that cannot open the file, with the cause why names.\n" +
    '--json prints {document, files, accounts: [{account, path, through, blocked}], noFile}.\n' +
    "--all: every document of the archive at once, streamed as it is read: CSV (a header row document,account,path,through; RFC 4180 quoting, CRLF line ends; a cell that starts with = + - @ tab, CR or ' gets a ' in front, so that a spreadsheet never runs it as a formula: drop one leading ' to read the exact value), or with --json one JSON object a line {document, account, path, through} (docs/json/who-all.schema.json). " +
    '--user and --group apply; --include-blocked does not (a cause is a statement per account and document): ask who <id> --include-blocked. On a terminal, control characters of names are escaped as the tables escape them. A progress line goes to stderr when it is a terminal.',
  exitCodes: [
    [EXIT_OK, 'the document has a file of the archive account (also when no other account opens it); --all: every row was printed'],
    [EXIT_FAILURE, 'it has none (the no file explanation says why), the user or archive account is unknown, or the host cannot be read'],
  ],
  configure: (command) => {
    command
      .argument('[document-id]', "the archive server's document id, or its marker [P<id>]")
      .option('--all', 'every document of the archive: CSV, or JSON lines with --json, streamed')
      .option('--include-blocked', 'also list the accounts a share reaches that cannot open the file, and why (not with --all)')
      .option('--user <uid>', 'only this account')
      .option('--group <gid>', 'only the members of this group');
    withOutputOptions(command);
  },
  run: (args, options, context) =>
    withOutput(options, context, async (out) => {
      const user = optionalText(options.user, '--user');
      const group = optionalText(options.group, '--group');
      const includeBlocked = options.includeBlocked === true;
      if (options.all === true) {
        if (args[0] !== undefined) throw new DusError('usage', '--all lists every document: give no document id with it.');
        if (includeBlocked)
          throw new DusError(
            'usage',
            '--include-blocked cannot be combined with --all (a cause costs a statement per account and document): use who <id> --include-blocked.',
          );
        if (options.output === 'json_pretty') throw new DusError('usage', '--all prints one JSON object a line: use --json, not --output=json_pretty.');
        const json = options.json === true || options.output === 'json';
        return withService(context, { repair: true }, async (service) => {
          const { chainText, whoAll } = await import('../core/search/who.js');
          const filters = { ...(user === undefined ? {} : { user }), ...(group === undefined ? {} : { group }) };
          // CSV and JSON lines alike are read by scripts: in English unless --lang asked.
          const language = scriptLanguageOf(context.globals);
          await printAll(out.io, json, (onRow, hooks) => whoAll(service, filters, onRow, cliAdmin(), hooks), chainText, language);
          return EXIT_OK;
        });
      }
      if (args[0] === undefined) throw new DusError('usage', 'Name the document (412, or its marker [P412]), or give --all.');
      const documentId = documentIdOf(args[0]);
      return withService(context, { repair: true }, async (service) => {
        const [{ chainText, whoCanOpen }, { explanationIn }] = await Promise.all([import('../core/search/who.js'), import('../core/search/verdicts.js')]);
        const answer = await whoCanOpen(
          service,
          documentId,
          { includeBlocked, ...(user === undefined ? {} : { user }), ...(group === undefined ? {} : { group }) },
          cliAdmin(),
        );
        const accountsIn = (language: string | null) =>
          answer.accounts.map((entry) => ({
            account: entry.account,
            path: entry.path,
            through: entry.chain === null ? null : chainText(entry.chain, language),
            blocked: entry.blockedMessage === null ? entry.blocked : explanationIn(entry.blockedMessage, language),
          }));
        const scripted = scriptLanguageOf(context.globals);
        const json = {
          document: answer.documentId,
          files: answer.files,
          accounts: accountsIn(scripted),
          noFile: explanationIn(answer.noFileMessage, scripted),
        };
        out.result(json, () => {
          const write = (s: string): void => void out.io.stdout.write(s);
          const language = context.globals.language ?? null;
          const noFile = explanationIn(answer.noFileMessage, language);
          if (noFile !== null) {
            out.tell(noFile);
            return;
          }
          const accounts = accountsIn(language);
          const open = accounts.filter((a) => a.blocked === null);
          if (open.length > 0)
            write(
              `${table(
                columnsIn(language),
                open.map((a) => [a.account, a.path ?? '', a.through ?? '']),
                context.globals,
              )}\n`,
            );
          if (context.globals.quiet !== true)
            out.tell(
              ...saidIn(language, 'cli.who.count', {
                count: open.length,
                id: answer.documentId,
                files: answer.files.join(', '),
                archiveAccount: answer.archiveAccount,
              }),
            );
          for (const a of accounts) if (a.blocked !== null) write(`${prose(context.globals, 2, styled('yellow', `${a.account}:`), ' ', a.blocked)}\n`);
        });
        return answer.noFile === null ? EXIT_OK : EXIT_FAILURE;
      });
    }),
};
