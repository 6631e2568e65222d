import { inLanguage, overviewFindings } from '../core/diagnostics/overview-check.js';
import { EXIT_FAILURE, EXIT_OK } from '../cli/exit-codes.js';
import { prose, saidIn, success, warning } from '../cli/format.js';
import { textIn } from '../core/i18n/catalog.js';
import { scriptLanguageOf } from '../cli/language.js';
import { withOutput, withOutputOptions } from '../cli/output.js';
import { withService } from '../cli/shared-options.js';
import type { CommandDefinition } from '../cli/types.js';

export const command: CommandDefinition = {
  summary: 'Run the administration overview check',
  examples: ['docs-unified-search setupchecks', 'docs-unified-search setupchecks --output=json'],
  notes: 'Reads stored data only; sends no request to the archive server.',
  exitCodes: [
    [EXIT_OK, 'no warning'],
    [EXIT_FAILURE, 'a warning (the output says what to correct)'],
  ],
  configure: (command) => {
    withOutputOptions(command);
  },
  run: (_args, options, context) =>
    withOutput(options, context, async (out) => {
      const { io, globals } = context;
      return withService(context, { repair: true }, async (service) => {
        // Lines for people in --lang's or the locale's language; the JSON a script reads only in --lang's.
        const language = globals.language ?? null;
        const scripted = scriptLanguageOf(globals);
        const found = await overviewFindings(service);
        const result = inLanguage(found, language);
        const forScripts = inLanguage(found, scripted);
        // occ setupchecks' shape: one entry per check, keyed by the app.
        const json = { docs_unified_search: { severity: forScripts.severity, description: forScripts.messages.join(' '), linkToDoc: forScripts.link } };
        out.result(json, () => {
          if (globals.quiet === true && result.severity === 'success') return;
          io.stdout.write(`${textIn('overview.heading', language)}\n`);
          for (const message of result.messages) {
            io.stdout.write(`${result.severity === 'success' ? success(globals, message, '  ') : warning(globals, message, '  ')}\n`);
          }
          if (result.severity !== 'success') io.stdout.write(`${prose(globals, 4, '  ', ...saidIn(language, 'overview.correct_it', { link: result.link }))}\n`);
        });
        return result.severity === 'success' ? EXIT_OK : EXIT_FAILURE;
      });
    }),
};
