// Starts a bridge on an ephemeral port with the fake pairing store, a captured log and the test policy (unless the test
// brings its own), and closes everything after.
import { afterEach } from 'vitest';
import { type BridgeOptions, BridgeServer } from '../../../electron/core/bridge/bridge-server.js';
import { TEST_POLICY } from '../../support/test-policy.js';
import { FakeAuth } from './fake-auth.js';
import { Peer } from './peer.js';

export interface Harness {
  bridge: BridgeServer;
  auth: FakeAuth;
  lines: string[];
  /** A peer authenticated with the current secret, closed after the test. */
  connect(): Promise<Peer>;
  /** A peer dialled (not authenticated), closed after the test. */
  dial(options?: Parameters<typeof Peer.dial>[1]): Promise<Peer>;
}

const open: Array<{ bridge: BridgeServer; peers: Peer[] }> = [];

afterEach(async () => {
  for (const { bridge, peers } of open.splice(0)) {
    for (const peer of peers) peer.socket.terminate();
    await bridge.close();
  }
});

export async function startBridge(options: Partial<Omit<BridgeOptions, 'auth' | 'log'>> = {}): Promise<Harness> {
  const auth = new FakeAuth();
  const lines: string[] = [];
  const bridge = await BridgeServer.start({
    port: 0,
    auth,
    log: (line) => lines.push(line),
    policy: () => TEST_POLICY,
    ...options,
  });
  const peers: Peer[] = [];
  open.push({ bridge, peers });
  const track = (peer: Peer) => {
    peers.push(peer);
    return peer;
  };
  return {
    bridge,
    auth,
    lines,
    connect: async () => track(await Peer.connect(bridge.port, auth.current)),
    dial: async (dialOptions) => track(await Peer.dial(bridge.port, dialOptions)),
  };
}
