import { EXIT_OK, EXIT_USAGE } from '../cli/exit-codes.js';
import { suiteModel, type SuiteModel } from '../cli/command-model.js';
import { bashCompletion, zshCompletion } from '../cli/completion-scripts.js';
import type { CommandDefinition, CommandIO } from '../cli/types.js';

export const BINARIES = ['docs-unified-search', 'dus'] as const;
const SHELLS = ['bash', 'zsh'] as const;

/**
 * The suite as the running program declares it, every command loaded. The program and the list
 * load this file with import(), and it loads them back with import(): the one import circle of
 * the CLI, deliberate (completion describes the program that runs it), and lazy both ways.
 */
export async function loadSuite(io: CommandIO): Promise<SuiteModel> {
  const [{ buildProgram }, { loadCommands }] = await Promise.all([import('../cli.js'), import('./list.js')]);
  const commands = await loadCommands();
  return suiteModel(buildProgram(io, { code: EXIT_OK }, commands), commands);
}

export const command: CommandDefinition = {
  summary: 'Print the shell completion script for bash or zsh',
  examples: ['source <(docs-unified-search completion bash)', 'docs-unified-search completion zsh > "${fpath[1]}/_docs-unified-search"'],
  exitCodes: [[EXIT_OK, 'the script was printed']],
  argumentValues: { shell: SHELLS },
  configure: (command) => {
    command.argument('<shell>', SHELLS.join(' or '));
  },
  run: async (args, _options, { io }) => {
    const shell = args[0];
    if (shell !== 'bash' && shell !== 'zsh') {
      io.stderr.write('Error [usage]: Name the shell: bash or zsh.\n');
      return EXIT_USAGE;
    }
    const suite = await loadSuite(io);
    io.stdout.write(shell === 'bash' ? bashCompletion(suite, BINARIES) : zshCompletion(suite, BINARIES));
    return EXIT_OK;
  },
};
