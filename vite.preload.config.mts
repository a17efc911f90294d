// The panel's preload (.vite/build/preload.js). A sandboxed preload is one plain script that may require only
// 'electron' (and a few Node polyfills): so CommonJS, one file (it imports nothing dynamically), electron external.
import { defineConfig } from 'vite';

export default defineConfig({
  build: {
    outDir: '.vite/build',
    emptyOutDir: false,
    copyPublicDir: false,
    minify: false,
    target: 'chrome130',
    rollupOptions: {
      input: 'electron/preload/preload.ts',
      external: ['electron', 'electron/renderer'],
      output: { format: 'cjs', entryFileNames: 'preload.js' },
    },
  },
});
