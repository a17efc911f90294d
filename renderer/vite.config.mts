// Builds the person's panel into dist/renderer: static files the core's control server serves at `/` and the tray app
// loads from disk, so asset URLs are relative and nothing is inlined (the panel's CSP allows only 'self').
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// Vite builds for whatever NODE_ENV says when it is set, and a test run sets it to `test` (the tests build dist/ when
// it is stale): the panel is always React's production build. Vite reads it only after loading this file.
process.env.NODE_ENV = 'production';

export default defineConfig({
  root: import.meta.dirname,
  base: './',
  plugins: [react()],
  build: {
    outDir: '../dist/renderer',
    emptyOutDir: true,
    // Inlined assets become data: URLs, which the CSP refuses for anything but images.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
  },
});
