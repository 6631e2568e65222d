// ESLint for the TypeScript (type-aware, typescript-eslint); Prettier formats, so no style rules here.
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';

export default tseslint.config(
  { ignores: ['dist/**', 'dist-*/**', 'node_modules/**', 'coverage/**', 'nextcloud-app/**', 'bin/**', 'scripts/**', 'completion/**', 'man/**', '**/*.js', '**/*.mjs', '**/*.cjs'] },
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // A leading underscore says "unused on purpose": a parameter a callback's signature requires but this body doesn't read,
      // an element skipped in a destructuring, a rest-sibling that drops a key (`{ secret: _secret, ...rest }`), a caught error ignored.
      // Anything else unused is a finding to delete, not to rename.
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          destructuredArrayIgnorePattern: '^_',
          caughtErrorsIgnorePattern: '^_',
        },
      ],
      // Off: every `async` without `await` here (44 when this was set) is a contract, not a slip — fastify hooks and handlers, commander
      // actions, methods implementing a Promise-returning interface (Cache, HostDb, resolvers), fakes of those in tests. `async` keeps a
      // sync throw a rejected promise, which those callers rely on; dropping it would change behaviour, and a floating or misused promise
      // is still caught by no-floating-promises and no-misused-promises.
      '@typescript-eslint/require-await': 'off',
    },
  },
  prettier,
);
