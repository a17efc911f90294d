// The whole MCP task through the person's Chrome: the built `chrome-mcp` on stdio with --browser extension, the real
// extension in real Chromium, paired with no click through the native host, the cross-origin iframe included.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SecretStore } from '../../electron/core/pairing/secret-store.js';
import { CLOSE_CODES } from '../../shared/protocol/wire.js';
import { junkGenerator } from '../bridge/support/junk.js';
import { helloText, Peer, UpgradeRefused } from '../bridge/support/peer.js';
import { startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { startLinkedCore, type LinkedCore } from '../support/linked-core.js';
import { runWholeTask } from '../support/whole-task.js';
import { TEST_POLICY_FLAGS } from '../support/test-policy.js';

let fixtures: FixtureServer;
let core: LinkedCore;
let client: Client;
let dataDir: string;

const status = () => core.status();

beforeAll(async () => {
  fixtures = await startFixtureServer();
  core = await startLinkedCore([...TEST_POLICY_FLAGS]);
  ({ client, dataDir } = core);
  expect((await status()).extension).toMatchObject({ connected: true, pairing: 'file' });
});

afterAll(async () => {
  await core?.close();
  await fixtures?.close();
});

describe('the whole task through the extension', () => {
  it("fills the form, finds and deletes a table row, clicks in a cross-origin iframe — all in the person's Chrome", async () => {
    const bill = await runWholeTask(client, fixtures);
    expect(bill.chars / 4, bill.steps.join(', ')).toBeLessThanOrEqual(10_000);
    const after = await status();
    expect(after.lastCall).toEqual({ backend: 'extension', why: 'extension connected and answering' });
    // --browser extension: the fallback browser was never started.
    expect(after.browser.launched).toBe(false);
    const tabs = await client.callTool({ name: 'tabs', arguments: {} });
    expect(JSON.stringify(tabs.content)).toMatch(/x[0-9a-z]{3}\.\d+/);
  });

  it('keeps serving the real extension through an attack on its bridge', async () => {
    const before = await status();
    if (!('port' in before.extension.bridge)) throw new Error('the bridge is not listening');
    const { port } = before.extension.bridge;
    const secret = (await new SecretStore(dataDir).read())?.secret;
    if (!secret) throw new Error('no pairing secret');

    // Another extension's id: refused before the core proves anything, and the real extension is not displaced.
    const impostor = await Peer.dial(port);
    impostor.sendText(helloText(undefined, { id: 'a'.repeat(32), version: '1', chrome: '1' }));
    expect((await impostor.next('unauthorized')).reason).toBe('bad_origin');
    // Our id with a wrong secret: the core's proof does not check out, and the wrong proof is refused.
    const guesser = await Peer.dial(port);
    expect((await guesser.greet(`${secret}x`)).coreProved).toBe(false);
    expect((await guesser.next('unauthorized')).reason).toBe('bad_secret');
    // A web page's Origin, and a missing one: refused before any frame.
    for (const origin of ['https://evil.example', null]) {
      await expect(Peer.dial(port, { origin })).rejects.toBeInstanceOf(UpgradeRefused);
    }
    // Generated junk and wrong secrets, a few per connection: every one ends unauthorized.
    const junk = junkGenerator(7, { maxBytes: 64 * 1024 });
    for (let connection = 0; connection < 100; connection++) {
      const peer = await Peer.dial(port);
      for (let frame = 0; frame < 3; frame++) {
        const { data, binary } = junk.next();
        peer.sendText(data, binary);
      }
      expect((await peer.closed).code).toBe(CLOSE_CODES.unauthorized);
    }

    const after = await status();
    expect(after.extension.connected).toBe(true);
    const title = await client.callTool({ name: 'eval', arguments: { expression: 'document.title' } });
    expect(title.isError).toBeFalsy();
    expect((await status()).lastCall?.backend).toBe('extension');
  });
});
