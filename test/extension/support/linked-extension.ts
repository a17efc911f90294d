// The real core's bridge (electron/core/bridge) with the real extension dialled into it: the fixture server, the
// bridge on an ephemeral port serving the test policy (or the test's own), Chromium with the built extension seeded
// with the bridge's port and secret.
import { BridgeServer } from '../../../electron/core/bridge/bridge-server.js';
import type { ExtensionLink } from '../../../electron/core/bridge/extension-link.js';
import { ExtensionExecutor } from '../../../electron/core/bridge/extension-executor.js';
import type { Policy } from '../../../shared/policy/policy.js';
import type { OperationContext, OperationResult, Operation } from '../../../shared/protocol/operations.js';
import { startExtensionBrowser, type ExtensionBrowser } from '../../support/extension-browser.js';
import { startFixtureServer, type FixtureServer } from '../../support/fixture-server.js';
import { TEST_POLICY } from '../../support/test-policy.js';
import { FakeAuth } from '../../bridge/support/fake-auth.js';

export interface LinkedExtension {
  bridge: BridgeServer;
  auth: FakeAuth;
  browser: ExtensionBrowser;
  fixtures: FixtureServer;
  /** Runs one operation through the bridge and the extension, as the core's backend manager would. */
  run(op: Operation, args?: Record<string, unknown>, ctx?: Partial<OperationContext>): Promise<OperationResult>;
  /** The next link the extension makes (resolves at once with the current one if `current`). */
  nextLink(): Promise<ExtensionLink>;
  close(): Promise<void>;
}

/** A tab as `chrome.tabs.query` gives it in the extension's worker, the fields the tests read. */
export interface ChromeTab {
  id: number;
  url: string;
  active: boolean;
  groupId: number;
}

/** `policy`: what the bridge serves (read on every link and on `bridge.policyChanged()`); default TEST_POLICY. */
export type LinkedOptions = Parameters<typeof startExtensionBrowser>[0] & { policy?: () => Policy };

export async function startLinkedExtension({
  policy = () => TEST_POLICY,
  ...browserOptions
}: LinkedOptions = {}): Promise<LinkedExtension> {
  const auth = new FakeAuth();
  const fixtures = await startFixtureServer();
  const bridge = await BridgeServer.start({ port: 0, auth, log: () => undefined, policy });
  const executor = new ExtensionExecutor(bridge);
  const nextLink = () => new Promise<ExtensionLink>((resolve) => bridge.once('connected', resolve));
  let browser: ExtensionBrowser | undefined;
  try {
    browser = await startExtensionBrowser(browserOptions);
    const linked = nextLink();
    await browser.seed({ port: bridge.port, secret: auth.current });
    await linked;
  } catch (error) {
    await browser?.close();
    await bridge.close();
    await fixtures.close();
    throw error;
  }
  const started = browser;
  return {
    bridge,
    auth,
    browser: started,
    fixtures,
    run: (op, args = {}, ctx = {}) => executor.run(op, args, { progress: () => undefined, ...ctx }),
    nextLink,
    async close() {
      await started.close();
      await bridge.close();
      await fixtures.close();
    },
  };
}
