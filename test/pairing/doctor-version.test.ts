// `doctor` after the wire bump (v2, mutual authentication): an extension of another wire version that the real core
// refused is recorded in bridge.json and named with its next step (update it; it links again by itself, no pairing),
// until a link clears it; and a core of another version on the bridge port is named as such, not as one to pair.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import { EXTENSION_DIR } from '../../electron/core/package-root.js';
import { BridgeStateFile, readBridgeState } from '../../electron/core/pairing/bridge-state.js';
import { WIRE_VERSION } from '../../shared/protocol/wire.js';
import { EXT, Peer } from '../bridge/support/peer.js';
import { until } from '../extension/support/until.js';
import { CLI, envWithoutKeychain, fileSecret, runCli, tempDirs } from './support/cli.js';

const dirs = tempDirs('doctor-version');
const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});
afterAll(() => dirs.cleanup());

// A home of its own: doctor looks for browsers there, the person's own are none of this test's business.
const env = envWithoutKeychain({ HOME: dirs.make() });

async function doctor(dataDir: string): Promise<string> {
  return (await runCli(['doctor', '--data-dir', dataDir], { env })).stdout.toString();
}

/** The built `chrome-mcp` on stdio, extension backend only, on a free port: its bridge.json says which. */
async function startCore(dataDir: string): Promise<number> {
  const client = new Client({ name: 'doctor-version', version: '1' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [CLI, '--headless', '--browser', 'extension', '--port', '0', '--data-dir', dataDir],
      env: env as Record<string, string>,
      stderr: 'ignore',
    }),
  );
  cleanups.push(() => client.close());
  const state = readBridgeState(dataDir);
  if (!state) throw new Error('chrome-mcp wrote no bridge.json');
  return state.port;
}

const bridgeState = (dataDir: string) => Promise.resolve(readBridgeState(dataDir));

describe('doctor and the wire version', () => {
  it('names an extension of wire v1 the core refused, and how it links again, until a link clears it', async () => {
    const dataDir = dirs.dataDir();
    // The file store, as the core's environment has no keychain either.
    const { secret } = await fileSecret(dataDir);
    const port = await startCore(dataDir);

    // The old extension's hello: wire v1, the secret in clear. Twice, as its retries would.
    for (let i = 0; i < 2; i++) {
      const old = await Peer.dial(port);
      old.send({ type: 'hello', v: 1, secret, ext: EXT } as never);
      expect(await old.next('unauthorized')).toEqual({ type: 'unauthorized', reason: 'bad_version' });
      await old.closed;
    }
    const refused = await until(
      () => bridgeState(dataDir),
      (state) => state?.otherVersion !== undefined,
    );
    expect(refused?.otherVersion).toEqual({ v: 1, at: expect.stringMatching(/^\d{4}-/) });
    // A local client cycling versions before any proof rewrites nothing: the first refusal stands until a link.
    const cycling = await Peer.dial(port);
    cycling.send({ type: 'hello', v: 7, secret: 'x', ext: EXT } as never);
    expect(await cycling.next('unauthorized')).toEqual({ type: 'unauthorized', reason: 'bad_version' });
    await cycling.closed;
    expect((await bridgeState(dataDir))?.otherVersion).toEqual(refused?.otherVersion);
    let out = await doctor(dataDir);
    expect(out).toContain(
      `!! extension: refused since ${refused?.otherVersion?.at}: it speaks wire v1, this core v${WIRE_VERSION} (the extension is older)\n` +
        `      fix: update the extension: Reload it on chrome://extensions (Load unpacked: ${EXTENSION_DIR}); it links again by itself, no pairing`,
    );
    expect(out).not.toContain('extension: not connected');

    // The updated extension keeps its secret: it links with no pairing, and the refusal is history.
    const current = await Peer.connect(port, secret);
    const linked = await until(
      () => bridgeState(dataDir),
      (state) => state?.extensionConnected === true,
    );
    expect(linked?.otherVersion).toBeUndefined();
    expect(await doctor(dataDir)).toMatch(/ok extension: connected since \d{4}-/);
    current.socket.close();
    await until(
      () => bridgeState(dataDir),
      (state) => state?.extensionConnected === false,
    );
    out = await doctor(dataDir);
    expect(out).toContain('!! extension: not connected');
    expect(out).not.toContain('refused since');
  }, 60_000);

  it('names a core of another wire version on the bridge port as that, not as one to pair', async () => {
    const dataDir = dirs.dataDir();
    await fileSecret(dataDir);
    // What a core from before the bump answers our hello (it read it as another version), then hangs up.
    const old = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    cleanups.push(() => new Promise((resolve) => old.close(resolve)));
    await new Promise<void>((resolve) => old.once('listening', () => resolve()));
    old.on('connection', (socket) =>
      socket.once('message', () => {
        socket.send(JSON.stringify({ type: 'unauthorized', reason: 'bad_version' }));
        socket.close(4401, 'unauthorized');
      }),
    );
    const { port } = old.address() as { port: number };
    new BridgeStateFile(dataDir).started(port);
    const out = await doctor(dataDir);
    expect(out).toContain(
      `!! bridge: 127.0.0.1:${port} refused this doctor's wire v${WIRE_VERSION} hello: another version of chrome-mcp runs there\n` +
        '      fix: update the older one and restart it (quit the app, or restart your MCP client); the extension links again by itself, no pairing',
    );
    expect(out).not.toContain('holds no pairing secret');
  });
});
