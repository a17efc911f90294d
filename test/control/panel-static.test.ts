// The control server handing out the panel: `/` and its assets without the token but with the Host and Origin
// checks and a strict CSP, nothing else — no path spelling reaches a file beside the panel's folder — and `/api/*`
// still behind the token.
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { ControlServer } from '../../electron/core/control/control-server.js';
import { PANEL_DIR } from '../../electron/core/control/panel-files.js';
import { makeHub, rawRequest, tempDataDirs } from './support.js';
import { removeDir } from '../support/remove-dir.js';

const SECRET = 'the-file-beside-the-panel';
const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

const dirs = tempDataDirs();
const site = mkdtempSync(join(tmpdir(), 'chrome-mcp-panel-'));
const panelDir = join(site, 'panel');
mkdirSync(join(panelDir, 'assets'), { recursive: true });
writeFileSync(
  join(panelDir, 'index.html'),
  '<!doctype html><title>panel</title><script type="module" src="./assets/app.js"></script>',
);
writeFileSync(join(panelDir, 'assets', 'app.js'), 'console.log("panel");');
writeFileSync(join(panelDir, 'notes.txt'), SECRET);
writeFileSync(join(site, 'secret.txt'), SECRET);
symlinkSync(join(site, 'secret.txt'), join(panelDir, 'assets', 'linked.js'));

const servers: ControlServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});
afterAll(() => {
  dirs.cleanup();
  removeDir(site);
});

async function serve(dir = panelDir) {
  const { hub, dataDir } = makeHub(dirs.make());
  const server = await ControlServer.start({ hub, dataDir, port: 0, log: () => undefined, panelDir: dir });
  servers.push(server);
  return { port: server.port, token: server.token, host: `127.0.0.1:${server.port}` };
}

const get = (port: number, path: string, headers: Record<string, string>) =>
  rawRequest(port, { method: 'GET', path, headers });

describe("the panel's static files", () => {
  it('serves / and its assets without the token, with a strict CSP, no framing, no sniffing and no caching', async () => {
    const { port, host } = await serve();
    const page = await get(port, '/', { host });
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.body).toContain('<title>panel</title>');
    expect(page.headers).toMatchObject({
      'content-security-policy': CSP,
      'x-frame-options': 'DENY',
      'x-content-type-options': 'nosniff',
      'cache-control': 'no-store',
    });
    const script = await get(port, '/assets/app.js', { host, origin: `http://${host}` });
    expect(script.status).toBe(200);
    expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect((await rawRequest(port, { method: 'HEAD', path: '/index.html', headers: { host } })).status).toBe(200);
  });

  it("reaches no file outside the panel's folder, and none inside it of a type it does not serve", async () => {
    const { port, host } = await serve();
    const attacks = [
      '/../secret.txt',
      '/assets/../../secret.txt',
      '/%2e%2e/secret.txt',
      '/assets/%2e%2e/%2e%2e/secret.txt',
      '/assets/..%2f..%2fsecret.txt',
      '/..%5csecret.txt',
      '/assets/..\\..\\secret.txt',
      '//secret.txt',
      `/${site}/secret.txt`,
      `/%2f${encodeURIComponent(site)}%2fsecret.txt`,
      '/assets/linked.js',
      '/notes.txt',
      '/index.html%00.js',
      '/assets',
      '/assets/',
    ];
    for (const path of attacks) {
      const response = await get(port, path, { host });
      expect(response.status, path).toBe(404);
      expect(response.body, path).not.toContain(SECRET);
    }
  });

  it('keeps the Host and Origin checks, and answers only GET and HEAD', async () => {
    const { port, host } = await serve();
    expect((await get(port, '/', { host: `evil.example:${port}` })).status).toBe(403);
    expect((await get(port, '/assets/app.js', { host, origin: 'http://evil.example' })).status).toBe(403);
    expect((await get(port, '/', { host: `localhost:${port}`, origin: `http://localhost:${port}` })).status).toBe(200);
    for (const method of ['POST', 'PUT', 'DELETE', 'OPTIONS']) {
      expect((await rawRequest(port, { method, path: '/', headers: { host }, body: '' })).status, method).toBe(404);
    }
  });

  it('leaves /api/* behind the token', async () => {
    const { port, host, token } = await serve();
    expect(
      (
        await rawRequest(port, {
          path: '/api/status',
          headers: { host, 'content-type': 'application/json' },
          body: '{}',
        })
      ).status,
    ).toBe(401);
    expect((await get(port, '/api/events', { host })).status).toBe(401);
    expect(
      (
        await rawRequest(port, {
          path: '/api/status',
          headers: { host, authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: '{}',
        })
      ).status,
    ).toBe(200);
  });

  it('says how to build the panel when it is missing', async () => {
    const { port, host } = await serve(join(site, 'not-built'));
    const response = await get(port, '/', { host });
    expect(response.status).toBe(404);
    expect(response.body).toContain('npm run build');
  });

  it('serves the real build: the page and every asset it names', async () => {
    const { port, host } = await serve(PANEL_DIR);
    const page = await get(port, '/', { host });
    expect(page.status).toBe(200);
    const assets = [...page.body.matchAll(/(?:src|href)="\.(\/assets\/[^"]+)"/g)].map((match) => match[1]!);
    expect(assets.length).toBeGreaterThanOrEqual(2);
    for (const asset of assets) expect((await get(port, asset, { host })).status, asset).toBe(200);
  });
});
