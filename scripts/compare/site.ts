// The comparison's local site: the everyday pages on loopback, a file to download, CodeMirror 5 from node_modules, and
// /report, where each page posts its own verdict — the only thing a run is judged by.
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { PAGES } from './pages.js';

const CODEMIRROR = fileURLToPath(new URL('../../node_modules/codemirror5/lib/', import.meta.url));
const HTML = { 'content-type': 'text/html; charset=utf-8' };
/** What the download scenario must carry back into the page. */
export const DOWNLOAD_CODE = 'kestrel-9';

export interface Verdict {
  ok: boolean;
  why: string;
}

export interface Site {
  origin: string;
  url(path: string): string;
  /** Forgets what every page reported, before a server's run. */
  reset(): void;
  /** What page `id` reported, waiting up to `ms` for it (a page may report just after the last call). */
  verdict(id: string, ms: number): Promise<Verdict>;
  close(): Promise<void>;
}

export async function startSite(): Promise<Site> {
  const reports = new Map<string, Verdict>();
  const waiting = new Map<string, () => void>();
  const server = createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', 'http://x');
    if (url.pathname === '/report') {
      const id = url.searchParams.get('page') ?? '';
      // The first verdict stands: a page cannot pass after it reported a failure.
      if (!reports.has(id))
        reports.set(id, { ok: url.searchParams.get('ok') === '1', why: url.searchParams.get('why') ?? '' });
      waiting.get(id)?.();
      return void response.writeHead(204).end();
    }
    if (url.pathname === '/files/report.txt') {
      response.writeHead(200, {
        'content-type': 'text/plain',
        'content-disposition': 'attachment; filename=report.txt',
      });
      return void response.end(`Quarterly report\nconfirmation code: ${DOWNLOAD_CODE}\n`);
    }
    if (url.pathname.startsWith('/codemirror5/')) {
      const name = url.pathname.slice('/codemirror5/'.length);
      if (!/^codemirror\.(js|css)$/.test(name)) return void response.writeHead(404).end();
      const type = name.endsWith('.js') ? 'text/javascript' : 'text/css';
      return void response.writeHead(200, { 'content-type': type }).end(await readFile(CODEMIRROR + name));
    }
    const page = PAGES[url.pathname.slice(1).split('/')[0] ?? ''];
    if (page) return void response.writeHead(200, HTML).end(page);
    response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  return {
    origin,
    url: (path) => `${origin}/${path}`,
    reset: () => reports.clear(),
    async verdict(id, ms) {
      if (!reports.has(id))
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, ms);
          waiting.set(id, () => (clearTimeout(timer), resolve()));
        });
      waiting.delete(id);
      return reports.get(id) ?? { ok: false, why: 'the page reported nothing' };
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
