// Paths inside the installed package (the built CLI, the built extension), found from this file's own location so
// they are right from dist/ and from the sources alike.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function findPackageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (
      existsSync(manifest) &&
      (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown }).name === 'chrome-mcp'
    )
      return dir;
    const parent = dirname(dir);
    if (parent === dir) throw new Error('cannot find the chrome-mcp package folder above this file');
    dir = parent;
  }
}

export const PACKAGE_ROOT = findPackageRoot();
/** What the native-host wrapper runs: the built CLI, never a .ts source that plain node cannot load. */
export const BUILT_CLI = join(PACKAGE_ROOT, 'dist', 'electron', 'helper', 'cli.js');
export const EXTENSION_DIR = join(PACKAGE_ROOT, 'dist', 'extension');

export function extensionBuilt(dir = EXTENSION_DIR): boolean {
  return existsSync(join(dir, 'manifest.json'));
}
