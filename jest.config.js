/** Jest runs the TypeScript sources as ESM through ts-jest (transpile only: `npm run typecheck` type-checks). */
export default {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: {
    '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: 'tsconfig.json' }],
  },
  testMatch: ['<rootDir>/test/**/*.test.ts'],
  // A backstop for a hang only: every wait in the tests is bounded by what it waits for, and a
  // loaded machine (two busy loops beside CI, load 6-23) must not overrun it.
  testTimeout: 180_000,
  maxWorkers: 2,
};
