// A site the policy refuses, on its own loopback address, that records every request it gets and every event its pages see.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface WatchedSite {
  /** http://127.0.0.2:PORT — a different IP literal from the fixture server's, so a rule for one never covers the other. */
  origin: string;
  /** Every request path (with query) in arrival order. */
  requests: string[];
  /** Event types the site's pages reported (a listener on every input and focus event posts to /event). */
  events(): string[];
  /**
   * Resolves once no request has come for a moment (at most 3 s): a page of the site closed between tests may still have
   * a report on its way, which must not land in the next test's list.
   */
  settled(): Promise<void>;
  close(): Promise<void>;
}

// Each page reports any event that reaches it, whoever sent it: the test then proves none came from us.
const REPORTER = `<script>
for (const type of ['click','mousedown','mouseup','mousemove','pointerdown','pointermove','keydown','keyup','input','focus','blur','wheel','scroll','submit'])
  addEventListener(type, () => fetch('/event?type=' + type), true);
</script>`;

const PAGES: Record<string, string> = {
  '/': `<!doctype html><title>Watched home</title><h1>Watched site</h1>${REPORTER}`,
  '/frame': `<!doctype html><title>Watched frame</title><p>Secret account 12345</p><input id="note" value="private"><button>Transfer</button>${REPORTER}`,
  '/file.txt': 'a file',
};

export async function startWatchedSite(host = '127.0.0.2'): Promise<WatchedSite> {
  const requests: string[] = [];
  let lastRequest = 0;
  const server: Server = createServer((request: IncomingMessage, response) => {
    const path = request.url ?? '/';
    requests.push(path);
    lastRequest = Date.now();
    const page = PAGES[path.split('?')[0]!];
    if (path.startsWith('/event')) return void response.writeHead(204).end();
    if (page === undefined) return void response.writeHead(404).end();
    const download = path.startsWith('/file.txt');
    response
      .writeHead(200, {
        'content-type': download ? 'text/plain' : 'text/html',
        ...(download ? { 'content-disposition': 'attachment; filename="file.txt"' } : {}),
      })
      .end(page);
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://${host}:${port}`,
    requests,
    async settled() {
      const QUIET_MS = 200;
      const deadline = Date.now() + 3_000;
      while (Date.now() - lastRequest < QUIET_MS && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 50));
    },
    events: () => requests.filter((path) => path.startsWith('/event')).map((path) => path.slice('/event?type='.length)),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // The browser keeps connections alive; they would hold close() open.
        server.closeAllConnections();
      }),
  };
}
