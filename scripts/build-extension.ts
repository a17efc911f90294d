// Builds the load-unpacked extension into dist/extension: the worker and the popup bundled by esbuild, the manifest
// and the popup page copied beside them.
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const EXTENSION_DIST = join(ROOT, 'dist/extension');
const SOURCE = join(ROOT, 'extension');

/** Builds into `outDir` (default dist/extension); tests build a private copy from the current sources. */
export async function buildExtension(outDir = EXTENSION_DIST): Promise<void> {
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  await build({
    entryPoints: { background: join(SOURCE, 'src/background.ts'), popup: join(SOURCE, 'src/popup.ts') },
    outdir: outDir,
    bundle: true,
    // The manifest loads the worker as a module and the popup's script tag is one too, so both can share a chunk
    // (zod, the wire schemas) instead of carrying a copy each.
    format: 'esm',
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    platform: 'browser',
    // minimum_chrome_version in the manifest.
    target: 'chrome125',
    // No minifying and no keepNames: the page library ships its functions by their source text (fn.toString()),
    // which must stay plain, readable JavaScript.
    minify: false,
    keepNames: false,
    sourcemap: false,
    legalComments: 'none',
    logLevel: 'warning',
  });
  for (const file of ['manifest.json', 'popup.html']) copyFileSync(join(SOURCE, file), join(outDir, file));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await buildExtension();
