// The gate on risky acts inside the real extension, through the core's bridge: an SPA's Send on a site allowed to act
// is held in the person's Chrome with its card crossing the bridge; release_held (the person's decision, as the core
// passes it on) sends exactly that request, and a rejected or stale one never leaves.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { HeldCard } from '../../shared/engine/gate/card.js';
import { ToolError } from '../../shared/protocol/errors.js';
import { ABOVE_WORKER_HOLD } from '../../extension/src/scripted-workers.js';
import { startGateSite, type GateSite } from '../support/gate-site.js';
import { startLinkedExtension, type LinkedExtension } from './support/linked-extension.js';
import { testServerPolicy } from '../support/test-policy.js';
import { until } from './support/until.js';

const ACT = testServerPolicy('act', ['127.0.0.1']);
let linked: LinkedExtension;
let site: GateSite;
// A site of its own for the service worker case, so the worker controls none of the other cases' pages. Started before
// the link, as the policy the extension is given names the ports served then.
let served: GateSite;
// And one for the Send posted to a service worker: its page is told "controlled" only as the worker first claims it.
let posted: GateSite;

beforeAll(async () => {
  site = await startGateSite();
  served = await startGateSite();
  posted = await startGateSite();
  linked = await startLinkedExtension({ policy: () => ACT });
});
afterAll(async () => {
  await linked?.close();
  await site?.close();
  await served?.close();
  await posted?.close();
});
beforeEach(async () => {
  site.received.length = 0;
  await linked.run('tab_new', { url: site.url('gate-mail.html') });
});

async function heldSend(): Promise<HeldCard> {
  const error = await linked.run('click', { selector: '#send' }).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ToolError);
  expect((error as ToolError).code, (error as ToolError).message).toBe('HELD');
  return (error as ToolError).data?.['held'] as HeldCard;
}

/** The writes the site received, read once the page's own harmless GET (made on a click) has arrived. */
async function writesReceived(): Promise<string[]> {
  const before = site.received.length;
  await linked.run('click', { selector: '#refresh' });
  await site.arrival('/api/inbox', before);
  return site.received
    .slice(0, before)
    .filter((entry) => entry.method !== 'GET')
    .map((entry) => `${entry.method} ${entry.path}`);
}

/**
 * The workers of no tab at `origin` the extension holds attached: none once an act's lending is over. Told by an attach
 * of the extension's own, refused while it has one (the tab's auto-attach, another client's, do not count).
 */
function workersAttached(origin: string): Promise<string[]> {
  return linked.browser.evaluate<string[]>(`chrome.debugger.getTargets().then((targets) => Promise.all(targets
    .filter((target) => target.type === 'worker' && target.url.includes(${JSON.stringify(origin)}))
    .map((target) => chrome.debugger.attach({ targetId: target.id }, '1.3').then(
      () => chrome.debugger.detach({ targetId: target.id }).then(() => []),
      () => [target.url],
    )))).then((found) => found.flat())`);
}

/** The session rules that stop the writes of the site's workers of no tab while an act there is judged. */
const actRules = () =>
  linked.browser.evaluate<number>(
    `chrome.declarativeNetRequest.getSessionRules().then((rules) => rules.filter((rule) =>
      rule.condition.tabIds?.includes(-1) && rule.priority === ${ABOVE_WORKER_HOLD}).length)`,
  );

describe('a risky act through the extension', () => {
  it('is held with its card (the password it carries masked) and released exactly as it was', async () => {
    const card = await heldSend();
    expect(card).toMatchObject({ method: 'POST', url: `${site.origin}/api/messages`, tool: 'click' });
    expect(card.id).toMatch(/^x.+\.h\d+$/);
    expect(card.summary).toContain('signature=[redacted 16 chars]');
    expect(JSON.stringify(card)).not.toContain('s3cret-Sign-Pass');
    expect(await writesReceived()).toEqual([]);

    expect(await linked.run('release_held', { id: card.id, release: true })).toEqual({
      text: `released: POST ${site.origin}/api/messages`,
      data: { released: true },
    });
    expect(JSON.parse((await site.arrival('/api/messages')).body)).toEqual({
      to: 'alice@example.com',
      subject: 'Quarterly report',
      body: 'Dear Alice, the report for the third quarter is attached. Regards, Ada',
      signature: 's3cret-Sign-Pass',
    });
  });

  it('never sends one rejected, nor one whose page reloaded', async () => {
    const rejected = await heldSend();
    expect((await linked.run('release_held', { id: rejected.id, release: false })).data).toEqual({ released: false });
    const stale = await heldSend();
    await linked.run('navigate', { url: site.url('gate-mail.html') });
    const refused = await linked.run('release_held', { id: stale.id, release: true }).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect((refused as ToolError).code).toBe('NOT_FOUND');
    expect(await writesReceived()).toEqual([]);
  });

  it('holds a write whose large body reaches the interceptor only after the act answered, every time', async () => {
    await linked.run('navigate', { url: site.url('gate-large.html') });
    for (let round = 0; round < 4; round++) {
      const error = (await linked.run('click', { selector: '#tidy' }).catch((thrown: unknown) => thrown)) as ToolError;
      expect(error.code, error.message).toBe('HELD');
      const card = error.data?.['held'] as HeldCard;
      expect(card).toMatchObject({ method: 'DELETE', url: `${site.origin}/api/messages/7` });
      await linked.run('release_held', { id: card.id, release: false });
    }
    expect(await writesReceived()).toEqual([]);
  }, 90_000);

  /** The card of a Send clicked on a site of its own, once that site's service worker controls the page. */
  async function heldUnderWorker(own: GateSite, selector: string): Promise<HeldCard> {
    await linked.run('navigate', { url: own.url('gate-mail.html?sw') });
    expect((await linked.run('wait_for', { text: 'controlled' })).data).toMatchObject({ matched: true });
    const error = (await linked.run('click', { selector }).catch((thrown: unknown) => thrown)) as ToolError;
    expect(error.code, error.message).toBe('HELD');
    const card = error.data?.['held'] as HeldCard;
    expect(card).toMatchObject({ method: 'POST', url: `${own.origin}/api/messages` });
    return card;
  }

  it('holds a Send that a service worker of the site fetches again from its own target', async () => {
    const card = await heldUnderWorker(served, '#send');
    // The page's own GET goes through the worker too: once it arrived, a Send let through would have.
    await linked.run('click', { selector: '#refresh' });
    await served.arrival('/api/inbox');
    expect(served.received.filter((entry) => entry.method !== 'GET')).toEqual([]);
    await linked.run('release_held', { id: card.id, release: true });
    expect(JSON.parse((await served.arrival('/api/messages')).body)).toMatchObject({ signature: 's3cret-Sign-Pass' });
  });

  /** A Send the page hands to a worker by clicking `selector`: held, and nothing received; its card. */
  async function heldWorkerSend(selector: string): Promise<HeldCard> {
    const error = (await linked.run('click', { selector }).catch((thrown: unknown) => thrown)) as ToolError;
    expect(error.code, error.message).toBe('HELD');
    const card = error.data?.['held'] as HeldCard;
    expect(card).toMatchObject({ method: 'POST', url: `${site.origin}/api/messages` });
    expect(await writesReceived()).toEqual([]);
    return card;
  }

  /** Once the act's widening is over, the extension holds none of the workers of no tab at `origin` attached. */
  async function workersLetGo(origin: string): Promise<void> {
    expect(
      await until(
        () => workersAttached(origin),
        (urls) => urls.length === 0,
      ),
    ).toEqual([]);
  }

  it('holds a Send the page hands to a dedicated worker, which makes the request from its own target', async () => {
    await heldWorkerSend('#worker-send');
  });

  it('holds a Send the page hands to a shared worker, which makes it from a target of no tab', async () => {
    const card = await heldWorkerSend('#shared-send');
    // Released, it is sent from the page that handed it over.
    await linked.run('release_held', { id: card.id, release: true });
    expect(JSON.parse((await site.arrival('/api/messages')).body)).toMatchObject({ signature: 's3cret-Sign-Pass' });
    await workersLetGo(site.origin);
  });

  // chrome.debugger tells the extension of no worker as it starts (Target.setDiscoverTargets is refused), so one the
  // click starts is not lent: the act's rules stop its writes instead, and no card can show what it sent.
  it('stops a Send from a shared worker the click itself starts, and lifts the stop after the act', async () => {
    await linked.run('click', { selector: '#new-shared-send' });
    // The worker did send, and its request failed: stopped, not merely never made.
    expect((await linked.run('wait_for', { text: 'worker: failed' })).data).toMatchObject({ matched: true });
    expect(await writesReceived()).toEqual([]);
    expect(await until(actRules, (count) => count === 0)).toBe(0);
  });

  it('holds a Send the page posts to its service worker, which makes it from its own target', async () => {
    const card = await heldUnderWorker(posted, '#sw-send');
    await linked.run('release_held', { id: card.id, release: false });
    // The page's own GET goes through the worker too: once it arrived, a Send let through would have.
    await linked.run('click', { selector: '#refresh' });
    await posted.arrival('/api/inbox');
    expect(posted.received.filter((entry) => entry.method !== 'GET')).toEqual([]);
    // Given back once the act's widening is over: an attached service worker would be kept alive.
    await workersLetGo(posted.origin);
  });

  it('never sends one held when the worker stopped, though the new worker lets go of the tab', async () => {
    const card = await heldSend();
    const relinked = linked.nextLink();
    await linked.browser.stopWorker();
    await relinked;
    // The old session's id is stale, and its request never left: it was failed when held, so the detach had none.
    expect(
      ((await linked.run('release_held', { id: card.id, release: true }).catch((error: unknown) => error)) as ToolError)
        .code,
    ).toBe('NOT_FOUND');
    await linked.run('tab_new', { url: site.url('gate-mail.html') });
    expect(await writesReceived()).toEqual([]);
  });
});
