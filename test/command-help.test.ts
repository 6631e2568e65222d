import { describe, expect, test } from '@jest/globals';
import { main } from '../src/cli.js';
import { COMMANDS } from '../src/commands/index.js';
import { captureIO } from './support/capture-io.js';

describe('--help', () => {
  test.each(COMMANDS.map((command) => [command.name, command] as const))('%s answers --help under its name and aliases, with its examples', async (name, command) => {
    for (const spelling of [name, ...command.aliases]) {
      const io = captureIO({ env: {} });
      expect(await main([spelling, '--help'], io)).toBe(0);
      expect(io.err()).toBe('');
      const [, examples = ''] = io.out().split('Examples:');
      expect(command.examples.length).toBeGreaterThan(0);
      for (const example of command.examples) expect(examples).toContain(example);
      expect(io.out()).toContain(command.summary);
    }
  });
});

describe('usage errors', () => {
  test('a misspelt command is still named, so the redaction of token-like words does not hide it', async () => {
    const io = captureIO({ env: {} });
    expect(await main(['docs_unified_search:serach'], io)).toBe(2);
    expect(io.err()).toContain("unknown command 'docs_unified_search:serach'");
  });
});
