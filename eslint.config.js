// Lint rules that keep the architecture's arrows pointing one way (see ARCHITECTURE.md "Folders").
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

// Browser globals shared/ must not touch (the in-page scripts under shared/engine/page/ are the exception);
// the few that every runtime has (timers, URL, console, encoders) stay allowed.
const everywhere = new Set([...Object.keys(globals.es2021), ...Object.keys(globals.serviceworker).filter((name) => name in globals.node)]);
const browserOnly = Object.keys(globals.browser).filter((name) => !everywhere.has(name));

const RAW_INPUT = 'Send input through page.input.send (shared/engine/input.ts), never a raw Input.* command: it skips the gate.';

const nodeBuiltins = ['node:*', 'fs', 'path', 'os', 'child_process', 'net', 'http', 'https', 'crypto', 'stream', 'events', 'util', 'url', 'buffer'];

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
    files: ['shared/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [
          { group: nodeBuiltins, message: 'shared/ is isomorphic: no Node imports.' },
          { group: ['electron', 'electron/*'], message: 'shared/ never imports electron.' },
          { group: ['ws', 'playwright-core', 'playwright-core/*', 'keytar'], message: 'shared/ runs in the extension too: Node-only packages stay in electron/.' },
          { group: ['../../electron/*', '../electron/*', '**/electron/**', '**/extension/**', '**/renderer/**'], message: 'shared/ imports nothing outside itself.' },
        ],
      }],
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
      'no-restricted-imports': ['error', {
        patterns: [
          { group: nodeBuiltins, message: 'The extension runs in Chrome: no Node imports.' },
          { group: ['electron', 'electron/*', '**/electron/**'], message: 'The extension reaches the core only through the wire protocol in shared/protocol.' },
          { group: ['ws', 'playwright-core', 'playwright-core/*', 'keytar'], message: 'Node-only packages stay in electron/.' },
        ],
      }],
    },
  },
  {
    // The panel is a web page (served by the core, or the app's window): the core only through shared/control.
    files: ['renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [
          { group: nodeBuiltins, message: 'The panel runs in a browser page: no Node imports.' },
          { group: ['electron', 'electron/*', '**/electron/**'], message: 'The panel reaches the core only through the control API in shared/control.' },
          { group: ['**/extension/**'], message: 'The panel and the extension share code only through shared/.' },
          { group: ['ws', 'playwright-core', 'playwright-core/*', 'keytar'], message: 'Node-only packages stay in electron/.' },
        ],
      }],
      'no-restricted-globals': ['error', 'process', 'require', 'Buffer', '__dirname', 'chrome'],
    },
  },
  {
    // Electron's API exists only in the app's main process and its preload; the helper and scripts run as plain Node too.
    files: ['electron/**/*.ts', 'scripts/**/*.ts'],
    ignores: ['electron/main/**', 'electron/preload/**'],
    rules: {
      'no-restricted-imports': ['error', {
        // A regex, not a gitignore-style group: `../electron/core/…` (our own folder) is no import of the package.
        patterns: [{ regex: '^electron(/.*)?$', message: 'Only electron/main and electron/preload import electron.' }],
      }],
    },
  },
  {
    // One input path: every mouse, key and text event goes out through shared/engine/input.ts, which applies focus
    // emulation, the clipboard rule and the gate on risky acts; a raw Input.* send elsewhere would skip them.
    // scripts/bench.ts times raw CDP on purpose (the baseline the engine is measured against).
    files: ['**/*.{ts,tsx,js,mjs}'],
    ignores: ['shared/engine/input.ts', 'test/**', 'scripts/bench.ts'],
    rules: {
      'no-restricted-syntax': ['error',
        { selector: 'Literal[value=/^Input\\./]', message: RAW_INPUT },
        { selector: 'TemplateElement[value.raw=/^Input\\./]', message: RAW_INPUT },
      ],
    },
  },
  {
    files: ['electron/core/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [{ group: ['electron', 'electron/*'], message: 'The core never imports electron: it also runs as plain Node.' }],
      }],
    },
  },
);
