import fs from 'node:fs';
import path from 'node:path';
import tseslint from 'typescript-eslint';
import { layeringViolation } from './layering.js';

function packageNameOf(dir) {
  return JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')).name;
}

/** `gflow/layering`: imports of @gflow packages must follow docs/ARCHITECTURE.md §1. */
export function layeringPlugin(packageName, dir) {
  const check = (context, node, specifier) => {
    if (typeof specifier !== 'string') return;
    const file = dir === undefined ? undefined : path.relative(dir, context.filename);
    const message = layeringViolation(packageName, specifier, file);
    if (message) context.report({ node, message });
  };
  return {
    rules: {
      layering: {
        meta: { type: 'problem', schema: [] },
        create(context) {
          return {
            ImportDeclaration: (node) => check(context, node, node.source.value),
            ExportNamedDeclaration: (node) => node.source && check(context, node, node.source.value),
            ExportAllDeclaration: (node) => check(context, node, node.source.value),
            ImportExpression: (node) => node.source.type === 'Literal' && check(context, node, node.source.value),
          };
        },
      },
    },
  };
}

/** The adapters: they translate, core decides (docs/ARCHITECTURE.md §1). */
export const ADAPTERS = ['@gflow/cli', '@gflow/mcp', '@gflow/http', '@gflow/app'];

/** An adapter never reaches into the catalog: what it reads or writes of gflow's state is a core operation. */
export const NO_CATALOG = {
  selector: "MemberExpression[property.name='catalog']",
  message:
    'Adapters call core operations (gflow.run) instead of reading the catalog: add or extend an operation in @gflow/core (docs/ARCHITECTURE.md §1).',
};

/**
 * Folder rules inside a package, with their reason: in core, the generation module sits below the
 * operations (it may not import them), and the rest of core uses it only through its index.
 */
export function folderRules(packageName) {
  if (packageName !== '@gflow/core') return [];
  return [
    {
      files: ['src/generation/**/*.ts'],
      rules: {
        'no-restricted-imports': [
          'error',
          {
            patterns: [
              {
                group: ['**/operations/*'],
                message:
                  'The generation module sits below the operations: operations call it, it never calls them (docs/ARCHITECTURE.md, the generation path).',
              },
            ],
          },
        ],
      },
    },
    {
      files: ['src/**/*.ts'],
      ignores: ['src/generation/**'],
      rules: {
        'no-restricted-imports': [
          'error',
          {
            patterns: [
              {
                regex: 'generation/(?!(index|schemas)\\.js$)',
                message:
                  'Use the generation module through its index (src/generation/index.ts), or its schemas alone (src/generation/schemas.ts: what the public types read): its files are its own, so its phases can change without touching the operations.',
              },
            ],
          },
        ],
      },
    },
  ];
}

/**
 * The one lint config of the monorepo. Typed rules encode lessons: promises are
 * awaited, switches are exhaustive, types are imported as types, libraries never
 * print, only the CLI entry may exit the process.
 * @param {string} dir the package directory (import.meta.dirname)
 * @param {{ allowConsole?: boolean }} [options]
 */
export function gflowEslint(dir, options = {}) {
  const packageName = packageNameOf(dir);
  const restricted = [
    { selector: 'ExportDefaultDeclaration', message: 'Named exports only (STYLE.md).' },
    ...(ADAPTERS.includes(packageName) ? [NO_CATALOG] : []),
  ];
  return tseslint.config(
    { ignores: ['dist/**', 'node_modules/**', 'coverage/**', '**/*.js', '**/*.mjs', 'test/fixtures/**'] },
    { linterOptions: { reportUnusedDisableDirectives: 'error' } },
    ...tseslint.configs.recommended,
    {
      files: ['**/*.ts'],
      languageOptions: {
        parserOptions: { projectService: true, tsconfigRootDir: dir },
      },
      plugins: { gflow: layeringPlugin(packageName, dir) },
      rules: {
        'gflow/layering': 'error',
        '@typescript-eslint/no-floating-promises': 'error',
        '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
        '@typescript-eslint/consistent-type-imports': 'error',
        '@typescript-eslint/no-explicit-any': 'error',
        '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
        'no-restricted-syntax': ['error', ...restricted],
        'no-restricted-properties': [
          'error',
          {
            object: 'process',
            property: 'exit',
            message: 'Only an entry point exits the process (its bin/ or src/main.ts): return an exit code instead.',
          },
        ],
        'no-console': options.allowConsole ? 'off' : 'error',
        // More than five positional parameters is a call nobody reads right: pass a run object.
        'max-params': ['error', 5],
      },
    },
    {
      // The generation path (core's generation/, the driver's generate/ and composer/): a workflow is
      // a sequence of small named phases, not a closure of 200 lines (issue 37).
      files: ['src/generation/**/*.ts', 'src/generate/**/*.ts', 'src/composer/**/*.ts'],
      ignores: ['**/*.test.ts'],
      rules: { 'max-lines-per-function': ['error', { max: 60, skipBlankLines: true, skipComments: true }] },
    },
    ...folderRules(packageName),
    {
      // The entry points: they turn the exit code into the process's.
      files: ['src/main.ts', 'src/bin/**/*.ts'],
      rules: { 'no-restricted-properties': 'off' },
    },
    {
      files: [
        '**/*.test.ts',
        'test/**/*.ts',
        'bench/**/*.ts',
        'scripts/**/*.ts',
        'vitest.config.ts',
        'eslint.config.ts',
      ],
      rules: {
        'no-console': 'off',
        'no-restricted-syntax': 'off',
        'no-restricted-properties': 'off',
        'gflow/layering': 'off',
      },
    },
  );
}
