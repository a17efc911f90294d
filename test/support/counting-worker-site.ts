// A fixture site whose service worker answers /sw-api by fetching /echo itself and counts the versions of itself that
// installed; once controlled, the page logs `sw got …` and `installs N` (route tests through the engine and MCP).
import type { FixtureServer } from './fixture-server.js';

/** Serves the page at `/<name>` and its worker at `/<name>.js`; the page's `/sw-api` fetch carries `query`. */
export function serveCountingWorkerSite(server: Pick<FixtureServer, 'serve'>, name: string, query: string): void {
  server.serve(`/${name}`, {
    body: `<!doctype html><title>SW</title><h1>SW</h1><script>
      navigator.serviceWorker.register('/${name}.js').then(() => navigator.serviceWorker.ready)
        .then(() => navigator.serviceWorker.controller || new Promise((resolve) =>
          navigator.serviceWorker.addEventListener('controllerchange', resolve)))
        .then(() => fetch('/sw-api?${query}')).then((response) => response.text())
        .then((text) => console.log('sw got ' + text))
        .then(() => fetch('/sw-installs')).then((response) => response.text())
        .then((count) => console.log('installs ' + count));
    </script>`,
  });
  server.serve(`/${name}.js`, {
    body: `self.addEventListener('install', (event) => {
        self.skipWaiting();
        event.waitUntil(caches.open('installs').then((cache) => cache.put('/installed/' + Math.random(), new Response(''))));
      });
      self.addEventListener('activate', (event) => event.waitUntil(clients.claim()));
      self.addEventListener('fetch', (event) => {
        const url = new URL(event.request.url);
        if (url.pathname === '/sw-api') event.respondWith(fetch('/echo' + url.search));
        if (url.pathname === '/sw-installs') event.respondWith(caches.open('installs').then((cache) => cache.keys())
          .then((keys) => new Response(String(keys.length))));
      });`,
    headers: { 'content-type': 'text/javascript' },
  });
}
