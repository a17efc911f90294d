// Pairing through the control API, on real parts: the secret store on a temp data dir, the code file, and a real
// bridge a test extension pairs with over a real WebSocket. The code reaches the caller and nothing else, and a revoke
// lets nothing through that was being checked while it ran (a store held half-way makes those interleavings).
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { BridgeServer } from '../../electron/core/bridge/bridge-server.js';
import { bridgePairing } from '../../electron/core/control/pairing-control.js';
import { createBridgeAuth } from '../../electron/core/pairing/bridge-auth.js';
import type { Keychain } from '../../electron/core/pairing/keychain.js';
import { CODE_TTL_MS } from '../../electron/core/pairing/pairing-code.js';
import { REVOKED_FILE } from '../../electron/core/pairing/revocation.js';
import { SECRET_FILE, SecretStore } from '../../electron/core/pairing/secret-store.js';
import { EXT, helloText, Peer } from '../bridge/support/peer.js';
import { TEST_POLICY } from '../support/test-policy.js';
import { makeHub, tempDataDirs } from './support.js';

const dirs = tempDataDirs();
const bridges: BridgeServer[] = [];
const peers: Peer[] = [];
afterEach(async () => {
  for (const peer of peers.splice(0)) peer.socket.terminate();
  await Promise.all(bridges.splice(0).map((bridge) => bridge.close()));
});
afterAll(() => dirs.cleanup());

const noKeychain = () => Promise.resolve(undefined);

/** A file store whose next read or replace can be made to stop half-way until the test lets it go on. */
class HeldStore extends SecretStore {
  private holding: { step: 'read' | 'replace'; reached: () => void; released: Promise<void> } | undefined;

  /** The next `step` stops — a read with the secret in hand, a replace before it writes — until `release`. */
  hold(step: 'read' | 'replace'): { reached: Promise<void>; release: () => void } {
    let release = () => undefined as void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const reached = new Promise<void>((resolve) => (this.holding = { step, reached: resolve, released }));
    return { reached, release };
  }

  override async read() {
    const current = await super.read();
    await this.pause('read');
    return current;
  }

  override async replace() {
    await this.pause('replace');
    return super.replace();
  }

  private async pause(step: 'read' | 'replace'): Promise<void> {
    const holding = this.holding;
    if (holding?.step !== step) return;
    this.holding = undefined;
    holding.reached();
    await holding.released;
  }
}

/** How the core answered a connection's hello or pair: `welcome`, or the reason it refused. */
function verdict(peer: Peer): Promise<string> {
  return Promise.race([
    peer.next('welcome').then(() => 'welcome'),
    peer.next('unauthorized').then((frame) => frame.reason),
  ]);
}

/** A hub whose pairing runs over a real bridge and secret store on one data dir, with a clock the test moves. */
async function setup(keychain: () => Promise<Keychain | undefined> = noKeychain) {
  const dataDir = dirs.make();
  let now = 1_000_000;
  const clock = { now: () => now, advance: (ms: number) => (now += ms) };
  const secrets = new HeldStore(dataDir, keychain);
  const lines: string[] = [];
  const log = (line: string) => lines.push(line);
  const auth = createBridgeAuth({ dataDir, store: secrets, now: clock.now });
  const bridge = await BridgeServer.start({ port: 0, auth, log, policy: () => TEST_POLICY });
  bridges.push(bridge);
  const extensionDir = join(dataDir, 'extension');
  const pairing = bridgePairing({ dataDir, auth, bridge: () => bridge, extensionDir, log, secrets, now: clock.now });
  const { hub, logged } = makeHub(dataDir, { pairing });
  /** A test extension that types `code` in: resolves once welcomed, with the secret the core gave it. */
  const pairWith = async (code: string) => {
    const peer = await Peer.dial(bridge.port);
    peers.push(peer);
    const secret = await peer.pair(code);
    await peer.next('welcome');
    return { peer, secret };
  };
  return { dataDir, extensionDir, hub, bridge, secrets, clock, pairWith, logs: () => [...lines, ...logged].join('\n') };
}

const unpaired = {
  paired: false,
  store: 'none',
  connected: false,
  browser: null,
  code: null,
  revokedAt: null,
  extensionPath: null,
};
const revoked = { ...unpaired, revokedAt: expect.any(Number) as number };

describe('pairing.status', () => {
  it('says unpaired, unconnected and no code before anything happened', async () => {
    const { hub } = await setup();
    expect(await hub.call('pairing.status', {})).toEqual(unpaired);
  });

  it('names the extension folder to load unpacked once a built extension is there', async () => {
    const { hub, extensionDir } = await setup();
    mkdirSync(extensionDir);
    expect((await hub.call('pairing.status', {})).extensionPath).toBeNull();
    writeFileSync(join(extensionDir, 'manifest.json'), '{}');
    expect((await hub.call('pairing.status', {})).extensionPath).toBe(extensionDir);
  });

  it('shows an outstanding code by its expiry only, until it expires', async () => {
    const { hub, clock } = await setup();
    const { code, expires } = await hub.call('pairing.code', {});
    expect(expires).toBe(clock.now() + CODE_TTL_MS);
    const status = await hub.call('pairing.status', {});
    expect(status.code).toEqual({ expires });
    expect(JSON.stringify(status)).not.toContain(code);
    clock.advance(CODE_TTL_MS);
    expect((await hub.call('pairing.status', {})).code).toBeNull();
  });
});

describe('pairing.code', () => {
  it('issues a code the bridge redeems into a secret; status then shows paired in the file and the linked Chrome', async () => {
    const { hub, bridge, secrets, pairWith } = await setup();
    const { code } = await hub.call('pairing.code', {});
    expect(code).toMatch(/^[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}$/);
    const { secret } = await pairWith(code);
    expect((await secrets.read())?.secret).toBe(secret);
    expect(await hub.call('pairing.status', {})).toEqual({
      paired: true,
      store: 'file',
      connected: true,
      browser: { chrome: EXT.chrome, connectedAt: bridge.link()!.connectedAt },
      code: null,
      revokedAt: null,
      extensionPath: null,
    });
  });

  it('replaces the earlier code: only the latest pairs', async () => {
    const { hub, bridge } = await setup();
    const first = await hub.call('pairing.code', {});
    const second = await hub.call('pairing.code', {});
    expect(second.code).not.toBe(first.code);
    const peer = await Peer.dial(bridge.port);
    peers.push(peer);
    // The core proves with the latest code's key: the earlier code cannot match it, nor make a proof it takes.
    expect((await peer.greet(first.code, { purpose: 'pair' })).coreProved).toBe(false);
    expect(await peer.next('unauthorized')).toMatchObject({ reason: 'bad_code' });
    expect((await hub.call('pairing.status', {})).code).toEqual({ expires: second.expires });
  });

  it('records that a code was issued, never the code: not in the activity, the log or the audit file', async () => {
    const { hub, dataDir, logs } = await setup();
    const { code } = await hub.call('pairing.code', {});
    const { events } = await hub.call('activity.list', {});
    expect(events).toEqual([expect.objectContaining({ type: 'pairing', change: 'code-issued' })]);
    hub.recordCall({ client: 'test', tool: 'status', decision: 'allowed' });
    await hub.flush();
    const written = [JSON.stringify(events), logs(), readFileSync(join(dataDir, 'audit.jsonl'), 'utf8')].join('\n');
    expect(logs()).toMatch(/issued a one-time code/);
    for (const form of [code, code.replace('-', '')]) expect(written).not.toContain(form);
  });
});

describe('pairing.revoke', () => {
  it('forgets the secret and the outstanding code and drops the link at once, telling the extension its secret is bad', async () => {
    const { hub, dataDir, bridge, pairWith } = await setup();
    const { peer, secret } = await pairWith((await hub.call('pairing.code', {})).code);
    // A second code, outstanding when the revoke comes: it goes too.
    await hub.call('pairing.code', {});

    expect(await hub.call('pairing.revoke', {})).toEqual(revoked);
    expect(bridge.link()).toBeUndefined();
    expect(await peer.next('unauthorized')).toMatchObject({ reason: 'bad_secret' });
    expect((await peer.closed).code).toBe(4401);
    expect(existsSync(join(dataDir, SECRET_FILE))).toBe(false);
    // The mark that keeps the native host from pairing the extension again: private, like the secret was.
    expect(statSync(join(dataDir, REVOKED_FILE)).mode & 0o777).toBe(0o600);

    // Neither the old secret nor the code issued before the revoke gets back in.
    const again = await Peer.dial(bridge.port);
    peers.push(again);
    // With no secret and no code left, the core has nothing to prove with: a refusal, and no challenge.
    again.sendText(helloText());
    expect(await again.next('unauthorized')).toMatchObject({ reason: 'bad_secret' });
    const withCode = await Peer.dial(bridge.port);
    peers.push(withCode);
    withCode.sendText(helloText(undefined, EXT, 'pair'));
    expect(await withCode.next('unauthorized')).toMatchObject({ reason: 'bad_code' });
    expect([...again.frames, ...withCode.frames].some((frame) => frame.type === 'challenge')).toBe(false);
    expect(secret).toBeTruthy();

    const { events } = await hub.call('activity.list', {});
    expect(events.map((event) => event.type === 'pairing' && event.change)).toEqual([
      'code-issued',
      'code-issued',
      'revoked',
    ]);
  });

  it('stands until a code is asked for, and then pairs again with that code', async () => {
    const { hub, dataDir, pairWith } = await setup();
    await pairWith((await hub.call('pairing.code', {})).code);
    await hub.call('pairing.revoke', {});
    expect(await hub.call('pairing.status', {})).toEqual(revoked);
    const { code } = await hub.call('pairing.code', {});
    expect(existsSync(join(dataDir, REVOKED_FILE))).toBe(false);
    expect((await hub.call('pairing.status', {})).revokedAt).toBeNull();
    await pairWith(code);
    expect(await hub.call('pairing.status', {})).toMatchObject({ paired: true, connected: true });
  });

  it('deletes a keychain secret from the keychain too', async () => {
    // The OS keychain may not answer here (its real tests are in test/pairing); this one stands in, in memory.
    const entries = new Map<string, string>();
    const keychain: Keychain = {
      get: async (account) => entries.get(account) ?? null,
      set: async (account, secret) => void entries.set(account, secret),
      remove: async (account) => void entries.delete(account),
    };
    const { hub, pairWith } = await setup(async () => keychain);
    await pairWith((await hub.call('pairing.code', {})).code);
    expect(await hub.call('pairing.status', {})).toMatchObject({ paired: true, store: 'keychain' });
    expect(entries.size).toBe(1);
    expect(await hub.call('pairing.revoke', {})).toEqual(revoked);
    expect(entries.size).toBe(0);
  });

  it('is harmless with nothing paired and nothing linked', async () => {
    const { hub } = await setup();
    expect(await hub.call('pairing.revoke', {})).toEqual(revoked);
  });
});

describe('pairing.revoke against checks in flight', () => {
  it('refuses a hello whose secret check read the old secret before the revoke and answers after it', async () => {
    const { hub, bridge, secrets } = await setup();
    const { secret } = await secrets.replace();
    const held = secrets.hold('read');
    const late = await Peer.dial(bridge.port);
    peers.push(late);
    // It holds the old secret and proves it: only the revoke that landed meanwhile keeps it out.
    const greeted = late.greet(secret);
    await held.reached;
    expect(await hub.call('pairing.revoke', {})).toEqual(revoked);
    held.release();
    expect((await greeted).coreProved).toBe(true);
    expect(await verdict(late)).toBe('bad_secret');
    expect((await late.closed).code).toBe(4401);
    expect(bridge.link()).toBeUndefined();
  });

  it('lets nothing a code was pairing while the revoke ran outlive it: no link, no secret kept, none handed out that works', async () => {
    const { hub, bridge, secrets } = await setup();
    const { code } = await hub.call('pairing.code', {});
    const held = secrets.hold('replace');
    const pairing = await Peer.dial(bridge.port);
    peers.push(pairing);
    const handed = pairing.pair(code).catch(() => undefined);
    // The code is spent and its new secret not written yet when the person presses Revoke.
    await held.reached;
    const revoking = hub.call('pairing.revoke', {});
    held.release();
    expect(await revoking).toEqual(revoked);
    // Welcomed just before the revoke finished (then cut off), or refused after it: either way, not linked now.
    await verdict(pairing);
    expect(bridge.link()).toBeUndefined();
    expect((await pairing.closed).code).toBe(4401);
    expect(await secrets.read()).toBeUndefined();
    expect(await hub.call('pairing.status', {})).toEqual(revoked);
    if ((await handed) !== undefined) {
      // Whatever it was handed, the core now holds no secret to prove with: it is refused at once.
      const again = await Peer.dial(bridge.port);
      peers.push(again);
      again.sendText(helloText());
      expect(await verdict(again)).toBe('bad_secret');
    }
  });
});

describe('link activity', () => {
  it('is a pairing event naming the Chrome, for the panel to show live', async () => {
    const { hub } = makeHub(dirs.make());
    hub.recordLink('connected', '140.0.0.0');
    hub.recordLink('disconnected', '140.0.0.0');
    const { events } = await hub.call('activity.list', {});
    expect(events).toMatchObject([
      { type: 'pairing', change: 'connected', chrome: '140.0.0.0' },
      { type: 'pairing', change: 'disconnected', chrome: '140.0.0.0' },
    ]);
  });
});
