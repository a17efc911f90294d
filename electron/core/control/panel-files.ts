// The built panel (dist/renderer) as the control server hands it out: a request path is looked up among the files
// the build wrote, never joined onto a folder, so no spelling of `..` can reach past it; every answer carries a CSP
// that lets the page load only its own scripts and talk only to this server.
import { readdirSync, readFileSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';
import { PACKAGE_ROOT } from '../package-root.js';

/** Where `npm run build:renderer` writes the panel. */
export const PANEL_DIR = join(PACKAGE_ROOT, 'dist', 'renderer');

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
};

export const PANEL_HEADERS = {
  // img-src data: is for screenshots the API carries inline; everything else comes from this server only.
  'Content-Security-Policy':
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  'Cache-Control': 'no-store',
  'Referrer-Policy': 'no-referrer',
};

export interface PanelFile {
  type: string;
  body: Buffer;
}

/** The file `pathname` (already URL-normalised, still percent-encoded) names, or undefined: `/` is index.html. */
export function panelFile(dir: string, pathname: string): PanelFile | undefined {
  const file = builtFiles(dir).get(pathname === '/' ? '/index.html' : pathname);
  return file === undefined ? undefined : { type: TYPES[extname(file)]!, body: readFileSync(file) };
}

/** `/assets/x.js` → its absolute path, for regular files of a served type only (a symlink is not a regular file). */
function builtFiles(dir: string): Map<string, string> {
  let entries;
  try {
    // Listed per request: a rebuild while the core runs renames the hashed assets; the folder holds a handful.
    entries = readdirSync(dir, { recursive: true, withFileTypes: true });
  } catch {
    return new Map();
  }
  return new Map(
    entries
      .filter((entry) => entry.isFile() && Object.hasOwn(TYPES, extname(entry.name)))
      .map((entry) => {
        const path = join(entry.parentPath, entry.name);
        return [`/${relative(dir, path).split(sep).join('/')}`, path] as const;
      }),
  );
}
