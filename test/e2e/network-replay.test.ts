// network_replay, api_learn and api_call through a real MCP client on stdio, in both backends (the launched browser and
// the person's Chrome through the real extension), against the cookie-session API app: a replay signed by the page's
// HttpOnly cookie that the model never sees, a replayed send held until the person releases it in the control API,
// the learned catalog, an API read, and the planted secrets of the secrets page kept out of every answer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readControlFile } from '../../electron/core/control/control-file.js';
import { createControlClient, loopbackOrigin, type ControlClient } from '../../shared/control/client.js';
import { startApiApp, type ApiApp } from '../support/api-app.js';
import { BACKENDS, startMcpBackend, type McpBackend } from '../support/mcp-backends.js';
import { testServerFlags } from '../support/test-policy.js';
import { textOf } from '../support/tool-result.js';

describe.each(BACKENDS)('network_replay and the API tools over the %s backend', (backend) => {
  let app: ApiApp;
  let mcp: McpBackend;
  let control: ControlClient;

  beforeAll(async () => {
    app = await startApiApp();
    // The app's site may be acted on, not trusted: what it sends as the person waits for them.
    mcp = await startMcpBackend(backend, ['--caps', 'devtools', ...testServerFlags('act', ['127.0.0.1'])]);
    const file = readControlFile(mcp.dataDir);
    if (!file) throw new Error('chrome-mcp wrote no control.json');
    control = createControlClient({ origin: loopbackOrigin(file.port), token: file.token });
  }, 120_000);

  afterAll(async () => {
    await mcp?.close();
    await app?.close();
  });

  /** Opens the app page in a new tab (captured from its first request) and waits for its calls. */
  async function open(path: string): Promise<void> {
    await mcp.call('tab_new', { url: app.url('start') });
    await mcp.call('navigate', { url: app.url(path) });
    expect(await mcp.call('wait_for', { text: 'loaded' })).toMatch(/^matched/);
  }

  /** The #id of the newest finished request whose `network` line matches. */
  async function idOf(line: RegExp): Promise<number> {
    let id = 0;
    await expect
      .poll(async () => {
        const rows = (await mcp.call('network', { limit: 500 })).split('\n').filter((each) => line.test(each));
        return (id = Number(/^#(\d+) /.exec(rows.at(-1) ?? '')?.[1] ?? 0));
      })
      .toBeGreaterThan(0);
    return id;
  }

  const count = (path: string) => app.received.filter((each) => each.path === path).length;

  it("replays a request signed by the page's session cookie, which no answer shows", async () => {
    await open('app.html');
    const id = await idOf(/ GET 200 fetch .*\/api\/users\/1234\?/);
    const from = app.received.length;
    const text = await mcp.call('network_replay', { id });
    expect(text).toMatch(new RegExp(`^replayed #${id} GET \\S+/api/users/1234\\S* from f0 → 200 application/json\\n`));
    expect(text).toContain('{"id":1234,"name":"Ada"}');
    expect(app.received.slice(from).find((each) => each.path.startsWith('/api/users/1234'))?.cookie).toContain(
      `session=${app.session}`,
    );
    expect(text).not.toContain(app.session);
  });

  it('holds a replayed send until the person releases it', async () => {
    await open('app.html');
    const id = await idOf(/ POST 200 fetch .*\/api\/messages$/);
    const before = count('/api/messages');
    const held = await mcp.result('network_replay', { id });
    expect(held.isError).toBe(true);
    expect(textOf(held)).toMatch(/^HELD: .*POST \S+\/api\/messages \(held as \S+\)/);
    // A later read from the same tab arrives after anything the held replay could have sent.
    await mcp.call('api_call', { endpoint: 'GET /api/users/5' });
    await app.arrivals('/api/users/5', 1);
    expect(count('/api/messages')).toBe(before);
    const [card] = (await control.call('held.list')).held;
    expect((await control.call('held.decide', { id: card!.id, release: true })).outcome).toBe('released');
    await app.arrivals('/api/messages', before + 1);
    expect(app.received.filter((each) => each.path === '/api/messages').at(-1)?.cookie).toContain(
      `session=${app.session}`,
    );
  });

  it('learns the API and calls a read from inside the page', async () => {
    await open('app.html');
    await idOf(/\/api\/me$/);
    const catalog = await mcp.call('api_learn');
    expect(catalog).toContain('GET /api/users/{id} ?fields:string&active:boolean → 200 auth cookie f0 ×2');
    expect(catalog).toContain('GET /api/me → 200 auth cookie+bearer f0');
    expect(catalog).not.toContain('Buy milk');
    const read = await mcp.call('api_call', { endpoint: 'GET /api/me' });
    expect(read).toMatch(/ from f0 → 200 application\/json\n\{"name":"Ada"\}$/);
    expect(app.received.at(-1)?.authorization).toBe(`Bearer ${app.bearer}`);
    expect(read).not.toContain(app.bearer);
  });

  it('never shows a planted secret in the log, a replay, the catalog or a call', async () => {
    await open('secrets.html');
    await idOf(/ PUT 200 fetch .*\/api\/databases$/);
    const listed = await mcp.call('network', { limit: 500 });
    const ids = [...listed.matchAll(/^#(\d+) \S+ \d+ fetch /gm)].map((match) => Number(match[1]));
    const texts = [listed, await mcp.call('console', { level: 'debug', limit: 500 }), await mcp.call('api_learn')];
    // A sample of each kind: bearer-signed reads, the query of secrets, the JSON bodies.
    for (const id of [...ids.slice(0, 3), ...ids.slice(-3)]) {
      texts.push(await mcp.call('network_get', { id, body: true, maxChars: 100_000 }));
      texts.push(await mcp.call('network_replay', { id, maxChars: 100_000 }));
    }
    texts.push(await mcp.call('api_call', { endpoint: 'GET /api/tokens/3' }));
    const seen = texts.join('\n');
    expect(seen).toMatch(/authorization: Bearer \[redacted \d+ chars\]/);
    for (const secret of app.planted) expect(seen, secret).not.toContain(secret);
  });
});
