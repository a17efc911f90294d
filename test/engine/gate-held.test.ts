// Held acts fail closed, on real Chromium through the fallback's host: a held send is failed in the browser at once
// and kept as a record, so a detach or a closed tab sends nothing; a release replays the record exactly once from
// inside the page it was held on, and only while that page and its site's grant are as they were.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createEngineExecutor, type EngineExecutor } from '../../shared/engine/executor.js';
import type { HeldCard } from '../../shared/engine/gate/card.js';
import type { Policy } from '../../shared/policy/policy.js';
import type { Operation, OperationResult } from '../../shared/protocol/operations.js';
import { ctx, failure, useEngineSuite } from '../support/engine-suite.js';
import { startGateSite, type GateSite } from '../support/gate-site.js';
import { testServerPolicy } from '../support/test-policy.js';

const suite = useEngineSuite();
// The gate site's own origin, by its port (a bare local host grants nothing: breadth.ts).
const ACT = testServerPolicy('act', ['127.0.0.1']);
const READ_ONLY = testServerPolicy('read', ['127.0.0.1']);
let policy: Policy = ACT;
let executor: EngineExecutor;
let site: GateSite;

beforeAll(async () => {
  site = await startGateSite();
  executor = createEngineExecutor(suite.browser.host, { tag: 'th', policy: () => policy });
});
afterAll(async () => {
  executor?.dispose();
  await site?.close();
});
beforeEach(() => {
  policy = ACT;
  site.received.length = 0;
});

const run = (op: Operation, args: Record<string, unknown> = {}): Promise<OperationResult> =>
  executor.run(op, args, ctx);

let opened = 0;

/** Opens the mail page in a new tab and answers the tab's host id. */
async function mailTab(): Promise<string> {
  const url = site.url(`gate-mail.html?tab=${++opened}`);
  await run('tab_new', { url });
  return (await suite.browser.host.list()).find((tab) => tab.url === url)!.id;
}

async function heldClick(selector: string): Promise<HeldCard> {
  const error = await failure(run('click', { selector }));
  expect(error.code, error.message).toBe('HELD');
  return error.data?.['held'] as HeldCard;
}

/** The writes the site received before a later sentinel GET (from a fresh tab) arrived. */
async function writesBeforeSentinel(): Promise<string[]> {
  const before = site.received.length;
  await run('tab_new', { url: site.url(`sentinel-${before}`) });
  await site.arrival(`/sentinel-${before}`, before);
  return site.received
    .slice(0, before)
    .filter((entry) => entry.method !== 'GET')
    .map((entry) => `${entry.method} ${entry.path}`);
}

describe('a held act fails closed', () => {
  it('is failed in the browser at once: the page sees its request fail while the person decides', async () => {
    await mailTab();
    await heldClick('#send');
    // Nothing stays paused in the browser: the page's own fetch has failed already.
    expect((await run('wait_for', { text: 'failed:' })).data).toMatchObject({ matched: true });
    expect(await writesBeforeSentinel()).toEqual([]);
  });

  it('sends nothing when the browser session detaches from the tab', async () => {
    const tabId = await mailTab();
    const card = await heldClick('#send');
    const { sessionId } = (await suite.browser.host.cdp(tabId)) as unknown as { sessionId: string };
    await suite.browser.browser.connection.send('Target.detachFromTarget', { sessionId });
    expect(await writesBeforeSentinel()).toEqual([]);
    const refused = await failure(run('release_held', { id: card.id, release: true }));
    expect(refused.code).toBe('NOT_FOUND');
    expect(await writesBeforeSentinel()).toEqual([]);
  });

  it('sends nothing when its tab closes', async () => {
    await mailTab();
    const card = await heldClick('#delete');
    await run('tab_close', {});
    expect(await writesBeforeSentinel()).toEqual([]);
    expect((await failure(run('release_held', { id: card.id, release: true }))).code).toBe('NOT_FOUND');
    expect(await writesBeforeSentinel()).toEqual([]);
  });

  it('sends nothing when its session ends while a release checks the page, and answers gone', async () => {
    const other = createEngineExecutor(suite.browser.host, { tag: 'tg', policy: () => policy });
    const url = site.url(`gate-mail.html?tab=${++opened}`);
    await other.run('tab_new', { url }, ctx);
    const tabId = (await suite.browser.host.list()).find((tab) => tab.url === url)!.id;
    const error = await failure(other.run('click', { selector: '#send' }, ctx));
    const card = error.data?.['held'] as HeldCard;
    // The session ends as the release asks the page for its frames (the page signature's check).
    const cdp = await suite.browser.host.cdp(tabId);
    const send = cdp.send.bind(cdp);
    let ending: Promise<unknown> | undefined;
    cdp.send = ((method: string, params?: Record<string, unknown>, sessionId?: string) => {
      if (method === 'Page.getFrameTree') ending ??= other.dispose();
      return send(method, params, sessionId);
    }) as typeof cdp.send;
    const released = failure(other.run('release_held', { id: card.id, release: true }, ctx));
    try {
      expect((await released).message).toBe(`Held act ${card.id} is gone: the browser session ended.`);
    } finally {
      cdp.send = send;
    }
    expect(ending).toBeDefined();
    await ending;
    expect(await writesBeforeSentinel()).toEqual([]);
  });

  it('refuses a release once its site may no longer be acted on, and sends nothing', async () => {
    await mailTab();
    const card = await heldClick('#send');
    policy = READ_ONLY;
    const refused = await failure(run('release_held', { id: card.id, release: true }));
    expect(refused.code).toBe('POLICY_DENIED');
    expect(refused.message).toMatch(/^Not released, and never sent: /);
    policy = ACT;
    expect(await writesBeforeSentinel()).toEqual([]);
  });

  it('replays a released send exactly once, from its page (its cookie signs it), and a rejected one never', async () => {
    const tabId = await mailTab();
    await (
      await suite.browser.host.cdp(tabId)
    ).send('Network.setCookie', { name: 'sid', value: 'abc123', url: site.origin });
    const rejected = await heldClick('#delete');
    expect((await run('release_held', { id: rejected.id, release: false })).data).toEqual({ released: false });
    const card = await heldClick('#send');
    expect(await run('release_held', { id: card.id, release: true })).toEqual({
      text: `released: POST ${site.origin}/api/messages`,
      data: { released: true },
    });
    const sent = await site.arrival('/api/messages');
    expect(JSON.parse(sent.body)).toMatchObject({ to: 'alice@example.com', signature: 's3cret-Sign-Pass' });
    expect(sent.cookie).toBe('sid=abc123');
    expect(await writesBeforeSentinel()).toEqual(['POST /api/messages']);
    expect((await failure(run('release_held', { id: card.id, release: true }))).message).toBe(
      `Held act ${card.id} is gone: it was released.`,
    );
  });
});
