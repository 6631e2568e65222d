import { checkCoverage, type CoverageProgress, type CoverageReport } from '../core/diagnostics/coverage.js';
import { isArchiveErrorCode, isDusError } from '../core/errors.js';
import { EXIT_FAILURE, EXIT_OK } from '../cli/exit-codes.js';
import { failure, success, warning } from '../cli/format.js';
import { withOutput, withOutputOptions } from '../cli/output.js';
import { withService } from '../cli/shared-options.js';
import { statusLine, type StatusLine } from '../cli/status-line.js';
import type { CommandDefinition, CommandIO, GlobalOptions } from '../cli/types.js';

/** Why the search cannot show documents, or null when it can. */
function correction(report: CoverageReport): string | null {
  if (report.documents === 0) {
    return "The token's account sees no documents: give the token of an archive-server account that may view them (setup --token-stdin).";
  }
  const withFile = report.withFile ?? (report.markedFiles > 0 ? report.markedFiles : 0);
  if (withFile === 0) {
    return `No document has a file of the archive account ${report.archiveAccount}: let the synchronization write the files into that account's folders with [P<document id>] in their names, or name the account that holds them (setup --archive-account=ID).`;
  }
  return null;
}

function printPlain(report: CoverageReport, fix: string | null, globals: GlobalOptions, io: CommandIO): void {
  const versions = report.connection.versions;
  const lines = [
    success(
      globals,
      `Connected to the archive server at ${report.url}: version ${versions.version ?? 'unknown'}, API version ${versions.apiVersion ?? 'unknown'}.`,
    ),
    success(globals, `The archive account ${report.archiveAccount} exists.`),
  ];
  const coverage =
    report.withFile === null
      ? `The archive server names no document ids (API version below 9); the archive account has ${report.markedFiles} marked file(s) for ${report.documents} document(s).`
      : `${report.withFile} of ${report.documents} document(s) seen by the token's account have a file of the archive account.`;
  const examples = report.examplesWithoutFile.length > 0 ? ` Without a file, for example: ${report.examplesWithoutFile.join(', ')}.` : '';
  lines.push(fix === null ? success(globals, coverage + examples) : failure(globals, coverage + examples));
  if (fix !== null) lines.push(warning(globals, fix));
  io.stdout.write(`${lines.join('\n')}\n`);
}

function jsonOf(report: CoverageReport, fix: string | null): unknown {
  return {
    ok: fix === null,
    connection: { url: report.url, version: report.connection.versions.version, apiVersion: report.connection.versions.apiVersion },
    archiveAccount: report.archiveAccount,
    coverage: { documents: report.documents, withFile: report.withFile, markedFiles: report.markedFiles, examplesWithoutFile: report.examplesWithoutFile },
    ...(fix === null ? {} : { correction: fix }),
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

export const command: CommandDefinition = {
  summary: 'Check connection, archive account and how many archive documents have a file',
  examples: ['docs-unified-search check', 'docs-unified-search check --json'],
  exitCodes: [
    [EXIT_OK, 'the search can show documents'],
    [EXIT_FAILURE, 'it cannot (the output says what to correct), or the archive server does not answer'],
  ],
  configure: (command) => {
    withOutputOptions(command);
  },
  run: (_args, options, context) =>
    withOutput(options, context, async (out) => {
      const { io, globals } = context;
      return withService(context, { repair: true }, async (service) => {
        const status = statusLine(io);
        const report = await checkCoverage(service, progressOn(status))
          .catch(async (error: unknown) => {
            if (isDusError(error) && isArchiveErrorCode(error.code))
              (await import('../core/archive/connection-test-log.js')).logConnectionTestFailed(service.logger, error);
            throw error;
          })
          .finally(() => status.clear());
        const fix = correction(report);
        out.result(jsonOf(report, fix), () => printPlain(report, fix, globals, io));
        return fix === null ? EXIT_OK : EXIT_FAILURE;
      });
    }),
};
