import { checkCoverage, type CoverageProgress, type CoverageReport, type FailureKind, type PartFailure } from '../core/diagnostics/coverage.js';
import { DusError } from '../core/errors.js';
import { msg, render } from '../core/i18n/catalog.js';
import { EXIT_FAILURE, EXIT_OK } from '../cli/exit-codes.js';
import { failure, note, success, warning } from '../cli/format.js';
import { newerReleaseNote } from '../core/archive/releases.js';
import { cliMessageOf, errorLine, withOutput, withOutputOptions } from '../cli/output.js';
import { withService } from '../cli/shared-options.js';
import { scriptLanguageOf } from '../cli/language.js';
import { statusLine, type StatusLine } from '../cli/status-line.js';
import type { CommandDefinition, CommandIO, GlobalOptions } from '../cli/types.js';

/**
 * Why `check` failed, as `--json`'s `problem` says it (docs/search.md, "check: every part"): the spec fixes the exit
 * codes at 0 and 1, so the kind is a field. `misconfigured` wins over `unreachable`: a run
 * later will not correct it.
 */
type Problem = FailureKind | 'low_coverage';

/** Documents with a file, in percent of the documents the token's account sees; null when not known. */
function percentOf(report: CoverageReport): number | null {
  if (report.documents === null || report.documents === 0) return null;
  // Below API version 9 the server names no ids: the marked files are the best count there is.
  const withFile = report.withFile ?? Math.min(report.markedFiles ?? 0, report.documents);
  return Math.round((withFile / report.documents) * 1000) / 10;
}

/** Why the search cannot show documents, or null when it can (or the parts that say it failed). */
function correction(report: CoverageReport): string | null {
  if (report.documents === null || report.archiveAccount === null || report.markedFiles === null) return null;
  if (report.documents === 0) {
    return "The token's account sees no documents: give the token of an archive-server account that may view them (setup --token-stdin).";
  }
  const withFile = report.withFile ?? (report.markedFiles > 0 ? report.markedFiles : 0);
  if (withFile === 0) {
    return `No document has a file of the archive account ${report.archiveAccount}: let the synchronization write the files into that account's folders with [P<document id>] in their names, or name the account that holds them (setup --archive-account=ID).`;
  }
  return null;
}

interface Judgement {
  readonly problem: Problem | null;
  readonly fix: string | null;
  readonly percent: number | null;
  readonly belowMinimum: string | null;
}

function judge(report: CoverageReport, minimum: number | null): Judgement {
  const fix = correction(report);
  const percent = percentOf(report);
  const belowMinimum =
    minimum !== null && fix === null && percent !== null && percent < minimum
      ? `${percent}% of the documents have a file, below --min-coverage ${minimum}%: let the synchronization write the missing files (examples above), or lower the threshold.`
      : null;
  const kinds = new Set(report.failures.map((f) => f.kind));
  const problem: Problem | null =
    kinds.has('misconfigured') || fix !== null ? 'misconfigured' : kinds.has('unreachable') ? 'unreachable' : belowMinimum !== null ? 'low_coverage' : null;
  return { problem, fix, percent, belowMinimum };
}

const PART_NAMES: Readonly<Record<PartFailure['part'], string>> = {
  connection: 'The connection to the archive server',
  'archive account': 'The archive account',
  coverage: 'The marked files of the archive account',
  directory: 'The directory behind user_ldap',
};

function failed(report: CoverageReport, part: PartFailure['part']): PartFailure | undefined {
  return report.failures.find((f) => f.part === part);
}

function failedLine(globals: GlobalOptions, f: PartFailure, at = ''): string {
  const kind = f.kind === 'unreachable' ? 'did not answer, a later run may pass' : 'needs correcting';
  return failure(globals, `${PART_NAMES[f.part]}${at} failed (${f.error.code}): ${kind}; the error below says more.`);
}

function printPlain(report: CoverageReport, judgement: Judgement, globals: GlobalOptions, io: CommandIO): void {
  const lines: string[] = [];
  const connectionFailed = failed(report, 'connection');
  if (report.connection !== null) {
    const versions = report.connection.versions;
    lines.push(
      success(
        globals,
        `Connected to the archive server at ${report.url ?? ''}: version ${versions.version ?? 'unknown'}, API version ${versions.apiVersion ?? 'unknown'}.`,
      ),
    );
    const newer = newerReleaseNote(versions.version);
    if (newer !== null) lines.push(note(globals, render(newer, globals.language ?? null, 'cli')));
  } else if (connectionFailed !== undefined) {
    lines.push(failedLine(globals, connectionFailed, report.url === null ? '' : ` at ${report.url}`));
  }
  const accountFailed = failed(report, 'archive account');
  if (report.archiveAccount !== null) lines.push(success(globals, `The archive account ${report.archiveAccount} exists.`));
  else if (accountFailed !== undefined) lines.push(failedLine(globals, accountFailed));

  const coverageFailed = failed(report, 'coverage');
  if (coverageFailed !== undefined) {
    lines.push(failedLine(globals, coverageFailed));
  } else if (report.archiveAccount === null) {
    lines.push(warning(globals, 'Not counted which documents have a file: the archive account is not known.'));
  } else if (report.documents === null) {
    lines.push(
      warning(
        globals,
        `The archive account ${report.archiveAccount} has ${report.markedFiles ?? 0} marked file(s); how many documents have one is not known without the archive server's answer.`,
      ),
    );
  } else {
    const coverage =
      report.withFile === null
        ? `The archive server names no document ids (API version below 9); the archive account has ${report.markedFiles ?? 0} marked file(s) for ${report.documents} document(s).`
        : `${report.withFile} of ${report.documents} document(s) seen by the token's account have a file of the archive account.`;
    const examples = report.examplesWithoutFile.length > 0 ? ` Without a file, for example: ${report.examplesWithoutFile.join(', ')}.` : '';
    const good = judgement.fix === null && judgement.belowMinimum === null;
    lines.push(good ? success(globals, coverage + examples) : failure(globals, coverage + examples));
  }
  for (const storage of report.unreadableStorages)
    lines.push(
      warning(
        globals,
        render(
          msg('cli.check.external_unreadable', { mountPoint: storage.mountPoint, reason: msg(`cli.check.external_reason.${storage.reason}`) }),
          globals.language ?? null,
          'cli',
        ),
      ),
    );
  for (const d of report.directories) {
    if (d.bound && d.error === null)
      lines.push(
        success(
          globals,
          render(
            msg('cli.check.directory', { prefix: d.prefix, url: d.url, accounts: d.accounts ?? 0, groups: d.groups ?? 0 }),
            globals.language ?? null,
            'cli',
          ),
        ),
      );
  }
  const directoryFailed = failed(report, 'directory');
  if (directoryFailed !== undefined) lines.push(failedLine(globals, directoryFailed));
  const unsupported = report.unsupportedShares;
  if (unsupported !== null && unsupported !== undefined && unsupported.talkRooms + unsupported.deckBoards > 0) {
    lines.push(
      warning(
        globals,
        render(msg('cli.check.unsupported_shares', { rooms: unsupported.talkRooms, boards: unsupported.deckBoards }), globals.language ?? null, 'cli'),
      ),
    );
  }
  const rules = report.accessRules;
  if (rules !== null) {
    const line = render(
      rules.undecided.length === 0
        ? msg('cli.check.access_rules', { rules: rules.rules.join(', ') })
        : msg('cli.check.access_rules_undecided', { rules: rules.rules.join(', '), undecided: rules.undecided.join(', ') }),
      globals.language ?? null,
      'cli',
    );
    lines.push(rules.undecided.length === 0 ? success(globals, line) : warning(globals, line));
  }
  if (judgement.fix !== null) lines.push(warning(globals, judgement.fix));
  if (judgement.belowMinimum !== null) lines.push(warning(globals, judgement.belowMinimum));
  io.stdout.write(`${lines.join('\n')}\n`);
}

function jsonOf(report: CoverageReport, judgement: Judgement, minimum: number | null, language: string | null): unknown {
  const first = report.failures[0];
  const newer = newerReleaseNote(report.connection?.versions.version);
  const correctionText = judgement.fix ?? judgement.belowMinimum;
  return {
    ok: judgement.problem === null,
    problem: judgement.problem,
    connection: {
      url: report.url,
      version: report.connection?.versions.version ?? null,
      apiVersion: report.connection?.versions.apiVersion ?? null,
      ...(newer === null ? {} : { note: render(newer, language, 'cli') }),
    },
    archiveAccount: report.archiveAccount,
    coverage: {
      documents: report.documents,
      withFile: report.withFile,
      markedFiles: report.markedFiles,
      unsupportedShares: report.unsupportedShares ?? null,
      examplesWithoutFile: report.examplesWithoutFile,
      percent: judgement.percent,
      minimum,
      unreadableStorages: report.unreadableStorages,
    },
    accessRules: report.accessRules,
    ...(report.directories.length === 0 ? {} : { directories: report.directories }),
    ...(correctionText === null ? {} : { correction: correctionText }),
    ...(first === undefined ? {} : { error: { code: first.error.code, message: cliMessageOf(first.error) } }),
    failures: report.failures.map((f) => ({ part: f.part, code: f.error.code, kind: f.kind, message: cliMessageOf(f.error) })),
  };
}

/** What check waits for, on stderr while it waits (only on a terminal): a hanging archive server leaves no blank screen. */
function progressOn(status: StatusLine): CoverageProgress {
  return {
    step: (step, subject) => {
      if (step === 'connection') status.show(`Waiting for the archive server at ${subject} to answer…`);
      else if (step === 'archive account') status.show(`Looking up the archive account${subject === '' ? '' : ` ${subject}`} in the host…`);
      else status.show(`Reading the marked files of the archive account ${subject}…`);
    },
  };
}

/** `--min-coverage 80`, `80%` or `12.5`: a percentage from 0 to 100. */
function minimumOf(value: unknown): number | null {
  if (typeof value !== 'string') return null;
  const text = value.trim().replace(/%$/, '');
  const number = /^\d+(\.\d+)?$/.test(text) ? Number(text) : Number.NaN;
  if (!(number >= 0 && number <= 100)) {
    throw new DusError('usage', `--min-coverage takes a percentage from 0 to 100 (for example --min-coverage 80), not "${value}".`);
  }
  return number;
}

export const command: CommandDefinition = {
  summary: 'Check connection, archive account and how many archive documents have a file',
  examples: ['docs-unified-search check', 'docs-unified-search check --json', 'docs-unified-search check --min-coverage 90  # CI: fail below 90 %'],
  notes: [
    'Every part runs even when another failed: with the archive server down, the archive account and its marked files are still checked and shown. Each failed part is a ✗ line on stdout and an Error [code] line on stderr.',
    'With --json the result always carries every part; "problem" says why ok is false: "unreachable" (a server or database did not answer: try again later), "misconfigured" (a setting, the token or the files need correcting; wins over unreachable), "low_coverage" (below --min-coverage); "failures" lists each failed part with its code and kind, "error" the first of them.',
  ].join('\n'),
  exitCodes: [
    [EXIT_OK, 'the search can show documents (and, with --min-coverage, enough of them have a file)'],
    [EXIT_FAILURE, 'it cannot, a part failed, or coverage is below --min-coverage; --json\'s "problem" says which: unreachable, misconfigured or low_coverage'],
  ],
  configure: (command) => {
    command.option('--min-coverage <percent>', 'fail (exit 1) when fewer documents than this have a file: documents with a file / documents, in percent');
    withOutputOptions(command);
  },
  run: (_args, options, context) =>
    withOutput(options, context, async (out) => {
      const { io, globals } = context;
      const minimum = minimumOf(options.minCoverage);
      return withService(context, { repair: true }, async (service) => {
        const status = statusLine(io, globals);
        const report = await checkCoverage(service, progressOn(status)).finally(() => status.clear());
        const judgement = judge(report, minimum);
        // --quiet: a check that passed says so by its exit code alone.
        const silent = globals.quiet === true && judgement.problem === null;
        out.result(jsonOf(report, judgement, minimum, scriptLanguageOf(globals)), () => (silent ? undefined : printPlain(report, judgement, globals, io)));
        for (const f of report.failures) io.stderr.write(`${errorLine(f.error, io)}\n`);
        return judgement.problem === null ? EXIT_OK : EXIT_FAILURE;
      });
    }),
};
