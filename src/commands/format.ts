import { Chalk, type ChalkInstance } from 'chalk';
import Table from 'cli-table3';
import type { GlobalOptions } from './types.js';

/**
 * Printing helpers shared by the commands. Colours only when `GlobalOptions.color` says so
 * (a TTY, no NO_COLOR, no --no-color): piped output and tests stay plain text.
 */
export function paint(globals: GlobalOptions): ChalkInstance {
  return new Chalk({ level: globals.color ? 1 : 0 });
}

/** A table with a header row; plain borders so that logs and pipes keep it readable. */
export function table(head: readonly string[], rows: readonly (readonly string[])[], globals: GlobalOptions): string {
  const t = new Table({
    head: [...head],
    style: { head: globals.color ? ['bold'] : [], border: [] },
    wordWrap: true,
  });
  for (const row of rows) t.push([...row]);
  return t.toString();
}

export function success(globals: GlobalOptions, text: string): string {
  return `${paint(globals).green('✓')} ${text}`;
}

export function warning(globals: GlobalOptions, text: string): string {
  return `${paint(globals).yellow('!')} ${text}`;
}

export function failure(globals: GlobalOptions, text: string): string {
  return `${paint(globals).red('✗')} ${text}`;
}
