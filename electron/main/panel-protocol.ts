// The panel's origin: `app://panel/`, a custom scheme serving the built renderer folder and nothing else, with the
// panel's Content-Security-Policy on every response.
//
// Why not file://: a file:// page may read any local file through fetch and subresources, every file:// page shares one
// opaque-ish origin (so an IPC check on "a file URL" would trust any local HTML), and file:// responses carry no headers
// to put a CSP in. A privileged standard scheme gives the panel a real origin of its own, which the IPC sender check
// compares exactly, and the handler below decides every byte it serves (Electron's security checklist, item 18).
import { existsSync } from 'node:fs';
import { extname, join, normalize, relative, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { net, protocol } from 'electron';

export const PANEL_SCHEME = 'app';
export const PANEL_HOST = 'panel';
export const PANEL_ORIGIN = `${PANEL_SCHEME}://${PANEL_HOST}`;
export const PANEL_URL = `${PANEL_ORIGIN}/index.html`;

/**
 * The panel's own files only ('self' is app://panel), no eval, no inline script or style, no plugins, no framing, no
 * form posts, no base-URL games; it connects nowhere, because the control API reaches it over IPC.
 */
export const PANEL_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'none'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.map': 'application/json',
};

/** Must run before `app` is ready: the scheme is standard (relative URLs, an origin) and secure (like https). */
export function registerPanelScheme(): void {
  protocol.registerSchemesAsPrivileged([
    { scheme: PANEL_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } },
  ]);
}

/**
 * The file a panel URL names inside `root`, or undefined: another host, a path escaping the folder (`..`, encoded or
 * not), or a backslash trick. `/` is the index.
 */
export function panelFile(root: string, requestUrl: string): string | undefined {
  let url: URL;
  try {
    url = new URL(requestUrl);
  } catch {
    return undefined;
  }
  if (url.protocol !== `${PANEL_SCHEME}:` || url.host !== PANEL_HOST) return undefined;
  let path: string;
  try {
    path = decodeURIComponent(url.pathname);
  } catch {
    return undefined;
  }
  if (path.includes('\0') || path.includes('\\')) return undefined;
  const file = normalize(join(root, path === '/' ? 'index.html' : path));
  const inside = relative(root, file);
  if (inside === '' || inside.startsWith('..') || inside.split(sep).includes('..')) return undefined;
  return file;
}

/** Where the built panel is: the first of `candidates` holding an index.html. */
export function findPanelRoot(
  candidates: readonly string[],
  exists: (path: string) => boolean = existsSync,
): string | undefined {
  return candidates.find((dir) => exists(join(dir, 'index.html')));
}

/** Serves `root` on app://panel/ in the default session (the fallback browser's partition never gets this handler). */
export function setupPanelProtocol(root: string | undefined): void {
  protocol.handle(PANEL_SCHEME, async (request) => {
    const file = root === undefined ? undefined : panelFile(root, request.url);
    if (file === undefined || !existsSync(file))
      return new Response('Not found', { status: 404, headers: { 'content-type': 'text/plain' } });
    const served = await net.fetch(pathToFileURL(file).href);
    return new Response(served.body, {
      status: 200,
      headers: {
        'content-type': TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream',
        'content-security-policy': PANEL_CSP,
        'x-content-type-options': 'nosniff',
        'cache-control': 'no-store',
        'referrer-policy': 'no-referrer',
      },
    });
  });
}

/** True for a URL on the panel's origin (the page, its hash routes): the only sender IPC takes. */
export function isPanelUrl(url: string | undefined, origin: string = PANEL_ORIGIN): boolean {
  if (!url) return false;
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}` === origin;
  } catch {
    return false;
  }
}
