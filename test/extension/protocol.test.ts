// The extension's end of the wire against a bare core that can send anything: the handshake, junk dropped without
// harm, every command id answered exactly once, pings, progress and cancel, the site policy, and a refused secret.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseSitePattern } from '../../shared/policy/pattern.js';
import { DEFAULT_POLICY, type Policy } from '../../shared/policy/policy.js';
import { policyToTransfer } from '../../shared/policy/transfer.js';
import { CLOSE_CODES, WIRE_VERSION, type ExtensionFrame } from '../../shared/protocol/wire.js';
import { EXTENSION_ID } from '../../shared/protocol/extension-id.js';
import { startExtensionBrowser, type ExtensionBrowser } from '../support/extension-browser.js';
import { startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { TEST_POLICY } from '../support/test-policy.js';
import { is, RawCore, type RawLink } from './support/raw-core.js';
import { until } from './support/until.js';

const SECRET = 'protocol-test-secret';
const SESSION = 'p1';

let core: RawCore;
let fixtures: FixtureServer;
let browser: ExtensionBrowser;
let link: RawLink;
let nextId = 0;

beforeAll(async () => {
  core = await RawCore.start();
  fixtures = await startFixtureServer();
  browser = await startExtensionBrowser();
  const dialled = core.nextLink();
  await browser.seed({ port: core.port, secret: SECRET });
  link = await dialled;
  await link.accept(SECRET, SESSION);
  link.policy(TEST_POLICY);
});

afterAll(async () => {
  await browser?.close();
  await fixtures?.close();
  await core?.close();
});

function command(op: string, args: Record<string, unknown> = {}, id = `c${++nextId}`, timeoutMs = 20_000): string {
  link.send({ type: 'command', id, op: op as never, args, timeoutMs });
  return id;
}

type Result = Extract<ExtensionFrame, { type: 'result' }>;

function answersTo(id: string): Result[] {
  return link.received.filter((frame): frame is Result => frame.type === 'result' && frame.id === id);
}

/** Runs one command and reads its outcome: `ok`, or the error code. */
async function outcome(op: string, args: Record<string, unknown> = {}): Promise<string> {
  const answer = await link.next(is.result(command(op, args)));
  return answer.ok ? 'ok' : answer.error.code;
}

describe('the extension on the wire', () => {
  it('dials the seeded port and says hello with a fresh nonce and its identity, not the secret', () => {
    expect(link.greeting).toEqual({
      type: 'hello',
      v: WIRE_VERSION,
      nonce: expect.stringMatching(/^[\w-]{43}$/),
      ext: { id: EXTENSION_ID, version: '0.1.0', chrome: expect.any(String) },
    });
    expect(link.texts.join('\n')).not.toContain(SECRET);
  });

  it('drops frames that do not decode, and answers the next command', async () => {
    const before = link.received.length;
    link.sendText('{ not json');
    link.sendText(JSON.stringify({ type: 'command' }));
    link.sendText(JSON.stringify({ type: 'command', id: 'junk-op', op: 'format_disk', args: {}, timeoutMs: 1000 }));
    link.sendText(
      JSON.stringify({ type: 'command', id: 'junk-extra', op: 'ping', args: {}, timeoutMs: 1000, extra: true }),
    );
    link.sendText(JSON.stringify({ type: 'welcome', v: 99, session: 'x', heartbeatMs: 1 }));
    link.sendBinary(new Uint8Array([1, 2, 3]));
    const id = command('ping');
    expect((await link.next(is.result(id))).ok).toBe(true);
    expect(
      link.received
        .slice(before)
        .filter((frame) => frame.type === 'result')
        .map((frame) => (frame as Result).id),
    ).toEqual([id]);
  });

  it('answers every command id exactly once: results, typed errors, repeats and junk arguments alike', async () => {
    const ids = [
      command('ping'),
      command('tabs'),
      command('tabs'),
      command('snapshot', { depth: 'deep', bogus: 1 }),
      command('tab_select', { tab: 'zz.1' }),
      command('get_text', { tab: `x${SESSION}.999` }),
      command('batch', { steps: [{ tool: 'batch', args: {} }] }),
      command('eval', { expression: 'throw new Error("boom")' }),
    ];
    // The same id again while the first runs: still one answer.
    const repeated = command('wait_for', { text: 'never shows up', timeout: 600 });
    command('wait_for', { text: 'never shows up', timeout: 600 }, repeated);
    ids.push(repeated);
    for (const id of ids) await link.next(is.result(id));
    // Anything answered twice would have arrived by now.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(ids.map((id) => answersTo(id).length)).toEqual(ids.map(() => 1));

    const codes = Object.fromEntries(
      ids
        .map((id) => [id, answersTo(id)[0]!])
        .map(([id, frame]) => [id, (frame as Result).ok ? 'ok' : (frame as Extract<Result, { ok: false }>).error.code]),
    );
    expect(Object.values(codes)).toEqual([
      'ok',
      'ok',
      'ok',
      'BAD_ARGS',
      'STALE_TAB',
      'TAB_NOT_FOUND',
      'BAD_ARGS',
      expect.any(String),
      expect.any(String),
    ]);
  });

  it("answers the core's heartbeat ping with its timestamp", async () => {
    link.send({ type: 'ping', ts: 12345 });
    expect(await link.next(is.pong(12345))).toEqual({ type: 'pong', ts: 12345 });
  });

  it('reports progress on a long command and stops it on cancel, answering it once', async () => {
    // On a page the policy lets it read: a blank tab has no site any rule could allow.
    expect(await outcome('tab_new', { url: fixtures.url('nav-a.html') })).toBe('ok');
    const id = command('wait_for', { text: 'never shows up', timeout: 20_000 });
    expect((await link.next(is.progress(id))).message).toBeTruthy();
    const start = performance.now();
    link.send({ type: 'cancel', id });
    const answer = await link.next(is.result(id));
    expect(performance.now() - start).toBeLessThan(2_000);
    expect(answer).toMatchObject({ ok: false, error: { code: 'STOPPED' } });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(answersTo(id)).toHaveLength(1);
  });
});

describe('the site policy from the core', () => {
  const BLOCKED: Policy = { ...DEFAULT_POLICY, rules: [{ site: parseSitePattern('127.0.0.1'), level: 'blocked' }] };

  it('checks every step against the latest policy that parses; a frame that does not decode or parse changes nothing', async () => {
    const opened = await link.next(is.result(command('tab_new', { url: fixtures.url('nav-a.html') })));
    expect(opened.ok).toBe(true);
    const tab = String((opened as Extract<Result, { ok: true }>).result.data?.['tab']);
    expect(await outcome('snapshot', { tab })).toBe('ok');

    link.policy(BLOCKED);
    expect(await outcome('snapshot', { tab })).toBe('POLICY_DENIED');

    // Each of these would let the page be read again, were any part of it taken.
    const allowing = policyToTransfer(TEST_POLICY);
    link.sendText(JSON.stringify({ type: 'policy', policy: { ...allowing, extra: true } }));
    link.sendText(
      JSON.stringify({ type: 'policy', policy: { ...allowing, grants: [{ site: '127.0.0.1', level: 'root' }] } }),
    );
    link.sendText(JSON.stringify({ type: 'policy', policy: allowing, extra: true }));
    link.sendText(JSON.stringify({ type: 'policy' }));
    // Decodes, but one grant names a page rather than a site: refused whole, not applied minus the bad grant.
    link.send({
      type: 'policy',
      policy: { ...allowing, grants: [...allowing.grants, { site: 'http://127.0.0.1/admin', level: 'trusted' }] },
    });
    expect(await outcome('snapshot', { tab })).toBe('POLICY_DENIED');

    link.policy(TEST_POLICY);
    expect(await outcome('snapshot', { tab })).toBe('ok');
  });

  it('starts a new link from the default (ask every site), never from what the last link was told', async () => {
    const dialled = core.nextLink();
    link.close();
    link = await dialled;
    // Like a command, a policy before the welcome is not the extension's to take.
    expect(await link.authenticate(SECRET)).toBe(true);
    link.policy(TEST_POLICY);
    link.welcome('p2');
    // The tab is still current; only the policy is gone with the old link.
    expect(await outcome('snapshot')).toBe('DOMAIN_CONFIRMATION_REQUIRED');
    link.policy(TEST_POLICY);
    expect(await outcome('snapshot')).toBe('ok');
  });
});

describe('a refused secret', () => {
  it('stops dialling until the credentials change, then proves the new secret', async () => {
    // Wake-ups while the refusal is being judged (an alarm, the popup opening) must not dial with the refused secret.
    const popup = await browser.openPage('popup.html');
    const wakeUps = popup.evaluate(`(async () => {
      for (const end = Date.now() + 1500; Date.now() < end; await new Promise((r) => setTimeout(r, 2)))
        chrome.runtime.sendMessage({ type: 'connect', force: false }).catch(() => undefined);
    })()`);
    link.refuse('bad_secret', CLOSE_CODES.unauthorized);
    await link.closed;
    await wakeUps;
    await popup.close();
    // The native host is asked again once (none is installed here), then the extension waits: no new dial.
    const status = await until(
      () => browser.evaluate<{ link?: { state: string } }>('chrome.storage.session.get("link")'),
      (value) => value.link?.state === 'unauthorized',
    );
    expect(status.link).toMatchObject({ state: 'unauthorized' });
    await expect(core.nextLink(2_000)).rejects.toThrow(/no connection/);

    const dialled = core.nextLink();
    await browser.seed({ port: core.port, secret: 'a-new-secret' });
    link = await dialled;
    expect(link.greeting).toMatchObject({ type: 'hello' });
    expect(await link.authenticate('a-new-secret')).toBe(true);
  });
});
