// The typed client against a real server: every declared call round-trips with its real effect, refusals come back
// as ControlError with their code, and the event stream carries what other calls changed, until the server closes.
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { readControlFile } from '../../electron/core/control/control-file.js';
import { createControlClient, loopbackOrigin, type ControlClient } from '../../shared/control/client.js';
import { ControlServer } from '../../electron/core/control/control-server.js';
import type { ActivityEvent } from '../../shared/control/activity.js';
import { CONTROL_API, type ControlCall } from '../../shared/control/api.js';
import { ControlError } from '../../shared/control/errors.js';
import { evaluatePolicy } from '../../shared/policy/evaluate.js';
import { makeHub, tempDataDirs, type HubSetup } from './support.js';

const dirs = tempDataDirs();
const servers: ControlServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});
afterAll(() => dirs.cleanup());

async function connect(): Promise<HubSetup & { server: ControlServer; client: ControlClient }> {
  const setup = makeHub(dirs.make(), { statusExtra: async () => ({ backend: 'fallback' }) });
  const server = await ControlServer.start({ hub: setup.hub, dataDir: setup.dataDir, port: 0, log: () => undefined });
  servers.push(server);
  // The way a script finds the core: through control.json in the data dir.
  const file = readControlFile(setup.dataDir);
  if (!file) throw new Error('control.json missing');
  return { ...setup, server, client: createControlClient({ origin: loopbackOrigin(file.port), token: file.token }) };
}

/** Reads events until `done` says the one wanted has arrived; returns them all. */
async function collect(
  events: AsyncIterable<ActivityEvent>,
  done: (event: ActivityEvent) => boolean,
): Promise<ActivityEvent[]> {
  const seen: ActivityEvent[] = [];
  for await (const event of events) {
    seen.push(event);
    if (done(event)) break;
  }
  return seen;
}

describe('control client', () => {
  it('round-trips every declared call', async () => {
    const { client, hub, store } = await connect();
    const called = new Set<ControlCall>();
    const call: ControlClient['call'] = (name, ...input) => {
      called.add(name);
      return client.call(name, ...input);
    };

    expect(await call('status')).toEqual({
      stopped: null,
      plan: null,
      questions: 0,
      interjections: 0,
      held: 0,
      clients: [],
      core: { backend: 'fallback' },
    });

    const view = await call('policy.set', {
      rules: [{ site: 'Docs.Example.com', level: 'read' }],
      default: 'ask',
      downloads: true,
    });
    expect(view).toMatchObject({
      rules: [{ site: 'docs.example.com', level: 'read' }],
      downloads: true,
      grants: [],
      file: store.file,
    });
    expect(view.blind['a bank']).toContain('chase.com');
    expect(await call('policy.get')).toEqual(view);

    const question = hub.askSite({
      site: 'https://shop.com',
      need: 'act',
      tool: 'click',
      url: 'https://shop.com/cart',
    });
    expect((await call('questions.list')).questions).toEqual([question]);
    expect(await call('questions.answer', { id: question.id, answer: 'once' })).toEqual({ questions: [] });
    expect(evaluatePolicy('https://shop.com/', 'act', hub.policy()).allowed).toBe(true);

    hub.setPlan(['open shop.com', 'buy the kettle'], true);
    expect((await call('plan.get')).plan).toMatchObject({
      steps: ['open shop.com', 'buy the kettle'],
      approved: false,
    });
    expect((await call('plan.approve')).plan?.approved).toBe(true);

    expect(await call('interject', { message: 'the blue one' })).toEqual({ queued: 1 });
    expect(hub.takeInterjections()).toEqual(['the blue one']);

    expect((await call('stop', { message: 'wait' })).stopped?.message).toBe('wait');
    expect(hub.stopSignal().aborted).toBe(true);
    expect((await call('resume')).stopped).toBeNull();

    const card = {
      id: 'fk.h1',
      site: 'shop.com',
      method: 'POST',
      url: 'https://shop.com/api/orders',
      summary: 'kettle x1',
      why: 'button "Buy" posts an order',
      tool: 'click',
    };
    hub.holdAct(card);
    expect((await call('held.list')).held).toEqual([{ ...card, held: expect.any(Number) }]);
    // No backend holds the request in this hub: the decision finds it gone, and nothing can be sent.
    expect(await call('held.decide', { id: 'fk.h1', release: true })).toEqual({
      outcome: 'gone',
      why: expect.stringMatching(/./),
      held: [],
    });

    hub.recordCall({
      client: 'claude',
      tool: 'click',
      element: 'Buy button',
      url: 'https://shop.com/cart',
      decision: 'held',
    });
    const shot = { mimeType: 'image/png', data: 'iVBORw0KGgo=' } as const;
    const shotCall = hub.recordCall({ client: 'claude', tool: 'screenshot', decision: 'allowed' }, shot);
    expect(await call('activity.shot', { id: shotCall.type === 'call' ? shotCall.id : '' })).toEqual(shot);
    expect((await call('audit.read', { decision: 'held' })).entries).toEqual([
      {
        time: expect.any(String),
        client: 'claude',
        tool: 'click',
        element: 'Buy button',
        url: 'https://shop.com/cart',
        decision: 'held',
      },
    ]);

    const unpaired = {
      paired: false,
      store: 'none',
      connected: false,
      browser: null,
      code: null,
      revokedAt: null,
      extensionPath: null,
    };
    expect(await call('pairing.status')).toEqual(unpaired);
    const { code, expires } = await call('pairing.code');
    expect(code).toMatch(/^[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}$/);
    expect((await call('pairing.status')).code).toEqual({ expires });
    expect(await call('pairing.revoke')).toEqual({ ...unpaired, revokedAt: expect.any(Number) });

    const { events, next } = await call('activity.list', { since: 0 });
    expect(events.map((event) => event.type)).toEqual([
      'policy',
      'question',
      'policy',
      'question',
      'plan',
      'plan',
      'interjection',
      'interjection',
      'stop',
      'resume',
      'held',
      'held',
      'call',
      'call',
      'pairing',
      'pairing',
    ]);
    expect(next).toBe(events.at(-1)?.seq);

    expect([...called].sort()).toEqual(Object.keys(CONTROL_API).sort());
  });

  it("turns refusals into ControlError with the server's code and message", async () => {
    const { client, server } = await connect();
    const bad = await client
      .call('policy.set', { rules: [{ site: 'https://a.com/login', level: 'act' }], default: 'ask', downloads: false })
      .catch((error: unknown) => error);
    expect(bad).toBeInstanceOf(ControlError);
    expect(bad).toMatchObject({ code: 'BAD_ARGS', message: expect.stringContaining('rules[0]') });
    await expect(client.call('questions.answer', { id: 'q404', answer: 'deny' })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    await expect(
      createControlClient({ origin: loopbackOrigin(server.port), token: 'not-the-token' }).call('status'),
    ).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it('streams a policy change made through another call, after replaying what followed `since`', async () => {
    const { client, hub } = await connect();
    await client.call('interject', { message: 'before the stream' });
    const { next } = await client.call('activity.list', { limit: 1 });
    const stream = collect(client.events(next - 1), (event) => event.type === 'policy');
    await client.call('policy.set', {
      rules: [{ site: 'news.com', level: 'act' }],
      default: 'blocked',
      downloads: false,
    });
    const seen = await stream;
    expect(seen.map((event) => event.type)).toEqual(['interjection', 'policy']);
    expect(seen[1]).toMatchObject({ type: 'policy', change: 'standing', seq: next + 1 });
    expect(hub.policy().default).toBe('blocked');
  });

  it('streams live events only when no `since` is given, and ends the stream when the server closes', async () => {
    const { client, hub, server } = await connect();
    hub.setPlan(['old'], false);
    const controller = new AbortController();
    const iterator = client.events(undefined, controller.signal)[Symbol.asyncIterator]();
    const first = iterator.next();
    // Anything emitted from here on is live; wait until the stream is subscribed by watching for our own marker.
    const marker = setInterval(() => hub.recordCall({ client: 'test', tool: 'marker', decision: 'allowed' }), 20);
    try {
      const event = (await first).value as ActivityEvent;
      expect(event).toMatchObject({ type: 'call', tool: 'marker' });
    } finally {
      clearInterval(marker);
    }
    await server.close();
    let rest = await iterator.next();
    while (!rest.done) rest = await iterator.next();
    expect(rest.done).toBe(true);
  });

  it('stops reading the stream when its signal aborts', async () => {
    const { client } = await connect();
    const controller = new AbortController();
    const iterator = client.events(0, controller.signal)[Symbol.asyncIterator]();
    const pending = iterator.next();
    controller.abort();
    await expect(pending).rejects.toThrow();
  });
});
