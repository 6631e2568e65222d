import type { CommandSpec } from './types.js';

// PLACEHOLDER: replaced by its owner; index.ts lists it so that commands can be written in parallel.
export const command: CommandSpec = {
  name: 'docs_unified_search:search',
  aliases: ['search'],
  summary: 'Search as a user and state for each document whether it shows',
  examples: [],
  configure: () => undefined,
  run: async (_args, _options, { io }) => {
    io.stderr.write('Error [internal]: not implemented yet\n');
    return 1;
  },
};
