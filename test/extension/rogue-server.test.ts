// A rogue on the port the extension dials, with no core there: the real extension in Chromium tells it nothing it
// could use (no secret, no hash or HMAC of it, no proof, no pairing code or its key) and obeys none of it (no command,
// no ping answered, no secret of its choosing kept), refuses a wrong, replayed or relayed core proof, says so in its
// popup and backs off; the real core still links. A v1 extension sent its secret in its first frame to whoever
// listened and ran that server's commands: every test here fails on it.
import { createHash, createHmac } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BridgeServer } from '../../electron/core/bridge/bridge-server.js';
import type { ExtensionLink } from '../../electron/core/bridge/extension-link.js';
import { codeKey, freshNonce, proofOf, secretKey, toBase64Url } from '../../shared/protocol/bridge-proof.js';
import { startExtensionBrowser, type ExtensionBrowser } from '../support/extension-browser.js';
import { TEST_POLICY } from '../support/test-policy.js';
import { FakeAuth } from '../bridge/support/fake-auth.js';
import { helloText, Peer } from '../bridge/support/peer.js';
import { RawCore, type RawLink } from './support/raw-core.js';
import { until } from './support/until.js';

let rogue: RawCore;
let auth: FakeAuth;
let core: BridgeServer;
let browser: ExtensionBrowser;
let secret: string;

beforeAll(async () => {
  rogue = await RawCore.start();
  auth = new FakeAuth();
  secret = auth.current;
  // The real core, on a port of its own: the rogue can talk to it, as any local process can.
  core = await BridgeServer.start({ port: 0, auth, log: () => undefined, policy: () => TEST_POLICY });
  browser = await startExtensionBrowser();
});

// The worker's slow alarm would dial at its own moment, between a test's steps: each test starts with none (the
// extension makes it again, 30 s out, when it backs off).
beforeEach(async () => {
  await browser.evaluate('chrome.alarms.clearAll()');
});

afterAll(async () => {
  await browser?.close();
  await core?.close();
  await rogue?.close();
});

/** Every form of the secret a rogue could use or check a guess against offline, without knowing it first. */
function secretForms(link: RawLink): string[] {
  const forms = [secret];
  for (const digest of [
    createHash('sha256').update(secret).digest(),
    createHmac('sha256', secret).update(link.greeting.nonce).digest(),
  ]) {
    forms.push(digest.toString('hex'), digest.toString('base64'), digest.toString('base64url'));
  }
  return forms;
}

function linkState(): Promise<{ state?: string; detail?: string }> {
  return browser
    .evaluate<{ link?: { state: string; detail?: string } }>('chrome.storage.session.get("link")')
    .then((value) => value.link ?? {});
}

/** A core challenge the extension must refuse: sends it and waits until the extension hangs up. */
async function refusedAfter(link: RawLink, challenge: { nonce: string; proof: string }): Promise<void> {
  link.send({ type: 'challenge', ...challenge });
  // A v1 extension would read this as nothing and carry on; the command and ping show it obeys none of it either.
  link.send({ type: 'welcome', v: 2, session: 'r1', heartbeatMs: 15_000 });
  link.send({ type: 'command', id: 'steal', op: 'tabs', args: {}, timeoutMs: 5_000 });
  link.send({ type: 'ping', ts: 4242 });
  await link.closed;
}

describe('a rogue server on the bridge port', () => {
  it('gets a nonce and nothing else: no secret, no hash or HMAC of it, no proof, no answer to a command or ping', async () => {
    const dialled = rogue.nextLink();
    await browser.seed({ port: rogue.port, secret });
    const link = await dialled;
    expect(link.greeting).toMatchObject({ type: 'hello', nonce: expect.any(String) });
    const coreNonce = freshNonce();
    await refusedAfter(link, { nonce: coreNonce, proof: toBase64Url(new Uint8Array(32)) });

    expect(link.received).toEqual([]);
    // The extension's proof for this very challenge is what a rogue would brute-force; it never came either.
    const forms = [...secretForms(link), await proofOf(secretKey(secret), 'extension', link.context(coreNonce))];
    for (const text of link.texts) for (const form of forms) expect(text).not.toContain(form);
  });

  it('is shown as refused in the popup, and not dialled again in a hot loop', async () => {
    const status = await until(linkState, (value) => value.state === 'impostor');
    expect(status.state).toBe('impostor');
    expect(status.detail).toContain(`port ${rogue.port}`);
    // Backed off: no dial in the next few seconds, not even when the popup opens (a retry loop would have dialled a
    // dozen times; this is the one place a wait is the measurement).
    const dials = rogue.connections;
    const popup = await browser.openPage('popup.html');
    await sleep(3_000);
    expect(rogue.connections).toBe(dials);

    // Reconnect is the person asking: it dials once more, and the popup says what it found.
    await popup.evaluate(`document.getElementById('reconnect').click()`);
    const again = await rogue.nextLink();
    await refusedAfter(again, { nonce: freshNonce(), proof: toBase64Url(new Uint8Array(32).fill(7)) });
    const headline = () => popup.evaluate<string>('document.getElementById("state").textContent');
    expect(await until(headline, (text) => text === 'Refused a server that is not the app')).toBe(
      'Refused a server that is not the app',
    );
    expect(await popup.evaluate<string>('document.getElementById("detail").textContent')).toMatch(
      /could not prove it is the Chrome MCP app.*told it nothing/,
    );
    expect(again.received).toEqual([]);
    await popup.close();
  });

  it('runs nothing on a welcome that no challenge came before, and keeps no secret it is handed', async () => {
    const dialled = rogue.nextLink();
    const popup = await browser.openPage('popup.html');
    await popup.evaluate(`document.getElementById('reconnect').click()`);
    const link = await dialled;
    link.send({ type: 'paired', wrapped: toBase64Url(new Uint8Array(64).fill(1)) });
    link.send({ type: 'welcome', v: 2, session: 'r2', heartbeatMs: 15_000 });
    link.send({ type: 'command', id: 'steal', op: 'tabs', args: {}, timeoutMs: 5_000 });
    link.send({ type: 'ping', ts: 4343 });
    // A server that skips its proof is one that failed it: hung up on at its first such frame, not after the 10 s a
    // server is given to prove itself.
    await link.closed;
    expect(link.received).toEqual([]);
    expect(await browser.evaluate('chrome.storage.local.get("bridge").then((value) => value.bridge.secret)')).toBe(
      secret,
    );
    // Shown and backed off as an impostor, not dialled again at once as after a dropped link. Waiting for it also lets
    // the extension let go of the socket (whose close can reach the rogue first) before the next test's Reconnect.
    const status = await until(linkState, (value) => value.state === 'impostor');
    expect(status.state).toBe('impostor');
    await popup.close();
  });

  it('refuses a core proof replayed from another connection, and one relayed from the real core on another port', async () => {
    // Replayed: the rogue asks the real core for a challenge on a connection of its own, and plays it back.
    const replay = await Peer.dial(core.port);
    replay.sendText(helloText());
    const recorded = await replay.next('challenge');
    const popup = await browser.openPage('popup.html');
    await popup.evaluate(`document.getElementById('reconnect').click()`);
    const first = await rogue.nextLink();
    await refusedAfter(first, { nonce: recorded.nonce, proof: recorded.proof });
    expect(first.received).toEqual([]);

    // Relayed: the rogue passes the extension's own nonce to the real core and its fresh challenge back. It proves
    // the secret, but for the core's port, not the one the extension dialled.
    await popup.evaluate(`document.getElementById('reconnect').click()`);
    const second = await rogue.nextLink();
    const relay = await Peer.dial(core.port);
    relay.sendText(helloText(second.greeting.nonce, second.greeting.ext));
    const live = await relay.next('challenge');
    await refusedAfter(second, { nonce: live.nonce, proof: live.proof });
    expect(second.received).toEqual([]);
    // The extension hangs up first and records why after: the socket's close can reach the rogue before the record.
    expect((await until(linkState, (value) => value.state === 'impostor')).state).toBe('impostor');
    await popup.close();
  });

  it('learns no pairing code from a pair attempt: no code, no key from it, no proof made with it', async () => {
    const code = 'K7Q2-9XRT';
    const popup = await browser.openPage('popup.html');
    const dialled = rogue.nextLink();
    await popup.evaluate(
      `document.getElementById('code').value = ${JSON.stringify(code)}; document.getElementById('pair-form').requestSubmit()`,
    );
    const link = await dialled;
    expect(link.greeting).toMatchObject({ type: 'pair', nonce: expect.any(String) });
    const salt = toBase64Url(new Uint8Array(16).fill(9));
    const coreNonce = freshNonce();
    link.send({ type: 'challenge', nonce: coreNonce, proof: toBase64Url(new Uint8Array(32)), salt });
    await link.closed;
    const result = await until(
      () => popup.evaluate<string>('document.getElementById("result").textContent'),
      (text) => text !== 'Pairing…',
    );
    expect(result).toMatch(/could not prove it knows this code.*Nothing was sent to it/);

    expect(link.received).toEqual([]);
    const key = await codeKey(code, salt);
    const forms = [
      code,
      code.replace('-', ''),
      code.toLowerCase(),
      toBase64Url(key),
      await proofOf(key, 'extension', link.context(coreNonce)),
    ];
    for (const text of link.texts) for (const form of forms) expect(text).not.toContain(form);
    // And the secret it had is still the one it keeps.
    expect(await browser.evaluate('chrome.storage.local.get("bridge").then((value) => value.bridge.secret)')).toBe(
      secret,
    );
    await popup.close();
  });

  it('still links to the real core, with the secret it stored before, on its own', async () => {
    const linked = new Promise<ExtensionLink>((resolve) => core.once('connected', resolve));
    await browser.seed({ port: core.port, secret });
    const link = await linked;
    expect(await link.ping(5_000)).toBe(true);
    expect(await until(linkState, (value) => value.state === 'connected')).toMatchObject({ state: 'connected' });
  });
});
