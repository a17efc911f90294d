// Held acts fail closed in the person's Chrome: whatever ends the extension's hold on a tab while a send waits for the
// person (the extension letting go of the debugger, the tab closing, the extension reloading; a stopped worker is in
// gate.test.ts) sends nothing, since the gate failed the request in the browser when it held it and keeps only its
// record.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { HeldCard } from '../../shared/engine/gate/card.js';
import { ToolError } from '../../shared/protocol/errors.js';
import { startGateSite, type GateSite } from '../support/gate-site.js';
import { testServerPolicy } from '../support/test-policy.js';
import { startLinkedExtension, type LinkedExtension } from './support/linked-extension.js';

const ACT = testServerPolicy('act', ['127.0.0.1']);
let linked: LinkedExtension;
let site: GateSite;
let opened = 0;

beforeAll(async () => {
  site = await startGateSite();
  linked = await startLinkedExtension({ policy: () => ACT });
});
afterAll(async () => {
  await linked?.close();
  await site?.close();
});
beforeEach(() => {
  site.received.length = 0;
});

/** Opens the mail page in a tab of its own and holds its Send; answers the card and Chrome's id of the tab. */
async function heldSend(): Promise<{ card: HeldCard; tabId: number }> {
  const url = site.url(`gate-mail.html?tab=${++opened}`);
  await linked.run('tab_new', { url });
  const error = await linked.run('click', { selector: '#send' }).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ToolError);
  expect((error as ToolError).code, (error as ToolError).message).toBe('HELD');
  const tabId = await linked.browser.evaluate<number>(
    `chrome.tabs.query({ url: ${JSON.stringify(url)} }).then((tabs) => tabs[0].id)`,
  );
  return { card: (error as ToolError).data?.['held'] as HeldCard, tabId };
}

/** The writes the site received before a sentinel GET, loaded in a fresh tab afterwards, arrived. */
async function writesBeforeSentinel(): Promise<string[]> {
  const before = site.received.length;
  await linked.run('tab_new', { url: site.url(`sentinel-${opened}-${before}`) });
  await site.arrival(`/sentinel-${opened}-${before}`, before);
  return site.received
    .slice(0, before)
    .filter((entry) => entry.method !== 'GET')
    .map((entry) => `${entry.method} ${entry.path}`);
}

async function releaseRefused(card: HeldCard): Promise<string> {
  const refused = await linked.run('release_held', { id: card.id, release: true }).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(refused).toBeInstanceOf(ToolError);
  return (refused as ToolError).code;
}

describe("a held act in the person's Chrome fails closed", () => {
  it("sends nothing when the extension lets go of the tab's debugger", async () => {
    const { card, tabId } = await heldSend();
    await linked.browser.evaluate(`chrome.debugger.detach({ tabId: ${tabId} })`);
    expect(await writesBeforeSentinel()).toEqual([]);
    expect(await releaseRefused(card)).toBe('NOT_FOUND');
    expect(await writesBeforeSentinel()).toEqual([]);
  });

  it('sends nothing when its tab closes', async () => {
    const { card, tabId } = await heldSend();
    await linked.browser.evaluate(`chrome.tabs.remove(${tabId})`);
    expect(await writesBeforeSentinel()).toEqual([]);
    expect(await releaseRefused(card)).toBe('NOT_FOUND');
  });

  it('still sends a released one exactly once, from its page', async () => {
    const { card } = await heldSend();
    expect((await linked.run('release_held', { id: card.id, release: true })).data).toEqual({ released: true });
    expect(JSON.parse((await site.arrival('/api/messages')).body)).toMatchObject({ to: 'alice@example.com' });
    expect(await writesBeforeSentinel()).toEqual(['POST /api/messages']);
  });

  // Last: in this harness (Chromium 156 headless, --load-extension) a reload unloads the extension for good (measured:
  // no worker or extension page comes back), so this test ends the file's extension, and the site is watched through
  // the test's own CDP, not a tool call.
  it('sends nothing when the extension reloads', async () => {
    await heldSend();
    const link = linked.bridge.link()!;
    const closed = new Promise<void>((resolve) => link.onClose(() => resolve()));
    // The worker ends with the reload, so the call that asks for it gets no answer of its own.
    await linked.browser.evaluate('(chrome.runtime.reload(), 0)').catch(() => undefined);
    await closed;
    const before = site.received.length;
    await linked.browser.control.send('Target.createTarget', { url: site.url(`sentinel-reload-${before}`) });
    await site.arrival(`/sentinel-reload-${before}`, before);
    expect(site.received.slice(0, before).filter((entry) => entry.method !== 'GET')).toEqual([]);
  });
});
