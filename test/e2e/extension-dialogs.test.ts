// JavaScript dialogs in the person's Chrome: the built `chrome-mcp` on stdio with --browser extension, the real
// extension in real Chromium driving tabs through chrome.debugger. The scenarios both backends run
// (test/support/dialog-scenarios.ts), and a dialog on a tab no agent drives, which stays the person's.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialogScenarios, serveDialogPages } from '../support/dialog-scenarios.js';
import { startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { startLinkedCore, type LinkedCore } from '../support/linked-core.js';
import { TEST_POLICY_FLAGS } from '../support/test-policy.js';
import { textOf } from '../support/tool-result.js';
import { until } from '../extension/support/until.js';

let fixtures: FixtureServer;
let core: LinkedCore;

beforeAll(async () => {
  fixtures = await startFixtureServer();
  serveDialogPages(fixtures);
  core = await startLinkedCore([...TEST_POLICY_FLAGS]);
});

afterAll(async () => {
  await core?.close();
  await fixtures?.close();
});

const call = async (name: string, args: Record<string, unknown> = {}) => {
  const result = await core.client.callTool({ name, arguments: args }, undefined, { timeout: 20_000 });
  return { text: textOf(result), failed: result.isError === true };
};

describe("dialogs in the person's Chrome", () => {
  dialogScenarios(
    (): Client => core.client,
    () => fixtures,
  );

  it("leaves a dialog on a tab no agent drives to the person: never answered, never told as the agent's", async () => {
    const { control } = core.browser;
    // The person's own tab, which the agent looked at once (so the extension stays attached) and then left.
    const url = fixtures.url('dialogs?persons');
    const { targetId } = await control.send<{ targetId: string }>('Target.createTarget', { url });
    const used = await call('tab_use', { url });
    expect(used.text).toMatch(/^reused (\S+) /);
    const handle = /^reused (\S+) /.exec(used.text)![1]!;
    // Target.createTarget answers before the page has loaded: on a busy machine the first snapshot can find it empty.
    const outline = await until(
      async () => (await call('snapshot')).text,
      (text) => text.includes('button "confirm"'),
      15_000,
    );
    expect(outline).toContain('button "confirm"');
    expect((await call('tab_new', { url: fixtures.url('dialog-child') })).failed).toBe(false);

    // The person's page asks them something, while no call runs; the test stands in for the person's eyes.
    const { sessionId } = await control.send<{ sessionId: string }>('Target.attachToTarget', {
      targetId,
      flatten: true,
    });
    await control.send('Page.enable', {}, sessionId);
    const shown = new Promise<void>((resolve) => {
      const stop = control.on((event) => {
        if (event.method === 'Page.javascriptDialogOpening' && event.sessionId === sessionId) resolve(stop());
      });
    });
    await control.send('Runtime.evaluate', { expression: "setTimeout(() => confirm('Your PIN?'), 0)" }, sessionId);
    await shown;

    const listed = await call('tabs');
    expect(listed.text).toContain(`${handle} "dialogs"`);
    expect(listed.text).toContain("shows a confirm dialog (the person's)");
    expect(listed.text).not.toContain('Your PIN?');
    expect((await call('tab_select', { tab: handle })).failed).toBe(false);
    const refused = await call('snapshot');
    expect(refused.failed).toBe(true);
    expect(refused.text).toMatch(/^PERSON_DIALOG: The page shows a confirm dialog, the person's to answer/);
    const answered = await call('dialog', { accept: true });
    expect(answered.failed).toBe(true);
    expect(answered.text).toMatch(/^PERSON_DIALOG: /);

    // Still open for the person to answer: the agent answered nothing.
    await control.send('Page.handleJavaScriptDialog', { accept: false }, sessionId);
    await control.send('Target.detachFromTarget', { sessionId });
    // Chrome's word that the dialog closed can reach the extension's worker after the next call does (a busy box):
    // that call is still refused, and the one after sees the page.
    const after = await until(
      async () => (await call('snapshot')).text,
      (text) => !text.startsWith('PERSON_DIALOG'),
      15_000,
    );
    expect(after).toContain('button "confirm"');
    expect(after).not.toContain('meanwhile');
  });
});
