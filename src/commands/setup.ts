import type { CommandSpec } from './types.js';

// PLACEHOLDER: replaced by its owner; index.ts lists it so that commands can be written in parallel.
export const command: CommandSpec = {
  name: 'docs_unified_search:setup',
  aliases: ['setup'],
  summary: 'Test the connection with URL and token, then save the settings',
  examples: [],
  configure: () => undefined,
  run: async (_args, _options, { io }) => {
    io.stderr.write('Error [internal]: not implemented yet\n');
    return 1;
  },
};
