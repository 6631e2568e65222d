import { Command, type Option } from 'commander';
import { exitCodesOf, shownName } from './help-layout.js';
import type { ExitCode } from './exit-codes.js';
import type { CommandSpec } from './types.js';

/** What man pages and shell completion know of a command: read from the specs, never written twice. */
export interface OptionModel {
  readonly flags: string;
  readonly long: string | null;
  readonly short: string | null;
  readonly description: string;
  readonly takesValue: boolean;
  readonly defaultValue: string | null;
  /** The values the option takes (`--output`: plain, json, json_pretty), or none when any. */
  readonly choices: readonly string[];
}

export interface ArgumentModel {
  readonly name: string;
  readonly required: boolean;
  /** The values completion offers for it (app ids, key names, shells), or none: then file names. */
  readonly values: readonly string[];
}

export interface CommandModel {
  readonly name: string;
  readonly aliases: readonly string[];
  /** The name the command list shows (the short alias of an occ-style name). */
  readonly shown: string;
  readonly summary: string;
  readonly notes: string | null;
  readonly arguments: readonly ArgumentModel[];
  readonly options: readonly OptionModel[];
  readonly examples: readonly string[];
  readonly exitCodes: readonly ExitCode[];
}

export interface SuiteModel {
  readonly program: string;
  readonly description: string;
  readonly globalOptions: readonly OptionModel[];
  readonly commands: readonly CommandModel[];
}

/** An option's default as help shows it: no text for none or a flag's boolean, the text of a string or number, JSON for anything else (as commander's own help). */
function defaultText(value: unknown): string | null {
  if (value === undefined || typeof value === 'boolean') return null;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  return JSON.stringify(value);
}

export function optionModel(option: Option): OptionModel {
  const value: unknown = option.defaultValue;
  return {
    flags: option.flags,
    long: option.long ?? null,
    short: option.short ?? null,
    description: option.description,
    takesValue: option.required || option.optional,
    defaultValue: defaultText(value),
    choices: option.argChoices ?? [],
  };
}

export function commandModel(spec: CommandSpec): CommandModel {
  const command = new Command(spec.name);
  spec.configure(command);
  return {
    name: spec.name,
    aliases: spec.aliases,
    shown: shownName(spec.name, spec.aliases),
    summary: spec.summary,
    notes: spec.notes ?? null,
    arguments: command.registeredArguments.map((argument) => ({
      name: argument.name(),
      required: argument.required,
      values: spec.argumentValues?.[argument.name()] ?? argument.argChoices ?? [],
    })),
    options: command.options.filter((option) => !option.hidden).map(optionModel),
    examples: spec.examples,
    exitCodes: exitCodesOf(spec),
  };
}

export function suiteModel(program: Command, specs: readonly CommandSpec[]): SuiteModel {
  return {
    program: program.name(),
    description: program.description(),
    globalOptions: program.options.filter((option) => !option.hidden).map(optionModel),
    commands: specs.map(commandModel),
  };
}

/** The file-safe page name of a command: `docs_unified_search:search` → `search`, `config:app:get` → `config-app-get`. */
export function pageName(command: Pick<CommandModel, 'name'>): string {
  return command.name.replace(/^docs_unified_search:/, '').replace(/:/g, '-');
}
