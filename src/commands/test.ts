import type { CommandSpec } from './types.js';

// PLACEHOLDER: replaced by its owner; index.ts lists it so that commands can be written in parallel.
export const command: CommandSpec = {
  name: 'docs_unified_search:test',
  aliases: ['test'],
  summary: 'Test the connection with the stored settings and name the archive server version',
  examples: [],
  configure: () => undefined,
  run: async (_args, _options, { io }) => {
    io.stderr.write('Error [internal]: not implemented yet\n');
    return 1;
  },
};
