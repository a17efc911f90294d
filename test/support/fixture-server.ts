// Serves test/fixtures over HTTP on loopback; reach it as 127.0.0.1 and as localhost to get two sites (cross-origin iframes).
import { createServer, type Server } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { registerTestServerPort } from './test-policy.js';

const ROOT = fileURLToPath(new URL('../fixtures/', import.meta.url));
// /vendor/<path> serves these folders of installed packages, so fixtures load real libraries (Monaco, CodeMirror 5)
// with no CDN.
const VENDOR = fileURLToPath(new URL('../../node_modules/', import.meta.url));
const VENDORED = ['monaco-editor/min/', 'codemirror5/lib/'];
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
  '.ttf': 'font/ttf',
  '.svg': 'image/svg+xml',
};

/** A page the test makes up, served with the headers it names (a list value sends the header once per item). */
export interface GeneratedPage {
  body: string;
  headers?: Record<string, string | string[]>;
}

export interface FixtureServer {
  /** http://127.0.0.1:PORT — the "main" site. */
  origin: string;
  /** http://localhost:PORT — a different site, so its iframes run out of process. */
  crossOrigin: string;
  url(path: string): string;
  /** Serves `page` at `path` (query ignored) on both sites, ahead of the files. */
  serve(path: string, page: GeneratedPage): void;
  close(): Promise<void>;
}

export async function startFixtureServer(): Promise<FixtureServer> {
  const generated = new Map<string, GeneratedPage>();
  const server: Server = createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', 'http://x');
    const page = generated.get(url.pathname);
    if (page) return void response.writeHead(200, { 'content-type': TYPES['.html']!, ...page.headers }).end(page.body);
    if (url.pathname === '/slow') {
      const ms = Number(url.searchParams.get('ms') ?? '500');
      setTimeout(() => response.end('slow done'), ms);
      return;
    }
    // What the server saw of a request, for a page on either site to fetch and show.
    if (url.pathname === '/echo') {
      const { method, headers } = request;
      response.writeHead(200, { 'content-type': 'application/json', 'access-control-allow-origin': '*' });
      return void response.end(JSON.stringify({ method, query: url.search, headers }));
    }
    if (url.pathname === '/redirect') {
      response.writeHead(302, { location: url.searchParams.get('to') ?? '/' }).end();
      return;
    }
    // /csp/<fixture> serves the fixture under a Content-Security-Policy that forbids eval and inline script.
    const csp = url.pathname.startsWith('/csp/');
    const vendored = url.pathname.startsWith('/vendor/');
    const [base, served] = vendored
      ? [VENDOR, url.pathname.slice(8)]
      : [ROOT, csp ? url.pathname.slice(4) : url.pathname];
    const path = normalize(join(base, decodeURIComponent(served)));
    if (!path.startsWith(base) || (vendored && !VENDORED.some((folder) => path.startsWith(join(VENDOR, folder)))))
      return void response.writeHead(403).end();
    try {
      const body = await readFile(path);
      const headers: Record<string, string> = { 'content-type': TYPES[extname(path)] ?? 'application/octet-stream' };
      if (csp) headers['content-security-policy'] = "script-src 'self'";
      response.writeHead(200, headers).end(body);
    } catch {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  registerTestServerPort(port);
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    crossOrigin: `http://localhost:${port}`,
    url: (path) => `${origin}/${path.replace(/^\//, '')}`,
    serve: (path, page) => void generated.set(path, page),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
