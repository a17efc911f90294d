// The person's Reconnect in the popup while the worker is still asking the native host about a refused secret: the
// person's dial must still happen once that ask is done, not be folded into the background one that gives up. The
// host here is a real native-messaging host that answers each ask only when the test lets it, so the order is fixed.
import { chmodSync, existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BridgeServer } from '../../electron/core/bridge/bridge-server.js';
import { EXTENSION_ID, NATIVE_HOST_NAME } from '../../shared/protocol/extension-id.js';
import { startExtensionBrowser, type ExtensionBrowser } from '../support/extension-browser.js';
import { TEST_POLICY } from '../support/test-policy.js';
import { FakeAuth } from '../bridge/support/fake-auth.js';
import { until } from './support/until.js';

let bridge: BridgeServer;
let browser: ExtensionBrowser;
let hostDir: string;
const logged: string[] = [];

beforeAll(async () => {
  bridge = await BridgeServer.start({
    port: 0,
    auth: new FakeAuth(),
    log: (line) => void logged.push(line),
    policy: () => TEST_POLICY,
  });
  browser = await startExtensionBrowser();
  hostDir = join(browser.profileDir, 'NativeMessagingHosts');
});

afterAll(async () => {
  await browser?.close();
  await bridge?.close();
});

// The extension finds the core's proof does not match its secret and hangs up: each such dial is one line.
const refusals = (): number => logged.filter((line) => line.includes('hung up before proving itself')).length;

/** The asks the host has been started for (each one waits for its own release file before leaving without a reply). */
const asks = (): string[] =>
  existsSync(hostDir) ? readdirSync(hostDir).filter((name) => name.startsWith('asked-')) : [];

function release(ask: string): void {
  writeFileSync(join(hostDir, ask.replace('asked-', 'release-')), '');
}

function installGatedHost(): void {
  mkdirSync(hostDir, { recursive: true });
  const script = join(hostDir, 'gated-host.sh');
  writeFileSync(
    script,
    `#!/bin/sh\ntouch "${hostDir}/asked-$$"\nwhile [ ! -e "${hostDir}/release-$$" ]; do sleep 0.05; done\n`,
  );
  chmodSync(script, 0o755);
  writeFileSync(
    join(hostDir, `${NATIVE_HOST_NAME}.json`),
    JSON.stringify({
      name: NATIVE_HOST_NAME,
      description: 'gated test host',
      path: script,
      type: 'stdio',
      allowed_origins: [`chrome-extension://${EXTENSION_ID}/`],
    }),
  );
}

describe('Reconnect while a background dial is asking the native host', () => {
  it('dials once that ask is done', async () => {
    // A secret the app does not know, before any host is installed: refused, and the worker gives up for now.
    await browser.seed({ port: bridge.port, secret: 'not-the-apps-secret-Qz8vX2mK4pL9nR7tY1cB5dF3gH' });
    expect(
      await until(
        async () => refusals(),
        (count) => count >= 1,
      ),
    ).toBe(1);
    installGatedHost();

    // Opening the popup wakes the worker, which asks the host whether it has a newer secret: that ask now waits.
    const popup = await browser.openPage('popup.html');
    const [background] = await until(
      async () => asks(),
      (found) => found.length === 1,
    );
    expect(background).toBeDefined();
    await popup.evaluate(`document.getElementById('reconnect').click()`);
    release(background!);

    // The person's dial asks the host once more (it is let go at once), then dials with the secret it has.
    const ofPerson = (
      await until(
        async () => asks(),
        (found) => found.length === 2,
      )
    ).find((ask) => ask !== background);
    expect(ofPerson).toBeDefined();
    release(ofPerson!);
    expect(
      await until(
        async () => refusals(),
        (count) => count > 1,
      ),
    ).toBe(2);
    await popup.close();
  });
});
