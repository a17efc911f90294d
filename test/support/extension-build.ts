// The extension built once per test run, for each extension test browser to copy into its private folder.
import { cpSync, existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildExtension } from '../../scripts/build-extension.js';
import { newestSource } from './global-setup.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** Where the run's build is, as the workers (forked after the global setup) inherit it. */
const BUILT_ENV = 'CHROME_MCP_TEST_EXTENSION';

/** Global setup: one esbuild run for the whole suite instead of one per test browser (1-2 s each, measured). */
export default async function setup(): Promise<() => void> {
  const root = mkdtempSync(join(tmpdir(), 'chrome-mcp-ext-build-'));
  await buildExtension(join(root, 'extension'));
  process.env[BUILT_ENV] = join(root, 'extension');
  return () => rmSync(root, { recursive: true, force: true });
}

/**
 * Puts the extension, built from the current sources, in outDir: a copy of the run's build, or a build of its own
 * where there is none (outside vitest) or a source changed since (watch mode).
 */
export async function privateExtension(outDir: string): Promise<void> {
  const built = process.env[BUILT_ENV];
  const manifest = built && join(built, 'manifest.json');
  const sources = () => Math.max(...['extension', 'shared'].map((dir) => newestSource(join(ROOT, dir))));
  if (manifest && existsSync(manifest) && statSync(manifest).mtimeMs >= sources()) {
    cpSync(built, outDir, { recursive: true });
    return;
  }
  await buildExtension(outDir);
}
