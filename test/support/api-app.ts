// A small app with a JSON API behind a cookie session, on 127.0.0.1: its page sets the session cookie and calls the API
// as a single-page app would (reads, a write, a bearer-signed call, a message sent), and the server refuses any API call
// without that cookie. A second page plants 100+ fake secrets in the same traffic (cookies, bearer tokens, JSON keys,
// query params). Every API request is recorded with the cookie and authorization it came with.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DATABASE_URLS, NAMED, SHAPED } from '../redact/samples.js';
import { registerTestServerPort } from './test-policy.js';

export interface ApiRequest {
  method: string;
  path: string;
  body: string;
  cookie?: string;
  authorization?: string;
  host?: string;
  /** Whose request the browser says it is: same-origin when the frame that calls is of the API's own origin. */
  fetchSite?: string;
}

export interface ApiApp {
  origin: string;
  url(path: string): string;
  /** The session cookie's value, which only the browser and this server ever hold. */
  session: string;
  bearer: string;
  /** What the widget frame's own header carries. */
  widgetKey: string;
  /** API requests in arrival order (page loads are not recorded). */
  received: ApiRequest[];
  /** Resolves once `count` API requests matching `path` have arrived. */
  arrivals(path: string, count: number): Promise<void>;
  /** The secret parts the secrets page plants: none may reach the model. */
  planted: string[];
  close(): Promise<void>;
}

const SESSION = 'Sess1on7Value9Qx4Lm2Rt8Wz5Kp3Nb6';
const BEARER = 'BearerTok3n8Vz1Qm6Lx4Rk9Pw2Jt7Hs5';
const UUID = '3f2a6c1e-8b4d-4e2a-9c7b-1d2e3f4a5b6c';

const APP = `<!doctype html><title>Tasks</title><h1>Tasks</h1><p id="state">loading</p>
<script>
  (async () => {
    const post = (url, body) => fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    await fetch('/api/users/1234?fields=name&active=true');
    await fetch('/api/users/5678?fields=email');
    await fetch('/api/projects/${UUID}/tasks?page=2');
    await post('/api/projects/42/tasks', { title: 'Buy milk', done: false, tags: ['home'], meta: { priority: 2 } });
    await fetch('/api/me', { headers: { authorization: 'Bearer ${BEARER}' } });
    await post('/api/messages', { to: 'alice@example.com', text: 'See you at six' });
    await fetch('http://localhost:' + location.port + '/api/elsewhere').catch(() => undefined);
    // A widget of another origin, in its own process: its calls belong to its own frame.
    const widget = document.createElement('iframe');
    widget.src = 'http://localhost:' + location.port + '/widget.html';
    document.body.append(widget);
    document.getElementById('state').textContent = 'loaded';
  })();
</script>`;

// The widget signs its calls with a header of its own (a cross-site frame gets no Lax cookie).
const WIDGET = `<!doctype html><title>Widget</title><script>
  fetch('/api/widgets/9?size=small', { headers: { 'x-widget-token': 'WidgetK3y5Value8Zq2' } });
</script>`;

function secretsPage(): string {
  const named = Object.fromEntries(NAMED.map(({ name, value }) => [name, value]));
  const query = NAMED.map(({ name, value }) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`).join('&');
  const calls = [
    ...SHAPED.map(
      ({ token }, i) =>
        `fetch('/api/tokens/${i}', { headers: { authorization: 'Bearer ' + ${JSON.stringify(token)} } })`,
    ),
    `fetch('/api/search?q=lamp&${query}')`,
    `fetch('/api/settings', { method: 'POST', headers: { 'content-type': 'application/json' }, body: ${JSON.stringify(
      JSON.stringify({
        ...named,
        password: 'Hunter2Pass9Word7',
        token: 'Tok4Value8Plain2',
        apiKey: 'ApiK3yValue6Plain1',
      }),
    )} })`,
    `fetch('/api/databases', { method: 'PUT', headers: { 'content-type': 'application/json' }, body: ${JSON.stringify(
      JSON.stringify({ urls: DATABASE_URLS.map(({ url }) => url) }),
    )} })`,
  ];
  return `<!doctype html><title>Secrets</title><p id="state">loading</p>
<script>
  for (const line of ${JSON.stringify(NAMED.map(({ name, value }) => `config ${name}=${value}`))}) console.log(line);
  Promise.all([${calls.join(',\n')}]).then(() => { document.getElementById('state').textContent = 'loaded'; });
</script>`;
}

/** What the API answers; each echoes what it may, so a secret the page sent comes back in the answer too. */
function answer(method: string, path: string, body: string, authorization: string | undefined): [number, unknown] {
  const name = path.split('?')[0]!;
  if (name === '/api/me') return authorization === `Bearer ${BEARER}` ? [200, { name: 'Ada' }] : [401, {}];
  if (/^\/api\/users\/\d+$/.test(name)) return [200, { id: Number(name.split('/').at(-1)), name: 'Ada' }];
  if (/^\/api\/projects\/[\w-]+\/tasks$/.test(name) && method === 'GET') return [200, { items: [{ title: 'Tea' }] }];
  if (/^\/api\/projects\/\d+\/tasks$/.test(name)) return [201, { id: 77, ...(JSON.parse(body || '{}') as object) }];
  if (name === '/api/messages') return [200, { sent: true }];
  if (name.startsWith('/api/widgets/')) return [200, { widget: 'clock' }];
  if (name.startsWith('/api/tokens/')) return [200, { authorization, apiKey: authorization?.slice(7) }];
  return [200, { ok: true, echo: body === '' ? path : (JSON.parse(body) as unknown) }];
}

export async function startApiApp(): Promise<ApiApp> {
  const received: ApiRequest[] = [];
  const waiters = new Set<() => void>();
  const server: Server = createServer((request, response) => {
    const path = request.url ?? '/';
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      if (path === '/app.html' || path === '/secrets.html') {
        // The session is HttpOnly, as a real one is: no script of the page, ours included, can read it.
        const cookies = [`session=${SESSION}; Path=/; HttpOnly; SameSite=Lax`];
        if (path === '/secrets.html') cookies.push(...NAMED.map(({ name, value }) => `${name}=${value}; Path=/`));
        const page = path === '/app.html' ? APP : secretsPage();
        return void response
          .writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'set-cookie': cookies })
          .end(page);
      }
      // Where a tab starts, so that the app's own first requests are captured when it loads.
      if (path === '/widget.html')
        return void response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(WIDGET);
      if (path === '/start')
        return void response.writeHead(200, { 'content-type': 'text/html' }).end('<title>Start</title>');
      if (!path.startsWith('/api/')) return void response.writeHead(404).end();
      const { cookie, authorization } = request.headers;
      received.push({
        method: request.method ?? 'GET',
        path,
        body,
        ...(cookie === undefined ? {} : { cookie }),
        ...(authorization === undefined ? {} : { authorization }),
        ...(request.headers.host === undefined ? {} : { host: request.headers.host }),
        ...(typeof request.headers['sec-fetch-site'] === 'string'
          ? { fetchSite: request.headers['sec-fetch-site'] }
          : {}),
      });
      for (const wake of waiters) wake();
      const signed =
        (cookie ?? '').split(/;\s*/).includes(`session=${SESSION}`) ||
        request.headers['x-widget-token'] === 'WidgetK3y5Value8Zq2';
      const [status, json] = signed
        ? answer(request.method ?? 'GET', path, body, authorization)
        : [401, { error: 'no session' }];
      response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(json));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  registerTestServerPort(port);
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    url: (path) => `${origin}/${path.replace(/^\//, '')}`,
    session: SESSION,
    bearer: BEARER,
    widgetKey: 'WidgetK3y5Value8Zq2',
    received,
    arrivals: (path, count) =>
      new Promise((resolve) => {
        const check = () => {
          if (received.filter((each) => each.path === path).length < count) return;
          waiters.delete(check);
          resolve();
        };
        waiters.add(check);
        check();
      }),
    planted: [
      SESSION,
      ...SHAPED.map(({ prefix, token }) => token.slice(prefix.length)),
      ...NAMED.map(({ value }) => value),
      ...DATABASE_URLS.map(({ password }) => password),
      'Hunter2Pass9Word7',
      'Tok4Value8Plain2',
      'ApiK3yValue6Plain1',
    ],
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
