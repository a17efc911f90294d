// network_replay, api_learn and api_call on real Chromium through the engine's executor, against a small app whose JSON
// API sits behind an HttpOnly cookie session: a replay and a call are signed by the page's own cookie (the server sees
// it, the model never does), a send is held until the person releases it, a site the policy refuses is refused, the
// learned catalog keeps names and types only, and 100+ planted secrets never come out of any DevTools tool.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createEngineExecutor, type EngineExecutor } from '../../shared/engine/executor.js';
import type { HeldCard } from '../../shared/engine/gate/card.js';
import type { Policy } from '../../shared/policy/policy.js';
import type { Operation, OperationContext, OperationResult } from '../../shared/protocol/operations.js';
import { redactText } from '../../shared/redact/text.js';
import { redactValue } from '../../shared/redact/value.js';
import { SHAPED } from '../redact/samples.js';
import { startApiApp, type ApiApp } from '../support/api-app.js';
import { failure, useEngineSuite } from '../support/engine-suite.js';
import { testServerPolicy } from '../support/test-policy.js';

const suite = useEngineSuite();
// The app's own site may be acted on (not trusted, so its sends are judged); the other test host only read.
const ACT: Policy = {
  ...testServerPolicy('act', ['127.0.0.1']),
  get grants() {
    return [...testServerPolicy('act', ['127.0.0.1']).grants, ...testServerPolicy('read', ['localhost']).grants];
  },
};
const READ_ONLY = testServerPolicy('read', ['127.0.0.1']);
let policy: Policy = ACT;
let executor: EngineExecutor;
let app: ApiApp;

// A session that lists the DevTools tools: the engine captures the network of every tab it uses.
const devtools: OperationContext = {
  progress: () => undefined,
  agent: { id: 'dev', live: ['dev'], devtools: true },
};
const run = (op: Operation, args: Record<string, unknown> = {}): Promise<OperationResult> =>
  executor.run(op, args, devtools);

beforeAll(async () => {
  app = await startApiApp();
  executor = createEngineExecutor(suite.browser.host, { tag: 'nr', policy: () => policy });
});
afterAll(async () => {
  executor?.dispose();
  await app?.close();
});
beforeEach(() => {
  policy = ACT;
});

/** Opens `path` of the app in a new tab, captured from its first request, once its script has made its calls. */
async function openApp(path: string): Promise<void> {
  await run('tab_new', { url: 'about:blank' });
  await run('navigate', { url: app.url(path) });
  expect((await run('wait_for', { text: 'loaded' })).data).toMatchObject({ matched: true });
}

/** The #id of the newest logged request whose line matches `line`, once it has finished. */
async function idOf(line: RegExp): Promise<number> {
  let id = 0;
  await expect
    .poll(async () => {
      const listed = (await run('network', { limit: 500 })).text.split('\n').filter((each) => line.test(each));
      id = Number(/^#(\d+) /.exec(listed.at(-1) ?? '')?.[1] ?? 0);
      return id;
    })
    .toBeGreaterThan(0);
  return id;
}

const count = (path: string) => app.received.filter((each) => each.path === path).length;

/** The API requests that arrived before a later sentinel read (sent from the same tab, so it arrives after them). */
async function countBeforeSentinel(path: string): Promise<number> {
  const before = count(path);
  const sentinel = `/api/users/${Date.now() % 100_000}`;
  await run('api_call', { endpoint: `GET ${sentinel}` });
  await app.arrivals(sentinel, 1);
  return Math.max(before, count(path));
}

/** What the model would see of a result: its text and data as the core redacts them. */
function seen(result: OperationResult): string {
  return `${redactText(result.text)}\n${JSON.stringify(redactValue(result.data ?? {}))}`;
}

describe('network_replay', () => {
  it("is signed by the page's HttpOnly session cookie, which the server sees and the result never shows", async () => {
    await openApp('app.html');
    const id = await idOf(/ GET 200 fetch .*\/api\/users\/1234\?/);
    const from = app.received.length;
    const result = await run('network_replay', { id });
    expect(result.text).toMatch(
      new RegExp(
        `^replayed #${id} GET ${app.origin}/api/users/1234\\?fields=name&active=true from f0 → 200 application/json\\n\\{"id":1234,"name":"Ada"\\}$`,
      ),
    );
    expect(result.data).toEqual({ status: 200 });
    const sent = app.received.slice(from).find((each) => each.path.startsWith('/api/users/1234'));
    expect(sent?.cookie).toContain(`session=${app.session}`);
    expect(JSON.stringify(result)).not.toContain(app.session);
  });

  it('sends the captured body again, or the query and body the call gives', async () => {
    await openApp('app.html');
    const id = await idOf(/ POST 201 fetch .*\/api\/projects\/42\/tasks$/);
    const from = app.received.length;
    expect((await run('network_replay', { id })).text).toMatch(
      / → 201 application\/json\n\{"id":77,"title":"Buy milk"/,
    );
    const again = app.received.slice(from).find((each) => each.method === 'POST');
    expect(JSON.parse(again!.body)).toEqual({ title: 'Buy milk', done: false, tags: ['home'], meta: { priority: 2 } });
    const changed = await run('network_replay', { id, query: { draft: 1 }, body: { title: 'Tea' } });
    expect(changed.text).toMatch(/^replayed #\d+ POST \S+\/api\/projects\/42\/tasks\?draft=1 from f0 → 201 /);
    expect(app.received.at(-1)).toMatchObject({ path: '/api/projects/42/tasks?draft=1', body: '{"title":"Tea"}' });
    expect(app.received.at(-1)?.cookie).toContain(`session=${app.session}`);
  });

  it('holds a replayed send for the person: nothing reaches the server until it is released', async () => {
    await openApp('app.html');
    const id = await idOf(/ POST 200 fetch .*\/api\/messages$/);
    const before = count('/api/messages');
    const error = await failure(run('network_replay', { id }));
    expect(error.code, error.message).toBe('HELD');
    const card = error.data?.['held'] as HeldCard;
    expect(card).toMatchObject({ method: 'POST', tool: 'network_replay' });
    expect(card.url).toContain('/api/messages');
    expect(await countBeforeSentinel('/api/messages')).toBe(before);
    expect((await run('release_held', { id: card.id, release: true })).data).toEqual({ released: true });
    await app.arrivals('/api/messages', before + 1);
    const released = app.received.filter((each) => each.path === '/api/messages').at(-1)!;
    expect(JSON.parse(released.body)).toEqual({ to: 'alice@example.com', text: 'See you at six' });
    expect(released.cookie).toContain(`session=${app.session}`);
  });

  it('is refused where the policy does not allow an act: the frame only readable, or the request to such a site', async () => {
    await openApp('app.html');
    const id = await idOf(/ GET 200 fetch .*\/api\/users\/1234\?/);
    const elsewhere = await idOf(/ GET \S+ fetch .*localhost:\d+\/api\/elsewhere/);
    const from = app.received.length;
    policy = READ_ONLY;
    expect((await failure(run('network_replay', { id }))).code).toBe('POLICY_DENIED');
    policy = ACT;
    const refused = await failure(run('network_replay', { id: elsewhere }));
    expect(refused.code).toBe('POLICY_DENIED');
    expect(refused.message).toContain('localhost');
    expect(app.received.length).toBe(from);
  });
});

describe('in a cross-origin frame', () => {
  it('replays and calls from inside the frame that made the request, with its own header, and learns it there', async () => {
    policy = testServerPolicy('act');
    await openApp('app.html');
    const id = await idOf(/ GET 200 fetch f1 .*localhost:\d+\/api\/widgets\/9\?size=small$/);
    const from = app.received.length;
    const replayed = await run('network_replay', { id });
    expect(replayed.text).toMatch(
      /^replayed #\d+ GET http:\/\/localhost:\d+\/api\/widgets\/9\?size=small from f1 → 200 /,
    );
    // Sent by the frame itself: the browser calls it a same-origin request, and the frame's header signed it.
    expect(app.received.slice(from)).toEqual([
      expect.objectContaining({ path: '/api/widgets/9?size=small', fetchSite: 'same-origin' }),
    ]);
    // The replay is the frame's own traffic too, and counts as a second call.
    expect((await run('api_learn', { frame: 1 })).text.split('\n').slice(1)).toEqual([
      'GET /api/widgets/{id} ?size:string → 200 auth header x-widget-token f1 ×2',
    ]);
    const called = await run('api_call', { endpoint: 'GET /api/widgets/10' });
    expect(called.text).toBe(
      `GET ${app.origin.replace('127.0.0.1', 'localhost')}/api/widgets/10 from f1 → 200 application/json\n{"widget":"clock"}`,
    );
    expect(app.received.at(-1)).toMatchObject({ host: expect.stringMatching(/^localhost:/), fetchSite: 'same-origin' });
    expect(JSON.stringify([replayed, called])).not.toContain(app.widgetKey);
  });
});

describe('api_learn and api_call', () => {
  it('learns the API as templates, shapes and auth kinds, never a value', async () => {
    await openApp('app.html');
    await idOf(/\/api\/me$/);
    const { text } = await run('api_learn');
    const lines = text.split('\n');
    expect(lines[0]).toMatch(/^api: \d+ endpoints from \d+ XHR\/fetch requests; values never shown/);
    expect(lines).toContain('GET /api/users/{id} ?fields:string&active:boolean → 200 auth cookie f0 ×2');
    expect(lines).toContain('GET /api/projects/{id}/tasks ?page:number → 200 auth cookie f0');
    expect(lines).toContain(
      'POST /api/projects/{id}/tasks body {title:string, done:boolean, tags:[string], meta:{priority:number}} → 201 auth cookie f0',
    );
    expect(lines).toContain('GET /api/me → 200 auth cookie+bearer f0');
    expect(lines).toContain('POST /api/messages body {to:string, text:string} → 200 auth cookie f0');
    for (const value of ['1234', '3f2a6c1e', 'Buy milk', 'alice@', app.bearer, app.session])
      expect(text).not.toContain(value);
  });

  it('calls a read and a write from inside the frame, signed as the page signs them; a send is held', async () => {
    await openApp('app.html');
    await idOf(/\/api\/me$/);
    // The page's own requests may arrive in between: each call's request is found by its path.
    const last = (path: string) => app.received.filter((each) => each.path === path).at(-1);
    const read = await run('api_call', { endpoint: 'GET /api/users/99' });
    expect(read.text).toBe(`GET ${app.origin}/api/users/99 from f0 → 200 application/json\n{"id":99,"name":"Ada"}`);
    expect(last('/api/users/99')?.cookie).toContain(`session=${app.session}`);
    // The bearer the page's own call carried signs this one too, without the model ever holding it.
    const me = await run('api_call', { method: 'get', path: '/api/me' });
    expect(me.text).toMatch(/ → 200 application\/json\n\{"name":"Ada"\}$/);
    expect(last('/api/me')?.authorization).toBe(`Bearer ${app.bearer}`);
    expect(JSON.stringify([read, me])).not.toContain(app.bearer);
    const write = await run('api_call', { endpoint: 'POST /api/projects/7/tasks', body: { title: 'Tea', done: true } });
    expect(write.text).toMatch(/→ 201 application\/json\n\{"id":77,"title":"Tea","done":true\}$/);
    const before = count('/api/messages');
    const held = await failure(run('api_call', { endpoint: 'POST /api/messages', body: { to: 'bob@example.com' } }));
    expect(held.code, held.message).toBe('HELD');
    expect(await countBeforeSentinel('/api/messages')).toBe(before);
    const refused = await failure(run('api_call', { endpoint: 'GET https://example.com/api' }));
    expect(refused.code).toBe('BAD_ARGS');
    expect((await failure(run('api_call', { endpoint: 'GET /api/users/{id}' }))).code).toBe('BAD_ARGS');
  });
});

describe('planted secrets', () => {
  it('none of console, network, network_get, network_replay, api_learn or api_call shows one', async () => {
    expect(app.planted.length).toBeGreaterThanOrEqual(100);
    await openApp('secrets.html');
    await idOf(/ PUT 200 fetch .*\/api\/databases$/);
    const listed = await run('network', { limit: 500 });
    const ids = [...listed.text.matchAll(/^#(\d+) \S+ \d+ (?:fetch|xhr) /gm)].map((match) => Number(match[1]));
    // One bearer-signed call per shaped token, the search, the settings and the databases.
    expect(ids.length).toBeGreaterThanOrEqual(SHAPED.length + 3);
    const results = [listed, await run('console', { level: 'debug', limit: 500 }), await run('api_learn')];
    for (const id of ids) {
      results.push(await run('network_get', { id, body: true, maxChars: 100_000 }));
      results.push(await run('network_replay', { id, maxChars: 100_000 }));
    }
    results.push(await run('api_call', { endpoint: 'GET /api/tokens/3' }));
    results.push(await run('api_call', { endpoint: 'GET /api/search', query: { q: 'desk' } }));
    results.push(await run('api_call', { endpoint: 'POST /api/settings', body: { theme: 'dark' } }));
    const all = results.map(seen).join('\n');
    // The values did pass through the tools (redaction, not a blind spot, keeps them out), but for the session cookie,
    // which nothing of ours ever reads.
    const raw = JSON.stringify(results);
    expect(app.planted.filter((secret) => raw.includes(secret)).length).toBeGreaterThan(100);
    expect(raw).not.toContain(app.session);
    // The places were read: their answers are in what the model sees, masked.
    expect(all).toContain('"apiKey":"[redacted');
    expect(all).toMatch(/authorization: Bearer \[redacted \d+ chars\]/);
    for (const secret of app.planted) expect(all, secret).not.toContain(secret);
  });
});
