// The Electron main bundle (.vite/build/main.js, package.json's "main"). ESM, like the package: the core reads
// import.meta.url to find its files. Node built-ins, electron and every runtime dependency stay imports, resolved from
// node_modules at run time, so CommonJS packages (ws, electron-log) and native ones (keytar) are loaded by Node as they
// are rather than re-bundled. Forge's Vite plugin merges this over its own main config; `vite build -c` works alone too.
import { readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { defineConfig } from 'vite';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as {
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
};
const runtime = [...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.optionalDependencies ?? {})];

function external(id: string): boolean {
  if (id === 'electron' || id.startsWith('electron/') || id.startsWith('node:') || builtinModules.includes(id))
    return true;
  return runtime.some((name) => id === name || id.startsWith(`${name}/`));
}

export default defineConfig({
  build: {
    outDir: '.vite/build',
    emptyOutDir: false,
    copyPublicDir: false,
    minify: false,
    // Electron 41 runs Node 24.
    target: 'node22',
    lib: { entry: 'electron/main/main.ts', formats: ['es'], fileName: () => 'main.js' },
    rollupOptions: { external, output: { chunkFileNames: '[name]-[hash].js' } },
  },
  resolve: { conditions: ['node'] },
});
