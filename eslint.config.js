// Lint rules that keep the architecture's arrows pointing one way (see ARCHITECTURE.md "Folders").
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import { importX } from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';

// Browser globals shared/ must not touch (the in-page scripts under shared/engine/page/ are the exception);
// the few that every runtime has (timers, URL, console, encoders) stay allowed.
const everywhere = new Set([
  ...Object.keys(globals.es2021),
  ...Object.keys(globals.serviceworker).filter((name) => name in globals.node),
]);
const browserOnly = Object.keys(globals.browser).filter((name) => !everywhere.has(name));

const RAW_INPUT =
  'Send input through page.input.send (shared/engine/input.ts), never a raw Input.* command: it skips the gate.';

const nodeBuiltins = [
  'node:*',
  'fs',
  'path',
  'os',
  'child_process',
  'net',
  'http',
  'https',
  'crypto',
  'stream',
  'events',
  'util',
  'url',
  'buffer',
];

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', '.tmp/**', '.vite/**', 'out/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['electron/**/*.ts', 'test/**/*.ts', 'scripts/**/*.ts'],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    // A cycle makes load order decide which module sees the other half-initialised, and hides which layer owns what.
    // The TypeScript resolver maps our `.js` specifiers to the `.ts` sources; type-only imports are no cycle at run time.
    files: [
      'shared/**/*.ts',
      'electron/**/*.ts',
      'extension/**/*.ts',
      'renderer/**/*.{ts,tsx}',
      'scripts/**/*.ts',
      'test/**/*.ts',
    ],
    plugins: { 'import-x': importX },
    settings: {
      // Parse imported .ts files too (the cycle walk reads every module it reaches), not only the one being linted.
      ...importX.flatConfigs.typescript.settings,
      'import-x/resolver-next': [
        createTypeScriptImportResolver({
          project: ['tsconfig.json', 'extension/tsconfig.json', 'renderer/tsconfig.json'],
          noWarnOnMultipleProjects: true,
        }),
      ],
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      // The arrows of ARCHITECTURE.md, checked on resolved paths (so `../../x` and `../x` are judged alike).
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            {
              target: './shared',
              from: ['./electron', './extension', './renderer', './scripts', './test'],
              message: 'shared/ imports nothing outside itself.',
            },
            {
              target: './shared/policy',
              from: './shared/protocol',
              message:
                'The wire carries policies (protocol imports policy), so the policy imports no protocol: see protocol/policy-error.ts.',
            },
            {
              target: './electron/core',
              from: ['./electron/helper', './electron/main', './electron/preload', './extension', './renderer'],
              message: 'The core imports no process that hosts it (helper, CLI, app): they import the core.',
            },
            {
              target: './electron/helper',
              from: ['./electron/main', './electron/preload', './extension', './renderer'],
              message: 'The helper runs as plain Node: it reaches the core, never the app.',
            },
            {
              target: './electron/main',
              from: ['./extension', './renderer'],
              message:
                'The app reaches the extension over the wire and the panel over the control API, never by import.',
            },
            {
              target: './extension',
              from: ['./electron', './renderer'],
              message: 'The extension reaches the core only through the wire protocol in shared/protocol.',
            },
            {
              target: './renderer',
              from: ['./electron', './extension'],
              message:
                'The panel reaches the core only through the control API in shared/control, the extension through shared/.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['shared/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: nodeBuiltins, message: 'shared/ is isomorphic: no Node imports.' },
            { group: ['electron', 'electron/*'], message: 'shared/ never imports electron.' },
            {
              group: ['ws', 'playwright-core', 'playwright-core/*', 'keytar'],
              message: 'shared/ runs in the extension too: Node-only packages stay in electron/.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['shared/**/*.ts'],
    ignores: ['shared/engine/page/**'],
    rules: {
      'no-restricted-globals': ['error', 'chrome', 'process', 'require', 'Buffer', '__dirname', ...browserOnly],
    },
  },
  {
    files: ['shared/engine/page/**/*.ts'],
    languageOptions: { globals: { ...globals.browser } },
    rules: { 'no-restricted-globals': ['error', 'chrome', 'process', 'require', 'Buffer'] },
  },
  {
    files: ['extension/**/*.ts'],
    languageOptions: { globals: { ...globals.browser, ...globals.serviceworker, ...globals.webextensions } },
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: nodeBuiltins, message: 'The extension runs in Chrome: no Node imports.' },
            {
              group: ['electron', 'electron/*'],
              message: 'The extension reaches the core only through the wire protocol in shared/protocol.',
            },
            {
              group: ['ws', 'playwright-core', 'playwright-core/*', 'keytar'],
              message: 'Node-only packages stay in electron/.',
            },
          ],
        },
      ],
    },
  },
  {
    // The panel is a web page (served by the core, or the app's window): the core only through shared/control.
    files: ['renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: nodeBuiltins, message: 'The panel runs in a browser page: no Node imports.' },
            {
              group: ['electron', 'electron/*'],
              message: 'The panel reaches the core only through the control API in shared/control.',
            },
            {
              group: ['ws', 'playwright-core', 'playwright-core/*', 'keytar'],
              message: 'Node-only packages stay in electron/.',
            },
          ],
        },
      ],
      'no-restricted-globals': ['error', 'process', 'require', 'Buffer', '__dirname', 'chrome'],
    },
  },
  {
    // Electron's API exists only in the app's main process and its preload; the helper and scripts run as plain Node too.
    files: ['electron/**/*.ts', 'scripts/**/*.ts'],
    ignores: ['electron/main/**', 'electron/preload/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          // A regex, not a gitignore-style group: `../electron/core/…` (our own folder) is no import of the package.
          patterns: [
            { regex: '^electron(/.*)?$', message: 'Only electron/main and electron/preload import electron.' },
          ],
        },
      ],
    },
  },
  {
    // One input path: every mouse, key and text event goes out through shared/engine/input.ts, which applies focus
    // emulation, the clipboard rule and the gate on risky acts; a raw Input.* send elsewhere would skip them.
    // scripts/bench.ts and bench/sweep.ts time raw CDP on purpose (the baseline the engine is measured against).
    files: ['**/*.{ts,tsx,js,mjs}'],
    ignores: ['shared/engine/input.ts', 'test/**', 'scripts/bench.ts', 'scripts/bench/sweep.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: 'Literal[value=/^Input\\./]', message: RAW_INPUT },
        { selector: 'TemplateElement[value.raw=/^Input\\./]', message: RAW_INPUT },
      ],
    },
  },
  {
    files: ['electron/core/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['electron', 'electron/*'],
              message: 'The core never imports electron: it also runs as plain Node.',
            },
          ],
        },
      ],
    },
  },
);
