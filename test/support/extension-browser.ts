// Debian Chromium with the built extension loaded (no playwright: its pages would all get focus emulation), plus a
// browser-level CDP socket for the test to look on: the extension's worker, its storage, its tabs.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { CdpConnection } from '../../electron/core/fallback/cdp-connection.js';
import { EXTENSION_ID } from '../../shared/protocol/extension-id.js';
import { startChromium, type ChromiumProcess } from './chromium-process.js';
import { privateExtension } from './extension-build.js';
import { removeDir } from './remove-dir.js';

const WORKER_URL = `chrome-extension://${EXTENSION_ID}/background.js`;

interface TargetInfo {
  targetId: string;
  type: string;
  url: string;
}

interface EvaluateResult {
  result: { value?: unknown };
  exceptionDetails?: { text: string; exception?: { description?: string } };
}

export interface ExtensionBrowser {
  /** Browser-level CDP, for the test only; the extension never sees it. */
  control: CdpConnection;
  profileDir: string;
  /** The load-unpacked folder this browser runs. */
  extensionDir: string;
  /** Runs an expression (awaited) in the extension's service worker; a stopped one is waited for (up to 10 s). */
  evaluate<T>(expression: string): Promise<T>;
  /** Writes the pairing inputs the worker reads, as the native host or the popup would. */
  seed(credentials: { port: number; secret?: string }): Promise<void>;
  /** Stops the worker as Chrome does when it evicts one; resolves once it is gone. */
  stopWorker(): Promise<void>;
  /** The worker's target id, or undefined while it is stopped. */
  workerTarget(): Promise<string | undefined>;
  /** Opens one of the extension's pages (popup.html) in a tab, with a way to run script in it. */
  openPage(path: string): Promise<{ evaluate<T>(expression: string): Promise<T>; close(): Promise<void> }>;
  close(): Promise<void>;
}

/**
 * `args`: more Chromium flags (e.g. --auto-open-devtools-for-tabs, which works headless too). `extensions`: unpacked
 * folders loaded after ours, so installed later: a browser setting they control is theirs, not ours (measured).
 */
export async function startExtensionBrowser(
  options: { args?: string[]; extensions?: string[] } = {},
): Promise<ExtensionBrowser> {
  const root = mkdtempSync(join(tmpdir(), 'chrome-mcp-ext-'));
  const profileDir = join(root, 'profile');
  // A private build from the current sources: dist/extension may be stale, and test files run in parallel.
  const extensionDir = join(root, 'extension');
  const removeRoot = () => removeDir(root);
  let chromium: ChromiumProcess;
  try {
    await privateExtension(extensionDir);
    // Hides the "started debugging this browser" bar, which would shrink the viewport mid-test.
    chromium = await startChromium(
      profileDir,
      [extensionDir, ...(options.extensions ?? [])],
      ['--silent-debugger-extension-api', ...(options.args ?? [])],
    );
  } catch (error) {
    removeRoot();
    throw error;
  }
  const kill = async () => {
    await chromium.kill();
    removeRoot();
  };
  try {
    const browser = controlled(chromium.control, { profileDir, extensionDir }, kill);
    await browser.evaluate('chrome.runtime.id');
    return browser;
  } catch (error) {
    await kill();
    throw error;
  }
}

function controlled(
  control: CdpConnection,
  dirs: { profileDir: string; extensionDir: string },
  kill: () => Promise<void>,
): ExtensionBrowser {
  const workerTarget = async () => {
    const { targetInfos } = await control.send<{ targetInfos: TargetInfo[] }>('Target.getTargets');
    return targetInfos.find((info) => info.type === 'service_worker' && info.url === WORKER_URL)?.targetId;
  };

  /** A session on the worker once its extension APIs are bound (a worker target shows up a moment before they are). */
  const workerSession = async (): Promise<string> => {
    for (let attempt = 0; attempt < 200; attempt++) {
      const targetId = await workerTarget();
      const attached = targetId
        ? await control
            .send<{ sessionId: string }>('Target.attachToTarget', { targetId, flatten: true })
            .catch(() => undefined)
        : undefined;
      if (attached) {
        const ready = await control
          .send<EvaluateResult>(
            'Runtime.evaluate',
            { expression: "typeof chrome === 'object' && typeof chrome.runtime?.id === 'string'", returnByValue: true },
            attached.sessionId,
          )
          .catch(() => undefined);
        if (ready?.result.value === true) return attached.sessionId;
        await control.send('Target.detachFromTarget', { sessionId: attached.sessionId }).catch(() => undefined);
      }
      await sleep(50);
    }
    throw new Error('the extension worker never started');
  };

  const evaluateIn = async <T>(sessionId: string, expression: string): Promise<T> => {
    const reply = await control.send<EvaluateResult>(
      'Runtime.evaluate',
      { expression, awaitPromise: true, returnByValue: true },
      sessionId,
    );
    if (reply.exceptionDetails)
      throw new Error(
        `in the extension: ${reply.exceptionDetails.exception?.description ?? reply.exceptionDetails.text}`,
      );
    return reply.result.value as T;
  };

  const evaluate = async <T>(expression: string): Promise<T> => {
    const sessionId = await workerSession();
    try {
      return await evaluateIn<T>(sessionId, expression);
    } finally {
      await control.send('Target.detachFromTarget', { sessionId }).catch(() => undefined);
    }
  };

  return {
    control,
    ...dirs,
    evaluate,
    workerTarget,
    seed: (credentials) => evaluate(`chrome.storage.local.set({ bridge: ${JSON.stringify(credentials)} })`),
    async stopWorker() {
      await stopWorker(control, workerTarget);
    },
    async openPage(path) {
      const { targetId } = await control.send<{ targetId: string }>('Target.createTarget', {
        url: `chrome-extension://${EXTENSION_ID}/${path}`,
      });
      const { sessionId } = await control.send<{ sessionId: string }>('Target.attachToTarget', {
        targetId,
        flatten: true,
      });
      const loaded = `location.protocol === 'chrome-extension:' && document.readyState === 'complete'`;
      for (let attempt = 0; attempt < 200 && !(await evaluateIn<boolean>(sessionId, loaded)); attempt++)
        await sleep(25);
      return {
        evaluate: (expression) => evaluateIn(sessionId, expression),
        close: async () => void (await control.send('Target.closeTarget', { targetId })),
      };
    },
    async close() {
      control.close();
      await kill();
    },
  };
}

/**
 * Stops the worker the way Playwright's extension tests do: the ServiceWorker domain, which the browser target lacks,
 * from a page session. Measured: the worker's target goes at once, its globals are gone when it next starts, and its
 * WebSocket closes; its chrome.debugger attachments stay.
 */
async function stopWorker(control: CdpConnection, workerTarget: () => Promise<string | undefined>): Promise<void> {
  const running = await workerTarget();
  const { targetInfos } = await control.send<{ targetInfos: TargetInfo[] }>('Target.getTargets');
  const page = targetInfos.find((info) => info.type === 'page');
  if (!page) throw new Error('no page target to reach the ServiceWorker domain from');
  const { sessionId } = await control.send<{ sessionId: string }>('Target.attachToTarget', {
    targetId: page.targetId,
    flatten: true,
  });
  // What the browser says of the extension's worker meanwhile, for a worker that does not go: why it did not.
  const statuses: string[] = [];
  const stopped = () => statuses.includes('stopped');
  const stopListening = control.on((event) => {
    if (event.method !== 'ServiceWorker.workerVersionUpdated' || event.sessionId !== sessionId) return;
    const versions = event.params['versions'] as { scriptURL: string; runningStatus: string }[];
    for (const version of versions) if (version.scriptURL === WORKER_URL) statuses.push(version.runningStatus);
  });
  try {
    await control.send('ServiceWorker.enable', {}, sessionId);
    // Every worker of the profile: a site's too, which its next event starts again.
    await control.send('ServiceWorker.stopAllWorkers', {}, sessionId);
    // Gone means told stopped, or that target gone: an event queued for the extension may start a new worker right
    // away, under the same target when a session of ours is attached to it (measured: stopping → stopped → running).
    // A wide bound: on a loaded box (CI) the worker took over 2 s to go once.
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline && !stopped() && (await workerTarget()) === running) await sleep(20);
  } finally {
    stopListening();
    await control.send('Target.detachFromTarget', { sessionId }).catch(() => undefined);
  }
  if (running !== undefined && !stopped() && (await workerTarget()) === running)
    throw new Error(`the worker did not stop (its version was ${statuses.join(' → ') || 'never told of'})`);
}
