import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/', '.data/', 'test-output/', 'bench/results/', 'dist/', 'dist.*/', 'sdk/dist/', '.test-build/', '.test-build.*/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly', Buffer: 'readonly', URL: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', setInterval: 'readonly', clearInterval: 'readonly', fetch: 'readonly', Blob: 'readonly', URLSearchParams: 'readonly', AbortController: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-console': 'error',
    },
  },
  { files: ['scripts/**', 'bench/**'], rules: { 'no-console': 'off' } },
  // The client's examples are programs a partner runs: they print, and use the runtime's Web globals.
  { files: ['sdk/examples/**'], languageOptions: { globals: { setImmediate: 'readonly', Response: 'readonly', Request: 'readonly' } }, rules: { 'no-console': 'off' } },
  // The hosted pages' scripts run in the browser.
  { files: ['src/web/**/assets/*.js'], languageOptions: { sourceType: 'script', globals: { window: 'readonly', document: 'readonly', navigator: 'readonly' } } },
);
