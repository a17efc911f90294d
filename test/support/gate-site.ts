// A site for the gate on risky acts: serves the test/fixtures/gate-*.html pages on 127.0.0.1 and records every request
// that is not a page load, with its body, so a test can say what the server received and when.
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { registerTestServerPort } from './test-policy.js';

export interface Received {
  method: string;
  path: string;
  body: string;
  /** The Cookie header it came with, if any. */
  cookie?: string;
}

export interface GateSite {
  origin: string;
  url(path: string): string;
  /** Every request but page loads, in arrival order. */
  received: Received[];
  /** Resolves once a request for `path` has arrived as `received[from]` or later (at once if one has). */
  arrival(path: string, from?: number): Promise<Received>;
  close(): Promise<void>;
}

const FIXTURES = fileURLToPath(new URL('../fixtures/', import.meta.url));

// What a form post or a link leads to: a page the test can recognise.
const PAGES: Record<string, string> = {
  '/submit': '<!doctype html><title>Thank you</title><h1>Order placed</h1>',
  '/plan': '<!doctype html><title>Plan</title><h1>Plan changed</h1>',
  '/search': '<!doctype html><title>Results</title><h1>Search results</h1>',
  '/product': '<!doctype html><title>Product</title><h1>A lamp</h1>',
};

export async function startGateSite(): Promise<GateSite> {
  const received: Received[] = [];
  const waiters = new Set<() => void>();
  const server: Server = createServer((request, response) => {
    const path = request.url ?? '/';
    const name = path.split('?')[0]!;
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      // The gate's pages, and the pass-through service worker gate-mail.html?sw registers.
      if (/^\/(gate-[\w-]+\.html|egress-sw\.js)$/.test(name) && request.method === 'GET') {
        const type = name.endsWith('.js') ? 'text/javascript' : 'text/html; charset=utf-8';
        void readFile(`${FIXTURES}${name.slice(1)}`).then(
          (page) => response.writeHead(200, { 'content-type': type }).end(page),
          () => response.writeHead(404).end(),
        );
        return;
      }
      if (name === '/favicon.ico') return void response.writeHead(404).end();
      const { cookie } = request.headers;
      received.push({ method: request.method ?? 'GET', path, body, ...(cookie === undefined ? {} : { cookie }) });
      for (const wake of waiters) wake();
      const page = PAGES[name];
      response
        .writeHead(200, { 'content-type': page ? 'text/html; charset=utf-8' : 'text/plain' })
        .end(page ?? `ok ${request.method} ${name}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  registerTestServerPort((server.address() as AddressInfo).port);
  return {
    origin,
    url: (path) => `${origin}/${path.replace(/^\//, '')}`,
    received,
    arrival: (path, from = 0) =>
      new Promise((resolve) => {
        const check = () => {
          const found = received.slice(from).find((entry) => entry.path === path);
          if (!found) return;
          waiters.delete(check);
          resolve(found);
        };
        waiters.add(check);
        check();
      }),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // The browser keeps connections alive; they would hold close() open.
        server.closeAllConnections();
      }),
  };
}
