// The person's Reconnect in the popup while the worker is still asking the native host about a refused secret: the
// person's dial must still happen once that ask is done, not be folded into the background one that gives up. The
// host here is a real native-messaging host that answers nothing for a while, so the ask is surely under way.
import { chmodSync, existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BridgeServer } from '../../electron/core/bridge/bridge-server.js';
import { EXTENSION_ID, NATIVE_HOST_NAME } from '../../shared/protocol/extension-id.js';
import { startExtensionBrowser, type ExtensionBrowser } from '../support/extension-browser.js';
import { TEST_POLICY } from '../support/test-policy.js';
import { FakeAuth } from '../bridge/support/fake-auth.js';
import { until } from './support/until.js';

const HOST_SECONDS = 3;
let bridge: BridgeServer;
let browser: ExtensionBrowser;
const logged: string[] = [];

beforeAll(async () => {
  bridge = await BridgeServer.start({ port: 0, auth: new FakeAuth(), log: (line) => void logged.push(line), policy: () => TEST_POLICY });
  browser = await startExtensionBrowser();
  // A host that notes each time it is asked, then keeps the worker waiting before it leaves without a reply.
  const hosts = join(browser.profileDir, 'NativeMessagingHosts');
  mkdirSync(hosts, { recursive: true });
  const script = join(hosts, 'slow-host.sh');
  writeFileSync(script, `#!/bin/sh\ntouch "${hosts}/asked-$$"\nsleep ${HOST_SECONDS}\n`);
  chmodSync(script, 0o755);
  writeFileSync(join(hosts, `${NATIVE_HOST_NAME}.json`), JSON.stringify({
    name: NATIVE_HOST_NAME,
    description: 'slow test host',
    path: script,
    type: 'stdio',
    allowed_origins: [`chrome-extension://${EXTENSION_ID}/`],
  }));
});

afterAll(async () => {
  await browser?.close();
  await bridge?.close();
});

const refusals = (): number => logged.filter((line) => line.includes('refused an extension connection: wrong secret')).length;

describe('Reconnect while a background dial is asking the native host', () => {
  it('dials once that ask is done', async () => {
    const popup = await browser.openPage('popup.html');
    // A secret the app does not know: refused, after which the worker asks the (slow) host whether it has a newer one.
    await browser.seed({ port: bridge.port, secret: 'not-the-apps-secret-Qz8vX2mK4pL9nR7tY1cB5dF3gH' });
    expect(await until(async () => refusals(), (count) => count >= 1)).toBeGreaterThanOrEqual(1);
    const hostDir = join(browser.profileDir, 'NativeMessagingHosts');
    const asked = (): boolean => existsSync(hostDir) && readdirSync(hostDir).some((name) => name.startsWith('asked-'));
    expect(await until(async () => asked(), Boolean)).toBe(true);

    const before = refusals();
    await popup.evaluate(`document.getElementById('reconnect').click()`);
    // The background ask ends after HOST_SECONDS, the person's dial asks once more, then dials with what it has.
    expect(await until(async () => refusals(), (count) => count > before, 4 * HOST_SECONDS * 1000 + 5_000)).toBeGreaterThan(before);
    await popup.close();
  });
});
