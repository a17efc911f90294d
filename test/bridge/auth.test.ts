// Who gets in: a peer that proves it holds the secret (or knows the one-time code), from our extension id behind our
// Origin, within the handshake deadline; everyone else is refused before anything they send is acted on. And one
// active connection at a time. The attacks on the handshake itself are in handshake.test.ts.
import { describe, expect, it } from 'vitest';
import { ToolError } from '../../shared/protocol/errors.js';
import { proofOf, secretKey } from '../../shared/protocol/bridge-proof.js';
import { CLOSE_CODES, WIRE_VERSION } from '../../shared/protocol/wire.js';
import { startBridge } from './support/bridge-harness.js';
import { EXT, helloText, ok, Peer, UpgradeRefused } from './support/peer.js';

describe('bridge authentication', () => {
  it('admits our extension with the right secret: welcome with a session, then commands flow', async () => {
    const { bridge, connect } = await startBridge({ heartbeatMs: 15_000 });
    const connected = new Promise((resolve) => bridge.once('connected', resolve));
    const peer = await connect();
    peer.serve((command) => ok(command, 'hi'));
    await connected;
    const link = bridge.link();
    expect(link?.identity).toMatchObject({ extensionId: EXT.id, version: EXT.version, chrome: EXT.chrome });
    expect(link?.identity.session).toMatch(/^[0-9a-z]{3}$/);
    expect(await link?.call('tabs', {})).toEqual({ text: 'hi' });
  });

  it('sends the session and heartbeat in welcome', async () => {
    const { bridge, auth, dial } = await startBridge({ heartbeatMs: 12_345 });
    const peer = await dial();
    await peer.greet(auth.current);
    const welcome = await peer.next('welcome');
    expect(welcome).toEqual({
      type: 'welcome',
      v: WIRE_VERSION,
      session: bridge.link()?.identity.session,
      heartbeatMs: 12_345,
    });
  });

  it('refuses a wrong proof with unauthorized + 4401 and acts on nothing sent after it', async () => {
    const { bridge, auth, dial } = await startBridge();
    const peer = await dial();
    const { coreProved, context } = await peer.greet('not-the-secret');
    // Queued behind the wrong proof: the right one, a second hello and an answer frame. None may be read.
    peer.send({ type: 'proof', proof: await proofOf(secretKey(auth.current), 'extension', context) });
    peer.sendText(helloText());
    peer.send({ type: 'result', id: '1', ok: true, result: { text: 'x' } });
    expect(coreProved).toBe(false);
    expect(await peer.next('unauthorized')).toEqual({ type: 'unauthorized', reason: 'bad_secret' });
    expect((await peer.closed).code).toBe(CLOSE_CODES.unauthorized);
    expect(auth.asked).toBe(1);
    expect(bridge.link()).toBeUndefined();
    expect(peer.frames).toEqual([]);
  });

  it('refuses a first frame that is not hello or pair without asking the store', async () => {
    const { auth, dial } = await startBridge();
    const peer = await dial();
    peer.send({ type: 'result', id: '1', ok: true, result: { text: 'x' } });
    expect(await peer.next('unauthorized')).toEqual({ type: 'unauthorized', reason: 'bad_frame' });
    expect((await peer.closed).code).toBe(CLOSE_CODES.unauthorized);
    expect(auth.asked).toBe(0);
  });

  it('refuses the old hello (wire v1, the secret in clear) as bad_version, saying the extension is older', async () => {
    const { auth, dial, lines } = await startBridge();
    const peer = await dial();
    peer.send({ type: 'hello', v: 1, secret: auth.current, ext: EXT });
    expect(await peer.next('unauthorized')).toEqual({ type: 'unauthorized', reason: 'bad_version' });
    expect((await peer.closed).code).toBe(CLOSE_CODES.unauthorized);
    expect(auth.asked).toBe(0);
    expect(
      lines.some((line) => line.includes(`wire v1, this core v${WIRE_VERSION}`) && line.includes('older than the app')),
    ).toBe(true);
  });

  it('tells an extension built for a newer wire version so', async () => {
    const { auth, dial } = await startBridge();
    const peer = await dial();
    peer.send({ type: 'hello', v: WIRE_VERSION + 1, nonce: 'n'.repeat(43), ext: EXT });
    expect(await peer.next('unauthorized')).toEqual({ type: 'unauthorized', reason: 'bad_version' });
    expect(auth.asked).toBe(0);
  });

  it('pairs with a one-time code it never sees: paired seals the new secret, welcome and the policy follow, the code is spent', async () => {
    const { bridge, auth, dial } = await startBridge();
    auth.code = 'K7Q2-9XRT';
    const peer = await dial();
    const secret = await peer.pair('k7q2 9xrt');
    expect(secret).toBe(auth.current);
    await peer.next('welcome');
    await peer.next('policy');
    expect(bridge.link()).toBeDefined();
    expect(peer.frames).toEqual([]);

    // Spent: there is no live code, so no challenge either.
    const again = await dial();
    again.sendText(helloText(undefined, EXT, 'pair'));
    expect(await again.next('unauthorized')).toEqual({ type: 'unauthorized', reason: 'bad_code' });
    expect((await again.closed).code).toBe(CLOSE_CODES.unauthorized);

    // The secret it was given is the one that works from now on.
    const later = await Peer.connect(bridge.port, secret);
    later.close();
  });

  it.each([
    ['another extension', 'chrome-extension://aaaabbbbccccddddeeeeffffgggghhhh'],
    ['a web page', 'https://evil.example'],
    ['our origin with a suffix', 'chrome-extension://emhiickdbgmamkpeciieeejhhkpjoflc.evil'],
    ['no Origin at all', null],
  ])('refuses %s at the HTTP upgrade (403) without consulting the store', async (_name, origin) => {
    const { bridge, auth, lines } = await startBridge();
    const refused = await Peer.dial(bridge.port, { origin }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(UpgradeRefused);
    expect((refused as UpgradeRefused).status).toBe(403);
    expect(auth.asked).toBe(0);
    expect(lines.some((line) => line.includes('refused a connection at upgrade'))).toBe(true);
  });

  it('refuses a Host that is not this loopback bridge (DNS rebinding) at the upgrade', async () => {
    const { bridge } = await startBridge();
    await expect(Peer.dial(bridge.port, { host: `evil.example:${bridge.port}` })).rejects.toMatchObject({
      status: 403,
    });
    await expect(Peer.dial(bridge.port, { host: '127.0.0.1:1' })).rejects.toMatchObject({ status: 403 });
    const viaLocalhost = await Peer.dial(bridge.port, { host: `localhost:${bridge.port}` });
    viaLocalhost.close();
  });

  it('never lets a connection naming another extension id displace the active one', async () => {
    const { bridge, auth, connect, dial } = await startBridge();
    const active = await connect();
    active.serve((command) => ok(command));
    const session = bridge.link()?.identity.session;

    const intruder = await dial();
    intruder.sendText(helloText(undefined, { ...EXT, id: 'aaaabbbbccccddddeeeeffffgggghhhh' }));
    expect(await intruder.next('unauthorized')).toEqual({ type: 'unauthorized', reason: 'bad_origin' });
    expect((await intruder.closed).code).toBe(CLOSE_CODES.unauthorized);
    expect(intruder.frames).toEqual([]);
    expect(auth.asked).toBe(1);

    expect(bridge.link()?.identity.session).toBe(session);
    expect(await bridge.link()?.call('tabs', {})).toEqual({ text: 'did tabs' });
  });

  it('lets a newer connection of the same extension replace the active one, failing its waiting calls, loudly', async () => {
    const { bridge, connect, lines } = await startBridge();
    const first = await connect();
    const firstLink = bridge.link();
    const waiting = firstLink?.call('snapshot', {}).catch((error: unknown) => error);
    const replaced = new Promise<unknown[]>((resolve) => bridge.once('replaced', (...args) => resolve(args)));

    const second = await connect();
    second.serve((command) => ok(command, 'from second'));

    const failure = await waiting;
    expect(failure).toBeInstanceOf(ToolError);
    expect(failure).toMatchObject({ code: 'EXTENSION_DISCONNECTED' });
    expect(await first.next('unauthorized')).toEqual({ type: 'unauthorized', reason: 'replaced' });
    expect((await first.closed).code).toBe(CLOSE_CODES.replaced);
    const [previous, next] = await replaced;
    expect(previous).toBe(firstLink);
    expect(next).toBe(bridge.link());
    expect(bridge.link()).not.toBe(firstLink);
    expect(bridge.link()?.identity.session).not.toBe(firstLink?.identity.session);
    expect(lines.some((line) => line.includes('SECURITY') && line.includes('replaced'))).toBe(true);
    expect(await bridge.link()?.call('tabs', {})).toEqual({ text: 'from second' });
  });

  it('closes a connection that sends nothing within helloTimeoutMs, with unauthorized timeout + 4401', async () => {
    const { bridge, dial } = await startBridge({ helloTimeoutMs: 300 });
    const started = performance.now();
    const peer = await dial();
    expect(await peer.next('unauthorized')).toEqual({ type: 'unauthorized', reason: 'timeout' });
    const { code, at } = await peer.closed;
    expect(code).toBe(CLOSE_CODES.unauthorized);
    expect(at - started).toBeGreaterThanOrEqual(250);
    expect(at - started).toBeLessThan(1_000);
    expect(bridge.link()).toBeUndefined();
  });

  it('by default, closes a silent connection within 5 s', async () => {
    const { dial } = await startBridge();
    const started = performance.now();
    const peer = await dial();
    const { code, at } = await peer.closed;
    expect(code).toBe(CLOSE_CODES.unauthorized);
    // The server's deadline is 5000 ms from accepting the socket. Timers run late on a loaded machine, never early: the
    // upper bound leaves room for that, and the lower one shows it is this deadline and not something sooner.
    expect(at - started).toBeGreaterThan(4_900);
    expect(at - started).toBeLessThan(5_500);
  }, 10_000);

  it('cuts off a peer that sends more than a hello could ever need before authenticating', async () => {
    const { auth, dial, connect } = await startBridge();
    const peer = await dial();
    peer.sendText(JSON.stringify({ type: 'hello', v: 1, secret: 'x', ext: EXT, pad: 'p'.repeat(1024 * 1024) }));
    const { code } = await peer.closed;
    expect(code).toBe(1006);
    expect(auth.asked).toBe(0);
    (await connect()).close();
  });

  it('refuses new connections at the upgrade while too many are still authenticating, and recovers', async () => {
    const { bridge, dial, connect } = await startBridge();
    const waiting = await Promise.all(Array.from({ length: 16 }, () => dial()));
    await expect(Peer.dial(bridge.port)).rejects.toMatchObject({ status: 503 });
    for (const peer of waiting) peer.socket.terminate();
    await Promise.all(waiting.map((peer) => peer.closed));
    await expect
      .poll(async () =>
        Peer.dial(bridge.port).then(
          (peer) => (peer.close(), true),
          () => false,
        ),
      )
      .toBe(true);
    (await connect()).close();
  });

  it('closes with 1011 (retry later, not unauthorized) when the pairing store fails', async () => {
    const { auth, dial, lines } = await startBridge();
    auth.failWith = 'keychain locked';
    const peer = await dial();
    peer.sendText(helloText());
    expect((await peer.closed).code).toBe(1011);
    expect(peer.frames).toEqual([]);
    expect(lines.some((line) => line.includes('could not check an extension connection: keychain locked'))).toBe(true);
  });
});
