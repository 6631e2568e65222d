import type { ServiceContext, ServiceOptions } from '../core/context-types.js';
import { DusError } from '../core/errors.js';
import { normalizeHostUrl } from '../core/host/db/host-url.js';
import type { HostLocation } from '../core/host/types.js';
import { errorLine, exitCodeOf } from './output.js';
import type { CommandContext, CommandIO, GlobalOptions } from './types.js';

function given(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}

/** Where the host is, as the global options and their environment variables name it now. */
export function hostLocationOf(globals: GlobalOptions): HostLocation {
  const dbUrl = given(globals.hostDb);
  const nextcloudDir = given(globals.nextcloud);
  const tablePrefix = given(globals.tablePrefix);
  const rawHostUrl = given(globals.hostUrl);
  // Checked where it enters: a refused one stops the run (exit 1, its code), and setup never stores it.
  const hostUrl = rawHostUrl === undefined ? undefined : normalizeHostUrl(rawHostUrl, '--host-url/DUS_HOST_URL');
  return {
    ...(dbUrl === undefined ? {} : { dbUrl }),
    ...(nextcloudDir === undefined ? {} : { nextcloudDir }),
    ...(tablePrefix === undefined ? {} : { tablePrefix }),
    ...(hostUrl === undefined ? {} : { hostUrl }),
  };
}

/** The service options of a command run: config directory, host log, host location, environment. */
export function serviceOptionsOf(context: CommandContext): ServiceOptions {
  const { globals, io } = context;
  const configDir = given(globals.configDir);
  const logFile = given(globals.logFile);
  return {
    ...(configDir === undefined ? {} : { configDir }),
    ...(logFile === undefined ? {} : { logFile }),
    hostLocation: hostLocationOf(globals),
    env: io.env,
  };
}

/**
 * Opens the service of a command run. The core (settings, log, host adapter, archive client)
 * is loaded here, on first use, so that `--help`, `--version` and completion load none of it.
 */
export async function openService(context: CommandContext, extra: Partial<ServiceOptions> = {}): Promise<ServiceContext> {
  const { openContext } = await import('../core/context.js');
  return openContext({ ...serviceOptionsOf(context), ...extra });
}

/**
 * Runs `body` with the service of a command run and closes it afterwards, whatever happens.
 * `repair` first runs the start-up repair (commands that read stored settings and keys).
 */
export async function withService<T>(context: CommandContext, options: { repair: boolean }, body: (service: ServiceContext) => Promise<T>): Promise<T> {
  const service = await openService(context);
  try {
    if (options.repair) (await import('../core/diagnostics/repair.js')).repairOnStart(service.settings, service.logger);
    return await body(service);
  } finally {
    await service.close();
  }
}

/** Prints a failure as one coded line and returns its exit code (2 for a wrong call, else 1). */
export function reportFailure(io: CommandIO, error: unknown, language: string | null = null): number {
  io.stderr.write(`${errorLine(error, io, language)}\n`);
  return exitCodeOf(error);
}

/** Far longer than any API token: a stream without a line end in reach (`< /dev/zero`) is not read on. */
export const MAX_FIRST_LINE_CHARS = 64 * 1024;

/** The first line of a stream (without its line end); reading stops there, or at the length cap. */
export async function readFirstLine(stream: NodeJS.ReadableStream): Promise<string> {
  let text = '';
  for await (const chunk of stream) {
    text += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    if (text.includes('\n')) break;
    if (text.length > MAX_FIRST_LINE_CHARS) {
      throw new DusError('usage', `the first line of standard input is longer than ${MAX_FIRST_LINE_CHARS} characters: pipe only the API token into it.`);
    }
  }
  const end = text.indexOf('\n');
  return (end === -1 ? text : text.slice(0, end)).replace(/\r$/, '');
}

/**
 * Keeps what followed an option's `=`, surplus arguments and token-like command names out of
 * a usage error: commander would echo `--token=…`, `--tokn=…` or a token typed as an argument
 * to stderr. Command names have `:` or `_`, so a misspelt one is still shown.
 */
export function redactUsageError(message: string): string {
  return message
    .replace(/(--[A-Za-z0-9-]+)=[^\n]*/g, "$1=…'")
    .replace(/(but got \d+): [^\n]*/g, '$1.')
    .replace(/unknown command '[A-Za-z0-9+/=.-]{20,}'/g, "unknown command '…'");
}
