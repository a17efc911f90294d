// Bundles the `chrome-mcp` command into dist/electron/helper/cli.js (over tsc's copy) and its lazily loaded parts
// into chunks/ beside it: Node then reads a handful of files instead of ~500 modules before the first tools/list.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const HELPER_DIST = join(ROOT, 'dist/electron/helper');

/** Builds into `outDir` (default dist/electron/helper): cli.js and chunks/. */
export async function buildCli(outDir = HELPER_DIST): Promise<void> {
  // Chunk names carry a hash: without this, every build would leave the previous build's chunks behind.
  rmSync(join(outDir, 'chunks'), { recursive: true, force: true });
  await build({
    entryPoints: { cli: join(ROOT, 'electron/helper/cli.ts') },
    outdir: outDir,
    bundle: true,
    // Splitting keeps each `import()` a separate file, so what the code loads lazily (the page engine, the
    // subcommands) still stays off the path to tools/list.
    format: 'esm',
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    platform: 'node',
    // package.json "engines".
    target: 'node20.19',
    // keytar is a native addon (and optional: keychain.ts falls back when it does not load); the core never imports
    // electron, and must not start carrying a copy of it if that changes.
    external: ['keytar', 'electron'],
    // CommonJS dependencies bundled into ESM still call require() for Node's built-ins; a name of its own, so the
    // banner cannot collide with a bundled module's import of createRequire.
    banner: {
      js: "import { createRequire as cliCreateRequire } from 'node:module';\nconst require = cliCreateRequire(import.meta.url);",
    },
    // Unminified, as tsc emitted it: the page library ships functions by their source text (fn.toString()), and a
    // stack trace in the log should read as the code does.
    minify: false,
    keepNames: false,
    sourcemap: false,
    legalComments: 'none',
    logLevel: 'warning',
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await buildCli();
