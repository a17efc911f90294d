// The platform fact upload_file is built on (docs/files.md), measured in real Chromium with the real extension: its
// debugger may set a file input's files by path only while the person lets the extension access file URLs (off by
// default for a store install), while the file chooser is reported either way. If Chrome changes this, the engine's
// choice of route (bytes through the page in the person's Chrome) should be looked at again.
import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXTENSION_ID } from '../../shared/protocol/extension-id.js';
import { startExtensionBrowser, type ExtensionBrowser } from '../support/extension-browser.js';

let browser: ExtensionBrowser;
let server: Server;
let origin: string;

beforeAll(async () => {
  server = createServer((_, response) => {
    response.writeHead(200, { 'content-type': 'text/html' });
    response.end(`<input type="file" id="f"><button id="b">pick</button>
<script>
  document.getElementById('b').addEventListener('click', () => {
    const input = document.createElement('input');
    input.type = 'file';
    input.click();
  });
</script>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as { port: number }).port}/`;
  browser = await startExtensionBrowser();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => server?.close(resolve));
});

/** Sets "Allow access to file URLs" as chrome://extensions does (the extension reloads). */
async function setFileAccess(on: boolean): Promise<void> {
  const { targetId } = await browser.control.send<{ targetId: string }>('Target.createTarget', {
    url: 'chrome://extensions',
  });
  const { sessionId } = await browser.control.send<{ sessionId: string }>('Target.attachToTarget', {
    targetId,
    flatten: true,
  });
  const run = (expression: string) =>
    browser.control.send('Runtime.evaluate', { expression, awaitPromise: true, returnByValue: true }, sessionId);
  for (let i = 0; i < 100; i++) {
    const ready = (await run('typeof chrome.developerPrivate?.updateExtensionConfiguration')) as {
      result: { value: string };
    };
    if (ready.result.value === 'function') break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  // A reloaded unpacked extension stays enabled only in developer mode.
  await run('chrome.developerPrivate.updateProfileConfiguration({ inDeveloperMode: true })');
  await run(
    `chrome.developerPrivate.updateExtensionConfiguration({ extensionId: '${EXTENSION_ID}', fileAccess: ${on} })`,
  );
  // The reload is done once the extension is enabled again with the new setting.
  for (let i = 0; i < 200; i++) {
    const info = (await run(
      `chrome.developerPrivate.getExtensionInfo('${EXTENSION_ID}').then((e) => e.state + ' ' + e.fileAccess.isActive)`,
    )) as { result: { value: string } };
    if (info.result.value === `ENABLED ${on}`) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await browser.control.send('Target.closeTarget', { targetId });
}

/**
 * tryPathsOnce, again if the extension's own worker, starting after the reload, let go of the test's attachment (it
 * detaches what an earlier worker left attached; on a loaded machine that can come after the test attached, in the
 * middle of a command or between two).
 */
async function tryPaths(file: string): Promise<{ direct: string; chooser: string; chooserOpened: boolean }> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await tryPathsOnce(file);
    } catch (error) {
      if (attempt === 3 || !/Detached while handling command|Debugger is not attached/.test(String(error))) throw error;
    }
  }
}

/** From the extension's own page: DOM.setFileInputFiles by path on the input, and on the chooser a click opens. */
async function tryPathsOnce(file: string): Promise<{ direct: string; chooser: string; chooserOpened: boolean }> {
  const page = await browser.openPage('popup.html');
  try {
    return await page.evaluate(`(async () => {
      const tab = await chrome.tabs.create({ url: ${JSON.stringify(origin)}, active: false });
      await new Promise((resolve) => chrome.tabs.onUpdated.addListener(function done(id, info) {
        if (id === tab.id && info.status === 'complete') { chrome.tabs.onUpdated.removeListener(done); resolve(); }
      }));
      const target = { tabId: tab.id };
      await chrome.debugger.attach(target, '1.3');
      const send = (method, params) => chrome.debugger.sendCommand(target, method, params)
        .then(() => 'accepted', (error) => String(error.message ?? error));
      const opened = new Promise((resolve) => {
        chrome.debugger.onEvent.addListener((source, method, params) => {
          if (source.tabId === tab.id && method === 'Page.fileChooserOpened') resolve(params);
        });
        setTimeout(() => resolve(null), 5000);
      });
      const { root } = await chrome.debugger.sendCommand(target, 'DOM.getDocument', {});
      const { nodeId } = await chrome.debugger.sendCommand(target, 'DOM.querySelector', { nodeId: root.nodeId, selector: '#f' });
      const direct = await send('DOM.setFileInputFiles', { nodeId, files: [${JSON.stringify(file)}] });
      await chrome.debugger.sendCommand(target, 'Page.enable', {});
      await chrome.debugger.sendCommand(target, 'Page.setInterceptFileChooserDialog', { enabled: true });
      await chrome.debugger.sendCommand(target, 'Runtime.evaluate', {
        expression: 'document.getElementById("b").click()', userGesture: true,
      });
      const chooser = await opened;
      const answered = chooser
        ? await send('DOM.setFileInputFiles', { backendNodeId: chooser.backendNodeId, files: [${JSON.stringify(file)}] })
        : 'no chooser';
      await chrome.debugger.detach(target);
      await chrome.tabs.remove(tab.id);
      return { direct, chooser: answered, chooserOpened: chooser !== null };
    })()`);
  } finally {
    await page.close();
  }
}

describe("chrome.debugger and local files in the person's Chrome", () => {
  it('sets files by path only while the extension may access file URLs; the chooser is reported either way', async () => {
    const file = join(browser.profileDir, '..', 'upload-me.txt');
    writeFileSync(file, 'hello\n');
    // A command-line unpacked load starts with file access on.
    expect(await tryPaths(file)).toEqual({ direct: 'accepted', chooser: 'accepted', chooserOpened: true });
    await setFileAccess(false);
    const off = await tryPaths(file);
    expect(off.chooserOpened).toBe(true);
    expect(off.direct).toContain('Not allowed');
    expect(off.chooser).toContain('Not allowed');
  });
});
