import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import house from './scripts/house/eslint-plugin.mjs';

export default tseslint.config(
  // sdk/src/schema.d.ts is openapi-typescript's output (npm run sdk:generate), checked by test/sdk-drift.test.ts.
  { ignores: ['dist/**', 'node_modules/**', 'data/**', 'coverage/**', 'sdk/dist/**', 'sdk/src/schema.d.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  // ARCHITECTURE.md: the floors and the import rule (also in test/architecture.test.ts, with the cycles).
  { files: ['src/**/*.ts'], plugins: { house }, rules: { 'house/floors': 'error' } },
);
