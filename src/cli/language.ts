import { catalogLanguage, CATALOGS } from '../core/i18n/catalog.js';
import { DusError } from '../core/errors.js';
import type { GlobalOptions } from './types.js';

/**
 * The language of the command line's messages, as occ's: English unless `--lang` names a
 * catalog language, or the locale does (LC_ALL, else LC_MESSAGES, else LANG, as POSIX orders
 * them; `C`, `POSIX` and a language without a catalog mean English). `asked` says the language
 * was given with `--lang`: only then are the messages inside `--json` output translated too, so
 * a script's output does not change with the locale of the shell that runs it (docs/i18n.md).
 */
export interface CliLanguage {
  readonly language: string | null;
  readonly asked: boolean;
}

export function cliLanguageOf(option: string | undefined, env: NodeJS.ProcessEnv): CliLanguage {
  if (option !== undefined) {
    const language = catalogLanguage(option);
    if (language === null) {
      throw new DusError('usage', `--lang ${option} names no language of this release: give one of ${Object.keys(CATALOGS).join(', ')}.`);
    }
    return { language: language === 'en' ? null : language, asked: true };
  }
  const locale = [env.LC_ALL, env.LC_MESSAGES, env.LANG].find((value) => value !== undefined && value !== '');
  const language = catalogLanguage(locale);
  return { language: language === 'en' ? null : language, asked: false };
}

/** `--lang` as a raw command line gives it (before `--`): for errors found before a command runs. */
export function argvLanguageOption(argv: readonly string[]): string | undefined {
  let found: string | undefined;
  for (const [i, arg] of argv.entries()) {
    if (arg === '--') break;
    if (arg.startsWith('--lang=')) found = arg.slice('--lang='.length);
    else if (arg === '--lang') found = argv[i + 1];
  }
  return found;
}

/**
 * The language of the messages a script reads (`--json`, `who --all`'s CSV): the one `--lang`
 * asked for, else English, whatever the locale (docs/i18n.md, "Decision (JSON)").
 */
export function scriptLanguageOf(globals: GlobalOptions): string | null {
  return globals.languageAsked === true ? (globals.language ?? null) : null;
}
