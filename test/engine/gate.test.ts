// The gate on risky acts, on real Chromium: on a site allowed to `act` (not trusted), a click or key that sends as the
// person (a form that pays, an SPA's Send, a Delete) is held with a card (secrets masked) until release_held sends
// exactly that request again, or rejects it; a changed page refuses a release; a trusted site, a write
// that sends nothing (a draft, a search) and a label alone ("Buy now" on a link) pass untouched; the guard and the
// page's own later requests work as before.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createEngineExecutor, type EngineExecutor } from '../../shared/engine/executor.js';
import type { HeldCard } from '../../shared/engine/gate/card.js';
import { readBody } from '../../shared/engine/gate/request-body.js';
import { LINGER_MS } from '../../shared/engine/gate/tab-gate.js';
import { isWrite, requestSends, roughlySameSite } from '../../shared/engine/gate/risk.js';
import type { Policy } from '../../shared/policy/policy.js';
import type { ToolError } from '../../shared/protocol/errors.js';
import type { Operation, OperationResult } from '../../shared/protocol/operations.js';
import { ctx, failure, useEngineSuite } from '../support/engine-suite.js';
import { startGateSite, type GateSite } from '../support/gate-site.js';
import { startWatchedSite, type WatchedSite } from '../support/watched-site.js';
import { testServerPolicy } from '../support/test-policy.js';

const suite = useEngineSuite();
const ACT = testServerPolicy('act', ['127.0.0.1']);
const TRUSTED = testServerPolicy('trusted', ['127.0.0.1']);
let policy: Policy = ACT;
let executor: EngineExecutor;
let site: GateSite;
let watched: WatchedSite;

beforeAll(async () => {
  site = await startGateSite();
  watched = await startWatchedSite();
  executor = createEngineExecutor(suite.browser.host, { tag: 'tg', policy: () => policy });
});
afterAll(async () => {
  executor?.dispose();
  await site?.close();
  await watched?.close();
});
beforeEach(() => {
  policy = ACT;
  site.received.length = 0;
});

const run = (op: Operation, args: Record<string, unknown> = {}): Promise<OperationResult> =>
  executor.run(op, args, ctx);
const mail = () => run('tab_new', { url: site.url('gate-mail.html') });
const checkout = () => run('tab_new', { url: site.url(`gate-checkout.html?to=${encodeURIComponent(watched.origin)}`) });
const CHECKOUT_BODY = 'name=Ada+Lovelace&cardnumber=4111111111111111&cvc=737&pw=hunter2-Correct';
const SECRETS = ['4111111111111111', '737', 'hunter2-Correct', 's3cret-Sign-Pass'];

/** The act that must be held: its HELD error and card. */
async function held(op: Operation, args: Record<string, unknown>): Promise<{ error: ToolError; card: HeldCard }> {
  const error = await failure(run(op, args));
  expect(error.code, error.message).toBe('HELD');
  return { error, card: error.data?.['held'] as HeldCard };
}

/**
 * The writes the site received, read once the page's own harmless request (a GET it makes on a click) has arrived: a
 * send the gate let through would have left before it.
 */
async function receivedAfter(sentinel: 'stock' | 'refresh'): Promise<string[]> {
  const path = sentinel === 'stock' ? '/stock' : '/api/inbox';
  const before = site.received.length;
  await run('click', { selector: `#${sentinel}` });
  await site.arrival(path, before);
  return site.received
    .slice(0, before)
    .filter((entry) => entry.method !== 'GET')
    .map((entry) => `${entry.method} ${entry.path}`);
}

function expectNoSecret(error: ToolError): void {
  const shown = JSON.stringify({ message: error.message, next: error.next, data: error.data });
  for (const secret of SECRETS) expect(shown).not.toContain(secret);
}

describe('a risky act on a site allowed to act', () => {
  it('holds a checkout form post in the browser, shows what it sends with card and password masked, and releases exactly it', async () => {
    await checkout();
    const { error, card } = await held('click', { selector: '#place' });
    expect(card).toMatchObject({
      id: 'tg.h1',
      site: new URL(site.origin).host,
      method: 'POST',
      url: `${site.origin}/submit`,
      tool: 'click',
    });
    expect(card.why).toBe('button "Place order" submits a POST to /submit (its name says "Place order")');
    expect(card.summary).toBe(
      'name="Ada Lovelace", cardnumber=[redacted 16 chars], cvc=[redacted 3 chars], pw=[redacted 15 chars]',
    );
    expect(error.message).toBe(
      `clicked button "Place order"; what it would send waits for the person's confirmation: POST ${site.origin}/submit (held as tg.h1).`,
    );
    expectNoSecret(error);
    // The page stays usable while its form post waits, and nothing of it has reached the site.
    expect((await run('snapshot')).text).toContain('Checkout');
    expect(await receivedAfter('stock')).toEqual([]);

    expect(await run('release_held', { id: card.id, release: true })).toEqual({
      text: `released: POST ${site.origin}/submit`,
      data: { released: true },
    });
    expect(await site.arrival('/submit')).toEqual({ method: 'POST', path: '/submit', body: CHECKOUT_BODY });
    await run('wait_for', { text: 'Order placed' });
  });

  it("holds an SPA's Send (fetch POST with JSON) with the password it carries masked, and never sends it when rejected", async () => {
    await mail();
    const { error, card } = await held('click', { selector: '#send' });
    expect(card).toMatchObject({ method: 'POST', url: `${site.origin}/api/messages`, tool: 'click' });
    expect(card.why).toBe(
      'button "Send" sends a POST to /api/messages (its name says "Send"; the endpoint names "messages")',
    );
    expect(card.summary).toBe(
      'to=alice@example.com, subject="Quarterly report", body="Dear Alice, the report for the third quarter is at"… (70 chars), signature=[redacted 16 chars]',
    );
    expectNoSecret(error);
    expect(await receivedAfter('refresh')).toEqual([]);

    expect(await run('release_held', { id: card.id, release: false })).toEqual({
      text: `rejected: POST ${site.origin}/api/messages`,
      data: { released: false },
    });
    await run('wait_for', { text: 'failed:' });
    expect(await receivedAfter('refresh')).toEqual([]);
    // Decided once: a second answer finds it gone.
    expect((await failure(run('release_held', { id: card.id, release: true }))).message).toBe(
      `Held act ${card.id} is gone: the person rejected it.`,
    );
  });

  it('holds a Delete (fetch DELETE) and Enter in the compose form (type with submit), each released to arrive exactly once', async () => {
    await mail();
    const deleted = await held('click', { selector: '#delete' });
    expect(deleted.card.method).toBe('DELETE');
    expect(deleted.card.why).toBe(
      'button "Delete message" sends a DELETE to /api/messages/7 (its name says "Delete message"; it is a DELETE)',
    );
    expect(deleted.card.summary).toBe('(no body)');
    await run('release_held', { id: deleted.card.id, release: true });
    expect(await site.arrival('/api/messages/7')).toMatchObject({ method: 'DELETE' });

    const typed = await held('type', { selector: '#subject', text: ' (final)', submit: true });
    expect(typed.card).toMatchObject({ tool: 'type', method: 'POST', url: `${site.origin}/api/messages` });
    expect(typed.error.message).toMatch(
      /^typed 8 chars into textbox "Subject", then pressed Enter; what it would send waits/,
    );
    expect(typed.card.summary).toContain('subject="Quarterly report (final)"');
    await run('release_held', { id: typed.card.id, release: true });
    const sent = await site.arrival('/api/messages');
    expect(JSON.parse(sent.body)).toEqual({
      to: 'alice@example.com',
      subject: 'Quarterly report (final)',
      body: 'Dear Alice, the report for the third quarter is attached. Regards, Ada',
      signature: 's3cret-Sign-Pass',
    });
    expect(site.received.filter((entry) => entry.path === '/api/messages')).toHaveLength(1);
  });

  it("holds a batch step's send with the same card, and runs no step after it", async () => {
    await mail();
    const error = await failure(
      run('batch', {
        steps: [
          { tool: 'click', args: { selector: '#draft' } },
          { tool: 'click', args: { selector: '#send' } },
          { tool: 'click', args: { selector: '#delete' } },
        ],
      }),
    );
    expect(error.code).toBe('HELD');
    expect(error.message).toMatch(
      /^step 2 \(click\): clicked button "Send"; what it would send waits for the person's confirmation: POST .*\/api\/messages \(held as tg\.h\d+\)\. Steps after it did not run\.$/,
    );
    expect(error.data).toMatchObject({
      step: 2,
      results: ['1 click: clicked button "Save draft"'],
      held: { method: 'POST', tool: 'click' },
    });
    await run('release_held', { id: (error.data?.['held'] as HeldCard).id, release: false });
    expect(await receivedAfter('refresh')).toEqual(['POST /api/drafts']);
  });

  it('holds a write whose large body reaches the interceptor only after the act answered, every time', async () => {
    await run('tab_new', { url: site.url('gate-large.html') });
    for (let round = 0; round < 4; round++) {
      const { card } = await held('click', { selector: '#tidy' });
      expect(card).toMatchObject({ method: 'DELETE', url: `${site.origin}/api/messages/7` });
      await run('release_held', { id: card.id, release: false });
    }
    expect(await receivedAfter('refresh')).toEqual([]);
  }, 90_000);

  /** The card of a Send clicked on a site of its own, once that site's service worker controls the page. */
  async function heldUnderWorker(served: GateSite, selector: string): Promise<HeldCard> {
    await run('tab_new', { url: served.url('gate-mail.html?sw') });
    expect((await run('wait_for', { text: 'controlled' })).data).toMatchObject({ matched: true });
    const { card } = await held('click', { selector });
    expect(card).toMatchObject({ method: 'POST', url: `${served.origin}/api/messages` });
    return card;
  }

  it('holds a Send that a service worker of the site fetches again from its own target', async () => {
    const served = await startGateSite();
    try {
      const card = await heldUnderWorker(served, '#send');
      // The page's own GET goes through the worker too: once it arrived, a Send let through would have.
      await run('click', { selector: '#refresh' });
      await served.arrival('/api/inbox');
      expect(served.received.filter((entry) => entry.method !== 'GET')).toEqual([]);
      await run('release_held', { id: card.id, release: true });
      expect(JSON.parse((await served.arrival('/api/messages')).body)).toMatchObject({ signature: 's3cret-Sign-Pass' });
    } finally {
      await served.close();
    }
  });

  /** A Send the page hands to a worker by clicking `selector`: held, rejected, never received. */
  const workerSend = (selector: string) => async () => {
    await mail();
    const { card } = await held('click', { selector });
    expect(card).toMatchObject({ method: 'POST', url: `${site.origin}/api/messages` });
    await run('release_held', { id: card.id, release: false });
    expect(await receivedAfter('refresh')).toEqual([]);
  };

  it(
    'holds a Send the page hands to a dedicated worker, which makes the request from its own target',
    workerSend('#worker-send'),
  );

  it('holds a Send the page hands to a shared worker, which makes it from a target of no tab', async () => {
    await mail();
    const { card } = await held('click', { selector: '#shared-send' });
    expect(card).toMatchObject({ method: 'POST', url: `${site.origin}/api/messages` });
    expect(await receivedAfter('refresh')).toEqual([]);
    // Released, it is sent from the page that handed it over.
    await run('release_held', { id: card.id, release: true });
    expect(JSON.parse((await site.arrival('/api/messages')).body)).toMatchObject({ signature: 's3cret-Sign-Pass' });
  });

  it('holds a Send from a shared worker the click itself starts', workerSend('#new-shared-send'));

  it('holds a Send the page posts to its service worker, which makes it from its own target', async () => {
    const served = await startGateSite();
    try {
      const card = await heldUnderWorker(served, '#sw-send');
      await run('release_held', { id: card.id, release: false });
      await run('click', { selector: '#refresh' });
      await served.arrival('/api/inbox');
      expect(served.received.filter((entry) => entry.method !== 'GET')).toEqual([]);
    } finally {
      await served.close();
    }
  });

  it("leaves a large harmless send of the step before to that step: the next step's card holds its own send only", async () => {
    await run('tab_new', { url: site.url('gate-large.html') });
    for (let round = 0; round < 4; round++) {
      const error = await failure(
        run('batch', {
          steps: [
            { tool: 'click', args: { selector: '#draft' } },
            { tool: 'click', args: { selector: '#send' } },
          ],
        }),
      );
      expect(error.message).toMatch(/: POST \S+\/api\/messages \(held as tg\.h\d+\)\. Steps after it did not run\.$/);
      await run('release_held', { id: (error.data?.['held'] as HeldCard).id, release: false });
    }
    // A large draft let go may finish arriving after the page's own quick GET (seen on a loaded box): each is waited for.
    for (let drafts = 0, from = 0; drafts < 4; drafts++)
      from = site.received.indexOf(await site.arrival('/api/drafts', from)) + 1;
    expect(await receivedAfter('refresh')).toEqual(Array(4).fill('POST /api/drafts'));
  }, 90_000);

  it('holds a send an SPA starts after the click handler returned (a validation first), judged by the control alone', async () => {
    await mail();
    const { card } = await held('click', { selector: '#later' });
    expect(card.why).toBe('button "Send later" sends a POST to /api/outbox (its name says "Send later")');
    expect(card.summary).toBe('to=alice@example.com, note=later');
    await run('release_held', { id: card.id, release: true });
    expect((await site.arrival('/api/outbox')).body).toBe('to=alice%40example.com&note=later');
  });

  it('holds a form that posts itself when select_option changes it, by the words of its commit control', async () => {
    await checkout();
    const { card } = await held('select_option', { selector: '#plan', values: 'pro' });
    expect(card).toMatchObject({
      tool: 'select_option',
      method: 'POST',
      url: `${site.origin}/plan`,
      summary: 'plan=pro',
    });
    expect(card.why).toBe('button "Subscribe" submits a POST to /plan (its name says "Subscribe")');
    await run('release_held', { id: card.id, release: true });
    expect((await site.arrival('/plan')).body).toBe('plan=pro');
  });

  it('refuses to release once the page reloaded or navigated, and nothing is sent', async () => {
    await mail();
    const first = await held('click', { selector: '#send' });
    await run('navigate', { url: site.url('gate-mail.html') });
    const second = await held('click', { selector: '#delete' });
    await run('navigate', { url: site.url('gate-checkout.html') });
    const third = await held('click', { selector: '#place' });
    await run('navigate', { url: site.url('gate-checkout.html') });
    for (const { card } of [first, second, third]) {
      const refused = await failure(run('release_held', { id: card.id, release: true }));
      expect(refused.code).toBe('NOT_FOUND');
      expect(refused.message).toBe(`Held act ${card.id} is gone: its page changed (navigated, reloaded or closed).`);
    }
    expect(await receivedAfter('stock')).toEqual([]);
  });

  it("answers an unknown or earlier session's id, and bad arguments, without touching anything", async () => {
    expect((await failure(run('release_held', { id: 'zz.h1', release: true }))).message).toMatch(
      /^No held act zz\.h1: it belongs to an earlier browser session/,
    );
    expect((await failure(run('release_held', { id: 'tg.h999', release: true }))).code).toBe('NOT_FOUND');
    expect((await failure(run('release_held', { id: 'tg.h1' }))).code).toBe('BAD_ARGS');
    expect((await failure(run('release_held', { id: 'tg.h1', release: true, extra: 1 }))).code).toBe('BAD_ARGS');
  });
});

describe('what a request says of itself', () => {
  const says = (method: string, url: string, contentType = '', body?: string) => {
    const sent = readBody(contentType, body);
    return isWrite(method, sent) ? (requestSends(method, url, sent) ?? 'a write that sends nothing') : 'not a write';
  };
  const graphql = (query: string | undefined, operationName?: string) =>
    JSON.stringify({
      ...(query === undefined ? { extensions: { persistedQuery: { version: 1 } } } : { query }),
      ...(operationName ? { operationName } : {}),
    });

  it('by method, endpoint words and GraphQL operation', () => {
    expect(says('GET', 'https://x.example/api/messages/send')).toBe('not a write');
    expect(says('DELETE', 'https://x.example/api/items/3')).toBe('it is a DELETE');
    expect(says('POST', 'https://api.telegram.example/bot1/sendMessage')).toBe('the endpoint names "send"');
    expect(says('PUT', 'https://x.example/v1/orders/12', 'application/json', '{"qty":2}')).toBe(
      'the endpoint names "orders"',
    );
    expect(says('POST', 'https://x.example/api/drafts', 'application/json', '{"to":"a"}')).toBe(
      'a write that sends nothing',
    );
    expect(
      says(
        'POST',
        'https://x.example/graphql',
        'application/json',
        graphql('mutation CreateTweet($t: String) { createTweet(text: $t) { id } }'),
      ),
    ).toBe('GraphQL mutation CreateTweet');
    expect(
      says('POST', 'https://x.example/graphql', 'application/json', graphql('query Messages { messages { id } }')),
    ).toBe('not a write');
    expect(
      says('POST', 'https://x.example/graphql', 'application/json', graphql('mutation SaveDraft { save { id } }')),
    ).toBe('a write that sends nothing');
    expect(says('POST', 'https://x.example/graphql', 'application/json', graphql(undefined, 'SendMessage'))).toBe(
      'GraphQL operation SendMessage',
    );
    expect(says('POST', 'https://x.example/graphql', 'application/json', graphql(undefined, 'GetMessages'))).toBe(
      'a write that sends nothing',
    );
  });

  it('reads form, multipart and JSON bodies as fields', () => {
    expect(readBody('application/x-www-form-urlencoded', 'to=a%40b.c&note=hi+there').fields).toEqual([
      ['to', 'a@b.c'],
      ['note', 'hi there'],
    ]);
    const multipart =
      '--XY\r\nContent-Disposition: form-data; name="to"\r\n\r\nbob\r\n--XY\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\nabc\r\n--XY--\r\n';
    expect(readBody('multipart/form-data; boundary=XY', multipart).fields).toEqual([
      ['to', 'bob'],
      ['file', '(file a.txt, 3 bytes)'],
    ]);
    expect(readBody('application/json', '{"message":{"to":"a","parts":[{"text":"hi"}]}}').fields).toEqual([
      ['message.to', 'a'],
      ['message.parts[0].text', 'hi'],
    ]);
  });

  it("tells the page's own site from a third party, roughly", () => {
    expect(roughlySameSite('https://api.shop.example/x', 'https://www.shop.example/')).toBe(true);
    expect(roughlySameSite('https://a.shop.example.co.uk/x', 'https://b.shop.example.co.uk/')).toBe(true);
    expect(roughlySameSite('https://www.google-analytics.com/collect', 'https://mail.google.com/')).toBe(false);
    expect(roughlySameSite('http://127.0.0.1:9/x', 'http://127.0.0.2:9/')).toBe(false);
  });
});

describe('what the gate lets through', () => {
  it('the same acts on a trusted site', async () => {
    policy = TRUSTED;
    await mail();
    await run('click', { selector: '#send' });
    await site.arrival('/api/messages');
    await run('click', { selector: '#delete' });
    await site.arrival('/api/messages/7');
    await checkout();
    expect((await run('click', { selector: '#place' })).text).toBe(
      `clicked button "Place order" → ${site.origin}/submit`,
    );
    expect((await site.arrival('/submit')).body).toBe(CHECKOUT_BODY);
  });

  it('a write that sends nothing (a draft, a search form) and a GET link labelled "Buy now"', async () => {
    await mail();
    expect((await run('click', { selector: '#draft' })).text).toBe('clicked button "Save draft"');
    await site.arrival('/api/drafts');
    await checkout();
    expect((await run('click', { selector: '#find' })).text).toBe(`clicked button "Search" → ${site.origin}/search`);
    expect((await site.arrival('/search')).body).toBe('q=lamps');
    await checkout();
    expect((await run('click', { selector: '#buy' })).text).toBe(
      `clicked link "Buy now" → ${site.origin}/product?id=1`,
    );
  });

  it('after an act, the guard still refuses a navigation, and a send the page makes later on its own goes out', async () => {
    await checkout();
    await held('click', { selector: '#place' });
    expect((await failure(run('click', { selector: '#out' }))).code).toBe('DOMAIN_CONFIRMATION_REQUIRED');
    expect((await failure(run('navigate', { url: `${watched.origin}/` }))).code).toBe('DOMAIN_CONFIRMATION_REQUIRED');
    expect(watched.requests).toEqual([]);
    // Past the act's bounded tail and the widening's linger the tab pauses documents only: the page's timer sends, not
    // even paused (and so not held: the gate's known limit).
    await run('tab_new', { url: site.url(`gate-mail.html?delay=${LINGER_MS + 2_000}`) });
    const tab = (await suite.browser.host.list()).find((each) => each.url.includes('?delay='))!;
    const paused: string[] = [];
    const stop = (await suite.browser.host.cdp(tab.id)).on((event) => {
      if (event.method === 'Fetch.requestPaused') paused.push((event.params['request'] as { url: string }).url);
    });
    try {
      expect((await run('click', { selector: '#schedule' })).text).toBe('clicked button "Schedule"');
      expect(site.received).toEqual([]);
      expect(JSON.parse((await site.arrival('/api/messages')).body)).toMatchObject({ to: 'alice@example.com' });
      expect(paused).toEqual([]);
    } finally {
      stop();
    }
  });
});
