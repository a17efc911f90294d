// The package version, read from package.json at run time so dist/ and tsx-run sources find the same file.
import { readFileSync } from 'node:fs';

function readVersion(): string {
  // Walk up: the file sits two levels above electron/core in the sources and three above it in dist/.
  let dir = new URL('./', import.meta.url);
  for (;;) {
    try {
      const pkg = JSON.parse(readFileSync(new URL('package.json', dir), 'utf8')) as {
        name?: unknown;
        version?: unknown;
      };
      if (pkg.name === 'chrome-mcp' && typeof pkg.version === 'string') return pkg.version;
    } catch {
      // No package.json at this level: keep walking.
    }
    const parent = new URL('../', dir);
    if (parent.href === dir.href) return '0.0.0';
    dir = parent;
  }
}

export const VERSION = readVersion();
