// Dialogs the extension's engine did not see open, in real Chromium through chrome.debugger: one the person's tab
// showed before the agent picked it, and one open across a restart of the worker. Before, the first call on such a
// tab hung: Chrome tells a debugger that attaches later nothing of the dialog and holds every page command.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Operation, OperationResult } from '../../shared/protocol/operations.js';
import { ASKS_ON_LOAD } from '../support/dialog-scenarios.js';
import { failure } from '../support/engine-suite.js';
import { startLinkedExtension, type LinkedExtension } from './support/linked-extension.js';

let linked: LinkedExtension;

beforeAll(async () => {
  linked = await startLinkedExtension();
  linked.fixtures.serve('/asks-early', { body: ASKS_ON_LOAD });
  linked.fixtures.serve('/asks-on-click', {
    body: `<!doctype html><title>clicks</title><button id=ask onclick="window.got = confirm('Really?')">ask</button>`,
  });
});

afterAll(async () => {
  await linked?.close();
});

// A hang fails here, well inside vitest's own test timeout.
const CALL_MS = 15_000;

function run(op: Operation, args: Record<string, unknown> = {}): Promise<OperationResult> {
  return Promise.race([
    linked.run(op, args),
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${op} hung`)), CALL_MS)),
  ]);
}

describe('a dialog the engine did not see open', () => {
  it("is named on the person's tab the agent picks while it asks, and dismissed by a reload", async () => {
    const url = linked.fixtures.url('asks-early');
    const { control } = linked.browser;
    await control.send('Target.createTarget', { url });
    const deadline = Date.now() + CALL_MS;
    while (
      !(await control.send<{ targetInfos: { title: string }[] }>('Target.getTargets')).targetInfos.some(
        (info) => info.title === 'asking',
      )
    ) {
      if (Date.now() > deadline) throw new Error('the page never asked');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const used = await run('tab_use', { url });
    const handle = String(used.data?.['tab']);
    const refused = await failure(run('snapshot', { tab: handle }));
    expect(refused.code).toBe('DIALOG_OPEN');
    expect(refused.message).toMatch(/^The page shows a dialog that opened before Chrome MCP attached/);
    expect((await failure(run('dialog', { tab: handle, accept: true }))).code).toBe('DIALOG_UNREACHABLE');
    expect((await run('dialog', { tab: handle, accept: false })).text).toMatch(/by reloading the page$/);
    expect((await run('snapshot', { tab: handle })).text).toContain('button "go"');
  });

  it('is named by its words after the worker restarted under it, dismissed by a reload, and no call hangs', async () => {
    await run('tab_new', { url: linked.fixtures.url('asks-on-click') });
    expect((await run('click', { selector: '#ask' })).text).toContain('→ dialog confirm "Really?"');

    const relinked = linked.nextLink();
    await linked.browser.stopWorker();
    await relinked;
    // A new link is a new session; the tab is still the agent's current one.
    const refused = await failure(run('snapshot'));
    expect(refused.code).toBe('DIALOG_OPEN');
    // The worker that saw it open kept its words; Chrome shows the new one nothing of it.
    expect(refused.message).toMatch(/^The page shows confirm "Really\?" \(open since before Chrome MCP attached\);/);
    expect((await run('tabs')).text).toContain('— shows confirm "Really?" (open since before Chrome MCP attached)');
    expect((await run('dialog', { accept: false })).text).toMatch(/^dismissed /);
    expect((await run('snapshot')).text).toContain('button "ask"');
    await run('tab_close');
  });
});
