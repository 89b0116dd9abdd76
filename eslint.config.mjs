// Lint: ESLint's and typescript-eslint's recommended rules everywhere, React's rules of hooks in the console.
// Rules without type information only: tsc checks the types (npm run typecheck), and lint stays fast.
import js from '@eslint/js'
import reactHooks from 'eslint-plugin-react-hooks'
import { defineConfig, globalIgnores } from 'eslint/config'
import globals from 'globals'
import tseslint from 'typescript-eslint'

export default defineConfig(
  globalIgnores(['out/', 'dist/', 'build/', 'reports/', 'test-results/', 'playwright-report/', '.vite/', '.prof/']),
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    rules: {
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      // Types imported as types: isolatedModules transpilers (vite, tsx) drop them without looking.
      '@typescript-eslint/consistent-type-imports': ['error', { disallowTypeAnnotations: false }],
      // A leading underscore marks a parameter or binding left unused on purpose (as tsc's noUnusedLocals reads it).
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          caughtErrorsIgnorePattern: '^_',
          destructuredArrayIgnorePattern: '^_'
        }
      ]
    }
  },
  {
    // The server logs through src/server/log.ts (levels, format, redaction), the desktop shell to its log file.
    files: ['src/**'],
    rules: { 'no-console': 'error' }
  },
  {
    // The collector and the alert channels' settings match control characters on purpose: they clean outside input.
    files: ['src/server/**', 'src/shared/alert-channel-settings/**'],
    rules: { 'no-control-regex': 'off' }
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: globals.node },
    rules: { '@typescript-eslint/no-require-imports': 'off' }
  },
  { files: ['**/*.mjs'], languageOptions: { globals: globals.node } },
  {
    // The rules of hooks; the React Compiler's rules (react-hooks 7's recommended set) are left out, as the
    // console is not compiled with it.
    files: ['src/renderer/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' }
  }
)
