// Where the bridge listens: 127.0.0.1 only (never a wildcard or another interface), on an ephemeral or given port,
// with a clear BRIDGE_UNAVAILABLE when the port is taken; plain HTTP gets nothing but 426.
import { networkInterfaces } from 'node:os';
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { BridgeServer } from '../../electron/core/bridge/bridge-server.js';
import { isLoopback, listeningSockets } from '../support/listening-sockets.js';
import { TEST_POLICY } from '../support/test-policy.js';
import { startBridge } from './support/bridge-harness.js';
import { FakeAuth } from './support/fake-auth.js';

const outward = Object.values(networkInterfaces())
  .flat()
  .find((address) => address && !address.internal && address.family === 'IPv4')?.address;

function dialTcp(host: string, port: number): Promise<'connected' | string> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    socket.once('connect', () => {
      socket.destroy();
      resolve('connected');
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
  });
}

describe('bridge socket', () => {
  it('listens on 127.0.0.1 and nowhere else', async () => {
    const { bridge } = await startBridge();
    expect(bridge.address).toBe('127.0.0.1');
    expect(bridge.port).toBeGreaterThan(0);
    const mine = listeningSockets([process.pid]).filter((listener) => listener.port === bridge.port);
    expect(mine.map((listener) => listener.address)).toEqual(['127.0.0.1']);
    expect(mine.every((listener) => isLoopback(listener.address))).toBe(true);
  });

  it.runIf(outward)(
    `cannot be reached through the machine's non-loopback address (${outward ?? 'none here'})`,
    async () => {
      const { bridge } = await startBridge();
      expect(await dialTcp('127.0.0.1', bridge.port)).toBe('connected');
      expect(await dialTcp(outward!, bridge.port)).toBe('ECONNREFUSED');
    },
  );

  it('reports a taken port as BRIDGE_UNAVAILABLE with the fix', async () => {
    const { bridge } = await startBridge();
    const second = BridgeServer.start({
      port: bridge.port,
      auth: new FakeAuth(),
      log: () => undefined,
      policy: () => TEST_POLICY,
    });
    await expect(second).rejects.toMatchObject({
      code: 'BRIDGE_UNAVAILABLE',
      message: `Port ${bridge.port} on 127.0.0.1 is already in use.`,
    });
  });

  it('answers a plain HTTP request with 426 and no content of interest', async () => {
    const { bridge } = await startBridge();
    const response = await fetch(`http://127.0.0.1:${bridge.port}/`);
    expect(response.status).toBe(426);
    await response.text();
  });
});
